"""Rerankers: score (query, passage) pairs jointly after fusion.

Two backends: a local sentence-transformers ``CrossEncoder`` directory, or an HTTP ``/rerank``
endpoint. The HTTP client speaks both dialects in use:

* Hugging Face TEI: ``{"query", "texts"}`` → ``[{"index", "score"}, ...]``
* Infinity / Cohere / Jina / vLLM: ``{"query", "documents"}`` → ``{"results": [{"index",
  "relevance_score"}, ...]}``

It sends the Cohere-style body first; a 4xx answer that looks like a schema complaint switches it to the
TEI body, and the dialect that worked is remembered. Responses are parsed by shape either way.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import httpx

from pagelens.embed.http import post_json
from pagelens.embed.sentence import quiet_loading, torch_threads
from pagelens.redact import mask_url, redact_http_logs, secret
from pagelens.errors import ComponentUnavailable
from pagelens.settings import RetrievalSettings

RERANK_FIX = "set retrieval.reranker to a local CrossEncoder directory or retrieval.rerank_url to a /rerank endpoint"


@runtime_checkable
class Reranker(Protocol):
    """Scores passages against a query; higher is more relevant. One score per text, input order."""

    name: str

    def rerank(self, query: str, texts: list[str]) -> list[float]: ...


class CrossEncoderReranker:
    """A local sentence-transformers CrossEncoder directory, loaded on first use."""

    def __init__(self, path: str, threads: int = 0, batch_size: int = 16) -> None:
        root = Path(path).expanduser()
        if not (root / "config.json").is_file():
            raise ComponentUnavailable("reranker", f"{root} is not a model directory (no config.json)", RERANK_FIX)
        self.path = str(root)
        self.name = f"cross-encoder:{root.name}"
        self.threads = threads
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    self._model = self._load_model()
        return self._model

    def _load_model(self) -> Any:
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as exc:
            raise ComponentUnavailable(
                "reranker", f"sentence-transformers is not installed ({exc})", "pip install sentence-transformers"
            ) from exc
        try:
            with quiet_loading():
                return CrossEncoder(self.path, device="cpu", local_files_only=True)
        except Exception as exc:  # translate load errors at the boundary
            raise ComponentUnavailable("reranker", f"cannot load {self.path}: {type(exc).__name__}: {exc}", RERANK_FIX) from exc

    def rerank(self, query: str, texts: list[str]) -> list[float]:
        if not texts:
            return []
        model = self._load()
        with torch_threads(self.threads):
            scores = model.predict(
                [(query, text) for text in texts],
                batch_size=self.batch_size,
                show_progress_bar=False,
                convert_to_numpy=True,
            )
        return [float(s) for s in scores.reshape(len(texts), -1)[:, 0]]

    def __repr__(self) -> str:
        return f"CrossEncoderReranker({self.path!r})"


class HttpReranker:
    """An Infinity/TEI/Cohere-style ``/rerank`` endpoint."""

    def __init__(
        self,
        url: str,
        model: str | None = None,
        transport: httpx.BaseTransport | None = None,
        *,
        api_key: str | None = None,
        batch_size: int = 32,
        timeout_s: float = 60.0,
        retries: int = 3,
        backoff_s: float = 0.5,
    ) -> None:
        url = url.rstrip("/")
        self.url = url if url.endswith("/rerank") else f"{url}/rerank"
        redact_http_logs()
        self.model = model
        self.name = f"rerank:{model or mask_url(self.url)}"
        self.batch_size = batch_size  # TEI's default --max-client-batch-size is 32
        self.retries = retries
        self.backoff_s = backoff_s
        self.dialect: str | None = None  # "cohere" or "tei" once one has worked
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(transport=transport, timeout=timeout_s, headers=headers)

    def rerank(self, query: str, texts: list[str]) -> list[float]:
        scores: list[float] = []
        for start in range(0, len(texts), self.batch_size):
            scores.extend(self._rerank_batch(query, texts[start : start + self.batch_size]))
        return scores

    def _body(self, dialect: str, query: str, texts: list[str]) -> dict[str, Any]:
        if dialect == "tei":
            return {"query": query, "texts": texts, "raw_scores": False}
        body: dict[str, Any] = {"query": query, "documents": texts, "return_documents": False}
        if self.model:
            body["model"] = self.model
        return body

    def _rerank_batch(self, query: str, texts: list[str]) -> list[float]:
        dialects = [self.dialect] if self.dialect else ["cohere", "tei"]
        for n, dialect in enumerate(dialects):
            try:
                data = post_json(
                    self._client, self.url, self._body(dialect, query, texts), component="reranker",
                    retries=self.retries, backoff_s=self.backoff_s, fix=RERANK_FIX,
                )
            except ComponentUnavailable as exc:
                if n + 1 < len(dialects) and _schema_complaint(exc.reason):
                    continue  # the other dialect's body may be the one this server expects
                raise
            scores = _parse_scores(data, len(texts), mask_url(self.url))
            self.dialect = dialect
            return scores
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        self._client.close()

    def __repr__(self) -> str:
        return f"HttpReranker({mask_url(self.url)!r}, model={self.model!r})"


def _schema_complaint(reason: str) -> bool:
    return any(f"HTTP {code}" in reason for code in (400, 404, 415, 422))


def _parse_scores(data: Any, n: int, url: str) -> list[float]:
    """Scores in input order from a TEI list or a Cohere/Infinity ``results`` object."""
    items = data.get("results", data.get("data")) if isinstance(data, dict) else data
    scores: list[float | None] = [None] * n
    try:
        for item in items:
            value = item["relevance_score"] if "relevance_score" in item else item["score"]
            scores[int(item["index"])] = float(value)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ComponentUnavailable("reranker", f"{url} returned an unexpected body: {exc!r}", RERANK_FIX) from exc
    missing = [i for i, s in enumerate(scores) if s is None]
    if missing:
        raise ComponentUnavailable("reranker", f"{url} returned no score for passages {missing[:5]}", RERANK_FIX)
    return [float(s) for s in scores if s is not None]


def create_reranker(rs: RetrievalSettings) -> Reranker | None:
    """The configured reranker, or None when reranking is off. Raises ComponentUnavailable when a
    configured local model directory is unusable (the caller reports it once and ranks without)."""
    if rs.rerank_url:
        return HttpReranker(rs.rerank_url, model=rs.rerank_model, api_key=secret(rs.rerank_api_key))
    if rs.reranker:
        return CrossEncoderReranker(rs.reranker)
    return None


def reranker_status(rs: RetrievalSettings, *, probe: bool = True) -> tuple[bool, str]:
    """(available, reason) for ``pagelens doctor``. Loads no weights; an endpoint gets one small
    request (2 s timeout, no retries) unless ``probe`` is False."""
    if rs.rerank_url:
        if not probe:
            return True, f"HTTP reranker at {rs.rerank_url} (not contacted)"
        client = HttpReranker(rs.rerank_url, timeout_s=2.0, retries=0)
        try:
            client.rerank("probe", ["probe passage"])
        except ComponentUnavailable as exc:
            return False, str(exc)
        finally:
            client.close()
        return True, f"HTTP reranker at {client.url} ({client.dialect} dialect)"
    if not rs.reranker:
        return False, "off (retrieval.reranker and retrieval.rerank_url unset)"
    try:
        reranker = CrossEncoderReranker(rs.reranker)
    except ComponentUnavailable as exc:
        return False, str(exc)
    import importlib.util

    if importlib.util.find_spec("sentence_transformers") is None:
        return False, "sentence-transformers is not installed (pip install sentence-transformers)"
    return True, f"CrossEncoder at {reranker.path}"
