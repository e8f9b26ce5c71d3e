"""Page evidence (``pagelens.retrieve.pagescore``): among near-tied pages of one document, the page that
holds every asked term (the row and the period of its column header) comes first; a clear fusion win,
the words that name a document and the cover that repeats them do not move anything."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
import pytest

from pagelens.index.bm25 import SparseEncoder
from pagelens.models import Chunk
from pagelens.retrieve.pagescore import coverage, page_terms, rescore
from pagelens.retrieve.retriever import Retriever
from index_support import built_index

RRF_K = 60


@dataclass
class _Cand:
    chunk: Chunk
    fused: float
    merged: list["_Cand"] = field(default_factory=list)
    channels: dict[str, float] = field(default_factory=dict)


def _cand(page: int, text: str, fused: float, doc: str = "acme-annual.pdf", *more: str) -> _Cand:
    def chunk(t: str, i: int) -> Chunk:
        return Chunk(id=f"{doc}-{page}-{i}", doc_id=doc, doc_name=doc, kind="text", text=t, embed_text=t, pages=[page])
    return _Cand(chunk(text, 0), fused, merged=[_Cand(chunk(t, i + 1), fused / 2) for i, t in enumerate(more)])


def test_coverage_weighs_a_rare_term_above_a_common_one():
    pages = [{"interest", "expens", "2009"}, {"interest", "expens"}, {"interest", "revenu"}]
    cov = coverage({"interest", "expens", "2009"}, pages)
    assert cov[0] == pytest.approx(1.0)
    assert cov[0] > cov[1] > cov[2] > 0
    assert coverage(set(), pages) == [0.0, 0.0, 0.0]
    # "interest" is on every page: it lifts all alike, "2009" (one page) decides.
    assert cov[1] - cov[2] < cov[0] - cov[1]


def test_a_page_counts_the_terms_of_all_its_pooled_chunks():
    c = _cand(3, "Interest expense", 0.03, "acme-annual.pdf", "Year ended 2009 2008")
    assert {"interest", "expens", "2009", "2008"} <= page_terms(c)


def test_near_tie_goes_to_the_page_holding_every_asked_term():
    prose = _cand(2, "Interest expense decreased as we repaid the loan; interest expense will fall further.", 0.0330)
    table = _cand(4, "Interest expense 3.8 5.1", 0.0325, "acme-annual.pdf", "Year ended December 31 2009 2008")
    out = rescore([prose, table], "What was interest expense in 2009?", RRF_K, weight=0.5)
    assert [c.chunk.page for c in out] == [4, 2]
    assert out[0].channels["coverage"] == pytest.approx(1.0)
    assert out[0].fused == 0.0325  # the fused score (and its explanation) is not rewritten
    # Without the bonus the order is the fused order.
    assert [c.chunk.page for c in rescore([prose, table], "What was interest expense in 2009?", RRF_K, weight=0)] == [2, 4]


def test_a_clear_fusion_win_stays():
    """The bonus is at most ``weight`` first places of a weight-1 channel: 0.5 / 61 = 0.0082."""
    prose = _cand(2, "Interest expense decreased as we repaid the loan.", 0.0330 + 0.5 / (RRF_K + 1))
    table = _cand(4, "Interest expense 3.8 5.1 Year ended 2009 2008", 0.0325)
    out = rescore([prose, table], "What was interest expense in 2009?", RRF_K, weight=0.5)
    assert [c.chunk.page for c in out] == [2, 4]


def test_naming_words_do_not_lift_the_cover():
    """The cover repeats the company's name (routing's identity terms) and the file name's words; they
    say which document, never which page."""
    cover = _cand(1, "Acme Shipping annual report. Acme Shipping runs container ships.", 0.0330)
    table = _cand(4, "Interest expense 3.8 5.1", 0.0326)
    q = "What interest expense did Acme Shipping report?"
    out = rescore([cover, table], q, RRF_K, weight=0.5, skip={"acm", "ship"})
    assert [c.chunk.page for c in out] == [4, 1]
    # Counted as page evidence, the name and "report" would put the cover first.
    unnamed = [_cand(1, cover.chunk.text, 0.0330, "x.pdf"), _cand(4, table.chunk.text, 0.0326, "x.pdf")]
    assert [c.chunk.page for c in rescore(unnamed, q, RRF_K, weight=0.5)] == [1, 4]


def test_a_period_that_named_the_document_still_counts_as_page_evidence():
    """Routing may name a report by its period ("2Q22"); within the report the period heads a
    column, so it stays page evidence. The name does not."""
    prose = _cand(1, "Kroger identical sales without fuel grew this quarter.", 0.0330, "kroger-q2.pdf")
    table = _cand(2, "Identical sales without fuel 2Q23 2Q22 3.5% 5.8%", 0.0326, "kroger-q2.pdf")
    q = "By how much did Kroger's identical sales without fuel grow in 2Q22?"
    out = rescore([prose, table], q, RRF_K, weight=0.5, skip={"kroger", "2q22"})
    assert [c.chunk.page for c in out] == [2, 1]


def test_depth_limits_the_pages_compared():
    cands = [_cand(p, "Net sales rose.", 0.05 - p * 0.0001) for p in range(1, 13)]
    cands.append(_cand(13, "Interest expense 3.8 in 2009", 0.0488))
    out = rescore(cands, "What was interest expense in 2009?", RRF_K, weight=0.5, depth=10)
    assert out[-1].chunk.page == 13 and "coverage" not in out[-1].channels


# A built index: two annual reports, each with a prose page on interest expense and a statement page.
def _report(path: Path, company: str, business: str) -> Path:
    pages = [
        (f"{company} annual report", f"{company} operates {business}. This report covers the fiscal years 2008 "
         "and 2009."),
        ("Interest expense", "Interest expense decreased as we repaid part of our term loan. Interest expense depends on "
         "the variable rate of the loan, and we expect interest expense to fall further as the remaining debt is "
         "repaid. We hedge part of the interest rate risk with swaps."),
        ("Debt", "Our term loan bears interest at a variable rate and interest is paid every quarter. The interest "
         "payments and the interest expense of the loan fall as the loan is repaid."),
        ("Selected financial data", "Year ended December 31 2009 2008\nRevenue 412.5 398.1\nOperating income 61.2 "
         "57.9\nInterest expense 3.8 5.1\nNet income 40.3 35.6"),
        ("Outlook", "We expect revenue to grow as the new units complete a full year of service."),
    ]
    doc = pymupdf.open()
    for head, body in pages:
        page = doc.new_page()
        page.insert_text((72, 80), head, fontsize=16)
        page.insert_textbox(pymupdf.Rect(72, 100, 540, 700), body, fontsize=11)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("page-coverage")
    paths = [_report(root / "harbor-freight-annual.pdf", "Harbor Freight Lines", "container ships between ports"),
             _report(root / "blue-ridge-annual.pdf", "Blue Ridge Rail", "trains in the mountains")]
    with built_index(root / "home", paths) as b:
        yield b


def _search(b, question: str, weight: float):
    r = Retriever(b.settings.with_overrides(**{"retrieval.page_coverage": weight}), b.store, b.embedder, SparseEncoder())
    return r.search(question, k=5)


def _first(b, question: str, weight: float) -> tuple[str, int]:
    hits = _search(b, question, weight)
    return hits[0].chunk.doc_name, hits[0].chunk.page


@pytest.mark.parametrize("question", [
    "What was Harbor Freight Lines' interest expense in 2009?",
    "How much did interest expense at Harbor Freight Lines amount to in 2009?",
])
def test_the_statement_page_with_the_period_outranks_the_prose_page(reports, question: str):
    """The prose page says "interest expense" three times, the statement page once with the year: the
    fusion ties them (each is first in one channel), so without page evidence rank 1 falls to the
    tie-break (chunk ids); with it the statement page, the only one holding the asked year, is first."""
    plain = _search(reports, question, 0.0)
    assert {(h.chunk.doc_name, h.chunk.page) for h in plain[:2]} == {("harbor-freight-annual.pdf", 2),
                                                                      ("harbor-freight-annual.pdf", 4)}
    assert abs(plain[0].score - plain[1].score) < 0.5 / (RRF_K + 1) / 3  # less than the coverage gap
    hits = _search(reports, question, 0.5)
    assert (hits[0].chunk.doc_name, hits[0].chunk.page) == ("harbor-freight-annual.pdf", 4)
    # Decided by page evidence, not by the tie-break: it outscores the prose page.
    assert hits[0].channels["coverage"] > hits[1].channels["coverage"]
    assert hits[0].score == pytest.approx(max(plain[0].score, plain[1].score))  # the fused score is kept


@pytest.mark.parametrize(("question", "first"), [
    ("How did interest expense change at Harbor Freight Lines?", ("harbor-freight-annual.pdf", 2)),
    ("What was Blue Ridge Rail's operating income in 2009?", ("blue-ridge-annual.pdf", 4)),
])
def test_rankings_that_stay(reports, question: str, first: tuple[str, int]):
    assert _first(reports, question, 0.0) == first
    assert _first(reports, question, 0.5) == first
