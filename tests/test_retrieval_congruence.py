"""Retrieval congruence on every client-engine implementation: the same retrieval suite (queries ×
modes × with and without a document filter, through the real ``Retriever``) against the embedded
qdrant-edge and against pagelens' qdrant-client adapter on each engine it is used with — in-memory, the
local on-disk engine, and a collection created with a cluster layout (shards, replicas, on-disk vectors,
scalar int8 quantization). Real parser on built PDFs, real BM25; the deterministic hashing embedder
(rankings, not model quality, are compared)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from qdrant_client import QdrantClient

from pagelens.embed.fake import HashingEmbedder
from pagelens.index.bm25 import SparseEncoder
from pagelens.index.indexer import Indexer
from pagelens.ingest.pipeline import Ingestor
from pagelens.retrieve.retriever import Retriever
from pagelens.settings import QdrantCollectionSettings, Settings
from pagelens.store.catalog import SqliteCatalog
from pagelens.store.images import ImageStore
from pagelens.vectors.edge import EdgeVectorStore
from pagelens.vectors.remote import QdrantServerStore

from pdfs import SAMPLE

QUERIES = ("WordPiece vocabulary size", "inference time of OTSL", "GLUE benchmark results table",
           "table structure recognition", "masked language model pre-training")
CLUSTER = QdrantCollectionSettings(shards=3, replication_factor=2, write_consistency=2, on_disk_vectors=True,
                                   on_disk_payload=True, quantization="scalar")


@pytest.fixture(scope="module")
def corpus(paper: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, ...]]:
    """The built paper and the OTSL sample parsed once, indexed into qdrant-edge."""
    home = tmp_path_factory.mktemp("congruence-home")
    settings = Settings(home=home).with_overrides(**{"ingest.ocr": "off"})
    catalog = SqliteCatalog(home / "catalog.sqlite3")
    images = ImageStore(home / "images")
    ingestor = Ingestor(settings.ingest, catalog, images)
    results = [ingestor.ingest_file(paper), ingestor.ingest_file(SAMPLE)]
    assert all(r.status == "indexed" for r in results), [r.error for r in results]
    embedder = HashingEmbedder(dim=256)
    edge = EdgeVectorStore(home / "qdrant")
    index(settings, catalog, images, edge, embedder)
    yield settings, catalog, images, embedder, edge, [r.doc_id for r in results]
    edge.close()
    catalog.close()


def index(settings: Settings, catalog: SqliteCatalog, images: ImageStore, store: Any, embedder: Any) -> None:
    indexer = Indexer(settings, store, embedder, SparseEncoder(), catalog, images)
    for doc in catalog.documents():
        indexer.index_document(doc.doc_id)


@pytest.fixture(params=["memory", "local-disk", "cluster-layout"])
def client_store(request, tmp_path: Path) -> Iterator[QdrantServerStore]:
    if request.param == "memory":
        store = QdrantServerStore(QdrantClient(":memory:"), label=":memory:")
    elif request.param == "local-disk":
        store = QdrantServerStore(QdrantClient(path=str(tmp_path / "q")), label="local")
    else:
        store = QdrantServerStore(QdrantClient(path=str(tmp_path / "q")), label="cluster layout", layout=CLUSTER)
    yield store
    store.close()


def test_every_client_engine_ranks_like_the_embedded_engine(corpus, client_store: QdrantServerStore) -> None:
    settings, catalog, images, embedder, edge, doc_ids = corpus
    index(settings, catalog, images, client_store, embedder)
    a = Retriever(settings, edge, embedder, SparseEncoder())
    b = Retriever(settings, client_store, embedder, SparseEncoder())
    compared = 0
    for q in QUERIES:
        for mode in ("hybrid", "dense", "sparse"):
            for docs in (None, doc_ids[:1]):
                ra, rb = a.search(q, k=5, mode=mode, doc_ids=docs), b.search(q, k=5, mode=mode, doc_ids=docs)
                where = (q, mode, docs)
                assert ra and len(ra) == len(rb), where
                if docs:
                    assert {h.chunk.doc_id for h in rb} == set(docs), where
                # Near-ties (BM25, duplicate chunk texts) may lead a merged page with another of its
                # chunks or swap the tail: the leaders and the pages must agree.
                assert [h.chunk.id for h in ra][:2] == [h.chunk.id for h in rb][:2], where
                pages_a = [(h.chunk.doc_id, h.chunk.page) for h in ra]
                pages_b = [(h.chunk.doc_id, h.chunk.page) for h in rb]
                assert pages_a[:3] == pages_b[:3] and len(set(pages_a) & set(pages_b)) >= len(pages_a) - 1, where
                compared += 1
    assert compared == len(QUERIES) * 6
