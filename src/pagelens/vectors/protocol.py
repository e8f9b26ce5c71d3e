"""The vector engine contract. Two implementations: qdrant-edge (embedded) and qdrant-client (server).

One collection per index identity holds every chunk as a point with named vectors:
``dense`` (text), ``caption`` (dense vector of a figure's caption/OCR/description), ``image`` (CLIP),
``summary`` (dense vector of an LLM summary) and the sparse ``bm25``. A point need not have all of them.

Every point's payload carries ``doc_id`` (indexed, used by the ``doc_ids`` filters and ``delete_doc``)
and ``chunk_id`` (the original chunk id; point ids are ``pagelens.vectors.point_id(chunk_id)``).

Reads on a collection that does not exist yet return nothing (``[]``, ``0``, ``set()``); writes to
it raise ``IndexError_`` until ``ensure_collection`` created it. Engine errors surface as
``IndexError_`` (and ``HomeLockedError`` when another process owns an embedded index).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pagelens.errors import IndexError_


@dataclass
class SparseVector:
    indices: list[int]
    values: list[float]


@dataclass
class PointRecord:
    id: str  # a UUID string (derived deterministically from the chunk id)
    dense: dict[str, list[float]] = field(default_factory=dict)  # name -> vector
    sparse: dict[str, SparseVector] = field(default_factory=dict)  # name -> sparse vector
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass
class ScoredPoint:
    id: str
    score: float
    payload: dict[str, Any]


@dataclass
class ChannelQuery:
    """One channel of a multi-channel search: which named vector to search, with what, how deep.

    ``vector`` is a dense list for a dense name and a ``SparseVector`` for a sparse one. ``weight`` is
    used only by ``hybrid`` (weighted reciprocal rank fusion); ``search_batch`` ignores it.
    """

    vector_name: str
    vector: list[float] | SparseVector
    limit: int
    weight: float = 1.0


@dataclass
class VectorSpec:
    dense: dict[str, int]  # name -> dimension (cosine distance)
    sparse: list[str]  # names of sparse vectors (IDF modifier)

    def accepts(self, query: ChannelQuery) -> bool:
        """True if the collection has ``query.vector_name``; False if it lacks it (that channel is
        simply empty); ``IndexError_`` if the name exists with the other kind (dense vs sparse)."""
        sparse = isinstance(query.vector, SparseVector)
        if query.vector_name in (self.sparse if sparse else self.dense):
            return True
        if query.vector_name in (self.dense if sparse else self.sparse):
            have = "dense" if sparse else "sparse"
            raise IndexError_(f"vector '{query.vector_name}' is {have}; query it with a {have} vector")
        return False


@runtime_checkable
class VectorStore(Protocol):
    """Minimal surface pagelens needs from a vector engine."""

    def ensure_collection(self, name: str, spec: VectorSpec) -> None:
        """Create the collection, or add the named vectors ``spec`` has that it lacks.
        A dimension that differs from the existing one raises ``IndexError_``."""
        ...

    def collection_spec(self, name: str) -> VectorSpec | None:
        """The named vectors of an existing collection; None if it does not exist."""
        ...

    def drop_collection(self, name: str) -> None:
        """Delete a collection and its data (no-op when it does not exist)."""
        ...

    def upsert(self, name: str, points: list[PointRecord]) -> None: ...

    def search_dense(
        self, name: str, vector_name: str, vector: list[float], limit: int, doc_ids: list[str] | None = None
    ) -> list[ScoredPoint]: ...

    def search_sparse(
        self, name: str, vector_name: str, vector: SparseVector, limit: int, doc_ids: list[str] | None = None
    ) -> list[ScoredPoint]: ...

    def search_batch(
        self, name: str, queries: list[ChannelQuery], doc_ids: list[str] | None = None
    ) -> list[list[ScoredPoint]]:
        """Several channels in one engine call; one ranked list per query, in order.
        Channels naming a vector the collection lacks give ``[]``."""
        ...

    def hybrid(
        self,
        name: str,
        queries: list[ChannelQuery],
        limit: int,
        rrf_k: int = 60,
        doc_ids: list[str] | None = None,
    ) -> list[ScoredPoint]:
        """Engine-side fusion: each channel is prefetched (``limit`` deep) and the lists are fused
        with weighted reciprocal rank fusion (Cormack et al. 2009); ``score`` is the RRF score."""
        ...

    def delete_doc(self, name: str, doc_id: str) -> None: ...

    def delete_ids(self, name: str, ids: list[str]) -> None:
        """Delete points by id (no-op for ids or a collection that do not exist)."""
        ...

    def doc_point_ids(self, name: str) -> dict[str, set[str]]:
        """Every point id of the collection grouped by its payload ``doc_id`` (a full scan: for
        consistency checks, not for queries). ``{}`` for a collection that does not exist."""
        ...

    def count(self, name: str, doc_id: str | None = None) -> int: ...

    def existing_ids(self, name: str, ids: list[str]) -> set[str]: ...

    def optimize(self, name: str) -> bool:
        """Build the search indexes (HNSW) for what was upserted; blocking. Call it after a large
        batch (the indexer does, once per ingest run). Points are searchable before it, by scan.
        Returns True if work was done."""
        ...

    def close(self) -> None: ...


class VectorStoreBase:
    """What adapters share: ``search_dense``/``search_sparse`` over their ``search_batch``, and use as a
    context manager over their ``close``."""

    def __enter__(self) -> "VectorStoreBase":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()  # type: ignore[attr-defined]

    def search_dense(
        self, name: str, vector_name: str, vector: list[float], limit: int, doc_ids: list[str] | None = None
    ) -> list[ScoredPoint]:
        return self.search_batch(name, [ChannelQuery(vector_name, list(vector), limit)], doc_ids)[0]  # type: ignore[attr-defined]

    def search_sparse(
        self, name: str, vector_name: str, vector: SparseVector, limit: int, doc_ids: list[str] | None = None
    ) -> list[ScoredPoint]:
        return self.search_batch(name, [ChannelQuery(vector_name, vector, limit)], doc_ids)[0]  # type: ignore[attr-defined]
