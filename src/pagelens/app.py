"""The facade: one object that the CLI, the server and the eval harness all call.

Components are built lazily from the Settings the facade was given, so `pagelens ls` never loads
torch, and the embedded vector engine (which locks its folder) is only opened by commands that
need it. Every component can be injected instead (tests pass fakes through the same constructor).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagelens.errors import ComponentUnavailable, PagelensError
from pagelens.models import Answer, Document, Element, IngestResult, SearchHit
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore

Progress = Callable[[str, str, int, int], None]
"""progress(file_name, stage, done, total); stage is 'parse' or 'index'."""


@dataclass
class ComponentStatus:
    name: str
    available: bool
    detail: str


class Pagelens:
    """Ingest, search and ask over the documents in one data home."""

    def __init__(
        self,
        settings: Settings,
        *,
        warn: Callable[[str], None] | None = None,
        embedder: Any = None,
        image_embedder: Any = None,
        reranker: Any = None,
        llm: Any = None,
        store: Any = None,
        ocr: Any = None,
    ) -> None:
        self.settings = settings
        self.home = Path(settings.home).expanduser()
        self.home.mkdir(parents=True, exist_ok=True)
        self.catalog = Catalog(self.home / "catalog.sqlite3")
        self.images = ImageStore(self.home / "images")
        self._warned: set[str] = set()
        self._warn_fn = warn
        self._lock = threading.RLock()
        self._given = {
            "embedder": embedder, "image_embedder": image_embedder, "reranker": reranker,
            "llm": llm, "store": store, "ocr": ocr,
        }
        self._built: dict[str, Any] = {}

    # -- lifecycle ------------------------------------------------------------------------------
    def close(self) -> None:
        store = self._built.get("store")
        if store is not None and self._given["store"] is None:
            store.close()
        self.catalog.close()

    def __enter__(self) -> "Pagelens":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def warn(self, message: str) -> None:
        """Report a degraded component once per process."""
        if message in self._warned:
            return
        self._warned.add(message)
        if self._warn_fn:
            self._warn_fn(message)

    # -- components (lazy) ----------------------------------------------------------------------
    def _component(self, name: str, build: Callable[[], Any]) -> Any:
        with self._lock:
            if self._given.get(name) is not None:
                return self._given[name]
            if name not in self._built:
                self._built[name] = build()
            return self._built[name]

    @property
    def ocr(self) -> Any:
        from pagelens.ocr import create_ocr_engine

        return self._component("ocr", lambda: create_ocr_engine(self.settings.ingest, warn=self.warn, catalog=self.catalog))

    @property
    def store(self) -> Any:
        from pagelens.vectors import open_vector_store

        return self._component("store", lambda: open_vector_store(self.settings))

    @property
    def embedder(self) -> Any:
        from pagelens.embed import create_text_embedder

        return self._component("embedder", lambda: create_text_embedder(self.settings.index))

    def _optional(self, name: str, build: Callable[[], Any], without: str) -> Any:
        """A component that may be unavailable: said once, and the pipeline runs without it."""

        def guarded() -> Any:
            try:
                return build()
            except ComponentUnavailable as exc:
                self.warn(f"{exc}; {without}")
                return None

        return self._component(name, guarded)

    @property
    def image_embedder(self) -> Any:
        from pagelens.embed import create_image_embedder

        return self._optional(
            "image_embedder", lambda: create_image_embedder(self.settings.index), "the image channel is off"
        )

    @property
    def reranker(self) -> Any:
        from pagelens.retrieve.rerank import create_reranker

        return self._optional("reranker", lambda: create_reranker(self.settings.retrieval), "results are not reranked")

    @property
    def llm(self) -> Any:
        def build() -> Any:
            from pagelens.answer.llm import create_llm

            return create_llm(self.settings.answer)

        return self._component("llm", build)

    @property
    def sparse(self) -> Any:
        from pagelens.index.bm25 import SparseEncoder

        return self._component("sparse", SparseEncoder)

    @property
    def ingestor(self) -> Any:
        from pagelens.ingest.pipeline import Ingestor

        return self._component(
            "ingestor", lambda: Ingestor(self.settings.ingest, self.catalog, self.images, self.ocr, warn=self.warn)
        )

    @property
    def indexer(self) -> Any:
        def build() -> Any:
            from pagelens.index.indexer import Indexer

            enricher = None
            if self.settings.answer.enrich and self.llm is not None:
                from pagelens.answer.enrich import Enricher

                enricher = Enricher(self.llm, self.catalog, self.images)
            return Indexer(
                self.settings, self.store, self.embedder, self.sparse, self.catalog, self.images,
                image_embedder=self.image_embedder, enricher=enricher,
            )

        return self._component("indexer", build)

    @property
    def retriever(self) -> Any:
        def build() -> Any:
            from pagelens.retrieve.retriever import Retriever

            self.indexer.ensure()
            return Retriever(
                self.settings, self.store, self.embedder, self.sparse,
                image_embedder=self.image_embedder, reranker=self.reranker,
            )

        return self._component("retriever", build)

    @property
    def answer_cache(self) -> Any:
        def build() -> Any:
            if not self.settings.answer.cache:
                return None
            from pagelens.answer.cache import SemanticCache

            return SemanticCache(self.store, self.embedder, self.settings)

        return self._component("answer_cache", build)

    @property
    def answerer(self) -> Any:
        def build() -> Any:
            from pagelens.answer.answerer import Answerer

            return Answerer(
                self.settings, self.retriever, self.embedder, llm=self.llm, cache=self.answer_cache, images=self.images,
            )

        return self._component("answerer", build)

    # -- documents ------------------------------------------------------------------------------
    def ingest(self, paths: Iterable[Path | str], progress: Progress | None = None, index: bool = True) -> list[IngestResult]:
        """Ingest files and folders (recursively, *.pdf); index what was ingested.

        Failures are returned as results with status 'failed'; nothing already stored is touched.
        """
        results: list[IngestResult] = []
        files = expand_paths(paths)
        if index and files and self._child_parsing_possible():
            self._ingest_with_child(files, progress, results)
        else:
            self._ingest_in_process(files, progress, index, results)
        if any(r.chunks for r in results):
            cache = self.answer_cache
            if cache is not None:  # answers over "all documents" may change with a new one
                cache.invalidate_unfiltered()
            # Once per run, not per document: cheap below ~20k chunks (exact scan segments), minutes
            # at 200k, and it keeps large collections searchable in ~1 ms instead of a ~30 ms scan.
            self.store.optimize(self.indexer.collection)
        return results

    def _child_parsing_possible(self) -> bool:
        # An injected OCR engine lives in this process; enrichment writes LLM answers to the catalog
        # while indexing, which the parser process's write transactions would make wait.
        return self._given["ocr"] is None and not self.settings.answer.enrich

    def _ingest_with_child(self, files: list[Path], progress: Progress | None, results: list[IngestResult]) -> None:
        """Parse in a child process while this one loads the model and embeds what is parsed."""
        from pagelens.ingest.worker import ChildParser

        self.indexer.ensure()  # opens the vector index first: a home owned by another process fails here
        on_page = (lambda name, done, total: progress(name, "parse", done, total)) if progress else None
        child = ChildParser(self.settings, files, on_page, self.warn)
        marks: list[tuple[str, int]] = []
        embedder = self.embedder
        threads = getattr(embedder, "threads", None)
        try:
            if threads is not None:
                # One torch thread while the child parses on the other core: two spinning OpenMP
                # threads competing with a busy process are far slower than one (NOTES.md).
                embedder.threads = 1
            self._warm_embedder()
            for result in child:
                if result.replaced:
                    self._forget_vectors(result.replaced)
                if result.status != "failed" and result.doc_id:
                    if threads is not None and not child.running:
                        embedder.threads = threads
                    self._index(result, progress, marks=marks)
                results.append(result)
        finally:
            child.close()
            if threads is not None:
                embedder.threads = threads
        for doc_id, chunks in marks:  # the child has committed: the catalog is writable again
            self.catalog.mark_indexed(doc_id, self.indexer.collection, chunks)

    def _ingest_in_process(
        self, files: list[Path], progress: Progress | None, index: bool, results: list[IngestResult]
    ) -> None:
        if index and files and "embedder" not in self._built and self._given["embedder"] is None:
            # Load the text model on a second thread while the files parse (~3 s of imports and weights).
            threading.Thread(target=self._warm_embedder, name="pagelens-warm-embedder", daemon=True).start()
        # Parse everything first, then index: the model load overlaps the parsing, and a killed run
        # leaves parsed documents that the next run indexes (indexing is idempotent and resumable).
        for path in files:
            on_page = (lambda done, total, n=path.name: progress(n, "parse", done, total)) if progress else None
            result = self.ingestor.ingest_file(path, progress=on_page)
            if result.replaced:
                self._forget_vectors(result.replaced)
            results.append(result)
        if index:
            for result in results:
                if result.status != "failed" and result.doc_id:
                    self._index(result, progress)

    def _warm_embedder(self) -> None:
        # A failure here is reported by the indexing step, which meets the same error.
        with contextlib.suppress(PagelensError):
            self.embedder.embed(["warm up"])

    def _index(
        self, result: IngestResult, progress: Progress | None, marks: list[tuple[str, int]] | None = None
    ) -> None:
        indexer = self.indexer
        try:
            if self.catalog.is_indexed(result.doc_id, indexer.collection) and self.store.count(
                indexer.collection, result.doc_id
            ):
                return  # (a catalog that says "indexed" over a lost vector folder is re-indexed)
            on_chunk = (lambda done, total: progress(result.name, "index", done, total)) if progress else None
            result.chunks = indexer.index_document(result.doc_id, progress=on_chunk, mark=marks is None)
            if marks is not None:
                marks.append((result.doc_id, result.chunks))
            if result.status == "unchanged":
                result.status = "indexed"
        except PagelensError as exc:
            result.status = "failed"
            result.error = f"{result.name}: index: {exc}"

    def _forget_vectors(self, doc_id: str) -> None:
        try:
            self.indexer.remove_document(doc_id)
        except PagelensError as exc:
            self.warn(f"could not remove vectors of replaced document {doc_id[:12]}: {exc}")
        cache = self.answer_cache
        if cache is not None:
            cache.invalidate_docs([doc_id])

    def documents(self) -> list[Document]:
        return self.catalog.documents()

    def document(self, ref: str) -> Document:
        return self.catalog.resolve(ref)

    def elements(self, ref: str, page: int | None = None) -> list[Element]:
        doc = self.catalog.resolve(ref)
        return self.catalog.elements(doc.doc_id, page=page)

    def remove(self, ref: str) -> Document:
        doc = self.catalog.resolve(ref)
        self._forget_vectors(doc.doc_id)
        with self.catalog.transaction() as conn:
            self.catalog.delete_document(conn, doc.doc_id)
        return doc

    def resolve_docs(self, refs: Iterable[str] | None) -> list[str] | None:
        if not refs:
            return None
        return [self.catalog.resolve(r).doc_id for r in refs]

    # -- retrieval and answers ------------------------------------------------------------------
    def search(
        self, query: str, *, k: int | None = None, mode: str = "hybrid", docs: Iterable[str] | None = None,
    ) -> list[SearchHit]:
        retriever = self.retriever
        return retriever.search(query, k=k or self.settings.retrieval.k, mode=mode, doc_ids=self.resolve_docs(docs))

    def ask(
        self, question: str, *, history: list[tuple[str, str]] | None = None, docs: Iterable[str] | None = None,
        hyde: bool | None = None, multi_query: int | None = None, rerank: bool = True, k: int | None = None,
    ) -> Answer:
        return self.answerer.ask(
            question, history=history, doc_ids=self.resolve_docs(docs), hyde=hyde, multi_query=multi_query,
            rerank=rerank, k=k,
        )

    def ask_stream(
        self, question: str, *, history: list[tuple[str, str]] | None = None, docs: Iterable[str] | None = None,
        hyde: bool | None = None, multi_query: int | None = None, rerank: bool = True, k: int | None = None,
    ) -> Iterator[dict[str, Any]]:
        return self.answerer.stream(
            question, history=history, doc_ids=self.resolve_docs(docs), hyde=hyde, multi_query=multi_query,
            rerank=rerank, k=k,
        )

    # -- diagnostics ----------------------------------------------------------------------------
    def doctor(self) -> list[ComponentStatus]:
        from pagelens.doctor import component_statuses

        return component_statuses(self.settings)


def expand_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Files as given; folders expanded to their PDFs (recursively, sorted)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.is_file() and q.suffix.lower() == ".pdf"))
        else:
            out.append(p)
    return out
