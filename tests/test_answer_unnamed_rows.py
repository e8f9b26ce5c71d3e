"""Tables whose rows nothing names, and rows named by the section they sit in.

* A printout's line of values under their titles ("AIC AICc BIC" over "634.0437 635.2682 644.0803") and a
  test's table of models "1" and "2" of which only the second has a "Pr(>Chisq)" name no row: the table is
  about one thing, so the column the question names, where it holds one value, is the cell asked for
  (``answer.table_read``). Found on fresh2's forecast paper ("What AIC does the exponential smoothing
  model ... report?" was withheld, its row never read).
* A table row is scored with the heading of the section its table sits in, as words it inherits
  (``answer.candidates``): two tables of one page alike but for their headings are told apart by them.
"""

from __future__ import annotations


import pytest

from index_support import ingested_app
from pdf_support import printout_pdf
from pagelens.answer import lexical as lx
from pagelens.answer import text as tx
from pagelens.answer.candidates import candidates
from pagelens.answer.focus import focus_of
from pagelens.answer.table_read import read_tables
from pagelens.models import Chunk, SearchHit


FIT = dict(lines=["R> fit <- ets(sales)", "R> fit", "ETS(M,A,N)", "Call:", " ets(y = sales)", "  Smoothing parameters:",
                  "    alpha = 0.9999", "    beta = 0.2191", "  sigma: 0.0259", "     AIC     AICc      BIC",
                  "634.0437 635.2682 644.0803"],
           intro="To apply the automatic algorithm to the cooperative's sales, we use the following command.",
           outro="The AIC is what the automatic procedure minimises when it selects among the candidate models; it "
                 "can choose between additive and multiplicative errors because it rests on the likelihood.")
LRTEST_PAGE = dict(lines=["R> lrtest(restricted, unrestricted)", "Likelihood ratio test", "Model 1: restricted",
                          "Model 2: unrestricted", "  #Df  LogLik Df  Chisq Pr(>Chisq)", "1   9 -52.117",
                          "2  10 -51.614  1 1.0043     0.3163"],
                   intro="We test whether the price coefficients of the demand and supply equations sum to zero with a "
                         "likelihood ratio test of the restricted against the unrestricted system.",
                   outro="The likelihood ratio test is a wrapper around the default method for linear models; it "
                         "compares the log likelihoods of the two fits.")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("unnamed_rows")
    with ingested_app(root, [printout_pdf(root / "sales-forecasting.pdf", FIT, LRTEST_PAGE)], answer_cache=False) as a:
        yield a


def test_a_line_of_values_is_read_by_the_column_the_question_names(app):
    ans = app.ask("What AIC does the exponential smoothing model fitted to the quarterly sales series report?")
    assert not ans.abstained, ans.answer
    assert ans.answer.startswith("AIC: 634.0437"), ans.answer


def _table_hit(markdown: str, section: list[str], page: int = 1, merged: list[SearchHit] | None = None) -> SearchHit:
    chunk = Chunk(id=f"t{abs(hash(markdown))}", doc_id="d1", doc_name="report.pdf", kind="table", text=markdown,
                  embed_text=markdown, pages=[page], section=section)
    return SearchHit(rank=1, score=1.0, chunk=chunk, merged=merged or [])


def _read(question: str, hit: SearchHit):
    cands = candidates(hit, 0)
    read_tables(question, tx.content_terms(question), focus_of(question), cands, False)
    return [c for c in cands if c.kind == "row"]


LRTEST = ("lrtest(restricted, unrestricted): Likelihood ratio test\n\n"
          "| Col1 | #Df | LogLik | Df | Chisq | Pr(>Chisq) |\n|---|---|---|---|---|---|\n"
          "| 1 | 9 | -52.117 |  |  |  |\n| 2 | 10 | -51.614 | 1 | 1.0043 | 0.3163 |")


def test_the_one_value_of_a_named_column_among_numbered_rows_is_read():
    rows = _read("What p value does the likelihood ratio test of the restricted system give?", _table_hit(LRTEST, []))
    read = [r for r in rows if r.column is not None]
    assert len(read) == 1 and read[0].cells[read[0].column] == "0.3163", [(r.text, r.column) for r in rows]
    # A column with a value in both rows names no one cell: the question must say which model.
    rows = _read("What log likelihood does the likelihood ratio test of the restricted system give?", _table_hit(LRTEST, []))
    assert all(r.column is None for r in rows), [(r.text, r.column) for r in rows]


def test_a_row_of_a_named_table_is_not_read_by_its_column_alone():
    table = "| Model | AIC | BIC |\n|---|---|---|\n| Poisson | 36010.4 | 36080.2 |"
    rows = _read("What AIC does the negative binomial model reach?", _table_hit(table, []))
    assert all(r.column is None for r in rows), [(r.text, r.column) for r in rows]


def test_a_row_is_scored_with_the_heading_of_its_table():
    table = "| Species | Count |\n|---|---|\n| Cod | {} |\n| Flounder | {} |"
    estuary = _table_hit(table.format(9, 17), ["Counts by site", "3.2 Estuary flats survey"])
    hit = _table_hit(table.format(14, 6), ["Counts by site", "3.1 Harbour mouth survey"], merged=[estuary])
    question = "How many flounder were counted in the estuary flats survey?"
    flounder = [c for c in candidates(hit, 0) if c.kind == "row" and c.label == "Flounder"]
    q_terms = tx.content_terms(question)
    idf = lx.idf(q_terms, flounder)
    by_words = sorted(flounder, key=lambda c: -lx.stated_coverage(q_terms, idf, c))
    assert [c.cells[1] for c in by_words] == ["17", "6"], [(c.match_text, lx.stated_coverage(q_terms, idf, c)) for c in by_words]
