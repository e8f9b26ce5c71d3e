"""A Qdrant cluster's collection layout from the settings, sent to a real (":memory:") qdrant-client engine.

qdrant-client's local engine accepts the layout arguments but keeps none of them, so the client is wrapped
in a recorder that forwards every call to the real engine and remembers what the adapter sent.
"""

from __future__ import annotations

from typing import Any

import pytest
from qdrant_client import QdrantClient, models

from pagelens.settings import QdrantCollectionSettings, Settings
from pagelens.vectors import VectorSpec
from pagelens.vectors.conformance import VectorStoreConformance
from pagelens.vectors.remote import QdrantServerStore

SPEC = VectorSpec(dense={"dense": 8, "caption": 8}, sparse=["bm25"])


class RecordingClient:
    """Forwards to a real client; records (method, args, kwargs) of every call."""

    def __init__(self, client: QdrantClient) -> None:
        self._client = client
        self.calls: list[tuple[str, tuple, dict]] = []

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._client, name)
        if not callable(target):
            return target

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, args, kwargs))
            return target(*args, **kwargs)

        return call

    def sent(self, name: str) -> list[dict]:
        return [kw for n, _, kw in self.calls if n == name]


@pytest.mark.parametrize("quantization", ["scalar", "binary"])
def test_collection_is_created_with_the_cluster_layout(quantization: str) -> None:
    layout = QdrantCollectionSettings(
        shards=6, replication_factor=2, write_consistency=2, on_disk_vectors=True, quantization=quantization
    )
    client = RecordingClient(QdrantClient(":memory:"))
    store = QdrantServerStore(client, layout=layout)
    store.ensure_collection("c", SPEC)

    (create,) = client.sent("create_collection")
    assert (create["shard_number"], create["replication_factor"], create["write_consistency_factor"]) == (6, 2, 2)
    assert create["on_disk_payload"] is True
    assert all(v.on_disk for v in create["vectors_config"].values())
    assert create["sparse_vectors_config"]["bm25"].index.on_disk
    assert create["sparse_vectors_config"]["bm25"].modifier == models.Modifier.IDF
    q = create["quantization_config"]
    if quantization == "scalar":
        assert q.scalar.type == models.ScalarType.INT8 and q.scalar.always_ram
    else:
        assert q.binary.always_ram
    indexed = {kw["field_name"] for kw in client.sent("create_payload_index")}
    assert "doc_id" in indexed  # the field every document filter, delete and count uses

    # an existing collection is not created again, whatever the layout says now
    QdrantServerStore(client, layout=layout.model_copy(update={"shards": 1})).ensure_collection("c", SPEC)
    assert len(client.sent("create_collection")) == 1


def test_write_consistency_never_exceeds_the_replicas() -> None:
    client = RecordingClient(QdrantClient(":memory:"))
    QdrantServerStore(client, layout=QdrantCollectionSettings(replication_factor=1, write_consistency=3)).ensure_collection(
        "c", SPEC
    )
    assert client.sent("create_collection")[0]["write_consistency_factor"] == 1


def test_layout_comes_from_the_settings_tree(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("PAGELENS_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("PAGELENS_INDEX__QDRANT_COLLECTION__SHARDS", "4")
    monkeypatch.setenv("PAGELENS_INDEX__QDRANT_COLLECTION__QUANTIZATION", "scalar")
    s = Settings(home=tmp_path)
    assert s.index.qdrant_collection.shards == 4 and s.index.qdrant_collection.quantization == "scalar"


class TestQdrantClusterLayoutStore(VectorStoreConformance):
    """The whole contract holds for a store that creates collections with a cluster layout (on
    qdrant-client's local on-disk engine, so that reopening is tested too)."""

    LAYOUT = QdrantCollectionSettings(shards=2, replication_factor=2, on_disk_vectors=True, quantization="scalar")

    @pytest.fixture
    def store(self, tmp_path):
        self.path = str(tmp_path / "qdrant-local")
        s = QdrantServerStore(QdrantClient(path=self.path), label="local cluster layout", layout=self.LAYOUT)
        yield s
        s.close()

    def reopen(self, store: QdrantServerStore) -> QdrantServerStore:
        store.close()
        return QdrantServerStore(QdrantClient(path=self.path), label="local cluster layout", layout=self.LAYOUT)
