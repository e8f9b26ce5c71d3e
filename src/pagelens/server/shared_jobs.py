"""Ingest jobs shared by every server on one catalog (``PAGELENS_CATALOG_URL``): the queue is the
catalog's ``jobs`` table (``store.catalog.jobs``), not this process's memory.

Same surface as ``JobManager`` (submit, get, list, unfinished, busy, subscribe, close), so the routes
do not know which one they hold. Differences:

* ``submit`` writes a row; whichever server claims it first runs it (``claim``: ``FOR UPDATE SKIP
  LOCKED`` on PostgreSQL). A job is data — kind, file name, source path, doc id — and the claiming
  server's ``runner`` turns it into work, so the source must be readable there (``uploads_dir``).
* The claimer holds a lease it renews while the job runs (a heartbeat thread); a server that dies
  stops renewing and another server claims the job again once the lease is over.
* ``GET /jobs`` and ``/ws/jobs`` show the jobs of every server: a watcher polls the rows changed
  since its last look and tells the listeners, beside the direct notes of this server's own progress.
* Stopping leaves queued jobs queued (another server takes them) instead of failing them.
"""

from __future__ import annotations

import itertools
import logging
import socket
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from pagelens.errors import PagelensError
from pagelens.server.jobs import THROTTLE_S, Job, Listener, Progress, Subscribers
from pagelens.store.catalog.jobs import CatalogJobQueue, JobRow, job_json

log = logging.getLogger(__name__)

Runner = Callable[["SharedJob", Progress], None]
WRITE_EVERY_S = 0.5  # progress rows written at most this often per job (stage changes at once)


class SharedJob(Job):
    """A ``Job`` read from (and written back to) a catalog row."""

    row: JobRow

    @classmethod
    def of(cls, row: JobRow, run: Runner) -> "SharedJob":
        job = cls(file=row.file, run=run, kind=row.kind, job_id=row.job_id, state=row.state, stage=row.stage,
                  page=row.page, pages=row.pages, doc_id=row.doc_id, error=row.error, warnings=list(row.warnings),
                  result=row.result)
        job.row = row
        return job

    @property
    def source(self) -> str:
        return self.row.source

    def to_json(self) -> dict[str, Any]:
        data = job_json(self.row)
        data.update(state=self.state, stage=self.stage, page=self.page, pages=self.pages, doc_id=self.doc_id,
                    error=self.error, warnings=self.warnings, result=self.result)
        return data


def server_id() -> str:
    """This process's name in ``jobs.owner``: host, pid and a random tail (a restarted pid is another server)."""
    import os

    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class SharedJobManager(Subscribers):
    def __init__(
        self, queue: CatalogJobQueue, runner: Runner, *, name: str | None = None, lease_s: float = 60.0,
        poll_s: float = 1.0, attempts: int = 3, keep: int = 200,
    ) -> None:
        self.queue = queue
        self.runner = runner
        self.name = name or server_id()
        self.lease_s = lease_s
        self.poll_s = poll_s
        self.attempts = attempts
        self.keep = keep
        self._listeners: dict[int, Listener] = {}
        self._ids = itertools.count()
        self._lock = threading.Lock()  # listeners and the sent-state memory
        self._sent: dict[str, tuple[Any, ...]] = {}
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.current: SharedJob | None = None

    # -- lifecycle --------------------------------------------------------------------------------
    def start(self) -> None:
        if self._threads:
            return
        for target, label in ((self._work, "pagelens-claim"), (self._watch, "pagelens-job-watch")):
            t = threading.Thread(target=target, name=label, daemon=True)
            t.start()
            self._threads.append(t)

    def close(self, timeout: float = 5.0) -> None:
        """Claim nothing more; wait a little for the running job. If it does not end in time, its
        lease runs out and another server runs it again (an interrupted ingest resumes cleanly)."""
        self._stop.set()
        self._wake.set()
        for t in self._threads:
            t.join(timeout)
        self.queue.close()

    # -- the JobManager surface --------------------------------------------------------------------
    def submit(self, file: str, kind: str = "ingest", source: str = "", doc_id: str | None = None) -> SharedJob:
        row = self.queue.submit(uuid.uuid4().hex[:16], kind, file, source, self.name, doc_id=doc_id)
        self._wake.set()
        job = SharedJob.of(row, self.runner)
        self._notify(job)
        return job

    def get(self, job_id: str) -> SharedJob | None:
        row = self.queue.get(job_id)
        return SharedJob.of(row, self.runner) if row else None

    def list(self) -> list[SharedJob]:
        return [SharedJob.of(r, self.runner) for r in self.queue.list(self.keep)]

    def unfinished(self) -> list[SharedJob]:
        return [SharedJob.of(r, self.runner) for r in self.queue.unfinished()]

    def busy(self) -> bool:
        return bool(self.queue.unfinished())

    # -- claiming and running ----------------------------------------------------------------------
    def _work(self) -> None:
        while not self._stop.is_set():
            try:
                row = self.queue.claim(self.name, self.lease_s, self.attempts)
            except PagelensError as exc:  # the catalog is away for a moment: try again later
                log.warning("job queue: %s", exc)
                row = None
            if row is None:
                self._wake.wait(self.poll_s)
                self._wake.clear()
                continue
            self._run(SharedJob.of(row, self.runner))
            try:
                self.queue.prune(self.keep)
            except PagelensError as exc:
                log.warning("job queue: %s", exc)

    def _run(self, job: SharedJob) -> None:
        self.current = job
        lost = threading.Event()
        done = threading.Event()

        def heartbeat() -> None:
            while not done.wait(self.lease_s / 3):
                try:
                    if not self.queue.renew(job.job_id, self.name, self.lease_s):
                        lost.set()
                        log.warning("job %s (%s): another server holds it now", job.job_id, job.file)
                        return
                except PagelensError as exc:
                    log.warning("job %s: lease not renewed: %s", job.job_id, exc)

        beat = threading.Thread(target=heartbeat, name="pagelens-job-lease", daemon=True)
        beat.start()
        self._notify(job)
        started = time.perf_counter()
        last_write = [0.0]

        def progress(name: str, stage: str, done_: int, total: int) -> None:
            if stage == "parse":
                page, pages = done_, total
            else:
                pages = job.pages or total
                page = round(done_ / total * pages) if total else pages
            changed = stage != job.stage
            job.stage, job.page, job.pages = stage, page, pages
            now = time.monotonic()
            if changed or done_ >= total or now - last_write[0] >= WRITE_EVERY_S:
                last_write[0] = now
                try:
                    self.queue.progress(job.job_id, self.name, stage, page, pages)
                except PagelensError as exc:
                    log.debug("job %s progress not written: %s", job.job_id, exc)
            self._notify(job, force=changed)

        try:
            job.run(job, progress)
        except Exception as exc:  # noqa: BLE001 - a job's failure is reported on the job, never raised
            log.exception("job %s (%s) failed", job.job_id, job.file)
            job.error = job.error or " ".join(str(exc).split()) or type(exc).__name__
        finally:
            done.set()
            beat.join(5)
        log.info("job %s %s in %.1fs", job.job_id, job.file, time.perf_counter() - started)
        job.state = "failed" if job.error else "done"
        job.stage = job.stage if job.error else "done"
        if not job.error:
            job.page = job.pages
        try:
            kept = self.queue.finish(
                job.job_id, self.name, error=job.error, doc_id=job.doc_id, result=job.result,
                warnings=job.warnings, stage=job.stage, page=job.page, pages=job.pages,
            )
            if not kept:
                log.warning("job %s (%s): finished, but another server had claimed it meanwhile", job.job_id, job.file)
        except PagelensError as exc:
            log.warning("job %s: outcome not written (%s); its lease will run out and it runs again", job.job_id, exc)
        self.current = None
        self._notify(job)

    # -- telling the listeners -----------------------------------------------------------------------
    def _watch(self) -> None:
        """Every ``poll_s``: the rows any server changed since the last look go to the listeners."""
        mark: float | None = None
        while not self._stop.wait(self.poll_s):
            with self._lock:
                if not self._listeners:
                    mark = None
                    continue
            try:
                if mark is None:
                    mark = self.queue.now()
                rows = self.queue.changed_since(mark - 2.0)  # 2 s for commits that landed late
            except PagelensError as exc:
                log.debug("job watch: %s", exc)
                continue
            mine = self.current.job_id if self.current is not None else None
            for row in rows:
                if row.job_id != mine:  # this server's running job is told first-hand, and fresher
                    self._notify(SharedJob.of(row, self.runner))
            if rows:
                mark = max(r.updated for r in rows)

    def _notify(self, job: SharedJob, force: bool = True) -> None:
        key = (job.state, job.stage, job.page, job.pages, job.error)
        data = job.to_json()
        with self._lock:
            if self._sent.get(job.job_id) == key:
                return
            if not force and job.state == "running" and self._sent.get(job.job_id, (None,))[0] == "running":
                last = self._sent.get(f"t:{job.job_id}")
                if last and time.monotonic() - last[0] < THROTTLE_S:
                    return
            self._sent[job.job_id] = key
            self._sent[f"t:{job.job_id}"] = (time.monotonic(),)
            if len(self._sent) > 4 * self.keep + 100:  # bounded: drop the oldest half
                for k in list(self._sent)[: len(self._sent) // 2]:
                    self._sent.pop(k, None)
            listeners = list(self._listeners.values())
        self._broadcast(data, listeners)
