"""Indexing and hybrid retrieval on real PDFs (pages of the built QUILL paper and the bundled OTSL
sample): answer pages found, doc filter, idempotent re-index, dedupe and page spreading, and the same
answers from the embedded and the client engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagelens.embed.fake import HashingEmbedder
from pagelens.index.bm25 import SparseEncoder
from pagelens.index.indexer import Indexer
from pagelens.ingest.pipeline import Ingestor
from pagelens.models import Chunk
from pagelens.retrieve.ordering import Candidate as _Candidate, arrange, dedupe
from pagelens.retrieve.retriever import Retriever
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore
from pagelens.vectors.edge import EdgeVectorStore

from pdfs import SAMPLE


def _subset(src: Path, pages: list[int], out: Path) -> Path:
    import pymupdf

    with pymupdf.open(src) as doc, pymupdf.open() as part:
        for p in pages:
            part.insert_pdf(doc, from_page=p - 1, to_page=p - 1)
        part.save(out)
    return out


@pytest.fixture(scope="module")
def corpus_home(paper: Path, tmp_path_factory: pytest.TempPathFactory):
    """Pages 3, 4, 7 of the built paper and the one-page OTSL sample, parsed once (OCR off: born-digital pages)."""
    home = tmp_path_factory.mktemp("retrieval-home")
    settings = Settings(home=home).with_overrides(**{"ingest.ocr": "off"})
    catalog = Catalog(home / "catalog.sqlite3")
    images = ImageStore(home / "images")
    ingestor = Ingestor(settings.ingest, catalog, images)
    bert = ingestor.ingest_file(_subset(paper, [3, 4, 7], home / "quill-3-4-7.pdf"))
    otsl = ingestor.ingest_file(SAMPLE)
    assert bert.status == otsl.status == "indexed", (bert.error, otsl.error)
    return settings, catalog, images, {"bert": bert.doc_id, "otsl": otsl.doc_id}


def _index(settings: Settings, catalog: Catalog, images: ImageStore, store, embedder) -> Indexer:
    indexer = Indexer(settings, store, embedder, SparseEncoder(), catalog, images)
    for doc in catalog.documents():
        indexer.index_document(doc.doc_id)
    return indexer


@pytest.fixture(scope="module")
def hashing(corpus_home, tmp_path_factory: pytest.TempPathFactory):
    settings, catalog, images, ids = corpus_home
    store = EdgeVectorStore(tmp_path_factory.mktemp("edge") / "qdrant")
    embedder = HashingEmbedder(dim=512)
    indexer = _index(settings, catalog, images, store, embedder)
    yield settings, store, embedder, indexer, ids
    store.close()


def _pages(hits) -> list[tuple[str, int]]:
    return [(h.chunk.doc_name, p) for h in hits for p in h.chunk.pages]


# -- indexing ---------------------------------------------------------------------------------------
def test_index_is_idempotent_and_resumable(hashing, corpus_home):
    settings, store, embedder, indexer, ids = hashing
    _, catalog, _, _ = corpus_home
    total = store.count(indexer.collection)
    per_doc = {name: store.count(indexer.collection, doc_id) for name, doc_id in ids.items()}
    assert per_doc["bert"] > 10 and per_doc["otsl"] > 3 and sum(per_doc.values()) == total
    assert catalog.is_indexed(ids["bert"], indexer.collection)
    calls: list[tuple[int, int]] = []
    n = indexer.index_document(ids["bert"], progress=lambda done, of: calls.append((done, of)))
    assert n == per_doc["bert"]
    assert calls == [(n, n)]  # every chunk was already there: nothing embedded again
    assert store.count(indexer.collection) == total


def test_payload_and_vectors_by_kind(hashing):
    settings, store, embedder, indexer, ids = hashing
    kinds = {c.kind for c in indexer.chunks(ids["bert"])}
    assert {"text", "table", "metadata"} <= kinds
    hits = store.search_sparse(indexer.collection, "bm25", SparseEncoder().encode_query("CoLA 61.3"), 3)
    top = hits[0].payload
    assert top["kind"] in ("table", "table_rows") and "61.3" in top["text"]
    assert top["doc"] == "quill-3-4-7.pdf" and top["pages"] == [2] and top["bboxes"][0][0] == 2
    assert set(top) >= {"doc_id", "doc", "pages", "page", "kind", "text", "bboxes", "section", "element_ids", "image", "chunk_id"}


# -- retrieval --------------------------------------------------------------------------------------
def test_hybrid_finds_gold_pages(hashing):
    settings, store, embedder, indexer, ids = hashing
    r = Retriever(settings, store, embedder, SparseEncoder())
    hits = r.search("How large is the WordPiece vocabulary that QUILL uses?", k=5)
    assert ("quill-3-4-7.pdf", 1) in _pages(hits)  # original page 3
    hits = r.search("What CoLA score does QUILL-Large obtain on the GLUE test set?", k=5)
    assert ("quill-3-4-7.pdf", 2) in _pages(hits[:3])  # Table 1, original page 4
    hits = r.search("Which CPU was used to obtain the inference timing results?", k=5)
    assert hits[0].chunk.doc_name == SAMPLE.name
    # Channels and fused scores are exposed; ranks are 1-based and scores decrease.
    assert "fused" in hits[0].channels and any(k.endswith("_rank") for k in hits[0].channels)
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))


def test_doc_filter_and_modes(hashing):
    settings, store, embedder, indexer, ids = hashing
    r = Retriever(settings, store, embedder, SparseEncoder())
    q = "QUILL model results on GLUE"
    only = r.search(q, k=8, doc_ids=[ids["otsl"]])
    assert only and {h.chunk.doc_id for h in only} == {ids["otsl"]}
    sparse = r.search(q, k=5, mode="sparse")
    assert sparse and all(set(h.channels) <= {"fused", "sparse", "sparse_rank"} for h in sparse)
    dense = r.search(q, k=5, mode="dense")
    assert dense and all("dense" in h.channels for h in dense)
    assert r.search("   ", k=5) == []


def test_per_page_spreads_the_top_k_over_pages(hashing):
    """retrieval.per_page=1 (0, plain fused order, is the default) gives every page one place in the
    ranking before any page gets a second one."""
    settings, store, embedder, indexer, ids = hashing
    # merge_pages (on by default) already folds a page's chunks into one hit; per_page is the ordering
    # rule for when they are not merged, so it is tested with merging off.
    settings = settings.with_overrides(**{"retrieval.merge_pages": False})
    q = "QUILL pre-training masked language model"
    assert settings.retrieval.per_page == 0
    plain = Retriever(settings, store, embedder, SparseEncoder()).search(q, k=8)
    plain_keys = [(h.chunk.doc_id, h.chunk.page) for h in plain]
    assert len(set(plain_keys[:4])) < 4, plain_keys  # the plain top 4 repeats a page
    spread_settings = settings.with_overrides(**{"retrieval.per_page": 1})
    spread = Retriever(spread_settings, store, embedder, SparseEncoder()).search(q, k=8)
    head = [(h.chunk.doc_id, p) for h in spread[:4] for p in h.chunk.pages]
    assert len(head) == len(set(head)) == 4  # the paper's three pages and the OTSL page, once each
    assert spread[0].chunk.id == plain[0].chunk.id  # the best hit keeps its place
    order = {h.chunk.id: i for i, h in enumerate(plain)}
    kept = [order[h.chunk.id] for h in spread[:4] if h.chunk.id in order]
    assert kept == sorted(kept)  # spreading reorders across pages, never within the fused ranking


def test_engines_agree(hashing, corpus_home):
    """Congruence: the qdrant-client engine (in memory) ranks like the embedded qdrant-edge."""
    from qdrant_client import QdrantClient

    from pagelens.vectors.remote import QdrantServerStore

    settings, edge, embedder, _, _ = hashing
    _, catalog, images, _ = corpus_home
    remote = QdrantServerStore(QdrantClient(":memory:"))
    _index(settings, catalog, images, remote, embedder)
    a = Retriever(settings, edge, embedder, SparseEncoder())
    b = Retriever(settings, remote, embedder, SparseEncoder())
    for q in ("WordPiece vocabulary size", "inference time of OTSL", "GLUE benchmark results table"):
        ra, rb = a.search(q, k=5), b.search(q, k=5)
        assert [h.chunk.id for h in ra][:3] == [h.chunk.id for h in rb][:3], q
        # Chunks of one page merge into one hit, and near-ties may elect a different one to lead it.
        assert len({c.id for h in ra for c in h.all_chunks()} & {c.id for h in rb for c in h.all_chunks()}) >= 4, q
    remote.close()


@pytest.mark.slow
def test_minilm_finds_gold_pages(corpus_home, tmp_path: Path):
    """The real default model (MiniLM) on paraphrased dev questions."""
    from pagelens.embed.sentence import SentenceTransformerEmbedder

    settings, catalog, images, _ = corpus_home
    store = EdgeVectorStore(tmp_path / "qdrant")
    embedder = SentenceTransformerEmbedder()
    _index(settings, catalog, images, store, embedder)
    r = Retriever(settings, store, embedder, SparseEncoder())
    hits = r.search("How large is the WordPiece vocabulary that QUILL uses?", k=5)
    assert ("quill-3-4-7.pdf", 1) in _pages(hits)
    hits = r.search("What is the lowest OTSL inference time reported in the hyper-parameter optimization table?", k=5)
    assert (SAMPLE.name, 1) in _pages(hits[:2])
    store.close()


# -- dedupe and arrangement (pure) ----------------------------------------------------------------
def _cand(cid: str, kind: str = "text", page: int = 1, elements: tuple[str, ...] = (), doc: str = "d",
          caption_rank: int | None = None) -> _Candidate:
    chunk = Chunk(id=cid, doc_id=doc, doc_name=f"{doc}.pdf", kind=kind, text=cid, embed_text=cid, pages=[page],
                  element_ids=list(elements) or [cid])
    return _Candidate(chunk, 1.0, {"caption_rank": float(caption_rank)} if caption_rank else {})


def test_dedupe_table_and_row_groups():
    cands = [_cand("rows1", "table_rows", elements=("t",)), _cand("whole", "table", elements=("t",)),
             _cand("rows2", "table_rows", elements=("t",)), _cand("rows1", "table_rows", elements=("t",)),
             _cand("other", "table", elements=("u",)), _cand("u-rows", "table_rows", elements=("u",))]
    assert [c.chunk.id for c in dedupe(cands)] == ["rows1", "rows2", "other"]


def test_arrange_spreads_pages_and_keeps_figure_slots():
    cands = [_cand("a1", page=1), _cand("a2", page=1), _cand("b", page=2), _cand("c", page=3),
             _cand("a3", page=1), _cand("d", page=4), _cand("fig", "figure", page=5, caption_rank=1)]
    ids = [c.chunk.id for c in arrange(cands, k=4, per_page=1, image_slots=0)]
    assert ids == ["a1", "b", "c", "d", "fig", "a2", "a3"]
    ids = [c.chunk.id for c in arrange(cands, k=4, per_page=1, image_slots=1)]
    assert ids[:4] == ["a1", "b", "c", "fig"] and ids[4] == "d"
    assert [c.chunk.id for c in arrange(cands, k=3, per_page=0, image_slots=0)][:3] == ["a1", "a2", "b"]
    # A figure that is not the best match of a figure channel keeps its place.
    weak = cands[:-1] + [_cand("fig", "figure", page=5, caption_rank=4)]
    assert [c.chunk.id for c in arrange(weak, k=4, per_page=1, image_slots=1)][:4] == ["a1", "b", "c", "d"]
    # Nor is a strong figure ranked too deep (beyond 3k) pulled up.
    deep = [_cand(f"t{i}", page=i) for i in range(10)] + [_cand("fig", "figure", page=20, caption_rank=1)]
    assert "fig" not in [c.chunk.id for c in arrange(deep, k=3, per_page=1, image_slots=2)][:3]


def test_short_queries_lean_on_exact_terms(hashing):
    from pagelens.retrieve.expand import is_short, short_query_weights

    assert is_short("WordPiece") and is_short("the Optophone") and is_short("Table 3")
    assert not is_short("How large is the WordPiece vocabulary?") and not is_short("the of")
    w = short_query_weights({"dense": 1.0, "sparse": 1.0})
    assert w["sparse"] > w["dense"]
    settings, store, embedder, _, _ = hashing
    r = Retriever(settings, store, embedder, SparseEncoder())
    hits = r.search("EPYC", k=3)
    assert hits[0].chunk.doc_name == SAMPLE.name and "EPYC" in hits[0].chunk.text
    assert hits[0].channels["sparse_rank"] == 1


def test_rerank_reorders_the_fused_pool(hashing):
    """A /rerank endpoint (served by an httpx MockTransport) that prefers passages naming 'EPYC'."""
    import json as _json

    import httpx

    from pagelens.retrieve.rerank import HttpReranker

    seen: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = _json.loads(request.content)
        docs = body["documents"]
        seen.append(len(docs))
        results = [{"index": i, "relevance_score": 1.0 if "EPYC" in d else 0.0} for i, d in enumerate(docs)]
        return httpx.Response(200, json={"results": results})

    settings, store, embedder, _, _ = hashing
    settings = settings.with_overrides(**{"retrieval.rerank_pool": 12})
    reranker = HttpReranker("http://rerank.test", transport=httpx.MockTransport(handler))
    r = Retriever(settings, store, embedder, SparseEncoder(), reranker=reranker)
    hits = r.search("timing results of the table structure model", k=5, rerank_query="which CPU")
    assert sum(seen) == 12  # only the top rerank_pool candidates are scored
    assert "EPYC" in hits[0].chunk.text and hits[0].rerank_score == 1.0
    assert hits[0].channels["rerank"] == 1.0 and hits[0].score == 1.0
    plain = r.search("timing results of the table structure model", k=5, rerank=False)
    assert sum(seen) == 12  # the reranker was not called again
    assert all(h.rerank_score is None for h in plain)
