"""Catalog ↔ index consistency: what ``pagelens check`` reports and repairs.

The catalog is the source of truth. For every document it holds, the chunks it should have in the
current index (the ids the chunker gives today) are compared with the points the engine has; points
of documents the catalog no longer has are orphans, and so are points of a known document that no
current chunk accounts for. Collections built under other index identities (an older embedder or
chunker version) are listed, with what built them when the catalog remembers it; on a Qdrant server,
which other homes may share, only those this home's catalog recorded building.

Documents an older parser produced (``ingest.version``) are listed as stale; they are not a problem
of the index, so the check still passes: the next ``pagelens ingest`` of their files re-parses them.

``repair`` indexes exactly the missing chunks and deletes exactly the orphans; ``prune`` drops the
other collections.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from pagelens.index.profile import profile_collection
from pagelens.ingest.coordinator import index_collections
from pagelens.ingest.version import PARSER_VERSION, is_stale
from pagelens.store.catalog import INDEX_IDENTITY_NAMESPACE
from pagelens.vectors import point_id

if TYPE_CHECKING:
    from pagelens.app import Pagelens



@dataclass
class DocumentCheck:
    doc_id: str
    name: str
    expected: int
    present: int
    missing: list[str] = field(default_factory=list)  # chunk ids without a point
    extra: list[str] = field(default_factory=list)  # point ids of this document no chunk accounts for

    @property
    def ok(self) -> bool:
        return not self.missing and not self.extra


@dataclass
class OtherCollection:
    name: str
    points: int
    built_with: dict[str, Any] | None  # the index identity, when the catalog recorded it


@dataclass
class StaleDocument:
    doc_id: str
    name: str
    path: str
    parser_version: int  # what parsed it; older than ingest.version.PARSER_VERSION


@dataclass
class CheckReport:
    collection: str
    documents: list[DocumentCheck]
    orphan_docs: dict[str, int]  # doc id not in the catalog -> its points
    pending: list[tuple[str, str]]  # (doc_id, op) still owed to the index
    other_collections: list[OtherCollection]
    repaired: dict[str, int] = field(default_factory=dict)
    pruned: list[str] = field(default_factory=list)
    orphan_profiles: dict[str, int] = field(default_factory=dict)  # routing profiles of gone documents
    stale: list[StaleDocument] = field(default_factory=list)  # parsed by an older parser: not a failure
    parser_version: int = PARSER_VERSION

    @property
    def problems(self) -> list[DocumentCheck]:
        return [d for d in self.documents if not d.ok]

    @property
    def ok(self) -> bool:
        return not self.problems and not self.orphan_docs and not self.pending and not self.orphan_profiles

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["ok"] = self.ok
        data["pending"] = [{"doc_id": d, "op": op} for d, op in self.pending]
        return data


class IndexChecker:
    """Compares one data home's catalog with its vector index (the facade's components)."""

    def __init__(self, app: "Pagelens") -> None:
        self.app = app
        self.indexer = app.indexer
        self.store = app.store
        self.collection = self.indexer.collection

    def check(self) -> CheckReport:
        catalog = self.app.catalog
        grouped = self.store.doc_point_ids(self.collection)
        documents: list[DocumentCheck] = []
        stale: list[StaleDocument] = []
        for doc in catalog.documents():
            if is_stale(doc):
                stale.append(StaleDocument(doc.doc_id, doc.name, doc.path, doc.parser_version))
            chunks = self.indexer.chunks(doc.doc_id)
            expected = {point_id(c.id): c.id for c in chunks}
            have = grouped.get(doc.doc_id, set())
            documents.append(DocumentCheck(
                doc_id=doc.doc_id, name=doc.name, expected=len(expected), present=len(have & expected.keys()),
                missing=sorted(cid for pid, cid in expected.items() if pid not in have),
                extra=sorted(have - expected.keys()),
            ))
        known = {d.doc_id for d in documents}
        orphans = {doc_id: len(ids) for doc_id, ids in grouped.items() if doc_id not in known}
        prefix = self.app.settings.index.collection_prefix
        names = set(index_collections(self.store, prefix)) - {self.collection}
        if self.app.settings.index.qdrant_url:  # a shared server: only what this home built is ours
            names &= set(catalog.cache_keys(INDEX_IDENTITY_NAMESPACE))
        others = [
            OtherCollection(name, self.store.count(name), _as_dict(catalog.cache_get(INDEX_IDENTITY_NAMESPACE, name)))
            for name in sorted(names)
        ]
        profiles = self.store.doc_point_ids(profile_collection(self.collection))
        gone = {doc_id: len(ids) for doc_id, ids in profiles.items() if doc_id not in known}
        return CheckReport(
            self.collection, documents, orphans, catalog.vector_jobs(), others, orphan_profiles=gone, stale=stale
        )

    def repair(self, report: CheckReport) -> CheckReport:
        """Index what is missing, delete what is orphaned, settle pending work; then check again."""
        coordinator = self.app.coordinator
        coordinator.replay_pending()
        upserted = deleted = 0
        with coordinator.lock:
            for doc in report.problems:
                if doc.extra:
                    self.store.delete_ids(self.collection, doc.extra)
                    deleted += len(doc.extra)
                if doc.missing:
                    self.indexer.index_document(doc.doc_id)  # upserts only the points not there
                    upserted += len(doc.missing)
            for doc_id, points in report.orphan_docs.items():
                self.store.delete_doc(self.collection, doc_id)
                deleted += points
            for doc_id, points in report.orphan_profiles.items():
                self.store.delete_doc(profile_collection(self.collection), doc_id)
                deleted += points
        after = self.check()
        after.repaired = {"upserted": upserted, "deleted": deleted}
        return after

    def prune(self, report: CheckReport) -> list[str]:
        """Drop the collections of other index identities."""
        dropped = []
        for other in report.other_collections:
            self.store.drop_collection(other.name)
            self.store.drop_collection(profile_collection(other.name))  # its document-routing profiles
            self.app.catalog.drop_index_marks(other.name)
            dropped.append(other.name)
        return dropped


def _as_dict(value: object) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None
