"""Page merge and figures, on the QUILL paper the tests build (real MiniLM): a page takes the place of
its best chunk, whether that is a figure or text, so merging never puts a figure's page below pages
whose text chunks ranked under the figure."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagelens.index.bm25 import SparseEncoder
from pagelens.index.indexer import Indexer
from pagelens.ingest.pipeline import Ingestor
from pagelens.retrieve.retriever import Retriever
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore
from pagelens.vectors.edge import EdgeVectorStore

FIGURE_QUESTIONS = [
    ("Which figure illustrates fine-tuning QUILL on different tasks?", 8),
    ("In the diagram of the pre-training and fine-tuning procedures, which heads are drawn?", 3),
]


@pytest.fixture(scope="module")
def indexed(paper: Path, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("merge-figures")
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off"})
    catalog = Catalog(root / "home" / "catalog.sqlite3")
    images = ImageStore(root / "home" / "images")
    result = Ingestor(settings.ingest, catalog, images).ingest_file(paper)
    assert result.status == "indexed", result.error
    store = EdgeVectorStore(root / "home" / "qdrant")
    from pagelens.embed.sentence import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder(threads=1)
    Indexer(settings, store, embedder, SparseEncoder(), catalog, images).index_document(result.doc_id)
    yield settings, store, embedder
    store.close()
    catalog.close()


@pytest.mark.parametrize(("question", "page"), FIGURE_QUESTIONS)
def test_a_figure_page_keeps_the_place_of_its_best_chunk(indexed, question: str, page: int):
    settings, store, embedder = indexed
    quiet = {"retrieval.image_slots": 0, "retrieval.per_page": 0, "retrieval.page_coverage": 0}  # merging alone
    plain = Retriever(settings.with_overrides(**quiet, **{"retrieval.merge_pages": False}), store, embedder,
                      SparseEncoder()).search(question, k=40)
    merged = Retriever(settings.with_overrides(**quiet), store, embedder, SparseEncoder()).search(question, k=8)
    figure = next(i for i, h in enumerate(plain) if h.chunk.kind == "figure" and h.chunk.page == page)
    # Pages in the order of their best chunk: the figure's page comes before every page whose best
    # chunk ranked below the figure.
    first_seen = list(dict.fromkeys(h.chunk.page for h in plain))
    assert [h.chunk.page for h in merged] == first_seen[:8]
    at = next(i for i, h in enumerate(merged) if h.chunk.page == page)
    assert at <= len({h.chunk.page for h in plain[:figure]})
    # The figure travels with its page: either it carries the page or the page's better chunk carries it.
    assert any(c.kind == "figure" for c in merged[at].all_chunks())
