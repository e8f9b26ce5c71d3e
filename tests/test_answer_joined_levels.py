"""A model printout names a factor's coefficient by the variable joined to its level ("tempwarm",
"contactyes", "healthpoor"): "what coefficient does *warm temperature* get" names that row, the
variable by its first letters and the level as a word of its own (``answer.cells``)."""

from __future__ import annotations


import pytest

from index_support import ingested_app
from pdf_support import printout_pdf
from pagelens.answer import cells

PRINTOUT = ["R> fm1 <- clm(rating ~ temp + contact, data = wine)", "R> summary(fm1)",
            "Coefficients:",
            "           Estimate Std. Error z value Pr(>|z|)",
            "tempwarm     2.5031     0.5287   4.735 2.19e-06 ***",
            "contactyes   1.5278     0.4766   3.205  0.00135 **", "",
            "Threshold coefficients:",
            "    Estimate Std. Error z value",
            "1|2  -1.3444     0.5171  -2.600",
            "2|3   1.2508     0.4379   2.857",
            "3|4   3.4669     0.5978   5.800"]


WINE = dict(lines=PRINTOUT, heading="4.1 Fitting a cumulative link model to the wine data",
            intro="We fit a cumulative link model with a logit link to the bitterness ratings of the wine data, with "
                  "temperature and contact as explanatory variables. The fitted model is summarized as follows.",
            outro="Both effects point in the bitter direction; the thresholds increase, as they must.")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("joined_levels")
    with ingested_app(root, [printout_pdf(root / "ordinal-wine.pdf", WINE)], answer_cache=False) as a:
        yield a


def test_a_level_joined_to_its_variable_names_the_coefficient(app):
    ans = app.ask("What coefficient does warm temperature get in the wine model?")
    assert not ans.abstained, ans.answer
    assert ans.answer.startswith("tempwarm — Estimate: 2.5031"), ans.answer


@pytest.mark.parametrize(("term", "question", "named"), [
    ("tempwarm", {"warm", "temperatur"}, True),
    ("healthpoor", {"poor", "health"}, True),
    ("tempwarm", {"temperatur"}, False),  # the level is not asked: another level's row may be meant
    ("tempwarm", {"warm"}, False),  # ... nor the variable
    ("contactyes", {"contact"}, False),  # "yes" not asked
    ("temp", {"te", "mp"}, False),  # too short to hold two names
])
def test_a_joined_name_needs_its_variable_and_its_level(term, question, named):
    assert cells._matches(term, question) is named
