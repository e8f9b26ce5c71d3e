"""``QdrantServerStore``: the same collections on a Qdrant server or cluster, through qdrant-client.

Used when ``index.qdrant_url`` (``PAGELENS_QDRANT_URL``) is set. Several pagelens processes may
share a server. Tests pass ``QdrantClient(":memory:")``, which implements the same API in Python;
never point ``QdrantClient(path=...)`` at real data (pure Python, minutes to reopen at 200k points).
"""

from __future__ import annotations

import time
import warnings
from typing import TYPE_CHECKING, Any

from pagelens.errors import IndexError_
from pagelens.vectors.protocol import (
    ChannelQuery,
    PointRecord,
    ScoredPoint,
    VectorStoreBase,
    SparseVector,
    VectorSpec,
)

if TYPE_CHECKING:
    from pagelens.settings import QdrantCollectionSettings

_UPSERT_BATCH = 256
# Payload fields that filters use, indexed when a collection is created or first opened. Every filter
# pagelens sends (document filters, deletes, counts; ``_filter``) is on doc_id; kind and page are read
# from payloads but never filtered on, so indexing them would only cost RAM on every node.
_KEYWORD_INDEXES = ("doc_id",)
_OPTIMIZE_TIMEOUT_S = 600.0


class QdrantServerStore(VectorStoreBase):
    """A ``VectorStore`` over a ``qdrant_client.QdrantClient``; ``close`` closes the client."""

    def __init__(
        self, client: Any, *, label: str | None = None, layout: "QdrantCollectionSettings | None" = None
    ) -> None:
        self.client = client
        self.label = label or "qdrant server"
        self.layout = layout
        self._known: set[str] = set()
        self._specs: dict[str, VectorSpec] = {}  # cached: a search must not cost a describe call
        self._indexed: set[str] = set()  # collections whose payload indexes this process has ensured

    # -- collections ---------------------------------------------------------------------------

    def ensure_collection(self, name: str, spec: VectorSpec) -> None:
        m = _models()
        have = self.collection_spec(name)
        if have is None:
            try:
                self._call(name, "create", self.client.create_collection, name, **self._create_args(spec))
            except IndexError_:
                # Servers sharing a cluster start together: another one may have created it just now.
                if not self.client.collection_exists(name):
                    raise
                return self.ensure_collection(name, spec)
            self._payload_indexes(name, have=set())
            self._known.add(name)
            self._specs.pop(name, None)
            return
        self._specs.pop(name, None)
        if name not in self._indexed:  # a collection made by an older pagelens or another tool
            info = self._call(name, "describe", self.client.get_collection, name)
            self._payload_indexes(name, have=set((getattr(info, "payload_schema", None) or {}).keys()))
        for vname, dim in spec.dense.items():
            if vname in have.dense and have.dense[vname] != dim:
                raise IndexError_(
                    f"vector index {name}: vector '{vname}' has {have.dense[vname]} dimensions, "
                    f"the embedder gives {dim}; use a new index name"
                )
        for vname, dim in spec.dense.items():
            if vname not in have.dense:
                config = m.DenseVectorNameConfig(dense=m.DenseVectorConfig(size=dim, distance=m.Distance.COSINE))
                self._call(name, f"add vector {vname}", self.client.create_vector_name, name, vname, config)
        for vname in spec.sparse:
            if vname not in have.sparse:
                config = m.SparseVectorNameConfig(sparse=m.SparseVectorConfig(modifier=m.Modifier.IDF))
                self._call(name, f"add vector {vname}", self.client.create_vector_name, name, vname, config)

    def _payload_indexes(self, name: str, have: set[str]) -> None:
        """Create the payload indexes filters use that the collection lacks (idempotent on a server)."""
        m = _models()
        with warnings.catch_warnings():  # ":memory:" warns that payload indexes do nothing there
            warnings.simplefilter("ignore", UserWarning)
            for field in _KEYWORD_INDEXES:
                if field not in have:
                    self._call(
                        name, "create index", self.client.create_payload_index, name,
                        field_name=field, field_schema=m.PayloadSchemaType.KEYWORD, wait=True,
                    )
        self._indexed.add(name)

    def _create_args(self, spec: VectorSpec) -> dict[str, Any]:
        """create_collection's arguments: the vectors, and the cluster layout from the settings."""
        m = _models()
        lay = self.layout
        on_disk = bool(lay and lay.on_disk_vectors)
        args: dict[str, Any] = {
            "vectors_config": {
                n: m.VectorParams(size=d, distance=m.Distance.COSINE, on_disk=on_disk or None)
                for n, d in spec.dense.items()
            },
            "sparse_vectors_config": {
                n: m.SparseVectorParams(
                    modifier=m.Modifier.IDF, index=m.SparseIndexParams(on_disk=True) if on_disk else None
                )
                for n in spec.sparse
            },
        }
        if lay is None:
            return args
        args.update(
            shard_number=lay.shards,
            replication_factor=lay.replication_factor,
            write_consistency_factor=min(lay.write_consistency, lay.replication_factor),
            on_disk_payload=lay.on_disk_payload,
        )
        if lay.quantization == "scalar":
            # int8 copies in RAM for the search, originals (possibly on disk) for rescoring.
            args["quantization_config"] = m.ScalarQuantization(
                scalar=m.ScalarQuantizationConfig(type=m.ScalarType.INT8, quantile=0.99, always_ram=True)
            )
        elif lay.quantization == "binary":
            args["quantization_config"] = m.BinaryQuantization(binary=m.BinaryQuantizationConfig(always_ram=True))
        return args

    def collection_spec(self, name: str) -> VectorSpec | None:
        if not self._exists(name):
            return None
        params = self._call(name, "describe", self.client.get_collection, name).config.params
        vectors = params.vectors if isinstance(params.vectors, dict) else {"": params.vectors}
        spec = VectorSpec(
            dense={n: int(v.size) for n, v in vectors.items() if v is not None},
            sparse=list((params.sparse_vectors or {}).keys()),
        )
        self._specs[name] = spec
        return spec

    def _cached_spec(self, name: str, queries: list[ChannelQuery]) -> VectorSpec | None:
        """The cached spec, described again when a query names a vector it lacks (another process
        may have added it)."""
        spec = self._specs.get(name)
        if spec is None or any(c.vector_name not in spec.dense and c.vector_name not in spec.sparse for c in queries):
            spec = self.collection_spec(name)
        return spec

    def collections(self) -> list[str]:
        listed = self._call("*", "list", self.client.get_collections).collections
        return sorted(c.name for c in listed)

    def drop_collection(self, name: str) -> None:
        if self._exists(name):
            self._call(name, "drop", self.client.delete_collection, name)
        self._known.discard(name)
        self._indexed.discard(name)
        self._specs.pop(name, None)

    # -- writes --------------------------------------------------------------------------------

    def upsert(self, name: str, points: list[PointRecord]) -> None:
        if not points:
            return
        if not self._exists(name):
            raise IndexError_(f"vector index {name} does not exist on {self.label}; call ensure_collection first")
        m = _models()
        for start in range(0, len(points), _UPSERT_BATCH):
            batch = []
            for p in points[start : start + _UPSERT_BATCH]:
                if "doc_id" not in p.payload:
                    raise IndexError_(f"vector index {name}: point {p.id} ({p.payload.get('chunk_id')}) has no doc_id")
                vec: dict[str, Any] = {k: [float(x) for x in v] for k, v in p.dense.items()}
                for k, sv in p.sparse.items():
                    vec[k] = m.SparseVector(indices=list(sv.indices), values=[float(x) for x in sv.values])
                batch.append(m.PointStruct(id=p.id, vector=vec, payload=p.payload))
            self._call(name, "upsert", self.client.upsert, name, batch, wait=True)

    def delete_doc(self, name: str, doc_id: str) -> None:
        if self._exists(name):
            selector = _models().FilterSelector(filter=_filter([doc_id]))
            self._call(name, "delete", self.client.delete, name, points_selector=selector, wait=True)

    def delete_ids(self, name: str, ids: list[str]) -> None:
        if ids and self._exists(name):
            selector = _models().PointIdsList(points=list(ids))
            self._call(name, "delete", self.client.delete, name, points_selector=selector, wait=True)

    def doc_point_ids(self, name: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        if not self._exists(name):
            return out
        offset = None
        while True:
            records, offset = self._call(
                name, "scroll", self.client.scroll, name, limit=4096, offset=offset,
                with_payload=["doc_id"], with_vectors=False,
            )
            for r in records:
                out.setdefault(str((r.payload or {}).get("doc_id")), set()).add(str(r.id))
            if offset is None:
                return out

    def optimize(self, name: str) -> bool:
        """The server indexes in the background; wait (bounded) until the collection is green."""
        if not self._exists(name):
            return False
        m = _models()
        deadline = time.monotonic() + _OPTIMIZE_TIMEOUT_S
        waited = False
        while self._call(name, "status", self.client.get_collection, name).status != m.CollectionStatus.GREEN:
            if time.monotonic() > deadline:
                late = f"still optimizing after {_OPTIMIZE_TIMEOUT_S:.0f} s"
                raise IndexError_(f"vector index {name}: {self.label} {late}")
            waited = True
            time.sleep(0.5)
        return waited

    # -- reads ---------------------------------------------------------------------------------

    def search_batch(
        self, name: str, queries: list[ChannelQuery], doc_ids: list[str] | None = None
    ) -> list[list[ScoredPoint]]:
        out: list[list[ScoredPoint]] = [[] for _ in queries]
        spec = self._cached_spec(name, queries) if queries else None
        if spec is None:
            return out
        m = _models()
        flt = _filter(doc_ids) if doc_ids is not None else None
        known = [i for i, c in enumerate(queries) if spec.accepts(c)]
        requests = [
            m.QueryRequest(
                query=_query_vector(queries[i]), using=queries[i].vector_name, limit=queries[i].limit,
                filter=flt, with_payload=True,
            )
            for i in known
        ]
        if not requests:
            return out
        responses = self._call(name, "search", self.client.query_batch_points, name, requests)
        for i, response in zip(known, responses):
            out[i] = [_scored(h) for h in response.points]
        return out

    def hybrid(
        self,
        name: str,
        queries: list[ChannelQuery],
        limit: int,
        rrf_k: int = 60,
        doc_ids: list[str] | None = None,
    ) -> list[ScoredPoint]:
        spec = self._cached_spec(name, queries)
        if spec is None:
            return []
        channels = [c for c in queries if spec.accepts(c)]
        if not channels:
            return []
        m = _models()
        flt = _filter(doc_ids) if doc_ids is not None else None
        prefetch = [
            m.Prefetch(query=_query_vector(c), using=c.vector_name, limit=c.limit, filter=flt) for c in channels
        ]
        weights = [float(c.weight) for c in channels]
        rrf = m.Rrf(k=rrf_k, weights=None if all(w == 1.0 for w in weights) else weights)
        response = self._call(
            name, "hybrid search", self.client.query_points, name,
            prefetch=prefetch, query=m.RrfQuery(rrf=rrf), query_filter=flt, limit=limit, with_payload=True,
        )
        return [_scored(h) for h in response.points]

    def count(self, name: str, doc_id: str | None = None) -> int:
        if not self._exists(name):
            return 0
        flt = _filter([doc_id]) if doc_id is not None else None
        return int(self._call(name, "count", self.client.count, name, count_filter=flt, exact=True).count)

    def existing_ids(self, name: str, ids: list[str]) -> set[str]:
        if not ids or not self._exists(name):
            return set()
        found: set[str] = set()
        for start in range(0, len(ids), 1024):
            records = self._call(
                name, "retrieve", self.client.retrieve, name, ids[start : start + 1024],
                with_payload=False, with_vectors=False,
            )
            found.update(str(r.id) for r in records)
        return found

    def close(self) -> None:
        self.client.close()


    # -- helpers -------------------------------------------------------------------------------

    def _exists(self, name: str) -> bool:
        if name in self._known:
            return True
        if self._call(name, "look up", self.client.collection_exists, name):
            self._known.add(name)
            return True
        return False

    def _call(self, name: str, what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except IndexError_:
            raise
        except Exception as exc:  # qdrant-client: UnexpectedResponse, ResponseHandlingException, ValueError...
            msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise IndexError_(f"vector index {name} on {self.label}: {what} failed: {msg}") from exc


def _models() -> Any:
    from qdrant_client import models

    return models


def _filter(doc_ids: list[str]) -> Any:
    m = _models()
    return m.Filter(must=[m.FieldCondition(key="doc_id", match=m.MatchAny(any=list(doc_ids)))])


def _query_vector(c: ChannelQuery) -> Any:
    if isinstance(c.vector, SparseVector):
        return _models().SparseVector(indices=list(c.vector.indices), values=[float(v) for v in c.vector.values])
    return [float(x) for x in c.vector]


def _scored(hit: Any) -> ScoredPoint:
    return ScoredPoint(id=str(hit.id), score=float(hit.score), payload=dict(hit.payload or {}))
