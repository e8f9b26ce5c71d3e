"""``EdgeVectorStore``: the embedded engine, qdrant-edge, one shard directory per collection.

Layout under ``root`` (``<home>/qdrant``)::

    OWNER                 pid, host, command line and start time of the process that holds the home
    <collection>/         an EdgeShard: edge_config.json, wal/, segments/

One process owns a home: qdrant-edge locks each shard's WAL, and this store takes an advisory lock on
``OWNER`` when it opens, so a second process fails at once with ``HomeLockedError`` naming the owner
instead of a WAL error on its first query.

Persistence: updates go to the shard's write-ahead log and are flushed on ``close``. Points are
searchable right after ``upsert`` (segments without an HNSW graph are scanned); ``optimize`` builds
the graphs and blocks while doing it (see bench/retrieve.py for what it costs).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from pagelens.errors import ComponentUnavailable, HomeLockedError, IndexError_
from pagelens.vectors.protocol import (
    ChannelQuery,
    PointRecord,
    ScoredPoint,
    VectorStoreBase,
    SparseVector,
    VectorSpec,
)

# Segments whose vectors take less than this stay without an HNSW graph and are searched exactly by
# scan. 30,000 KB is ~20k 384-d float32 vectors. Measured on 2 loaded cores (bench/retrieve.py):
# a scan of 10k takes ~1 ms, 50k ~5-10 ms, 100k ~40 ms, while building HNSW for 10k random vectors
# took 16 s and gave no speed-up; qdrant's default (10,000 KB) would build graphs from ~6.5k chunks.
PLAIN_SEGMENT_KB = 30_000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
_UPSERT_BATCH = 512
_LOCKED_MARKERS = ("WouldBlock", "temporarily unavailable")  # qdrant-edge's WAL lock error


def _edge() -> Any:
    try:
        import qdrant_edge
    except ImportError as exc:  # pragma: no cover - a hard dependency, but say how to fix it
        raise ComponentUnavailable("qdrant-edge", str(exc), "pip install qdrant-edge-py") from exc
    return qdrant_edge


class _HomeLock:
    """An advisory lock on ``root/OWNER`` whose content says who holds it."""

    def __init__(self, root: Path, home: Path) -> None:
        self.path = root / "OWNER"
        self.home = home
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            _lock_fd(fd)
        except OSError:
            os.close(fd)
            raise HomeLockedError(self.describe_owner()) from None
        since = time.strftime("%Y-%m-%d %H:%M:%S")
        info = {"pid": os.getpid(), "host": socket.gethostname(), "command": _command_line(), "since": since}
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, (json.dumps(info) + "\n").encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.ftruncate(fd, 0)
        finally:
            os.close(fd)  # closing the descriptor drops the lock

    def describe_owner(self) -> str:
        try:
            info = json.loads(self.path.read_text() or "{}")
        except (OSError, ValueError):
            info = {}
        if not info:
            return f"data home {self.home} is in use by another process; stop it or use another --home"
        since = str(info.get("since", "?"))
        since = since.split(" ")[-1][:5] if since.startswith(time.strftime("%Y-%m-%d")) else since
        host = info.get("host")
        on_host = f" on {host}" if host and host != socket.gethostname() else ""
        return (
            f"data home {self.home} is in use by pid {info.get('pid', '?')} ({info.get('command', '?')})"
            f"{on_host} since {since}; stop it or use another --home"
        )


def _lock_fd(fd: int) -> None:
    """Exclusive, non-blocking, released by the kernel when the process dies."""
    if sys.platform == "win32":  # pragma: no cover
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _command_line() -> str:
    argv = list(sys.argv) if sys.argv else []
    first = Path(argv[0]).name if argv and argv[0] not in ("", "-", "-c") else "python"
    from pagelens.redact import mask_url

    shown = [mask_url(a) if "://" in a else a for a in argv[1:3]]  # no credentials in OWNER or messages
    return " ".join([first, *shown])[:80]


class EdgeVectorStore(VectorStoreBase):
    """Embedded qdrant-edge shards under ``root``; ``home`` only names the data home in messages."""

    def __init__(self, root: Path, *, home: Path | None = None, plain_segment_kb: int = PLAIN_SEGMENT_KB) -> None:
        self.root = Path(root)
        self.plain_segment_kb = plain_segment_kb
        self.root.mkdir(parents=True, exist_ok=True)
        self._q = _edge()
        self._lock = _HomeLock(self.root, Path(home) if home else self.root)
        self._lock.acquire()
        self._shards: dict[str, Any] = {}
        self._specs: dict[str, VectorSpec] = {}
        self._mutex = threading.RLock()
        self._closed = False

    # -- collections ---------------------------------------------------------------------------

    def ensure_collection(self, name: str, spec: VectorSpec) -> None:
        q = self._q
        with self._mutex:
            have = self.collection_spec(name)
            if have is None:
                shard = self._call(name, "create", q.EdgeShard.create, str(self._dir(name)), self._config(spec))
                index = q.UpdateOperation.create_field_index("doc_id", q.PayloadSchemaType.Keyword)
                self._call(name, "create index", shard.update, index)
                self._shards[name] = shard
                self._specs[name] = VectorSpec(dense=dict(spec.dense), sparse=list(spec.sparse))
                return
            for vname, dim in spec.dense.items():
                if vname in have.dense and have.dense[vname] != dim:
                    raise IndexError_(
                        f"vector index {name}: vector '{vname}' has {have.dense[vname]} dimensions, "
                        f"the embedder gives {dim}; use a new index name"
                    )
            shard = self._shard(name)
            for vname, dim in [(n, d) for n, d in spec.dense.items() if n not in have.dense]:
                op = q.UpdateOperation.create_dense_vector(vname, dim, q.Distance.Cosine)
                self._call(name, f"add vector {vname}", shard.update, op)
                have.dense[vname] = dim
            for vname in [n for n in spec.sparse if n not in have.sparse]:
                op = q.UpdateOperation.create_sparse_vector(vname, q.Modifier.Idf)
                self._call(name, f"add vector {vname}", shard.update, op)
                have.sparse.append(vname)

    def collection_spec(self, name: str) -> VectorSpec | None:
        with self._mutex:
            if name in self._specs:
                return self._specs[name]
            cfg_path = self._dir(name) / "edge_config.json"
            if not cfg_path.exists():
                return None
            try:
                raw = json.loads(cfg_path.read_text())
            except (OSError, ValueError) as exc:
                raise IndexError_(f"vector index {name}: unreadable {cfg_path}: {exc}") from exc
            spec = VectorSpec(
                dense={n: int(v["size"]) for n, v in (raw.get("vectors") or {}).items()},
                sparse=list((raw.get("sparse_vectors") or {}).keys()),
            )
            self._specs[name] = spec
            return spec

    def collections(self) -> list[str]:
        return sorted(p.name for p in self.root.iterdir() if (p / "edge_config.json").exists())

    def drop_collection(self, name: str) -> None:
        with self._mutex:
            shard = self._shards.pop(name, None)
            self._specs.pop(name, None)
            if shard is not None:
                shard.close()
            path = self._dir(name)
            if path.exists():
                shutil.rmtree(path)

    # -- writes --------------------------------------------------------------------------------

    def upsert(self, name: str, points: list[PointRecord]) -> None:
        if not points:
            return
        q = self._q
        shard = self._shard(name, create_hint=True)
        for start in range(0, len(points), _UPSERT_BATCH):
            batch = [self._to_point(name, p) for p in points[start : start + _UPSERT_BATCH]]
            self._call(name, "upsert", shard.update, q.UpdateOperation.upsert_points(batch))

    def delete_doc(self, name: str, doc_id: str) -> None:
        shard = self._shard(name, missing_ok=True)
        if shard is not None:
            op = self._q.UpdateOperation.delete_points_by_filter(self._filter([doc_id]))
            self._call(name, "delete", shard.update, op)

    def delete_ids(self, name: str, ids: list[str]) -> None:
        shard = self._shard(name, missing_ok=True)
        if shard is not None and ids:
            for start in range(0, len(ids), _UPSERT_BATCH):
                part = [_uuid(name, i) for i in ids[start : start + _UPSERT_BATCH]]
                self._call(name, "delete", shard.update, self._q.UpdateOperation.delete_points(part))

    def doc_point_ids(self, name: str) -> dict[str, set[str]]:
        shard = self._shard(name, missing_ok=True)
        out: dict[str, set[str]] = {}
        offset = None
        while shard is not None:
            request = self._q.ScrollRequest(offset=offset, limit=4096, with_payload=["doc_id"], with_vector=False)
            records, offset = self._call(name, "scroll", shard.scroll, request)
            for r in records:
                out.setdefault(str((r.payload or {}).get("doc_id")), set()).add(str(r.id))
            if offset is None:
                break
        return out

    def optimize(self, name: str) -> bool:
        shard = self._shard(name, missing_ok=True)
        if shard is None:
            return False
        done = bool(self._call(name, "optimize", shard.optimize))
        self._call(name, "flush", shard.flush)
        return done

    def flush(self) -> None:
        with self._mutex:
            for name, shard in self._shards.items():
                self._call(name, "flush", shard.flush)

    # -- reads ---------------------------------------------------------------------------------

    def search_batch(
        self, name: str, queries: list[ChannelQuery], doc_ids: list[str] | None = None
    ) -> list[list[ScoredPoint]]:
        q = self._q
        shard = self._shard(name, missing_ok=True)
        spec = self.collection_spec(name)
        if shard is None or spec is None or not queries:
            return [[] for _ in queries]
        flt = self._filter(doc_ids) if doc_ids is not None else None
        known = [i for i, c in enumerate(queries) if spec.accepts(c)]
        requests = [
            q.QueryRequest(limit=queries[i].limit, query=self._nearest(queries[i]), filter=flt, with_payload=True)
            for i in known
        ]
        out: list[list[ScoredPoint]] = [[] for _ in queries]
        if not requests:
            return out
        if len(requests) == 1:
            results = [self._call(name, "search", shard.query, requests[0])]
        else:
            results = self._call(name, "search", shard.query_batch, q.QueryBatchRequest(requests))
        for i, hits in zip(known, results):
            out[i] = [_scored(h) for h in hits]
        return out

    def hybrid(
        self,
        name: str,
        queries: list[ChannelQuery],
        limit: int,
        rrf_k: int = 60,
        doc_ids: list[str] | None = None,
    ) -> list[ScoredPoint]:
        q = self._q
        shard = self._shard(name, missing_ok=True)
        spec = self.collection_spec(name)
        if shard is None or spec is None:
            return []
        channels = [c for c in queries if spec.accepts(c)]
        if not channels:
            return []
        flt = self._filter(doc_ids) if doc_ids is not None else None
        prefetches = [q.Prefetch(limit=c.limit, query=self._nearest(c), filter=flt) for c in channels]
        weights = [float(c.weight) for c in channels]
        fusion = q.Fusion.Rrf(k=rrf_k, weights=None if all(w == 1.0 for w in weights) else weights)
        request = q.QueryRequest(limit=limit, query=fusion, prefetches=prefetches, filter=flt, with_payload=True)
        return [_scored(h) for h in self._call(name, "hybrid search", shard.query, request)]

    def count(self, name: str, doc_id: str | None = None) -> int:
        shard = self._shard(name, missing_ok=True)
        if shard is None:
            return 0
        flt = self._filter([doc_id]) if doc_id is not None else None
        return int(self._call(name, "count", shard.count, self._q.CountRequest(exact=True, filter=flt)))

    def existing_ids(self, name: str, ids: list[str]) -> set[str]:
        shard = self._shard(name, missing_ok=True)
        if shard is None or not ids:
            return set()
        found: set[str] = set()
        for start in range(0, len(ids), 4096):
            part = [_uuid(name, i) for i in ids[start : start + 4096]]
            records = self._call(name, "retrieve", shard.retrieve, part, False, False)
            found.update(str(r.id) for r in records)
        return found

    # -- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        with self._mutex:
            if self._closed:
                return
            self._closed = True
            try:
                for name, shard in self._shards.items():
                    self._call(name, "flush", shard.flush)
                    shard.close()
            finally:
                self._shards.clear()
                self._lock.release()


    # -- helpers -------------------------------------------------------------------------------

    def _dir(self, name: str) -> Path:
        if not _NAME.match(name):
            raise IndexError_(f"invalid collection name {name!r}: use letters, digits, '_', '-', '.'")
        return self.root / name

    def _shard(self, name: str, *, missing_ok: bool = False, create_hint: bool = False) -> Any:
        with self._mutex:
            if self._closed:
                raise IndexError_(f"vector index {name}: the store at {self.root} is closed")
            shard = self._shards.get(name)
            if shard is not None:
                return shard
            path = self._dir(name)
            if not (path / "edge_config.json").exists():
                if missing_ok:
                    return None
                raise IndexError_(f"vector index {name} does not exist under {self.root}; call ensure_collection first")
            spec = self.collection_spec(name)
            assert spec is not None
            # the stored vectors are given back unchanged; the optimizer settings are this version's
            shard = self._call(name, "open", self._q.EdgeShard.load, str(path), self._config(spec))
            self._shards[name] = shard
            return shard

    def _call(self, name: str, what: str, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except (IndexError_, HomeLockedError):
            raise
        except Exception as exc:  # qdrant-edge raises plain Exception; translate at the boundary
            msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            if what in ("open", "create") and any(m in msg for m in _LOCKED_MARKERS):
                raise HomeLockedError(self._lock.describe_owner()) from exc
            raise IndexError_(f"vector index {name}: {what} failed: {msg}") from exc

    def _config(self, spec: VectorSpec) -> Any:
        q = self._q
        return q.EdgeConfig(
            vectors={n: q.EdgeVectorParams(size=d, distance=q.Distance.Cosine) for n, d in spec.dense.items()},
            sparse_vectors={n: q.EdgeSparseVectorParams(modifier=q.Modifier.Idf) for n in spec.sparse},
            optimizers=q.EdgeOptimizersConfig(indexing_threshold=self.plain_segment_kb),
        )

    def _filter(self, doc_ids: list[str]) -> Any:
        q = self._q
        return q.Filter(must=[q.FieldCondition(key="doc_id", match=q.MatchAny(list(doc_ids)))])

    def _nearest(self, c: ChannelQuery) -> Any:
        q = self._q
        vec = c.vector
        if isinstance(vec, SparseVector):
            vec = q.SparseVector(indices=list(vec.indices), values=[float(v) for v in vec.values])
        else:
            vec = [float(x) for x in vec]
        return q.Query.Nearest(vec, using=c.vector_name)

    def _to_point(self, name: str, p: PointRecord) -> Any:
        q = self._q
        if "doc_id" not in p.payload:
            raise IndexError_(f"vector index {name}: point {p.id} ({p.payload.get('chunk_id')}) has no doc_id")
        vec: dict[str, Any] = {k: [float(x) for x in v] for k, v in p.dense.items()}
        for k, sv in p.sparse.items():
            vec[k] = q.SparseVector(indices=list(sv.indices), values=[float(x) for x in sv.values])
        return q.Point(_uuid(name, p.id), vec, p.payload)


def _uuid(name: str, point: str) -> str:
    try:
        return str(uuid.UUID(str(point)))
    except ValueError:
        raise IndexError_(
            f"vector index {name}: point id {point!r} is not a UUID; use pagelens.vectors.point_id(chunk_id)"
        ) from None


def _scored(hit: Any) -> ScoredPoint:
    return ScoredPoint(id=str(hit.id), score=float(hit.score), payload=dict(hit.payload or {}))
