"""Rerankers: a tiny random BERT cross-encoder loaded through sentence-transformers, and the HTTP
client against a real local server speaking the TEI and the Cohere/Infinity dialects."""

from __future__ import annotations

import json
import math
import string
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from pagelens.errors import ComponentUnavailable
from pagelens.retrieve.rerank import CrossEncoderReranker, HttpReranker, Reranker, create_reranker, reranker_status
from pagelens.settings import RetrievalSettings

PASSAGES = [
    "adam is an optimizer with adaptive moments",
    "bert is pretrained with a masked language model",
    "corrosion inhibitors protect aircraft aluminium",
    "the masked language model masks fifteen percent of tokens",
    "maps and charts",
]


# -- CrossEncoderReranker with a tiny random BERT ----------------------------------------------------
@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizer

    root = tmp_path_factory.mktemp("tiny-cross-encoder")
    chars = string.ascii_lowercase + string.digits
    tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *chars, *("##" + c for c in chars)]
    BertTokenizer(vocab={t: i for i, t in enumerate(tokens)}).save_pretrained(root)
    config = BertConfig(
        vocab_size=len(tokens), hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37, max_position_embeddings=128, num_labels=1,
    )
    torch.manual_seed(0)
    BertForSequenceClassification(config).save_pretrained(root)
    return root


def test_cross_encoder_scores_each_passage_deterministically(tiny_cross_encoder: Path) -> None:
    reranker = CrossEncoderReranker(str(tiny_cross_encoder))
    assert isinstance(reranker, Reranker)
    scores = reranker.rerank("masked language model", PASSAGES)
    assert len(scores) == len(PASSAGES) and all(math.isfinite(s) for s in scores)
    assert len(set(scores)) > 1  # the passages are told apart
    assert CrossEncoderReranker(str(tiny_cross_encoder)).rerank("masked language model", PASSAGES) == pytest.approx(
        scores, abs=1e-5
    )
    reversed_scores = reranker.rerank("masked language model", PASSAGES[::-1])
    assert reversed_scores == pytest.approx(scores[::-1], abs=1e-5)  # one score per text, in input order
    long = reranker.rerank("query", ["word " * 500])  # truncated to the model's length, not an error
    assert len(long) == 1 and math.isfinite(long[0])
    assert reranker.rerank("query", []) == []


def test_cross_encoder_unusable_paths(tmp_path: Path) -> None:
    with pytest.raises(ComponentUnavailable, match="no config.json") as info:
        CrossEncoderReranker(str(tmp_path / "missing"))
    assert info.value.component == "reranker"
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(ComponentUnavailable, match="cannot load"):
        CrossEncoderReranker(str(tmp_path)).rerank("q", ["p"])


def test_factory_and_status_for_local_cross_encoder(tiny_cross_encoder: Path, tmp_path: Path) -> None:
    assert create_reranker(RetrievalSettings()) is None
    assert reranker_status(RetrievalSettings())[0] is False
    settings = RetrievalSettings(reranker=str(tiny_cross_encoder))
    assert isinstance(create_reranker(settings), CrossEncoderReranker)
    assert reranker_status(settings) == (True, f"CrossEncoder at {tiny_cross_encoder}")
    with pytest.raises(ComponentUnavailable):
        create_reranker(RetrievalSettings(reranker=str(tmp_path)))
    available, reason = reranker_status(RetrievalSettings(reranker=str(tmp_path)))
    assert not available and "no config.json" in reason


# -- HttpReranker against a real local server -------------------------------------------------------
def _overlap(query: str, text: str) -> float:
    return float(len(set(query.split()) & set(text.split())))


class _RerankServer:
    """POST /rerank in one dialect; like the real servers, results come sorted by score, not input."""

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self.requests: list[dict[str, Any]] = []
        self.failures: list[int] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server API)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append({"path": self.path, "body": body})
                if outer.failures:
                    return self._send(outer.failures.pop(0), {"error": "busy"})
                if self.path != "/rerank":
                    return self._send(404, {"error": "not found"})
                field = "texts" if outer.dialect == "tei" else "documents"
                if field not in body:  # TEI (axum) answers 422 to a body that misses a field
                    return self._send(422, {"error": f"missing field `{field}`"})
                scored = [(i, _overlap(body["query"], t)) for i, t in enumerate(body[field])]
                scored.sort(key=lambda item: -item[1])
                if outer.dialect == "tei":
                    return self._send(200, [{"index": i, "score": s} for i, s in scored])
                return self._send(200, {"results": [{"index": i, "relevance_score": s} for i, s in scored]})

            def _send(self, status: int, payload: Any) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"


@pytest.fixture(params=["tei", "cohere"])
def rerank_server(request: pytest.FixtureRequest) -> Iterator[_RerankServer]:
    server = _RerankServer(request.param)
    threading.Thread(target=server.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


def test_http_reranker_returns_scores_in_input_order(rerank_server: _RerankServer) -> None:
    reranker = HttpReranker(rerank_server.url, model="bge-reranker", batch_size=2)
    assert isinstance(reranker, Reranker)
    query = "masked language model"
    assert reranker.rerank(query, PASSAGES) == [_overlap(query, p) for p in PASSAGES]
    assert reranker.dialect == rerank_server.dialect
    bodies = [r["body"] for r in rerank_server.requests]
    if rerank_server.dialect == "tei":  # first batch tried the Cohere body, then remembered TEI
        assert len(bodies) == 4 and "documents" in bodies[0] and bodies[1]["texts"] == PASSAGES[:2]
    else:
        assert len(bodies) == 3 and bodies[0]["model"] == "bge-reranker"
    assert [len(b.get("texts", b.get("documents"))) for b in bodies[-3:]] == [2, 2, 1]
    assert {r["path"] for r in rerank_server.requests} == {"/rerank"}


def test_http_reranker_retries_busy_server(rerank_server: _RerankServer) -> None:
    rerank_server.failures = [503, 429]
    reranker = HttpReranker(rerank_server.url + "/rerank", backoff_s=0.01)
    assert reranker.rerank("adam optimizer", PASSAGES[:2]) == [2.0, 0.0]


def test_http_reranker_errors_are_one_line(rerank_server: _RerankServer) -> None:
    rerank_server.failures = [500, 500]
    with pytest.raises(ComponentUnavailable, match="failed after 2 attempts: HTTP 500") as info:
        HttpReranker(rerank_server.url, retries=1, backoff_s=0.01).rerank("q", ["p"])
    assert "\n" not in str(info.value)


def test_http_reranker_rejects_incomplete_answers() -> None:
    import httpx

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=[{"index": 0, "score": 0.5}])  # one score for two passages

    reranker = HttpReranker("http://rerank.test", transport=httpx.MockTransport(handler))
    with pytest.raises(ComponentUnavailable, match=r"no score for passages \[1\]"):
        reranker.rerank("q", ["a", "b"])


def test_http_factory_and_status(rerank_server: _RerankServer) -> None:
    settings = RetrievalSettings(rerank_url=rerank_server.url, reranker="/ignored/when/url/set")
    assert isinstance(create_reranker(settings), HttpReranker)
    available, reason = reranker_status(settings)
    assert available and f"{rerank_server.dialect} dialect" in reason
    rerank_server.failures = [500]
    available, reason = reranker_status(settings)
    assert not available and "HTTP 500" in reason
