"""Payload indexes on the client engine: every field a pagelens filter uses is indexed on both engines,
and a collection that lacks the index (made by an older pagelens or by hand) gets it when opened."""

from __future__ import annotations

from pathlib import Path

from qdrant_client import QdrantClient, models

from pagelens.vectors import VectorSpec
from pagelens.vectors.edge import EdgeVectorStore
from pagelens.vectors.remote import _KEYWORD_INDEXES, QdrantServerStore, _filter
from test_vectors_cluster import RecordingClient

SPEC = VectorSpec(dense={"dense": 8}, sparse=["bm25"])


def _keys(flt) -> set[str]:  # type: ignore[no-untyped-def]
    return {c.key for c in flt.must}


def test_every_filtered_field_is_indexed_on_both_engines(tmp_path: Path) -> None:
    client = RecordingClient(QdrantClient(":memory:"))
    QdrantServerStore(client).ensure_collection("c", SPEC)
    indexed = {kw["field_name"] for kw in client.sent("create_payload_index")}
    edge = EdgeVectorStore(tmp_path / "qdrant")
    try:
        edge.ensure_collection("c", SPEC)
        assert _keys(_filter(["d"])) <= indexed == set(_KEYWORD_INDEXES)
        assert _keys(edge._filter(["d"])) <= indexed
    finally:
        edge.close()


def test_an_existing_collection_without_the_index_gets_it_once(tmp_path: Path) -> None:
    raw = QdrantClient(path=str(tmp_path / "q"))
    raw.create_collection("c", vectors_config={"dense": models.VectorParams(size=8, distance=models.Distance.COSINE)},
                          sparse_vectors_config={"bm25": models.SparseVectorParams(modifier=models.Modifier.IDF)})
    client = RecordingClient(raw)
    store = QdrantServerStore(client)
    store.ensure_collection("c", SPEC)
    store.ensure_collection("c", SPEC)
    assert [kw["field_name"] for kw in client.sent("create_payload_index")] == ["doc_id"]
    assert not client.sent("create_collection")
    store.close()
