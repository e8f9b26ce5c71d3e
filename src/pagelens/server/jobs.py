"""Background ingest jobs: one worker thread runs them one at a time through the ingest coordinator.

A job is one file. Its state moves queued → running → done | failed; while running, ``stage`` and
``page``/``pages`` follow the coordinator's progress (parse: pages; index: chunks, shown as the
matching share of the pages). Listeners (the /ws/jobs sockets) are called on every change, from the
worker thread; progress is throttled so a fast parse does not flood them.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

log = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], None]
Progress = Callable[[str, str, int, int], None]
Runner = Callable[["Job", Progress], None]
"""Does the job's work; sets ``job.doc_id``/``job.result``, raises (or sets ``job.error``) on failure."""

THROTTLE_S = 0.2


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


@dataclass
class Job:
    file: str
    run: Runner
    kind: str = "ingest"
    job_id: str = field(default_factory=lambda: uuid.uuid4().hex[:16])
    state: str = "queued"
    stage: str = "queued"
    page: int = 0
    pages: int = 0
    doc_id: str | None = None
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    created_at: str = field(default_factory=_now)
    updated_at: str = field(default_factory=_now)
    seq: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "job_id": self.job_id, "file": self.file, "kind": self.kind, "state": self.state, "stage": self.stage,
            "page": self.page, "pages": self.pages, "doc_id": self.doc_id, "error": self.error,
            "warnings": self.warnings, "result": self.result, "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


class Subscribers:
    """The /ws/jobs listeners of a job manager; the manager sets ``_listeners``, ``_ids`` and the
    ``_lock`` that guards them."""

    _lock: threading.Lock
    _listeners: dict[int, Listener]
    _ids: Iterator[int]

    def subscribe(self, listener: Listener) -> int:
        key = next(self._ids)
        with self._lock:
            self._listeners[key] = listener
        return key

    def unsubscribe(self, key: int) -> None:
        with self._lock:
            self._listeners.pop(key, None)

    def _broadcast(self, data: dict[str, Any], listeners: list[Listener] | None = None) -> None:
        """Send ``data`` to every listener (or to ``listeners``, taken under the caller's lock)."""
        if listeners is None:
            with self._lock:
                listeners = list(self._listeners.values())
        for fn in listeners:
            try:
                fn(data)
            except Exception:  # noqa: BLE001 - a gone socket must not stop the job
                log.debug("job listener failed", exc_info=True)


class JobManager(Subscribers):
    """Queue, worker thread, bounded memory of finished jobs, change listeners."""

    def __init__(self, keep: int = 200) -> None:
        self.keep = keep
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._lock = threading.Lock()
        self._listeners: dict[int, Listener] = {}
        self._ids = itertools.count()
        self._last_sent: dict[str, float] = {}
        self._stopping = False
        self._thread = threading.Thread(target=self._work, name="pagelens-jobs", daemon=True)
        self._thread.start()

    # -- public -----------------------------------------------------------------------------------
    def submit(self, file: str, run: Runner, kind: str = "ingest") -> Job:
        job = Job(file=file, run=run, kind=kind)
        with self._lock:
            self._jobs[job.job_id] = job
            self._trim()
        self._notify(job, force=True)
        self._queue.put(job)
        return job

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def list(self) -> list[Job]:
        with self._lock:
            return list(reversed(self._jobs.values()))

    def unfinished(self) -> list[Job]:
        return [j for j in self.list() if j.state in ("queued", "running")]

    def busy(self) -> bool:
        return bool(self.unfinished())

    def close(self, timeout: float = 5.0) -> None:
        """Start no further job (queued ones fail as 'server stopped'); wait a little for the running
        one (an interrupted ingest leaves nothing half-stored: the next run resumes it)."""
        self._stopping = True
        self._queue.put(None)
        self._thread.join(timeout)

    # -- worker -----------------------------------------------------------------------------------
    def _work(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            if self._stopping:
                self._update(job, state="failed", error=f"{job.file}: ingest: the server stopped before this job ran")
                continue
            self._update(job, state="running", stage="parse")
            started = time.perf_counter()
            try:
                job.run(job, lambda name, stage, done, total: self._progress(job, stage, done, total))
            except Exception as exc:  # noqa: BLE001 - a job's failure is reported on the job, never raised
                log.exception("job %s (%s) failed", job.job_id, job.file)
                job.error = job.error or " ".join(str(exc).split()) or type(exc).__name__
            log.info("job %s %s in %.1fs", job.job_id, job.file, time.perf_counter() - started)
            if job.error:
                self._update(job, state="failed", stage=job.stage)
            else:
                self._update(job, state="done", stage="done", page=job.pages)

    def _progress(self, job: Job, stage: str, done: int, total: int) -> None:
        if stage == "parse":
            self._update(job, stage="parse", page=done, pages=total, force=done >= total)
        else:
            pages = job.pages or total
            share = round(done / total * pages) if total else pages
            self._update(job, stage=stage, page=share, pages=pages, force=done >= total)

    def _update(self, job: Job, force: bool = True, **changes: Any) -> None:
        stage_changed = "stage" in changes and changes["stage"] != job.stage
        for k, v in changes.items():
            setattr(job, k, v)
        job.updated_at = _now()
        self._notify(job, force=force or stage_changed)

    def _notify(self, job: Job, force: bool) -> None:
        now = time.monotonic()
        if not force and now - self._last_sent.get(job.job_id, 0.0) < THROTTLE_S:
            return
        self._last_sent[job.job_id] = now
        self._broadcast(job.to_json())

    def _trim(self) -> None:
        finished = [k for k, j in self._jobs.items() if j.state in ("done", "failed")]
        for k in finished[: max(0, len(self._jobs) - self.keep)]:
            self._jobs.pop(k, None)
            self._last_sent.pop(k, None)
