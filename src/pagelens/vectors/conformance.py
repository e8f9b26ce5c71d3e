"""Tests every ``VectorStore`` must pass, shipped with the contract (haystack ``testing/document_store``).

A backend's test module inherits ``VectorStoreConformance`` and provides a ``store`` fixture giving an
empty, open store (and closing it afterwards). Backends that persist override ``reopen``.

    class TestMyStore(VectorStoreConformance):
        @pytest.fixture
        def store(self, tmp_path):
            s = MyStore(tmp_path)
            yield s
            s.close()

``synthetic_points`` makes deterministic random chunks for congruence tests and benchmarks.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np
import pytest

from pagelens.errors import IndexError_
from pagelens.vectors import point_id
from pagelens.vectors.protocol import ChannelQuery, PointRecord, SparseVector, VectorSpec, VectorStore

SPEC = VectorSpec(dense={"dense": 4, "caption": 4, "image": 3}, sparse=["bm25"])
COMMON, RARE, FILLER = 1, 2, 3  # sparse term ids used below


def text_point(chunk: str, doc: str, dense: list[float], terms: dict[int, float], **payload: object) -> PointRecord:
    sparse = SparseVector(sorted(terms), [terms[t] for t in sorted(terms)])
    return PointRecord(
        id=point_id(chunk),
        dense={"dense": dense},
        sparse={"bm25": sparse},
        payload={"doc_id": doc, "chunk_id": chunk, "kind": "text", **payload},
    )


def figure_point(chunk: str, doc: str, image: list[float], caption: list[float]) -> PointRecord:
    return PointRecord(
        id=point_id(chunk),
        dense={"image": image, "caption": caption},
        payload={"doc_id": doc, "chunk_id": chunk, "kind": "figure"},
    )


def small_corpus() -> list[PointRecord]:
    """Three documents; the common term is in every text point, the rare term in one."""
    pts = [
        text_point("a:0", "a", [1, 0, 0, 0], {COMMON: 2.0, FILLER: 1.0}),
        text_point("a:1", "a", [0, 1, 0, 0], {COMMON: 2.0}),
        text_point("b:0", "b", [0.9, 0.1, 0, 0], {COMMON: 2.0, RARE: 1.0}),
        text_point("b:1", "b", [0, 0, 1, 0], {COMMON: 2.0, FILLER: 2.0}),
        text_point("c:0", "c", [-1, 0, 0, 0], {COMMON: 2.0}),
        figure_point("b:fig1", "b", [1, 0, 0], [0, 0, 0, 1]),
        figure_point("c:fig1", "c", [0, 1, 0], [0, 0, 1, 0]),
    ]
    pts += [text_point(f"c:{i}", "c", [0, 0, 0.5, 0.5], {COMMON: 2.0}) for i in range(2, 20)]
    return pts


def chunk_ids(hits: list) -> list[str]:
    return [h.payload["chunk_id"] for h in hits]


class VectorStoreConformance:
    """The contract's tests. Subclasses provide the ``store`` fixture."""

    name = "conformance"

    def reopen(self, store: VectorStore) -> VectorStore | None:
        """Close ``store`` and open the same data again; None for engines that do not persist."""
        return None

    def filled(self, store: VectorStore) -> VectorStore:
        store.ensure_collection(self.name, SPEC)
        store.upsert(self.name, small_corpus())
        return store

    def test_is_a_vector_store(self, store: VectorStore) -> None:
        assert isinstance(store, VectorStore)

    def test_dense_search_ranks_by_cosine(self, store: VectorStore) -> None:
        hits = self.filled(store).search_dense(self.name, "dense", [1, 0, 0, 0], limit=3)
        assert chunk_ids(hits)[:2] == ["a:0", "b:0"]
        assert hits[0].score == pytest.approx(1.0, abs=1e-4)
        assert hits[0].score > hits[1].score > hits[2].score
        assert hits[0].id == point_id("a:0")
        assert hits[0].payload == {"doc_id": "a", "chunk_id": "a:0", "kind": "text"}

    def test_sparse_idf_rare_term_outranks_common(self, store: VectorStore) -> None:
        # Without IDF the common term (weight 2.0 everywhere) would beat the rare one (1.0).
        query = SparseVector([COMMON, RARE], [1.0, 1.0])
        hits = self.filled(store).search_sparse(self.name, "bm25", query, limit=5)
        assert chunk_ids(hits)[0] == "b:0"
        assert hits[0].score > 5 * hits[1].score

    def test_filter_by_doc_ids(self, store: VectorStore) -> None:
        self.filled(store)
        hits = store.search_dense(self.name, "dense", [1, 0, 0, 0], limit=10, doc_ids=["b"])
        assert chunk_ids(hits) == ["b:0", "b:1"]
        hits = store.search_sparse(self.name, "bm25", SparseVector([COMMON], [1.0]), 50, doc_ids=["a", "b"])
        assert sorted(chunk_ids(hits)) == ["a:0", "a:1", "b:0", "b:1"]
        assert store.search_dense(self.name, "dense", [1, 0, 0, 0], limit=10, doc_ids=["nope"]) == []
        assert store.search_dense(self.name, "dense", [1, 0, 0, 0], limit=10, doc_ids=[]) == []

    def test_points_without_a_named_vector_are_not_returned_for_it(self, store: VectorStore) -> None:
        self.filled(store)
        image = store.search_dense(self.name, "image", [1, 0, 0], limit=50)
        assert chunk_ids(image) == ["b:fig1", "c:fig1"]
        text = store.search_dense(self.name, "dense", [0, 0, 0, 1], limit=50)
        assert len(text) == 23 and not any("fig" in c for c in chunk_ids(text))
        sparse = store.search_sparse(self.name, "bm25", SparseVector([COMMON], [1.0]), limit=50)
        assert len(sparse) == 23
        # a vector name the collection lacks is an empty channel, not an error
        assert store.search_dense(self.name, "summary", [1, 0, 0, 0], limit=5) == []

    def test_wrong_vector_kind_is_an_error(self, store: VectorStore) -> None:
        with pytest.raises(IndexError_, match="bm25"):
            self.filled(store).search_dense(self.name, "bm25", [1, 0, 0, 0], limit=5)

    def test_count_and_delete_doc(self, store: VectorStore) -> None:
        self.filled(store)
        assert store.count(self.name) == 25
        assert (store.count(self.name, "a"), store.count(self.name, "b"), store.count(self.name, "c")) == (2, 3, 20)
        store.delete_doc(self.name, "b")
        assert store.count(self.name) == 22 and store.count(self.name, "b") == 0
        hits = store.search_dense(self.name, "dense", [1, 0, 0, 0], limit=3)
        assert "b:0" not in chunk_ids(hits) and chunk_ids(hits)[0] == "a:0"
        store.delete_doc(self.name, "never-indexed")
        assert store.count(self.name) == 22

    def test_doc_point_ids_and_delete_ids(self, store: VectorStore) -> None:
        assert store.doc_point_ids(self.name) == {}
        self.filled(store)
        groups = store.doc_point_ids(self.name)
        assert groups["a"] == {point_id("a:0"), point_id("a:1")}
        assert groups["b"] == {point_id("b:0"), point_id("b:1"), point_id("b:fig1")}
        assert len(groups["c"]) == 20 and set(groups) == {"a", "b", "c"}
        store.delete_ids(self.name, [point_id("a:1"), point_id("b:fig1"), point_id("zz:0")])
        assert store.count(self.name) == 23
        assert store.doc_point_ids(self.name)["a"] == {point_id("a:0")}
        store.delete_ids(self.name, [])

    def test_existing_ids(self, store: VectorStore) -> None:
        self.filled(store)
        wanted = [point_id("a:0"), point_id("c:fig1"), point_id("zz:0")]
        assert store.existing_ids(self.name, wanted) == {point_id("a:0"), point_id("c:fig1")}
        assert store.existing_ids(self.name, []) == set()

    def test_upsert_is_idempotent_and_replaces(self, store: VectorStore) -> None:
        self.filled(store)
        store.upsert(self.name, [text_point("a:0", "a", [0, 0, 0, 1], {FILLER: 1.0}, note="v2")])
        assert store.count(self.name) == 25
        hits = store.search_dense(self.name, "dense", [0, 0, 0, 1], limit=1)
        assert hits[0].payload["chunk_id"] == "a:0" and hits[0].payload["note"] == "v2"

    def test_missing_collection_reads_empty_and_writes_fail(self, store: VectorStore) -> None:
        assert store.collection_spec("absent") is None
        assert store.count("absent") == 0
        assert store.existing_ids("absent", [point_id("x")]) == set()
        assert store.search_dense("absent", "dense", [1, 0, 0, 0], 3) == []
        assert store.hybrid("absent", [ChannelQuery("dense", [1, 0, 0, 0], 3)], 3) == []
        with pytest.raises(IndexError_, match="absent"):
            store.upsert("absent", small_corpus()[:1])

    def test_point_without_doc_id_or_uuid_is_refused(self, store: VectorStore) -> None:
        store.ensure_collection(self.name, SPEC)
        with pytest.raises(IndexError_, match="doc_id"):
            store.upsert(self.name, [PointRecord(id=point_id("x"), dense={"dense": [1, 0, 0, 0]})])
        with pytest.raises(IndexError_):
            store.upsert(self.name, [PointRecord(id="x:0", dense={"dense": [1, 0, 0, 0]}, payload={"doc_id": "x"})])

    def test_ensure_collection_adds_vectors_and_rejects_new_dimensions(self, store: VectorStore) -> None:
        self.filled(store)
        store.ensure_collection(self.name, SPEC)  # idempotent
        assert store.count(self.name) == 25
        store.ensure_collection(self.name, VectorSpec(dense={"dense": 4, "summary": 2}, sparse=["bm25", "kw"]))
        spec = store.collection_spec(self.name)
        assert spec is not None and spec.dense["summary"] == 2 and "kw" in spec.sparse
        store.upsert(self.name, [PointRecord(point_id("s:0"), dense={"summary": [1, 0]}, payload={"doc_id": "s"})])
        assert store.search_dense(self.name, "summary", [1, 0], 5)[0].id == point_id("s:0")
        with pytest.raises(IndexError_, match="dimensions"):
            store.ensure_collection(self.name, VectorSpec(dense={"dense": 8}, sparse=[]))

    def test_search_batch_matches_single_searches(self, store: VectorStore) -> None:
        self.filled(store)
        queries = [
            ChannelQuery("dense", [1, 0, 0, 0], 4),
            ChannelQuery("bm25", SparseVector([RARE, FILLER], [3.0, 1.0]), 4),
            ChannelQuery("image", [0, 1, 0], 1),
            ChannelQuery("summary", [1, 0, 0, 0], 4),
        ]
        batch = store.search_batch(self.name, queries, doc_ids=["b", "c"])
        assert chunk_ids(batch[0]) == chunk_ids(store.search_dense(self.name, "dense", [1, 0, 0, 0], 4, ["b", "c"]))
        single = store.search_sparse(self.name, "bm25", SparseVector([RARE, FILLER], [3.0, 1.0]), 4, ["b", "c"])
        assert chunk_ids(batch[1]) == chunk_ids(single) and chunk_ids(batch[1])[0] == "b:0"
        assert chunk_ids(batch[2]) == ["c:fig1"]
        assert batch[3] == []

    def test_hybrid_fuses_channels_with_weights(self, store: VectorStore) -> None:
        self.filled(store)
        dense = ChannelQuery("dense", [0, 1, 0, 0], 2)  # a:1, then b:0
        sparse = ChannelQuery("bm25", SparseVector([RARE], [1.0]), 2)  # b:0 only
        fused = store.hybrid(self.name, [dense, sparse], limit=5, rrf_k=60)
        # RRF with ranks from 0 (qdrant): 1/(k + rank) per list, summed
        assert chunk_ids(fused) == ["b:0", "a:1"]
        assert [h.score for h in fused] == pytest.approx([1 / 61 + 1 / 60, 1 / 60], rel=1e-3)
        sparse = ChannelQuery("bm25", SparseVector([FILLER], [1.0]), 2)  # b:1, then a:0
        sparse.weight = 3.0
        assert chunk_ids(store.hybrid(self.name, [dense, sparse], limit=4)) == ["b:1", "a:0", "a:1", "b:0"]
        sparse.weight, dense.weight = 1.0, 3.0
        assert chunk_ids(store.hybrid(self.name, [dense, sparse], limit=4)) == ["a:1", "b:0", "b:1", "a:0"]
        dense.limit = 1
        fused = store.hybrid(self.name, [dense, sparse], limit=4, doc_ids=["b", "c"])
        assert sorted(chunk_ids(fused)) == ["b:0", "b:1"]

    def test_drop_collection(self, store: VectorStore) -> None:
        self.filled(store)
        store.drop_collection(self.name)
        assert store.collection_spec(self.name) is None and store.count(self.name) == 0
        store.drop_collection(self.name)  # no-op
        self.filled(store)
        assert store.count(self.name) == 25

    def test_optimize_keeps_results(self, store: VectorStore) -> None:
        before = chunk_ids(self.filled(store).search_dense(self.name, "dense", [1, 0, 0, 0], limit=5))
        store.optimize(self.name)
        assert chunk_ids(store.search_dense(self.name, "dense", [1, 0, 0, 0], limit=5)) == before
        assert store.optimize("absent") is False

    def test_reopen_keeps_data(self, store: VectorStore) -> None:
        self.filled(store)
        store.delete_doc(self.name, "a")
        again = self.reopen(store)
        if again is None:
            pytest.skip("this engine does not persist (in-memory)")
        assert again.count(self.name) == 23
        assert chunk_ids(again.search_dense(self.name, "dense", [1, 0, 0, 0], 1)) == ["b:0"]
        assert chunk_ids(again.search_sparse(self.name, "bm25", SparseVector([RARE], [1.0]), 1)) == ["b:0"]
        assert again.collection_spec(self.name) == SPEC


def synthetic_points(
    n: int,
    *,
    dim: int = 384,
    vocab: int = 30_000,
    doc_len: int = 120,
    chunks_per_doc: int = 50,
    seed: int = 0,
    batch: int = 1000,
) -> Iterator[tuple[list[PointRecord], np.ndarray]]:
    """Deterministic chunks in batches: unit-norm dense vectors clustered by document (also returned
    as an array) and BM25-weighted sparse vectors over a Zipfian vocabulary (k1=1.2, b=0.75, ±5% jitter)."""
    rng = np.random.default_rng(seed)
    ranks = np.arange(1, vocab + 1)
    zipf = (1.0 / ranks) / (1.0 / ranks).sum()
    for start in range(0, n, batch):
        size = min(batch, n - start)
        # chunks of one document share a topic direction (cosine ~0.6 between them, ~0 across documents)
        docs = np.arange(start, start + size) // chunks_per_doc
        topics = {d: _unit(np.random.default_rng([seed, int(d)]).standard_normal(dim)) for d in np.unique(docs)}
        noise = rng.standard_normal((size, dim))
        noise /= np.linalg.norm(noise, axis=1, keepdims=True)
        dense = np.stack([topics[d] for d in docs]) + 0.8 * noise
        dense = (dense / np.linalg.norm(dense, axis=1, keepdims=True)).astype(np.float32)
        lengths = rng.integers(doc_len // 2, doc_len * 3 // 2, size)
        tokens = rng.choice(vocab, size=int(lengths.sum()), p=zipf)  # one draw per batch: O(vocab) once
        bounds = np.concatenate([[0], np.cumsum(lengths)])
        points = []
        for row in range(size):
            i = start + row
            terms, tf = np.unique(tokens[bounds[row] : bounds[row + 1]], return_counts=True)
            norm = 1.2 * (0.25 + 0.75 * lengths[row] / doc_len)
            # BM25 term weight, jittered so that equal (tf, length) pairs do not tie exactly
            weights = tf * 2.2 / (tf + norm) * rng.uniform(0.95, 1.05, len(tf))
            chunk = f"doc{i // chunks_per_doc}:{i % chunks_per_doc}"
            points.append(
                PointRecord(
                    id=point_id(chunk),
                    dense={"dense": dense[row].tolist()},
                    sparse={"bm25": SparseVector(terms.tolist(), weights.tolist())},
                    payload={"doc_id": f"doc{i // chunks_per_doc}", "chunk_id": chunk, "page": int(i % 30)},
                )
            )
        yield points, dense


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def synthetic_queries(
    n: int, dense_corpus: np.ndarray, *, vocab: int = 30_000, terms: int = 5, seed: int = 1
) -> list[tuple[list[float], SparseVector]]:
    """Queries near random corpus vectors (cosine ~0.7 to their source) with a few Zipfian terms."""
    rng = np.random.default_rng(seed)
    ranks = np.arange(1, vocab + 1)
    zipf = (1.0 / ranks ** 0.8) / (1.0 / ranks ** 0.8).sum()
    out = []
    for _ in range(n):
        src = dense_corpus[rng.integers(len(dense_corpus))]
        noise = rng.standard_normal(src.shape[0]).astype(np.float32)
        q = src + noise / np.linalg.norm(noise)
        q /= np.linalg.norm(q)
        ids = np.unique(rng.choice(vocab, size=terms, p=zipf))
        out.append((q.tolist(), SparseVector(ids.tolist(), [1.0] * len(ids))))
    return out
