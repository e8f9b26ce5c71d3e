"""Parse tasks on a Ray cluster: the :class:`~pagelens.ingest.executor.ParseExecutor` for many machines.

    pagelens ingest papers/ --ray                    # a local Ray on this machine (ingest.ray_num_cpus)
    pagelens ingest papers/ --ray auto               # the cluster `ray start` made on this machine
    pagelens ingest papers/ --ray=ray://head:10001   # a remote cluster (Ray client)

What runs where. The scheduler (:mod:`pagelens.ingest.parallel`) stays on the driver, unchanged: it
hashes each file, cuts it into a ``prepare`` task and page-range ``pages`` tasks, merges the ranges in
page order and commits each document in one catalog transaction (with its pending vector work), as
with local processes. Each task here is one Ray task (``num_cpus=1``) that runs the very same task
function as a local parser process (:meth:`pagelens.ingest.worker.Worker.run`: text, tables, figures,
formulas, forms, OCR) and returns that function's events — warnings, progress, the parsed pages. A
Ray worker process keeps its parsing components (catalog connection for the OCR cache, OCR engine,
layout model) between tasks. Workers read the PDF at its path and check its hash, so on several
machines the files must sit at the same path on each (a shared mount); their catalog is the one the
settings name (PostgreSQL, ``PAGELENS_CATALOG_URL``, when workers are on other machines) and figure
images go to ``images_dir`` (a shared folder or fsspec URL).

Retries and idempotence. A task is retried by Ray when its worker process dies (``max_retries``,
``ingest.ray_max_retries``; a Python error inside a task is not retried: the parser already turned it
into a one-line failure of that file). Re-running a task is harmless by construction: a task writes no
document — only content-addressed caches (OCR results keyed by image hash, figure PNGs by content hash)
— and its result is a pure function of (document hash, page range, settings), so a rerun returns the
same pages, which the driver keys by page number. The document is written once, by the driver, in one
transaction; a task whose worker died and whose retries ran out fails only its file, with one line.

Embedding (``ingest.ray_embed``, off by default): chunk texts go to Ray tasks of
``index.embed_batch_size`` texts (``ingest.ray_num_gpus`` GPUs each; a task given a GPU runs the model
there with torch), several in parallel, and the vectors come back to the driver. Upserts stay on the
driver for both vector engines. With the embedded engine (qdrant-edge) the driver is the only process
that may write the index: the engine locks its folder. With a Qdrant server (``PAGELENS_QDRANT_URL``)
workers could upsert directly, but the driver is the one that knows when a document's catalog
transaction has committed and what marks it indexed; points written by workers before that commit
could outlive a document that then failed to commit, and "the catalog is the source of truth, the
index follows it" would no longer hold — while sending 384 floats per chunk back costs ~1.5 kB. Point
ids are deterministic (``point_id(chunk_id)``), so any upsert, repeated or not, is idempotent. On the
2-core CPU machine measured here embedding on the workers only competes with parsing for the same
cores, hence off by default; it is for clusters whose workers hold GPUs.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import socket
from collections import deque
from pathlib import Path
from typing import Any

from pagelens.errors import ComponentUnavailable, IndexError_
from pagelens.faults import crash_once
from pagelens.ingest.executor import ParseTask, TaskEvent
from pagelens.settings import Settings

LOCAL_OBJECT_STORE_BYTES = 256 * 2**20
"""Object store of a local Ray: task results are parsed pages (kilobytes), not arrays."""


def require_ray() -> Any:
    """The ``ray`` module, or a one-line error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ComponentUnavailable("Ray", "not installed", "pip install 'pagelens[ray]'") from None
    return ray


class _Outbox(io.StringIO):
    """The worker's event stream inside a Ray task: the JSON lines it writes, read back per task."""

    def take(self) -> list[dict[str, Any]]:
        lines = self.getvalue().splitlines()
        self.seek(0)
        self.truncate()
        return [json.loads(line) for line in lines if line.strip()]


class _WorkerCache:
    """The parsing components of this Ray worker process, kept between tasks of the same settings."""

    key: str | None = None
    worker: Any = None

    @classmethod
    def get(cls, settings: dict[str, Any]) -> Any:
        key = hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode()).hexdigest()
        if cls.key != key:
            from pagelens import pdf_layout_import

            pdf_layout_import.defer()  # a Ray worker process: layout models load on first use, as locally
            from pagelens.ingest.worker import Worker

            if cls.worker is not None:
                cls.worker.catalog.close()
            cls.worker, cls.key = None, None
            cls.worker = Worker(Settings(**settings), _Outbox())
            cls.key = key
        return cls.worker


def run_parse_task(settings: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
    """Body of one Ray task: the worker's own task function; returns the events it emitted and the
    process that ran it."""
    worker = _WorkerCache.get(settings)
    worker.run(task)
    events = worker.out.take()
    if task.get("kind") == "pages":
        # Test hook (pagelens.faults): the worker dies after parsing, before returning its pages.
        crash_once(settings.get("fault_at"), "ray-task", Path(settings["home"]) / ".fault-ray-task")
    return {"pid": os.getpid(), "events": events}


class _EmbedderCache:
    """The text model of this Ray worker process, kept between embedding tasks."""

    key: str | None = None
    embedder: Any = None

    @classmethod
    def get(cls, index_settings: dict[str, Any]) -> Any:
        import ray

        gpu = bool(ray.get_gpu_ids())
        key = hashlib.sha256(json.dumps([index_settings, gpu], sort_keys=True, default=str).encode()).hexdigest()
        if cls.key != key:
            from pagelens.embed import create_text_embedder
            from pagelens.settings import IndexSettings

            ix = IndexSettings(**index_settings)
            if gpu:  # the GPU this task was given: torch there (the ONNX fast path is CPU only)
                ix = ix.model_copy(update={"embed_runtime": "torch"})
            embedder = create_text_embedder(ix)
            load = getattr(embedder, "_load", None)  # the in-process model (an HTTP embedder has none)
            if gpu and load is not None:
                load().to("cuda")
            cls.embedder, cls.key = embedder, key
        return cls.embedder


def run_embed_task(settings: dict[str, Any], texts: list[str]) -> Any:
    """Body of one Ray embedding task: (len(texts), dim) float32, L2-normalised, in order."""
    import numpy as np

    return np.asarray(_EmbedderCache.get(settings["index"]).embed(texts), dtype=np.float32)


class RayTextEmbedder:
    """A :class:`~pagelens.embed.protocol.TextEmbedder` whose ``embed`` runs as Ray tasks of at most
    ``batch_size`` texts each, in parallel; name, dimension and token counts (chunk sizing) come from
    the driver's own embedder, which must be the same model as the workers build from the settings."""

    def __init__(self, local: Any, ray: Any, settings_ref: Any, *, batch_size: int, num_gpus: float, retries: int) -> None:
        self.local = local
        self._ray = ray
        self._settings = settings_ref
        self.batch_size = max(1, batch_size)
        self._remote = ray.remote(run_embed_task).options(
            num_cpus=0 if num_gpus else 1, num_gpus=num_gpus, max_retries=retries, retry_exceptions=False,
        )
        self.tasks = 0

    @property
    def name(self) -> str:
        return str(self.local.name)

    @property
    def dim(self) -> int:
        return int(self.local.dim)

    @property
    def max_tokens(self) -> int:
        return int(self.local.max_tokens)

    def count_tokens(self, text: str) -> int:
        return int(self.local.count_tokens(text))

    def embed(self, texts: list[str]) -> Any:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        refs = [self._remote.remote(self._settings, list(texts[i : i + self.batch_size]))
                for i in range(0, len(texts), self.batch_size)]
        self.tasks += len(refs)
        try:
            parts = self._ray.get(refs)
        except Exception as exc:  # retries ran out, or the model failed on the worker
            raise IndexError_(f"embedding on Ray failed ({_describe(exc)})") from None
        vectors = np.concatenate(parts).astype(np.float32, copy=False)
        if vectors.shape != (len(texts), self.dim):
            raise IndexError_(f"embedding on Ray: the workers' model gives {vectors.shape[1]}-d vectors, this "
                              f"process's {self.dim}-d (index.embedder must name the same model everywhere)")
        return vectors


def probe_address(address: str, timeout: float = 3.0) -> None:
    """Fail in seconds, with one line, when nothing listens at ``host:port`` or ``ray://host:port``
    (Ray itself retries an unreachable head for minutes). 'auto' and other forms are left to Ray."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit() or not host or address == "auto":
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ComponentUnavailable("Ray", f"nothing answers at {address} ({exc.strerror or type(exc).__name__})",
                                   "start the head with `ray start --head`, or check --ray ADDRESS") from None


def _describe(exc: BaseException) -> str:
    first = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


class RayExecutor:
    """Runs parse tasks as Ray tasks; ``slots`` = the cluster's CPUs (or ``num_cpus`` of a local Ray)."""

    def __init__(
        self, settings: Settings, *, address: str | None = None, num_cpus: int | None = None,
        max_retries: int | None = None,
    ) -> None:
        ray = require_ray()
        self._ray = ray
        ing = settings.ingest
        address = address if address is not None else ing.ray_address
        num_cpus = num_cpus if num_cpus is not None else ing.ray_num_cpus
        retries = max_retries if max_retries is not None else ing.ray_max_retries
        self._owns = False
        if not ray.is_initialized():  # a caller (tests, a notebook) may have connected already
            quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR, "include_dashboard": False}
            try:
                if not address or address == "local":
                    ray.init(address="local", num_cpus=num_cpus or os.cpu_count() or 1,
                             object_store_memory=LOCAL_OBJECT_STORE_BYTES, **quiet)
                else:
                    probe_address(address)
                    ray.init(address=address, **quiet)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise ComponentUnavailable("Ray", f"cannot start or reach it at {address or 'local'}: {_describe(exc)}") from None
            self._owns = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.slots = max(1, cpus)
        dumped = settings.model_dump(mode="json")  # API keys come out masked; parsing needs none
        if ing.ray_embed and settings.index.embed_api_key is not None:
            # An HTTP embedder on the workers needs its key: it travels in the object store, never logged.
            dumped["index"]["embed_api_key"] = settings.index.embed_api_key.get_secret_value()
        self._settings = ray.put(dumped)
        self._remote = ray.remote(run_parse_task).options(num_cpus=1, max_retries=retries, retry_exceptions=False)
        self._inflight: dict[Any, ParseTask] = {}
        self._pending: deque[TaskEvent] = deque()
        self._embed = ing.ray_embed
        self.embedder: RayTextEmbedder | None = None
        self._embed_options = {"batch_size": settings.index.embed_batch_size, "num_gpus": ing.ray_num_gpus,
                               "retries": retries}
        self.pids: set[int] = set()  # the Ray worker processes whose tasks returned
        self.submitted = 0

    def text_embedder(self, local: Any) -> RayTextEmbedder | None:
        """With ``ingest.ray_embed``: an embedder that runs ``local``'s model on the workers."""
        if not self._embed:
            return None
        self.embedder = RayTextEmbedder(local, self._ray, self._settings, **self._embed_options)
        return self.embedder

    def submit(self, task: ParseTask) -> None:
        if len(self._inflight) >= self.slots:
            raise RuntimeError("submit: every slot is busy (submit at most `slots` tasks)")
        ref = self._remote.remote(self._settings, task.to_json())
        self._inflight[ref] = task
        self.submitted += 1

    def next_event(self, timeout: float | None = None) -> TaskEvent | None:
        if self._pending:
            return self._pending.popleft()
        if not self._inflight:
            return None
        ready, _ = self._ray.wait(list(self._inflight), num_returns=1, timeout=timeout)
        if not ready:
            return None
        task = self._inflight.pop(ready[0])
        self._pending.extend(self._events(task, ready[0]))
        return self._pending.popleft()

    def _events(self, task: ParseTask, ref: Any) -> list[TaskEvent]:
        name = os.path.basename(task.path)
        try:
            out = self._ray.get(ref)
        except Exception as exc:  # the worker died more than max_retries times, the node was lost, ...
            return [TaskEvent(task.id, "failed", {"error": f"{name}: parse: the Ray task failed ({_describe(exc)})"})]
        self.pids.add(int(out["pid"]))
        events: list[TaskEvent] = []
        for msg in out["events"]:
            kind = msg.get("type")
            if kind == "warn":
                events.append(TaskEvent(task.id, "warn", {"message": str(msg.get("message", ""))}))
            elif kind == "progress":
                events.append(TaskEvent(task.id, "progress", {"done": int(msg.get("done", 0))}))
            elif kind == "done":
                events.append(TaskEvent(task.id, "done", msg.get("result") or {}))
            elif kind == "failed":
                events.append(TaskEvent(task.id, "failed", {"error": str(msg.get("error", f"{name}: parse failed"))}))
        if not any(e.type in ("done", "failed") for e in events):
            events.append(TaskEvent(task.id, "failed", {"error": f"{name}: parse: the Ray task returned no result"}))
        return events

    def close(self) -> None:
        for ref in list(self._inflight):
            try:
                self._ray.cancel(ref, force=True)
            except Exception:  # noqa: BLE001 - already finished or its worker is gone
                pass
        self._inflight.clear()
        if self._owns and self._ray.is_initialized():
            self._ray.shutdown()
            self._owns = False
