"""What one server process holds: the facade over its data home, the read side, jobs, conversations.

Reads never wait for writes. The ingest job runs through ``app.coordinator`` (its writer lock, the
facade's embedder, the facade's catalog connection). Requests use their own side of the same engine:

* a second catalog connection (SQLite WAL: readers see committed documents while a write is open),
* a query embedder of their own, encoding with ``server.query_threads`` torch threads (1 beside an
  ingest, NOTES.md) — a fast tokenizer shared between threads fails with "Already borrowed", and
  the ingest's batches would otherwise make every query wait behind them,
* a retriever and answerer over the same vector store (qdrant-edge serves queries during upserts).
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from pathlib import Path
from typing import Any

from pagelens.app import Pagelens
from pagelens.errors import NotFoundError, PagelensError
from pagelens.server.conversations import Conversations
from pagelens.server.jobs import Job, JobManager, Progress
from pagelens.server.priority import QueryGate
from pagelens.server.render import PageRenderer
from pagelens.server.store import ServerStore
from pagelens.settings import Settings
from pagelens.store.catalog import open_catalog

log = logging.getLogger("pagelens.server")


class ServerState:
    def __init__(self, settings: Settings, pagelens: Pagelens | None = None) -> None:
        self.settings = settings
        self.store: ServerStore | None = None
        if pagelens is None:
            from pagelens.vectors import open_vector_store

            self.store = ServerStore(lambda: open_vector_store(settings))
        self.app = pagelens or Pagelens(settings, warn=lambda m: log.warning("%s", m), store=self.store)
        self.home = self.app.home
        self.uploads = Path(settings.uploads_dir).expanduser() if settings.uploads_dir else self.home / "uploads"
        self.catalog = open_catalog(settings)
        # Servers sharing a catalog (PostgreSQL) share its job queue; alone, jobs live in this process.
        self.shared = bool(settings.catalog_url)
        self.jobs: Any
        if self.shared:
            self.jobs = self._shared_jobs()
        else:
            self.jobs = JobManager(keep=settings.server.max_jobs_kept)
        self.conversations = Conversations(settings.server.max_conversations)
        self.pages = PageRenderer(settings.server.page_cache)
        self.gate = QueryGate(settings.server.query_concurrency, settings.server.query_nice)
        self._lock = threading.RLock()
        self._built: dict[str, Any] = {}

    def open(self) -> None:
        """Take the home now (a home owned by another process fails here, at start-up)."""
        self.app.indexer.ensure()
        threading.Thread(target=self._warm, name="pagelens-warm-query", daemon=True).start()
        if self.shared:
            # Other servers' parses and index threads own what they staged and owe: replays leave those
            # alone, and owed work is settled by a recover job only while the queue is idle.
            self.app.coordinator.exclusive = False
            if self.catalog.vector_jobs() and not self.jobs.unfinished():
                self.jobs.submit("pending index work", kind="recover")
        elif self.catalog.vector_jobs():  # vector work a killed process left owed: the first job does it
            self.jobs.submit("pending index work", lambda job, progress: self.app.coordinator.replay_pending(),
                             kind="recover")

    def start_jobs(self) -> None:
        """Start claiming shared jobs (the in-process queue runs from construction)."""
        if self.shared:
            self.jobs.start()

    def _shared_jobs(self) -> Any:
        from pagelens.server.shared_jobs import SharedJobManager
        from pagelens.store.catalog.jobs import CatalogJobQueue

        if not self.settings.uploads_dir:
            log.warning("shared catalog without uploads_dir: uploads go to %s, which only this server reads; "
                        "set PAGELENS_UPLOADS_DIR to a folder every server mounts", self.uploads)
        srv = self.settings.server
        # Its own catalog connection: claims and progress never wait behind an ingest's transaction.
        return SharedJobManager(
            CatalogJobQueue(open_catalog(self.settings)), self._run_shared, lease_s=srv.job_lease_s,
            poll_s=srv.job_poll_s, attempts=srv.job_attempts, keep=srv.max_jobs_kept,
        )

    def _run_shared(self, job: Any, progress: Progress) -> None:
        """A job claimed from the shared queue, run here whichever server submitted it."""
        if job.kind == "recover":
            others = [j for j in self.jobs.unfinished() if j.job_id != job.job_id and j.state == "running"]
            self.app.coordinator.replay_pending(exclusive=not others)
            return
        path = Path(job.source)
        if not path.is_file():
            job.error = (f"{job.file}: {job.kind}: the upload {path} is not readable on this server; set "
                         "PAGELENS_UPLOADS_DIR to a folder every server mounts")
            return
        reparse = job.kind == "reprocess"
        if reparse and job.doc_id:
            doc = self.catalog.get_document(job.doc_id)
            if doc is not None:
                self._clear_for_reprocess(doc)
        self._ingest(job, path, progress, reparse=reparse)

    def close(self) -> None:
        self.jobs.close()
        self.catalog.close()
        self.app.close()
        if self.store is not None:  # given to the facade, so closed here (after deferred optimizing)
            self.store.close()

    def _warm(self) -> None:
        try:
            self.query_embedder.embed(["warm up"])
        except PagelensError as exc:
            log.warning("query embedder: %s", exc)

    # -- the read side ------------------------------------------------------------------------------
    def _component(self, name: str, build: Any) -> Any:
        with self._lock:
            if name not in self._built:
                self._built[name] = build()
            return self._built[name]

    @property
    def query_embedder(self) -> Any:
        def build() -> Any:
            injected = self.app.injected("embedder")
            if injected is not None:
                return injected
            from pagelens.embed import create_text_embedder

            from pagelens.server.embed_cache import CachedEmbedder

            embedder = create_text_embedder(self.settings.index)
            if hasattr(embedder, "threads"):
                embedder.threads = self.settings.server.query_threads
            return CachedEmbedder(embedder)

        return self._component("query_embedder", build)

    @property
    def retriever(self) -> Any:
        return self._component("retriever", lambda: self.app.build_retriever(self.query_embedder, self.catalog.doc_ids))

    @property
    def answer_cache(self) -> Any:
        return self._component("answer_cache", lambda: self.app.build_answer_cache(self.query_embedder))

    @property
    def answerer(self) -> Any:
        return self._component(
            "answerer", lambda: self.app.build_answerer(self.retriever, self.query_embedder, self.answer_cache)
        )

    def resolve_docs(self, refs: list[str] | None) -> list[str] | None:
        if not refs:
            return None
        return [self.catalog.resolve(r).doc_id for r in refs]

    def is_indexed(self, doc_id: str) -> bool:
        return self.catalog.is_indexed(doc_id, self.settings.index_name())

    def clear_answer_cache(self) -> int:
        cache = self.answer_cache
        if cache is None:
            return 0
        n = len(cache)
        cache.clear()
        other = self.app.answer_cache  # the coordinator's instance over the same collection
        if other is not None:
            other._ready = False
        return n

    # -- jobs ---------------------------------------------------------------------------------------
    def save_upload(self, name: str, data: bytes, sha: str) -> Path:
        """Store an upload as ``uploads/<sha>/<clean name>``: no path escapes, and two different files
        with one name never overwrite each other."""
        folder = self.uploads / sha[:16]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / clean_name(name)
        if not path.exists():
            tmp = path.with_suffix(path.suffix + ".part")
            tmp.write_bytes(data)
            tmp.replace(path)
        return path

    def submit_ingest(self, path: Path) -> Job:
        if self.shared:
            return self.jobs.submit(path.name, kind="ingest", source=str(path))

        def run(job: Job, progress: Progress) -> None:
            self._ingest(job, path, progress)

        return self.jobs.submit(path.name, run)

    def submit_reprocess(self, doc_id: str) -> Job:
        doc = self.catalog.resolve(doc_id)
        path = Path(doc.path)
        if not path.is_file():
            raise NotFoundError(f"{doc.name}: the original file is gone ({path}); upload it again")

        if self.shared:
            return self.jobs.submit(doc.name, kind="reprocess", source=str(path), doc_id=doc.doc_id)

        def run(job: Job, progress: Progress) -> None:
            self._clear_for_reprocess(doc)
            self._ingest(job, path, progress, reparse=True)

        job = self.jobs.submit(doc.name, run, kind="reprocess")
        job.doc_id = doc.doc_id
        return job

    def _clear_for_reprocess(self, doc: Any) -> None:
        """Before a reprocess parses again: drop the document's OCR and enrichment caches (so they are
        computed afresh) and its rendered pages. The document itself stays listed and searchable; the
        re-parse replaces its elements and vectors in place (``ingest(reparse=True)``)."""
        from pagelens.server.reprocess import clear_document_caches

        clear_document_caches(self.app, doc)
        self.pages.forget(doc.doc_id)

    def _ingest(self, job: Job, path: Path, progress: Progress, reparse: bool = False) -> None:
        results = self.app.coordinator.ingest([path], progress=progress, reparse=reparse)
        if not results:
            job.error = f"{path.name}: ingest: nothing to ingest"
            return
        r = results[0]
        job.doc_id = r.doc_id
        job.result = r.model_dump(mode="json")
        job.warnings = list(r.page_errors)
        if r.pages:
            job.pages = r.pages
        if r.status == "failed":
            job.error = r.error or f"{path.name}: ingest failed"


_UNSAFE = re.compile(r"[^\w.\- ()\[\]+,@]+")


def clean_name(name: str) -> str:
    """A file name safe to store: no folders, no control or odd characters, ends in .pdf, ≤ 120 chars."""
    base = unicodedata.normalize("NFC", name).replace("\\", "/").split("/")[-1]
    base = _UNSAFE.sub("_", base).strip(" .") or "upload"
    stem, dot, ext = base.rpartition(".")
    if not dot or ext.lower() != "pdf":
        stem, ext = base, "pdf"
    stem = stem.strip(" .") or "upload"
    return f"{stem[:115]}.{ext}"
