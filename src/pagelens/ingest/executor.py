"""Executors of parse tasks: where the pages of a PDF are parsed.

The scheduler (:mod:`pagelens.ingest.parallel`) cuts documents into :class:`ParseTask` s — a
``prepare`` task per document (page count, metadata, running headers) then ``pages`` tasks over page
ranges — and hands them to a :class:`ParseExecutor`, which runs at most ``slots`` of them at once and
reports :class:`TaskEvent` s. :class:`LocalProcessExecutor` (the default) runs them in a pool of
``python -m pagelens.ingest.worker`` processes; another executor (e.g. Ray, for a cluster) only has
to implement the same three methods.

Protocol with a child process: tasks go to its stdin as JSON lines; events come back as JSON lines on
a dedicated pipe (its fd number is the child's only argument), never on stdout, so a library that
prints to stdout cannot break the protocol (the child's stdout and stderr go to a log file). A child
that dies (segfault, OOM kill) fails the task it held with a clear line and is replaced by a fresh one.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

from pagelens.settings import Settings

MAX_FAILED_STARTS = 3
"""Parser processes that die before they are ready, in a row, before the executor gives up."""

TaskKind = Literal["prepare", "pages"]
EventType = Literal["progress", "done", "failed", "warn"]


@dataclass(frozen=True)
class ParseTask:
    """One unit of parsing. ``pages`` tasks cover pages ``first``..``last - 1`` (0-based)."""

    id: int
    kind: TaskKind
    path: str
    doc_id: str
    first: int = 0
    last: int = 0
    furniture: tuple[str, ...] = ()
    inline_pages: int = 0  # prepare: also parse the pages when the document has at most this many

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["furniture"] = list(self.furniture)
        return data


@dataclass
class TaskEvent:
    """What an executor reports. ``done``: ``data`` is the task's result; ``failed``: ``data['error']``
    is a one-line message; ``progress``: ``data['done']`` pages of the task; ``warn``: ``data['message']``
    (``task`` may be -1 for a warning not tied to a task)."""

    task: int
    type: EventType
    data: dict[str, Any] = field(default_factory=dict)


class ParseExecutor(Protocol):
    """Runs parse tasks somewhere. The caller never submits more than ``slots`` tasks at once."""

    slots: int

    def submit(self, task: ParseTask) -> None: ...

    def next_event(self, timeout: float | None = None) -> TaskEvent | None:
        """The next event, or None after ``timeout`` seconds without one."""
        ...

    def close(self) -> None: ...


def default_workers(settings: Settings) -> int:
    configured = getattr(settings.ingest, "workers", 0)
    return configured if configured > 0 else max(1, os.cpu_count() or 1)


def create_executor(settings: Settings) -> ParseExecutor:
    if settings.ingest.executor == "ray":
        from pagelens.ingest.ray_executor import RayExecutor

        return RayExecutor(settings)
    return LocalProcessExecutor(settings, workers=default_workers(settings))


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "no exit code"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = " (out of memory?)" if -code == signal.SIGKILL else ""
        return f"killed by {name}{hint}"
    return f"exit code {code}"


class _Child:
    """One parser process and the thread that reads its event pipe."""

    def __init__(self, command: list[str], init: str, events: "queue.Queue[tuple[_Child, dict[str, Any] | None]]") -> None:
        read_fd, write_fd = os.pipe()
        # Output goes to a file, not a pipe: a chatty library must never block the child on a full pipe.
        self.log = tempfile.TemporaryFile(mode="w+b")
        try:
            self.proc = subprocess.Popen(
                [*command, str(write_fd)], stdin=subprocess.PIPE, stdout=self.log, stderr=self.log,
                pass_fds=(write_fd,), env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        finally:
            os.close(write_fd)
        self.task: ParseTask | None = None
        self.retiring = False
        self.ready = False  # set when the child says it has loaded its components
        self._events = events
        self._pipe = os.fdopen(read_fd, "rb")
        self._send(init)
        self.reader = threading.Thread(target=self._read, name=f"pagelens-parser-{self.proc.pid}", daemon=True)
        self.reader.start()

    def _send(self, line: str) -> bool:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False  # the reader sees the EOF and reports the task as failed

    def run(self, task: ParseTask) -> None:
        self.task = task
        self._send(json.dumps(task.to_json()))

    def _read(self) -> None:
        with self._pipe:
            for line in self._pipe:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue  # a torn line from a dying child: its EOF follows
                self._events.put((self, msg))
        self._events.put((self, None))

    def last_output(self) -> str:
        try:
            self.log.seek(max(0, self.log.seek(0, os.SEEK_END) - 4096))
            lines = [ln.strip() for ln in self.log.read().decode(errors="replace").splitlines() if ln.strip()]
        except (OSError, ValueError):
            return ""
        return lines[-1][:200] if lines else ""

    def stop(self, kill: bool = False) -> None:
        if self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()  # end of tasks: the child exits on its own
            except OSError:
                pass
        if kill and self.proc.poll() is None:
            self.proc.kill()

    def reap(self, timeout: float = 5.0) -> int | None:
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self.reader.join(timeout=timeout)
        self.log.close()
        return code


class LocalProcessExecutor:
    """A pool of up to ``workers`` parser processes on this machine."""

    def __init__(
        self, settings: Settings, workers: int = 1, *, command: list[str] | None = None, max_rss_mb: int | None = None,
    ) -> None:
        self.slots = max(1, workers)
        self.command = command or [sys.executable, "-m", "pagelens.ingest.worker"]
        self.max_rss_mb = max_rss_mb if max_rss_mb is not None else getattr(settings.ingest, "worker_max_rss_mb", 0)
        self._init = json.dumps({"settings": settings.model_dump(mode="json")})
        self._raw: queue.Queue[tuple[_Child, dict[str, Any] | None]] = queue.Queue()
        # One process now (it imports its libraries while the caller loads its model); the others when
        # a second task is submitted, so a one-file, one-page ingest starts one process, not one per core.
        self._children = [self._spawn()]
        self._retired: list[_Child] = []
        self._closed = False
        self._failed_starts = 0
        self._broken: str | None = None
        self._pending: deque[TaskEvent] = deque()
        self.restarts = 0  # children replaced after a crash or for memory

    def _spawn(self) -> _Child:
        return _Child(self.command, self._init, self._raw)

    def submit(self, task: ParseTask) -> None:
        for child in self._children:
            if child.task is None and not child.retiring:
                child.run(task)
                return
        if len(self._children) < self.slots and not self._broken:
            self._children.append(self._spawn())
            self._children[-1].run(task)
            return
        if self._broken:  # no process left to run it: the task fails with the reason
            name = os.path.basename(task.path)
            error = f"{name}: parse: the parser processes exit as they start ({self._broken}); run `pagelens doctor`"
            self._pending.append(TaskEvent(task.id, "failed", {"error": error}))
            return
        raise RuntimeError("submit: every parser process is busy (submit at most `slots` tasks)")

    def next_event(self, timeout: float | None = None) -> TaskEvent | None:
        while True:
            if self._pending:
                return self._pending.popleft()
            try:
                child, msg = self._raw.get(timeout=timeout)
            except queue.Empty:
                return None
            event = self._handle(child, msg)
            if event is not None:
                return event

    def _handle(self, child: _Child, msg: dict[str, Any] | None) -> TaskEvent | None:
        if msg is None:  # the child's pipe closed: it exited or died
            task, child.task = child.task, None
            code = child.proc.wait()
            last = child.last_output()
            child.reap()
            if not child.ready and not self._closed:
                self._failed_starts += 1  # a child that cannot even start: do not respawn for ever
                if self._failed_starts >= MAX_FAILED_STARTS:
                    self._broken = f"{_describe_exit(code)}; last output: {last or '-'}"
            elif child.ready:
                self._failed_starts = 0
            if child in self._retired:
                self._retired.remove(child)
            if child in self._children:
                self._children.remove(child)
                if not self._closed and not self._broken:
                    self._children.append(self._spawn())
                    self.restarts += 1
            if task is None:
                return None
            why = _describe_exit(code)
            detail = f"; last output: {last}" if last else ""
            name = os.path.basename(task.path)
            return TaskEvent(task.id, "failed", {"error": f"{name}: parse: the parser process died ({why}){detail}"})
        kind = msg.get("type")
        task_id = int(msg.get("task", -1))
        if kind == "ready":
            child.ready = True
            return None
        if kind == "warn":
            return TaskEvent(task_id, "warn", {"message": str(msg.get("message", ""))})
        if kind == "progress":
            return TaskEvent(task_id, "progress", {"done": int(msg.get("done", 0))})
        if kind in ("done", "failed"):
            if child.task is None or child.task.id != task_id:
                return None  # not the task this child holds: ignore
            child.task = None
            if self.max_rss_mb and float(msg.get("rss_mb", 0)) > self.max_rss_mb and not self._closed:
                # It has grown (fonts, model arenas): a fresh process takes its place, this one exits.
                child.retiring = True
                child.stop()
                self._children.remove(child)
                self._retired.append(child)
                self._children.append(self._spawn())
                self.restarts += 1
            if kind == "done":
                return TaskEvent(task_id, "done", msg.get("result") or {})
            return TaskEvent(task_id, "failed", {"error": str(msg.get("error", "parse failed"))})
        return None

    @property
    def pids(self) -> list[int]:
        return [c.proc.pid for c in self._children]

    def close(self) -> None:
        self._closed = True
        for child in self._children:
            child.stop(kill=child.task is not None)
        for child in self._children + self._retired:
            child.reap()
        self._children, self._retired = [], []
