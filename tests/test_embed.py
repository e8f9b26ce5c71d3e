"""Text and image embedders: the hashing fake, MiniLM, an OpenAI-compatible endpoint over real HTTP,
a tiny random CLIP model, and the factories."""

from __future__ import annotations

import json
import string
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest

from pagelens.embed import clip_status, create_image_embedder, create_text_embedder, embedder_status
from pagelens.embed.clip import ClipEmbedder
from pagelens.embed.fake import HashingEmbedder
from pagelens.embed.http import OpenAIEmbeddings, approx_token_count
from pagelens.embed.protocol import ImageEmbedder, TextEmbedder
from pagelens.embed.sentence import SentenceTransformerEmbedder
from pagelens.errors import ComponentUnavailable, DocumentError
from pagelens.settings import IndexSettings

from pdfs import PAPER_QUESTIONS, paper_pdf, raster_figures_pdf



def _assert_unit_rows(v: np.ndarray, n: int, dim: int) -> None:
    assert v.shape == (n, dim)
    assert v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)


# -- HashingEmbedder ----------------------------------------------------------------------------------
def test_hashing_embedder_is_deterministic_normalised_and_lexical() -> None:
    emb = HashingEmbedder(dim=64)
    assert isinstance(emb, TextEmbedder)
    texts = ["masked language model pre-training", "language model pre-training objective", "aircraft corrosion", ""]
    v = emb.embed(texts)
    _assert_unit_rows(v, 4, 64)
    np.testing.assert_array_equal(v, HashingEmbedder(dim=64).embed(texts))
    assert v[0] @ v[1] > v[0] @ v[2]  # shared words → closer
    assert emb.count_tokens("three  short words") == 3
    assert emb.embed([]).shape == (0, 64)


# -- SentenceTransformerEmbedder (MiniLM, loaded once) ----------------------------------------------
@pytest.fixture(scope="session")
def minilm() -> SentenceTransformerEmbedder:
    emb = SentenceTransformerEmbedder("all-MiniLM-L6-v2", runtime="torch")  # the torch path (ONNX: test_embed_onnx.py)
    assert not emb.loaded and emb.dim == 384 and emb.max_tokens == 256  # known without loading
    assert not emb.loaded
    return emb


def test_minilm_embeds_normalised_vectors_batch_independent(minilm: SentenceTransformerEmbedder) -> None:
    texts = ["BERT uses a WordPiece vocabulary of 30,000 tokens.", "Adam computes adaptive learning rates.", "x"]
    v = minilm.embed(texts)
    _assert_unit_rows(v, 3, 384)
    assert isinstance(minilm, TextEmbedder) and minilm.loaded
    single = np.vstack([minilm.embed([t]) for t in texts])
    np.testing.assert_allclose(v, single, atol=1e-5)  # batching/padding does not change vectors
    assert minilm.embed([]).shape == (0, 384)
    assert minilm.max_tokens == 256  # now read from the loaded model


def test_minilm_counts_tokens_with_its_tokenizer(minilm: SentenceTransformerEmbedder) -> None:
    assert minilm.count_tokens("hello world") == 4  # [CLS] hello world [SEP]
    assert minilm.count_tokens("pretraining") > 3  # WordPiece splits an unknown word
    assert minilm.count_tokens("word " * 400) == 402  # not truncated: the chunker needs the true length
    # the tokenizer-free estimate used for remote models stays near the real count on a paper's text
    import pymupdf

    with pymupdf.open(stream=paper_pdf(), filetype="pdf") as doc:
        text = (doc[0].get_text() + doc[4].get_text())[:4000]
    assert 0.8 < approx_token_count(text) / minilm.count_tokens(text) < 1.25


def test_minilm_finds_the_pages_that_answer_questions(minilm: SentenceTransformerEmbedder) -> None:
    import pymupdf

    passages: list[tuple[int, str]] = []  # the built paper's pages as 150-word passages, 30 overlap
    with pymupdf.open(stream=paper_pdf(), filetype="pdf") as doc:
        for number, page in enumerate(doc, start=1):
            words = page.get_text().split()
            passages += [(number, " ".join(words[i : i + 150])) for i in range(0, len(words), 120)]
    scores = minilm.embed([q for q, _ in PAPER_QUESTIONS]) @ minilm.embed([t for _, t in passages]).T
    hits = 0
    for row, (_q, pages) in zip(scores, PAPER_QUESTIONS):
        ranked: list[int] = []
        for j in np.argsort(-row):
            if passages[j][0] not in ranked:
                ranked.append(passages[j][0])
        hits += bool(set(ranked[:3]) & set(pages))
    assert hits >= len(PAPER_QUESTIONS) - 2, f"hit@3 {hits}/{len(PAPER_QUESTIONS)}"


def test_minilm_threads_are_restored_after_each_call(minilm: SentenceTransformerEmbedder) -> None:
    import torch

    before = torch.get_num_threads()
    one = SentenceTransformerEmbedder("all-MiniLM-L6-v2", threads=1)
    one._model = minilm._load()  # share the loaded weights: this test is about the thread setting
    np.testing.assert_allclose(one.embed(["thread test"]), minilm.embed(["thread test"]), atol=1e-5)
    assert torch.get_num_threads() == before


def test_sentence_embedder_reports_unusable_models_fast(tmp_path: Path) -> None:
    not_model = tmp_path / "weights.bin"
    not_model.write_bytes(b"\0")
    with pytest.raises(ComponentUnavailable, match="is a file"):
        SentenceTransformerEmbedder(str(not_model)).embed(["x"])
    empty_dir = tmp_path / "empty"
    empty_dir.mkdir()
    with pytest.raises(ComponentUnavailable, match="cannot load directory"):
        SentenceTransformerEmbedder(str(empty_dir)).embed(["x"])
    start = time.monotonic()
    with pytest.raises(ComponentUnavailable, match="hub model 'pagelens-tests/no-such-model'") as info:
        SentenceTransformerEmbedder("pagelens-tests/no-such-model").embed(["x"])
    assert time.monotonic() - start < 20  # not the hub client's minute of retries
    assert "\n" not in str(info.value)


# -- OpenAIEmbeddings against a real local HTTP server -----------------------------------------------
class _EmbeddingServer:
    """An OpenAI-compatible /v1/embeddings server: deterministic unnormalised vectors, returned in
    reverse order (clients must sort by index); can be told to fail the next requests."""

    DIM = 12

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.failures: list[int] = []  # status codes for the next requests
        fake = HashingEmbedder(dim=self.DIM)
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server API)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
                if outer.failures:
                    self._send(outer.failures.pop(0), {"error": "try again"}, {"Retry-After": "0"})
                    return
                vectors = fake.embed(body["input"]) * 7.0
                data = [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]
                self._send(200, {"object": "list", "data": data[::-1], "model": body["model"]})

            def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"


@pytest.fixture
def embedding_server() -> Iterator[_EmbeddingServer]:
    server = _EmbeddingServer()
    thread = threading.Thread(target=server.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


def test_openai_embeddings_batches_sorts_and_normalises(embedding_server: _EmbeddingServer) -> None:
    emb = OpenAIEmbeddings(embedding_server.base_url, "bge-small", api_key="sk-test", batch_size=2)
    texts = ["alpha beta", "gamma", "delta epsilon", "zeta", "eta theta"]
    v = emb.embed(texts)
    _assert_unit_rows(v, 5, _EmbeddingServer.DIM)
    assert emb.dim == _EmbeddingServer.DIM and isinstance(emb, TextEmbedder)
    np.testing.assert_allclose(v, HashingEmbedder(dim=_EmbeddingServer.DIM).embed(texts), atol=1e-6)
    assert [r["body"]["input"] for r in embedding_server.requests] == [texts[0:2], texts[2:4], texts[4:]]
    assert {r["path"] for r in embedding_server.requests} == {"/v1/embeddings"}
    assert {r["auth"] for r in embedding_server.requests} == {"Bearer sk-test"}
    assert embedding_server.requests[0]["body"]["model"] == "bge-small"


def test_openai_embeddings_discovers_dim_with_one_probe(embedding_server: _EmbeddingServer) -> None:
    emb = OpenAIEmbeddings(embedding_server.base_url + "/", "m")
    assert emb.dim == _EmbeddingServer.DIM
    assert emb.dim == _EmbeddingServer.DIM
    assert len(embedding_server.requests) == 1


def test_openai_embeddings_retries_429_and_5xx(embedding_server: _EmbeddingServer) -> None:
    embedding_server.failures = [429, 503]
    emb = OpenAIEmbeddings(embedding_server.base_url, "m", retries=3, backoff_s=0.01)
    assert emb.embed(["after retries"]).shape == (1, _EmbeddingServer.DIM)
    assert len(embedding_server.requests) == 3


def test_openai_embeddings_gives_up_with_one_line_error(embedding_server: _EmbeddingServer) -> None:
    embedding_server.failures = [500] * 3
    emb = OpenAIEmbeddings(embedding_server.base_url, "m", retries=2, backoff_s=0.01)
    with pytest.raises(ComponentUnavailable, match=r"failed after 3 attempts: HTTP 500"):
        emb.embed(["x"])
    embedding_server.failures = [401]
    with pytest.raises(ComponentUnavailable, match="HTTP 401"):
        emb.embed(["x"])
    assert len(embedding_server.requests) == 4  # 4xx other than 429 is not retried


def test_openai_embeddings_connection_refused_is_component_unavailable() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = server.server_address[1]
    server.server_close()  # nothing listens on this port any more
    emb = OpenAIEmbeddings(f"http://127.0.0.1:{port}/v1", "m", retries=1, backoff_s=0.01)
    with pytest.raises(ComponentUnavailable, match="ConnectError"):
        emb.embed(["x"])


def test_factory_builds_http_embedder_with_injected_transport() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        n = len(json.loads(request.content)["input"])
        return httpx.Response(200, json={"data": [{"index": i, "embedding": [3.0, 4.0]} for i in range(n)]})

    ix = IndexSettings(embed_url="http://embedder.test/v1", embedder="nomic-embed-text", embed_api_key="k")
    emb = create_text_embedder(ix, transport=httpx.MockTransport(handler))
    np.testing.assert_allclose(emb.embed(["a", "b"]), [[0.6, 0.8], [0.6, 0.8]], rtol=1e-6)
    assert str(seen[0].url) == "http://embedder.test/v1/embeddings"
    assert seen[0].headers["authorization"] == "Bearer k"
    assert emb.name == "nomic-embed-text"


def test_factory_and_status_for_local_model(embedding_server: _EmbeddingServer) -> None:
    emb = create_text_embedder(IndexSettings(embed_threads=1, embed_batch_size=8))
    assert isinstance(emb, SentenceTransformerEmbedder) and not emb.loaded
    assert (emb.threads, emb.batch_size) == (1, 8)
    assert embedder_status(IndexSettings())[0] is True
    available, reason = embedder_status(IndexSettings(embedder="/nonexistent/model"))
    assert not available and "not a local directory" in reason
    available, reason = embedder_status(IndexSettings(embed_url=embedding_server.base_url))
    assert available and f"{_EmbeddingServer.DIM}-d" in reason


# -- ClipEmbedder with a tiny random CLIP model ------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch
    from transformers import CLIPConfig, CLIPImageProcessorPil, CLIPModel, CLIPTokenizer

    root = tmp_path_factory.mktemp("tiny-clip")
    chars = string.ascii_lowercase + string.digits
    vocab = {"<|startoftext|>": 0, "<|endoftext|>": 1}
    vocab.update({c: len(vocab) + i for i, c in enumerate(chars)})
    vocab.update({c + "</w>": len(vocab) + i for i, c in enumerate(chars)})
    CLIPTokenizer(vocab=vocab, merges=[]).save_pretrained(root)
    config = CLIPConfig(
        text_config=dict(
            hidden_size=32, intermediate_size=37, num_hidden_layers=2, num_attention_heads=4,
            vocab_size=len(vocab), max_position_embeddings=40, bos_token_id=0, eos_token_id=1, pad_token_id=1,
        ),
        vision_config=dict(
            hidden_size=32, intermediate_size=37, num_hidden_layers=2, num_attention_heads=4, image_size=32,
            patch_size=8,
        ),
        projection_dim=16,
    )
    torch.manual_seed(0)
    CLIPModel(config).save_pretrained(root)
    CLIPImageProcessorPil(size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32}).save_pretrained(root)
    return root


def _page_pngs() -> list[bytes]:
    """Five distinct images: quadrants and a full view of a built page with a raster chart."""
    import pymupdf

    with pymupdf.open(stream=raster_figures_pdf(), filetype="pdf") as doc:
        page = doc[0]
        r = page.rect
        clips = [
            pymupdf.Rect(r.x0, r.y0, r.x1 / 2, r.y1 / 2), pymupdf.Rect(r.x1 / 2, r.y0, r.x1, r.y1 / 2),
            pymupdf.Rect(r.x0, r.y1 / 2, r.x1 / 2, r.y1), pymupdf.Rect(r.x1 / 2, r.y1 / 2, r.x1, r.y1), r,
        ]
        return [page.get_pixmap(clip=c, dpi=40).tobytes("png") for c in clips]


def test_clip_embeds_images_and_texts(tiny_clip: Path) -> None:
    emb = ClipEmbedder(str(tiny_clip))
    assert isinstance(emb, ImageEmbedder) and emb.dim == 16
    pngs = _page_pngs()
    images = emb.embed_images(pngs)
    _assert_unit_rows(images, 5, 16)
    np.testing.assert_allclose(images, ClipEmbedder(str(tiny_clip)).embed_images(pngs), atol=1e-5)
    sims = images @ images.T
    assert all(int(np.argmax(sims[i])) == i for i in range(5))  # each image is nearest itself
    assert np.linalg.matrix_rank(images, tol=1e-3) == 5
    texts = emb.embed_texts(["a bar chart", "a map of rivers", "a bar chart"])
    _assert_unit_rows(texts, 3, 16)
    np.testing.assert_allclose(texts[0], texts[2], atol=1e-6)
    assert texts[0] @ texts[1] < 0.9999
    assert emb.embed_texts(["word " * 200]).shape == (1, 16)  # truncated to the text tower's length
    assert emb.embed_images([]).shape == (0, 16)


def test_clip_rejects_unreadable_images(tiny_clip: Path) -> None:
    with pytest.raises(DocumentError, match="image 1 of 2"):
        ClipEmbedder(str(tiny_clip)).embed_images([_page_pngs()[0], b"not a png"])


def test_clip_unusable_paths_say_how_to_fix(tmp_path: Path, tiny_clip: Path) -> None:
    with pytest.raises(ComponentUnavailable, match="set index.clip_model") as info:
        ClipEmbedder(str(tmp_path / "missing"))
    assert info.value.component == "clip"
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "bert"}))
    with pytest.raises(ComponentUnavailable, match="expected 'clip'"):
        create_image_embedder(IndexSettings(clip_model=str(tmp_path)))
    assert create_image_embedder(IndexSettings()) is None
    assert isinstance(create_image_embedder(IndexSettings(clip_model=str(tiny_clip))), ClipEmbedder)
    assert clip_status(IndexSettings()) == (False, "off (index.clip_model unset)")
    assert clip_status(IndexSettings(clip_model=str(tiny_clip))) == (True, f"CLIP at {tiny_clip}, 16-d")
    available, reason = clip_status(IndexSettings(clip_model=str(tmp_path)))
    assert not available and "model_type 'bert'" in reason


def test_bfloat16_autocast_matches_float32_vectors() -> None:
    """bf16 autocast (used by 'auto' on CPUs with native bf16) gives the float32 neighbours."""
    from pagelens.embed.sentence import SentenceTransformerEmbedder

    texts = [
        "BERT obtains a CoLA score of 60.5 on the GLUE test set.",
        "The Adam optimizer uses bias-corrected first and second moment estimates.",
        "Row and column access control protects sensitive data in DB2 for i.",
        "Huckleberry Finn tripped over a root near the kitchen.",
    ]
    fp32 = SentenceTransformerEmbedder(precision="float32").embed(texts)
    bf16 = SentenceTransformerEmbedder(precision="bfloat16").embed(texts)
    cos = (fp32 * bf16).sum(axis=1)
    assert cos.min() > 0.999
    assert ((fp32 @ fp32.T).argsort(axis=1) == (bf16 @ bf16.T).argsort(axis=1)).all()
