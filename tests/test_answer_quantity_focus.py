"""A question whose asked thing is a quantity by its head noun ("what *F value* does the quadratic term get",
"what *p value* ...") asks for a number as "how many" does, though no "what value" opens it: a sentence that
names the term and the statistic but states no number is no answer beside the table row that gives it."""

from __future__ import annotations

import pytest

from pagelens.answer import text as tx
from pagelens.answer.cues import Cues
from index_support import ingested_app
from pdf_support import titled_pdf

_PROSE = [
    "In the sequential decomposition of the dose response model, the F value that the quadratic dose term gets "
    "is small beside the F value of the linear dose term, so the quadratic dose term adds little to the fit.",
]
_ROWS = [("Term", "Sum Sq", "F value"), ("linear dose", "5021", "9.84"), ("quadratic dose", "340", "0.66")]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("quantity-focus")
    pdf = root / "dose-response-anova.pdf"
    titled_pdf(pdf, "Sequential analysis of a dose response model", _PROSE,
               table=(0, "Table 2: Sequential analysis of variance of the dose response model.", _ROWS))
    with ingested_app(root, [pdf], answer_cache=False) as app:
        yield app


def test_a_statistic_named_by_its_head_noun_is_answered_with_its_number(app):
    ans = app.ask("In the sequential decomposition of the dose response model, what F value does the quadratic dose term get?")
    assert not ans.abstained and "0.66" in ans.answer.split("[")[0], ans.answer


@pytest.mark.parametrize("question, numeric", [
    ("What F value does the quadratic term get?", True),
    ("What posterior predictive p value does the paper report?", True),
    ("What corrosion rate was measured?", True),
    ("What colour marks the accessible rows?", False),
    ("What job title does the author hold?", False),
    ("When was the F value reported?", False),
])
def test_a_quantity_focus_asks_for_a_number(question: str, numeric: bool):
    assert Cues.of(question, tx.content_terms(question)).numeric is numeric
