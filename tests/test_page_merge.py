"""Page diversity in the top k: several chunks of one page take one place, the best carries the
others with their own channel scores, and the answer stage still reads the carried chunks."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
import pytest

from pagelens.embed.fake import HashingEmbedder
from pagelens.index.bm25 import SparseEncoder
from pagelens.index.indexer import Indexer
from pagelens.ingest.pipeline import Ingestor
from pagelens.models import Chunk, SearchHit
from pagelens.retrieve.diversity import cover_documents, merge_pages
from pagelens.retrieve.retriever import Retriever
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore
from pagelens.vectors.edge import EdgeVectorStore

SECTIONS = ["Inverter efficiency at low load", "Inverter efficiency at high load", "Inverter efficiency in heat",
            "Inverter efficiency over time", "Inverter efficiency and cabling"]


def _crowded_pdf(path: Path) -> Path:
    """Page 1: five short sections on solar inverter efficiency (five chunks); pages 2-5: one
    paragraph each on the same subject."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 60
    for i, title in enumerate(SECTIONS):
        page.insert_text((72, y), f"{i + 1}. {title}", fontsize=15)
        page.insert_textbox(pymupdf.Rect(72, y + 8, 540, y + 130),
                            f"Solar inverter efficiency was measured for case {i + 1}: the inverter converted "
                            f"{90 + i}.{i} percent of the panel power. Efficiency of the solar inverter matters.",
                            fontsize=10)
        y += 140
    for n in range(2, 6):
        page = doc.new_page()
        page.insert_textbox(pymupdf.Rect(72, 72, 540, 300),
                            f"Appendix {n}. The solar inverter efficiency figures were checked by auditor {n}; "
                            f"the inverter efficiency on this site stayed above {80 + n} percent.", fontsize=11)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("crowded")
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "retrieval.per_page": 0})
    catalog = Catalog(root / "home" / "catalog.sqlite3")
    images = ImageStore(root / "home" / "images")
    result = Ingestor(settings.ingest, catalog, images).ingest_file(_crowded_pdf(root / "inverters.pdf"))
    assert result.status == "indexed", result.error
    store = EdgeVectorStore(root / "home" / "qdrant")
    embedder = HashingEmbedder(dim=256)
    Indexer(settings, store, embedder, SparseEncoder(), catalog, images).index_document(result.doc_id)
    yield settings, store, embedder
    store.close()
    catalog.close()


def test_a_crowded_page_takes_one_place(crowded):
    settings, store, embedder = crowded
    q = "solar inverter efficiency"
    merged = Retriever(settings, store, embedder, SparseEncoder()).search(q, k=4)
    plain = Retriever(settings.with_overrides(**{"retrieval.merge_pages": False}), store, embedder, SparseEncoder()).search(q, k=4)
    # Without merging, page 1's sections take several of the four places.
    assert sum(h.chunk.page == 1 for h in plain) >= 2
    pages = [h.chunk.page for h in merged]
    assert len(pages) == len(set(pages)) == 4
    first = next(h for h in merged if h.chunk.page == 1)
    assert len(first.merged) >= 2 and all(m.chunk.page == 1 for m in first.merged)
    # The carried chunks keep their own explanation: channel scores, ranks, and their fused rank.
    for m in first.merged:
        assert "fused" in m.channels and any(k.endswith("_rank") for k in m.channels)
        assert m.rank > 0 and m.channels["fused"] <= first.channels["fused"]
    assert {c.id for c in first.all_chunks()} >= {h.chunk.id for h in plain if h.chunk.page == 1}


@dataclass
class _C:
    chunk: Chunk
    merged: list = field(default_factory=list)


def _c(doc: str, page: int, tag: str) -> _C:
    return _C(Chunk(id=f"{doc}{page}{tag}", doc_id=doc, doc_name=f"{doc}.pdf", kind="text", text=tag,
                    embed_text=tag, pages=[page]))


def test_merge_keeps_order_and_the_best_of_each_page():
    cands = [_c("a", 1, "x"), _c("a", 2, "y"), _c("a", 1, "z"), _c("b", 1, "w"), _c("a", 2, "v")]
    out = merge_pages(cands)
    assert [c.chunk.id for c in out] == ["a1x", "a2y", "b1w"]
    assert [m.chunk.id for m in out[0].merged] == ["a1z"] and [m.chunk.id for m in out[1].merged] == ["a2v"]


def test_every_named_document_gets_a_place():
    cands = [_c("a", 1, ""), _c("a", 2, ""), _c("a", 3, ""), _c("b", 1, ""), _c("c", 4, "")]
    out = cover_documents(cands, 3, ["a", "c"])
    assert {c.chunk.doc_id for c in out[:3]} == {"a", "c"} and out[2].chunk.doc_id == "c"
    assert out[0].chunk.id == "a1" and len(out) == len(cands)
    # A document with nothing among the candidates is skipped; the top k keeps its order.
    assert [c.chunk.id for c in cover_documents(cands, 3, ["z"])] == [c.chunk.id for c in cands]


def test_the_answer_reads_the_chunks_a_source_carries():
    from pagelens.answer.candidates import candidates

    text = Chunk(id="t", doc_id="d", doc_name="r.pdf", kind="text", text="Revenue grew in every region.",
                 embed_text="", pages=[3])
    table = Chunk(id="tb", doc_id="d", doc_name="r.pdf", kind="table", embed_text="", pages=[3],
                  text="Table 4: Revenue\n| Region | 2009 |\n|---|---|\n| North | 41.5 |\n| South | 38.2 |")
    hit = SearchHit(rank=1, score=1.0, chunk=text, merged=[SearchHit(rank=2, score=0.5, chunk=table)])
    found = candidates(hit, 0)
    rows = [c for c in found if c.kind == "row"]
    assert {r.label for r in rows} == {"North", "South"} and all(r.source == 0 and r.page == 3 for r in rows)
