"""`pagelens eval` scores retrieval with and without each question's document filter and lists the
tables found per document; merged chunks of a page count for the page they are on."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest

from pagelens.evaluate import hit_rank, run_eval
from pagelens.models import Answer, Chunk, IngestResult, SearchHit


def _hit(doc: str, page: int, rank: int) -> SearchHit:
    chunk = Chunk(id=f"{doc}{page}", doc_id=doc, doc_name=doc, kind="text", text="", embed_text="", pages=[page])
    return SearchHit(rank=rank, score=0.0, chunk=chunk)


class TwoDocApp:
    """Answers every search from b.pdf unless the search is filtered to a.pdf: the doc filter then
    finds the gold page that the unfiltered search misses."""

    def __init__(self) -> None:
        self.filters: list[list[str] | None] = []

    def ingest(self, paths: Iterable[Path | str]) -> list[IngestResult]:
        return [
            IngestResult(doc_id="a", name="a.pdf", path="a.pdf", pages=12, elements={"table": 3, "text": 40}, status="indexed"),
            IngestResult(doc_id="b", name="b.pdf", path="b.pdf", pages=4, elements={"text": 9}, status="unchanged"),
        ]

    def search(self, query: str, *, k: int | None = None, mode: str = "hybrid", docs: Iterable[str] | None = None) -> list[SearchHit]:
        self.filters.append(list(docs) if docs else None)
        if docs and "a.pdf" in docs:
            return [_hit("a.pdf", 2, 1), _hit("a.pdf", 5, 2)]
        return [_hit("b.pdf", 1, 1), _hit("b.pdf", 3, 2), _hit("a.pdf", 5, 3)]

    def ask(self, question: str, *, docs: Iterable[str] | None = None) -> Answer:
        return Answer(question=question, answer="42", abstained=False)


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Path, Path]:
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    for name in ("a.pdf", "b.pdf"):
        (pdfs / name).write_bytes(b"%PDF-1.4\n")  # the fake app never opens them
    q = tmp_path / "q.jsonl"
    q.write_text("\n".join(json.dumps(r) for r in [
        {"id": "1", "pdf": "a.pdf", "question": "q1", "answers": ["42"], "modality": "table", "pages": [5]},
        {"id": "2", "pdf": "a.pdf", "question": "q2", "answers": ["42"], "modality": "text", "pages": [2]},
    ]))
    return pdfs, q


def test_scores_with_and_without_the_document_filter(corpus):
    pdfs, q = corpus
    app = TwoDocApp()
    report = run_eval(app, [q], pdfs, k=5)
    assert [r.rank for r in report.results] == [3, None]
    assert [r.doc_rank for r in report.results] == [2, 1]
    overall = report.overall
    assert overall.hitk == 0.5 and overall.hit1 == 0.0 and overall.mrr == pytest.approx(1 / 6)
    assert overall.doc_hitk == 1.0 and overall.doc_hit1 == 0.5 and overall.doc_mrr == pytest.approx(0.75)
    assert ["a.pdf"] in app.filters and None in app.filters
    table = report.table()
    assert "doc@1" in table and "docMRR" in table
    # The per-document table count sits beside the page count.
    assert [(d.name, d.pages, d.tables) for d in report.documents] == [("a.pdf", 12, 3), ("b.pdf", 4, 0)]
    line = next(ln for ln in table.splitlines() if ln.startswith("a.pdf"))
    assert line.split()[1:3] == ["12", "3"]
    assert report.to_dict()["documents"][0]["tables"] == 3


def test_without_the_filter_pass_no_doc_columns(corpus):
    pdfs, q = corpus
    app = TwoDocApp()
    report = run_eval(app, [q], pdfs, k=5, doc_filter=False, answers=False)
    assert all(f is None for f in app.filters) and report.overall.doc_hitk is None


def test_a_page_carried_by_a_better_chunk_counts():
    best = _hit("a.pdf", 4, 1)
    carried = _hit("a.pdf", 4, 4)
    carried.chunk.pages = [4, 5]  # a paragraph of page 4 that runs onto page 5
    best.merged = [carried]
    hits = [_hit("c.pdf", 1, 1), best]
    assert hit_rank([("a.pdf", 5)], hits, all_pages=False) == 2
