"""The CLI beside a running server: the same calls as the facade, made through the server's API.

``pagelens serve`` writes ``<home>/server.json`` ({url, pid}). ``find_server`` reads it: a dead pid
means a stale file, which is removed (the home is then opened directly, as without a server).
``RemoteApp`` offers what the CLI commands call on ``Pagelens`` and returns the same models, so
their output and ``--json`` shapes are the same either way.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import httpx

from pagelens.errors import NotFoundError, PagelensError
from pagelens.models import Answer, Document, Element, IngestResult, SearchHit
from pagelens.settings import Settings
from pagelens.store.images import ImageStore

SERVER_FILE = "server.json"
JOB_POLL_S = 0.2


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def find_server(settings: Settings) -> "RemoteApp | None":
    """The server that owns ``settings.home``, or None (a stale server file is removed)."""
    home = Path(settings.home).expanduser()
    path = home / SERVER_FILE
    try:
        info = json.loads(path.read_text())
        url, pid = str(info["url"]), int(info["pid"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        path.unlink(missing_ok=True)  # unreadable: not a server's
        return None
    if not pid_alive(pid):
        path.unlink(missing_ok=True)
        return None
    return RemoteApp(settings, url)


class RemoteApp:
    """A client of a pagelens server with the facade's methods that the CLI uses."""

    def __init__(self, settings: Settings, url: str, transport: httpx.BaseTransport | None = None) -> None:
        self.settings = settings
        self.url = url
        self.home = Path(settings.home).expanduser()
        self.images = ImageStore(self.home / "images")
        self._conversation: str | None = None
        key = settings.server.api_key
        headers = {"Authorization": f"Bearer {key.get_secret_value()}"} if key else {}
        self.http = httpx.Client(base_url=url, headers=headers, timeout=httpx.Timeout(600, connect=5),
                                 transport=transport)

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> "RemoteApp":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing ---------------------------------------------------------------------------------
    def _call(self, method: str, path: str, **kw: Any) -> Any:
        try:
            r = self.http.request(method, path, **kw)
        except httpx.HTTPError as exc:
            raise PagelensError(f"server at {self.url} (from {self.home / SERVER_FILE}): {exc}") from None
        if r.status_code >= 400:
            try:
                detail = r.json().get("detail")
            except ValueError:
                detail = r.text[:200]
            if isinstance(detail, list):  # FastAPI validation errors
                detail = "; ".join(str(d.get("msg")) for d in detail)
            cls = NotFoundError if r.status_code == 404 else PagelensError
            raise cls(str(detail or f"HTTP {r.status_code}"))
        return r.json() if r.content and r.headers.get("content-type", "").startswith("application/json") else None

    # -- documents --------------------------------------------------------------------------------
    def documents(self) -> list[Document]:
        return [Document.model_validate(d) for d in self._call("GET", "/documents", params={"full": 1})]

    def document(self, ref: str) -> Document:
        return Document.model_validate(self._show(ref, None)["document"])

    def elements(self, ref: str, page: int | None = None) -> list[Element]:
        return [Element.model_validate(e) for e in self._show(ref, page)["elements"]]

    def _show(self, ref: str, page: int | None) -> dict[str, Any]:
        params: dict[str, Any] = {"full": 1}
        if page is not None:
            params["page"] = page
        return self._call("GET", f"/documents/{_q(ref)}", params=params)

    def remove(self, ref: str) -> Document:
        return Document.model_validate(self._call("DELETE", f"/documents/{_q(ref)}", params={"full": 1}))

    def ingest(
        self, paths: Iterable[Path | str], progress: Any = None, index: bool = True, reparse: bool = False
    ) -> list[IngestResult]:
        """Upload each PDF and follow its job; results in file order, as the local ingest gives them."""
        from pagelens.ingest.coordinator import expand_paths

        if not index:
            raise PagelensError("--no-index is not available while a server owns this home (it always indexes)")
        if reparse:
            raise PagelensError("--reparse is not available while a server owns this home: use the server's "
                                "Reprocess (POST /documents/{doc_id}/reprocess), which re-parses in place")
        results: list[IngestResult] = []
        for path in expand_paths(paths):
            try:
                data = path.read_bytes()
            except OSError as exc:
                results.append(IngestResult(doc_id=None, name=path.name, path=str(path), status="failed",
                                            error=f"{path.name}: open: cannot read file ({exc.strerror or exc})"))
                continue
            try:
                jobs = self._call("POST", "/documents", files=[("files", (path.name, data, "application/pdf"))])["jobs"]
            except PagelensError as exc:  # refused upload (not a PDF, encrypted, too large): that file failed
                results.append(IngestResult(doc_id=None, name=path.name, path=str(path), status="failed", error=str(exc)))
                continue
            results.append(self._follow(jobs[0], path, progress))
        return results

    def _follow(self, job: dict[str, Any], path: Path, progress: Any) -> IngestResult:
        seen: tuple[str, int] | None = None
        while job["state"] in ("queued", "running"):
            time.sleep(JOB_POLL_S)
            job = self._call("GET", f"/jobs/{job['job_id']}")
            if progress and job["state"] == "running" and job["stage"] in ("parse", "index") and job["pages"]:
                mark = (job["stage"], job["page"])
                if mark != seen:
                    seen = mark
                    progress(path.name, job["stage"], job["page"], job["pages"])
        if job.get("result"):
            return IngestResult.model_validate(job["result"])
        return IngestResult(doc_id=job.get("doc_id"), name=path.name, path=str(path), status="failed",
                            error=job.get("error") or f"{path.name}: ingest failed")

    # -- questions --------------------------------------------------------------------------------
    def search(self, query: str, *, k: int | None = None, mode: str = "hybrid",
               docs: Iterable[str] | None = None) -> list[SearchHit]:
        body = {"query": query, "k": k or self.settings.retrieval.k, "mode": mode, "doc_ids": list(docs) if docs else None}
        return [_hit(h) for h in self._call("POST", "/search", json=body)["hits"]]

    def ask(self, question: str, *, history: list[tuple[str, str]] | None = None, docs: Iterable[str] | None = None,
            hyde: bool | None = None, multi_query: int | None = None, rerank: bool = True, k: int | None = None) -> Answer:
        # chat: the server keeps the history of the conversation this client started with its first turn
        conv = self._conversation if history else None
        body = {"question": question, "conversation_id": conv, "history": bool(history), "hyde": bool(hyde),
                "multi_query": multi_query or 0, "rerank": rerank, "doc_ids": list(docs) if docs else None, "k": k}
        out = self._call("POST", "/query", params={"raw": 1}, json=body)
        self._conversation = out["conversation_id"]
        return Answer.model_validate(out["raw"])

    def ask_stream(self, question: str, **kw: Any) -> Iterator[dict[str, Any]]:
        answer = self.ask(question, **kw)
        yield {"type": "sources", "sources": answer.sources}
        yield {"type": "token", "text": answer.answer}
        yield {"type": "done", "answer": answer}

    def page_png(self, doc_id: str, page: int, scale: float = 1.0) -> bytes:
        try:
            r = self.http.get(f"/documents/{_q(doc_id)}/pages/{page}.png", params={"scale": scale})
        except httpx.HTTPError as exc:
            raise PagelensError(f"server at {self.url}: {exc}") from None
        if r.status_code >= 400:
            raise PagelensError(r.json().get("detail", f"HTTP {r.status_code}"))
        return r.content

    def doctor(self) -> list[Any]:
        from pagelens.app import ComponentStatus

        return [ComponentStatus(**c) for c in self._call("GET", "/components")]


def _q(ref: str) -> str:
    """A doc reference for a URL path; a path becomes its file name (the server stores uploads
    under its own folder, so only the name can match)."""
    from urllib.parse import quote

    if "/" in ref or "\\" in ref:
        ref = Path(ref).name
    return quote(ref, safe="")


def _hit(h: dict[str, Any]) -> SearchHit:
    from pagelens.models import Chunk

    chunk = Chunk(
        id=h["chunk_id"], doc_id=h["doc_id"], doc_name=h["doc_name"], kind=h["kind"], text=h["text"], embed_text="",
        pages=h["pages"], bboxes=[(p, tuple(b)) for p, b in h["bboxes"]], element_ids=h.get("element_ids", []),
        section=h.get("section", []), image=h.get("image_id"),
    )
    score = h["rerank_score"] if h.get("rerank_score") is not None else h["score"]
    return SearchHit(rank=h["n"], score=score, chunk=chunk, channels=h.get("raw_channels", {}),
                     rerank_score=h.get("rerank_score"), parts=h.get("parts", []))
