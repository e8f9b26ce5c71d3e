"""Reading the asked cell of a statistical table: the column titles of a program's printout name the
quantity a question asks for in other words ("coefficient" → R's "Estimate", "standard error" →
"Std. Error" / "SE", "p value" → "Pr(>|t|)"), and a regression table that prints each standard error in
parentheses under its estimate answers "what is the standard error" from that row, not the estimate's.
Found on fresh2's survey printout (bench/realdocs.py: "meals coefficient" under "Estimate") and the
pscl paper's Table 2 (estimates over "(0.062)")."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from index_support import ingested_app
from pagelens.answer import text as tx
from pagelens.answer import markdown as md
from pdf_support import draw_ruled_table

R_HEADER = ("", "Estimate", "Std. Error", "t value", "Pr(>|t|)")
SM_HEADER = ("", "coef", "std err", "z", "P>|z|")


def _column(question: str, header: tuple[str, ...]) -> str | None:
    col = tx.best_column(list(header), tx.content_terms(question), tx.ask_terms(question))
    return None if col is None else header[col]


@pytest.mark.parametrize(("question", "header", "column"), [
    ("What is the meals coefficient in the regression?", R_HEADER, "Estimate"),
    ("What standard error does the meals term get?", R_HEADER, "Std. Error"),
    ("What p value does the meals term get?", R_HEADER, "Pr(>|t|)"),
    ("What is the p-value of meals?", R_HEADER, "Pr(>|t|)"),
    ("What is the coefficient on UNEMP?", SM_HEADER, "coef"),
    ("What standard error does UNEMP get?", SM_HEADER, "std err"),
    ("What p value does UNEMP get?", SM_HEADER, "P>|z|"),
    ("What standard error does the mean of api00 have?", ("", "mean", "SE"), "SE"),
])
def test_a_printout_title_is_named_by_the_quantity_it_stands_for(question, header, column):
    assert _column(question, header) == column


def test_unrelated_words_name_no_printout_title():
    assert _column("What is the error rate of the classifier?", ("", "Estimate", "Std. Error")) == "Std. Error"
    assert _column("Which standard does the meals term follow?", R_HEADER) is None


MONO = 9
PRINTOUT = [
    "            Estimate Std. Error t value Pr(>|t|)",
    "(Intercept) 817.1823    18.6709  43.768 1.32e-14",
    "ell          -0.5088     0.3259  -1.561    0.144",
    "meals        -3.1456     0.3018 -10.423 2.29e-07",
]
MODELS = ("", "Poisson", "NegBin", "Hurdle")
ESTIMATES = [MODELS, ("(Intercept)", "1.029", "0.929", "1.198"), ("", "(0.024)", "(0.055)", "(0.059)"),
             ("hosp", "0.165", "0.218", "0.212"), ("", "(0.006)", "(0.020)", "(0.021)"),
             ("numchron", "0.147", "0.175", "0.126"), ("", "(0.005)", "(0.012)", "(0.012)")]


def _survey(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_textbox(pymupdf.Rect(54, 50, 560, 110),
                        "We fit a survey-weighted linear regression of the school API score on the share of "
                        "English language learners and on the share of students with subsidized meals.", fontsize=10)
    y = 130.0
    page.insert_text((54, y), "> summary(regmodel)", fontname="cour", fontsize=MONO)
    y += 24
    for line in PRINTOUT:
        page.insert_text((54, y), line, fontname="cour", fontsize=MONO)
        y += 12
    page.insert_text((54, y + 20), "Both predictors lower the score; the meals effect is the stronger one.", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def _counts(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    draw_ruled_table(page, [72, 200, 290, 380, 470], 80, 22, ESTIMATES)
    page.insert_textbox(pymupdf.Rect(72, 250, 540, 330),
                        "Table 3: Count regression models of physician visits: coefficient estimates with "
                        "standard errors in parentheses for the Poisson, negative binomial (NegBin) and "
                        "hurdle models.", fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("printout_cells")
    with ingested_app(root, [_survey(root / "survey-example.pdf"), _counts(root / "count-models.pdf")],
                      answer_cache=False) as a:
        yield a


def test_the_coefficient_is_read_from_the_estimate_column(app):
    ans = app.ask("What is the meals coefficient in the survey-weighted regression of the API score?")
    assert not ans.abstained, ans.answer
    assert "-3.1456" in ans.answer, ans.answer
    assert "0.3018" not in ans.answer.split("[")[0], ans.answer


def test_the_p_value_is_read_from_the_pr_column(app):
    ans = app.ask("What p value does the meals term get in the survey-weighted regression of the API score?")
    assert not ans.abstained, ans.answer
    assert "2.29e-07" in ans.answer, ans.answer


def test_the_standard_error_in_parentheses_under_the_estimate_is_read(app):
    ans = app.ask("What is the standard error of hosp in the NegBin count regression model?")
    assert not ans.abstained, ans.answer
    assert "0.020" in ans.answer.split("[")[0], ans.answer
    assert "0.218" not in ans.answer.split("[")[0], ans.answer


def test_the_estimate_is_read_from_the_row_above_its_standard_error(app):
    ans = app.ask("What is the coefficient of hosp in the NegBin count regression model?")
    assert not ans.abstained, ans.answer
    assert "0.218" in ans.answer.split("[")[0], ans.answer
    assert "(0.020)" not in ans.answer.split("[")[0], ans.answer


def test_an_escaped_pipe_stays_in_its_cell():
    # the table writer escapes "|" in a cell (ingest.table_render): R's p-value title is one column
    assert md.split_row(r"|  | Estimate | Std. Error | t value | Pr(>\|t\|) |") == [
        "", "Estimate", "Std. Error", "t value", "Pr(>|t|)"]
    assert md.split_row("| a | b |") == ["a", "b"]
