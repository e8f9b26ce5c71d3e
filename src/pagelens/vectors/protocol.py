"""The vector engine contract. Two implementations: qdrant-edge (embedded) and qdrant-client (server).

One collection per index identity holds every chunk as a point with named vectors:
``dense`` (text), ``caption`` (dense vector of a figure's caption/OCR/description), ``image`` (CLIP),
``summary`` (dense vector of an LLM summary) and the sparse ``bm25``. A point need not have all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


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
class VectorSpec:
    dense: dict[str, int]  # name -> dimension (cosine distance)
    sparse: list[str]  # names of sparse vectors (IDF modifier)


@runtime_checkable
class VectorStore(Protocol):
    """Minimal surface pagelens needs from a vector engine."""

    def ensure_collection(self, name: str, spec: VectorSpec) -> None: ...

    def upsert(self, name: str, points: list[PointRecord]) -> None: ...

    def search_dense(
        self, name: str, vector_name: str, vector: list[float], limit: int, doc_ids: list[str] | None = None
    ) -> list[ScoredPoint]: ...

    def search_sparse(
        self, name: str, vector_name: str, vector: SparseVector, limit: int, doc_ids: list[str] | None = None
    ) -> list[ScoredPoint]: ...

    def delete_doc(self, name: str, doc_id: str) -> None: ...

    def count(self, name: str, doc_id: str | None = None) -> int: ...

    def existing_ids(self, name: str, ids: list[str]) -> set[str]: ...

    def close(self) -> None: ...
