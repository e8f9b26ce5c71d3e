"""The evaluation harness: question loading, the README's scoring rules, and a run through the facade."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pagelens.errors import ConfigError
from pagelens.evaluate import (
    QuestionResult,
    answer_correct,
    hit_rank,
    load_questions,
    norm,
    percentile,
    summarize,
)
from pagelens.models import Chunk, SearchHit
from pdfs import SAMPLE


def hit(doc: str, *pages: int, rank: int = 1) -> SearchHit:
    chunk = Chunk(id=f"{doc}{pages}", doc_id="x", doc_name=doc, kind="text", text="", embed_text="", pages=list(pages))
    return SearchHit(rank=rank, score=0.0, chunk=chunk)


def test_loads_question_files_in_the_dev_set_format(tmp_path: Path):
    """Records as the dev corpus writes them (one pdf or several, flat or per-pdf page lists), read
    from two files in order."""
    first = [
        {"id": "t1", "pdf": "quill.pdf", "question": "How large is the vocabulary?", "answers": ["30,000"],
         "modality": "text", "pages": [3]},
        {"id": "tb1", "pdf": "quill.pdf", "question": "CoLA of QUILL-Large?", "answers": ["61.3"],
         "modality": "table", "pages": [4], "evidence": "Table 1"},
        {"id": "x1", "pdf": ["quill.pdf", "solve.pdf"], "question": "Which epsilon?", "answers": ["1e-8"],
         "modality": "cross-doc", "pages": [[4, 9], [2]]},
    ]
    second = [
        {"id": "u1", "pdf": "solve.pdf", "question": "Who funded it?", "answers": [], "modality": "unanswerable",
         "pages": []},
        {"id": "tb2", "pdf": "nics.pdf", "question": "Total checks?", "answers": ["2,236,457", "2236457"],
         "modality": "table", "pages": [1]},
    ]
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("\n".join(json.dumps(r) for r in first) + "\n\n")
    b.write_text("\n".join(json.dumps(r) for r in second))
    qs = load_questions([a, b])
    assert [q.id for q in qs] == ["t1", "tb1", "x1", "u1", "tb2"]
    by: dict[str, int] = {}
    for q in qs:
        by[q.modality] = by.get(q.modality, 0) + 1
    assert by == {"text": 1, "table": 2, "cross-doc": 1, "unanswerable": 1}
    cross = next(q for q in qs if q.modality == "cross-doc")
    assert cross.gold == [("quill.pdf", 4), ("quill.pdf", 9), ("solve.pdf", 2)] and cross.all_pages
    assert cross.pdfs == ["quill.pdf", "solve.pdf"]
    assert qs[0].gold == [("quill.pdf", 3)] and not qs[0].all_pages and qs[0].answers == ["30,000"]
    unans = [q for q in qs if q.modality == "unanswerable"]
    assert all(q.gold == [] and q.answers == [] for q in unans)
    a.write_text(json.dumps({**first[2], "pages": [[4]]}))
    with pytest.raises(ConfigError, match=r"a.jsonl: line 1: .*2 pdfs but 1 page lists"):
        load_questions([a])


def test_bad_record_names_file_and_line(tmp_path: Path):
    p = tmp_path / "q.jsonl"
    p.write_text(json.dumps({"id": "a", "pdf": "x.pdf", "question": "?", "modality": "text", "pages": [1]}) + "\n{oops\n")
    with pytest.raises(ConfigError, match=r"q.jsonl: line 2"):
        load_questions([p])


def test_reference_answer_scoring():
    assert norm("  Ｆｏｏ\u2212Bar\n\tbaz ") == "foo-bar baz"  # NFKC, minus sign, whitespace
    assert answer_correct("The vocabulary has 30,000 tokens.", ["30,000", "30000"])
    assert answer_correct("ε = 10\u22128", ["10-8"])
    assert answer_correct("the ﬁve-to-ten range", ["five-to-ten"])  # ligature
    assert not answer_correct("about 3,000", ["30,000"])
    assert not answer_correct("anything", [])


def test_hit_rank_any_page_and_all_pages():
    hits = [hit("a.pdf", 3), hit("b.pdf", 2), hit("a.pdf", 7, 8), hit("c.pdf", 1)]
    assert hit_rank([("a.pdf", 7)], hits, all_pages=False) == 3
    assert hit_rank([("a.pdf", 8), ("b.pdf", 2)], hits, all_pages=False) == 2
    assert hit_rank([("a.pdf", 8), ("b.pdf", 2)], hits, all_pages=True) == 3  # a chunk spanning 7-8 counts for both
    assert hit_rank([("a.pdf", 3), ("c.pdf", 9)], hits, all_pages=True) is None
    assert hit_rank([("b.pdf", 3)], hits, all_pages=False) is None  # right page, wrong file
    assert hit_rank([], hits, all_pages=False) is None


def test_summary_rows():
    results = [
        QuestionResult("1", "text", rank=1), QuestionResult("2", "text", rank=3),
        QuestionResult("3", "text", rank=None), QuestionResult("4", "multi-hop", rank=None, any_rank=2),
        QuestionResult("5", "unanswerable", scored=False, answer_ok=True),
    ]
    rows = {r.name: r for r in summarize(results, k=5)}
    assert rows["text"].n == 3 and rows["text"].hit1 == pytest.approx(1 / 3)
    assert rows["text"].hitk == pytest.approx(2 / 3) and rows["text"].mrr == pytest.approx((1 + 1 / 3) / 3)
    assert rows["multi-hop"].hitk == 0 and rows["multi-hop"].any_hitk == 1.0
    assert rows["unanswerable"].n == 0 and rows["unanswerable"].answer_acc == 1.0
    assert rows["overall"].n == 4 and rows["overall"].hitk == pytest.approx(2 / 4)
    assert percentile([10, 20, 30, 40], 50) == 25 and percentile([7], 95) == 7


def test_run_eval_through_the_facade(settings, tmp_path: Path):
    """Two questions on the one-page OTSL sample, through pagelens.app with a hashing embedder."""
    from pagelens.app import Pagelens
    from pagelens.embed.fake import HashingEmbedder
    from pagelens.evaluate import run_eval

    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    (pdfs / "otsl.pdf").write_bytes(SAMPLE.read_bytes())
    qfile = tmp_path / "q.jsonl"
    rows = [
        {"id": "o1", "pdf": "otsl.pdf", "question": "Which CPU was used for the inference timing?",
         "answers": ["epyc 7763"], "modality": "text", "pages": [1]},
        {"id": "o2", "pdf": "otsl.pdf", "question": "What is the price of OTSL?", "answers": [],
         "modality": "unanswerable", "pages": []},
    ]
    qfile.write_text("\n".join(json.dumps(r) for r in rows))
    s = settings.with_overrides(**{"ingest.ocr": "off"})
    with Pagelens(s, embedder=HashingEmbedder(dim=256)) as app:
        report = run_eval(app, [qfile], pdfs, k=3, answers=False)
    assert report.pages == 1 and report.ingest_seconds > 0 and not report.failed_files
    by_id = {r.id: r for r in report.results}
    assert by_id["o1"].rank == 1 and by_id["o1"].top[0] == "otsl.pdf:1"
    assert not by_id["o2"].scored and by_id["o2"].rank is None
    assert report.overall.n == 1 and report.overall.hitk == 1.0
    table = report.table()
    assert "hit@3" in table and "overall" in table and "pages/s" in table
    qfile.write_text(json.dumps({**rows[0], "pdf": "missing.pdf"}))
    with pytest.raises(ConfigError, match="missing.pdf"):  # checked before anything is ingested
        run_eval(app, [qfile], pdfs, k=3, answers=False)
