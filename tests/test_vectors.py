"""Vector engines: the contract's conformance tests on both adapters, then edge against server."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from qdrant_client import QdrantClient

from pagelens.errors import HomeLockedError, IndexError_
from pagelens.settings import Settings
from pagelens.vectors import ChannelQuery, VectorSpec, open_vector_store, point_id
from pagelens.vectors.conformance import VectorStoreConformance, synthetic_points, synthetic_queries
from pagelens.vectors.edge import EdgeVectorStore
from pagelens.vectors.remote import QdrantServerStore


class TestEdgeVectorStore(VectorStoreConformance):
    @pytest.fixture
    def store(self, tmp_path: Path):
        s = EdgeVectorStore(tmp_path / "qdrant", home=tmp_path)
        yield s
        s.close()

    def reopen(self, store: EdgeVectorStore) -> EdgeVectorStore:
        store.close()
        return EdgeVectorStore(store.root)


class TestQdrantServerStore(VectorStoreConformance):
    """The client adapter on qdrant-client's local on-disk engine (so that reopening can be tested)."""

    @pytest.fixture
    def store(self, tmp_path: Path):
        self.path = tmp_path / "qdrant-local"
        s = QdrantServerStore(QdrantClient(path=str(self.path)), label=str(self.path))
        yield s
        s.close()

    def reopen(self, store: QdrantServerStore) -> QdrantServerStore:
        store.close()
        return QdrantServerStore(QdrantClient(path=str(self.path)), label=str(self.path))


def test_point_id_is_a_stable_uuid() -> None:
    assert point_id("doc1:p3:c2") == point_id("doc1:p3:c2")
    assert point_id("doc1:p3:c2") != point_id("doc1:p3:c3")
    assert len(point_id("x")) == 36 and point_id("x").count("-") == 4


def test_second_process_gets_a_line_naming_the_owner(tmp_path: Path) -> None:
    home = tmp_path / "home"
    store = EdgeVectorStore(home / "qdrant", home=home)
    try:
        store.ensure_collection("c", VectorSpec(dense={"dense": 4}, sparse=["bm25"]))
        code = textwrap.dedent(
            f"""
            from pathlib import Path
            from pagelens.errors import HomeLockedError, IndexError_
            from pagelens.vectors.edge import EdgeVectorStore
            try:
                EdgeVectorStore(Path({str(home / 'qdrant')!r}), home=Path({str(home)!r}))
            except HomeLockedError as exc:
                print(exc)
                raise SystemExit(3)
            """
        )
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert result.returncode == 3, result.stderr
        line = result.stdout.strip()
        assert line.startswith(f"data home {home} is in use by pid {__import__('os').getpid()} (")
        assert line.endswith("stop it or use another --home") and "\n" not in line
        # the same process opening it twice is refused the same way
        with pytest.raises(HomeLockedError, match="in use by pid"):
            EdgeVectorStore(home / "qdrant", home=home)
    finally:
        store.close()
    # once closed, another process may take it and sees the collection
    code = f"from pathlib import Path\nfrom pagelens.vectors.edge import EdgeVectorStore\n" \
           f"s = EdgeVectorStore(Path({str(home / 'qdrant')!r}))\nprint(s.collections())\ns.close()"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.strip() == "['c']", result.stderr


def test_factory_picks_the_engine(tmp_path: Path) -> None:
    edge = open_vector_store(Settings(home=tmp_path))
    try:
        assert isinstance(edge, EdgeVectorStore) and edge.root == tmp_path / "qdrant"
    finally:
        edge.close()
    server = open_vector_store(Settings(home=tmp_path, index={"qdrant_url": "http://127.0.0.1:1"}))
    try:
        assert isinstance(server, QdrantServerStore)
        with pytest.raises(IndexError_, match="127.0.0.1:1"):
            server.count("anything")
    finally:
        server.close()


def _same_ranking(a: list, b: list, k: int) -> None:
    """Top-k equal up to ties: same scores rank by rank, same ids above the k-th score's tie band."""
    sa, sb = [h.score for h in a[:k]], [h.score for h in b[:k]]
    assert sa == pytest.approx(sb, rel=1e-4, abs=1e-6)
    band = sa[-1] + max(1e-4 * abs(sa[-1]), 1e-6)
    assert {h.id for h in a[:k] if h.score > band} == {h.id for h in b[:k] if h.score > band}


def test_edge_and_server_agree(tmp_path: Path) -> None:
    edge = EdgeVectorStore(tmp_path / "qdrant")
    server = QdrantServerStore(QdrantClient(":memory:"))
    spec = VectorSpec(dense={"dense": 32}, sparse=["bm25"])
    vectors = []
    try:
        for s in (edge, server):
            s.ensure_collection("congruence", spec)
        for points, dense in synthetic_points(300, dim=32, vocab=500, doc_len=40, chunks_per_doc=30, batch=100):
            vectors.append(dense)
            for s in (edge, server):
                s.upsert("congruence", points)
        queries = synthetic_queries(20, np.concatenate(vectors), vocab=500, terms=4)
        for i, (dense_q, sparse_q) in enumerate(queries):
            doc_ids = None if i % 4 else ["doc1", "doc3", "doc7"]
            channels = [ChannelQuery("dense", dense_q, 20), ChannelQuery("bm25", sparse_q, 20, weight=0.7)]
            e_batch = edge.search_batch("congruence", channels, doc_ids)
            s_batch = server.search_batch("congruence", channels, doc_ids)
            for e, s in zip(e_batch, s_batch):
                _same_ranking(e, s, 5)
            _same_ranking(
                edge.hybrid("congruence", channels, 5, rrf_k=60, doc_ids=doc_ids),
                server.hybrid("congruence", channels, 5, rrf_k=60, doc_ids=doc_ids),
                5,
            )
        edge.optimize("congruence")
        dense_q, _ = queries[0]
        after = edge.search_dense("congruence", "dense", dense_q, 5)
        _same_ranking(after, server.search_dense("congruence", "dense", dense_q, 5), 5)
    finally:
        edge.close()
        server.close()
