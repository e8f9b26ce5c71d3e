"""Abstention by the support score on releases the test builds: the topic of the question is on the
page but the thing asked for is not (a dividend on a page of per-share results, a head count on a page
that talks about employees) → abstain; the same question where the release states it → the right span
with its citation. And the pieces: the question's focus, its attachment to a value, dates as units."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import support as sp
from pagelens.answer.candidates import Candidate
from pagelens.answer.focus import attachment, focus_of
from pagelens.app import Pagelens
from pagelens.settings import Settings
from pdf_support import draw_ruled_table

HIGHLIGHTS = [("Revenue", "412", "381"), ("Operating income", "57", "49"), ("Net income", "41", "35"),
              ("Diluted earnings per share", "1.42", "1.19")]


def _release(path: Path, company: str, extra: str) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 70), f"{company} Reports Second Quarter 2024 Results", fontsize=16)
    body = (f"{company} today reported financial results for the quarter ended June 30, 2024. Revenue grew on "
            "strong demand for outdoor equipment. Employee engagement improved across all regions. Share "
            f"repurchases totalled $120 million in the quarter. {extra}")
    page.insert_textbox(pymupdf.Rect(72, 90, 540, 230), body, fontsize=11)
    page.insert_text((72, 262), "Financial highlights (in millions, except per share amounts)", fontsize=11)
    x = [72, 280, 380, 480]
    y0, h = 272, 22
    cells = [("", "Q2 2024", "Q2 2023"), *HIGHLIGHTS]
    draw_ruled_table(page, x, y0, h, cells)
    doc.save(path)
    doc.close()
    return path


def _app(root: Path, name: str, company: str, extra: str):
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    app = Pagelens(settings)
    results = app.ingest([_release(root / name, company, extra)])
    assert results[0].status == "indexed", results[0].error
    return app


@pytest.fixture(scope="module")
def without(tmp_path_factory: pytest.TempPathFactory):
    """A release that talks about per-share results and employees but states no dividend and no head count."""
    with _app(tmp_path_factory.mktemp("without"), "northwind-q2-2024.pdf", "Northwind Traders", "") as app:
        yield app


@pytest.fixture(scope="module")
def with_facts(tmp_path_factory: pytest.TempPathFactory):
    extra = ("The board declared a quarterly cash dividend of $0.35 per share, payable on August 15, 2024. "
             "Fabrikam had 5,300 employees at the end of the quarter.")
    with _app(tmp_path_factory.mktemp("with"), "fabrikam-q2-2024.pdf", "Fabrikam", extra) as app:
        yield app


def _pages(text: str) -> set[int]:
    return {int(p) for p in re.findall(r"\[\d+, p\.(\d+)\]", text)}


@pytest.mark.parametrize("question", [
    "What dividend per share did Northwind Traders declare for the second quarter of 2024?",
    "How many employees does Northwind Traders have?",
])
def test_abstains_when_the_topic_is_there_but_the_asked_thing_is_not(without, question):
    assert without.settings.answer.abstain == "support"
    ans = without.ask(question)
    assert ans.abstained, ans.answer


def test_answers_the_cell_that_is_there_on_the_same_page(without):
    ans = without.ask("What diluted earnings per share did Northwind Traders report for the second quarter of 2024?")
    assert not ans.abstained, ans.answer
    assert re.search(r"Diluted earnings per share\W+Q2 2024: 1\.42", ans.answer), ans.answer
    assert _pages(ans.answer) == {1} and not ans.invalid_citations


def test_answers_the_dividend_where_the_release_declares_one(with_facts):
    ans = with_facts.ask("What dividend per share did Fabrikam declare for the second quarter of 2024?")
    assert not ans.abstained, ans.answer
    assert "0.35" in ans.answer and 1 in _pages(ans.answer) and not ans.invalid_citations


def test_answers_the_head_count_where_the_release_gives_one(with_facts):
    ans = with_facts.ask("How many employees did Fabrikam have at the end of the quarter?")
    assert not ans.abstained, ans.answer
    assert "5,300" in ans.answer and 1 in _pages(ans.answer)


# -- the pieces -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("question, terms, kind", [
    ("What dividend per share did Meta declare for the second quarter of 2023?", ("dividend", "share"), "money"),
    ("How many full-time employees did Alphabet have at the end of 2022?", ("full", "time", "fulltim", "employe"),
     "number"),
    ("What e-mail address did the employee enter on the HR form?", ("mail", "email", "address"), "email"),
    ("What was Meta's income from operations in the second quarter?", ("incom",), "number"),  # owner is no focus
    ("What is the total number of NICS checks for Texas?", ("total", "nic", "check"), "number"),  # "number of" joins
    ("Which colour marks the rows that are accessible?", (), ""),  # a class word, then the verb
    ("How much did Meta spend on share repurchases?", (), "number"),  # an amount of a verb: no noun
    ("Who wrote the paper?", (), "person"),
    ("In which city is Alphabet's largest European data center located?", (), "place"),  # the kind is no term
    ("What job title does the employee hold?", (), "role"),
    # a level reached is a quantity, whatever its name: it needs its focus in the span
    ("What AIC does the negative binomial model reach?", ("aic",), "number"),
    ("What MAPE did the method achieve on the test data?", ("mape",), "number"),
    ("What dev accuracy is obtained with 6 layers?", ("dev", "accuraci"), "number"),
    ("From which survey were the data originally obtained?", ("survey",), ""),  # "which": an instance
    ("What data type is the port variable?", ("data",), ""),
])
def test_focus_is_the_head_noun_phrase_with_its_modifiers(question, terms, kind):
    focus = focus_of(question)
    assert focus.terms == terms and focus.kind == kind, focus


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory):
    """A summary of three fitted count models whose AIC and log-likelihood rows are blank for one of them."""
    root = tmp_path_factory.mktemp("models")
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 70), "Count regression models for doctor visits", fontsize=16)
    page.insert_textbox(pymupdf.Rect(72, 90, 540, 200), "We fit a Poisson model and a negative binomial model to "
                        "the visits data of the health survey. The negative binomial model allows for overdispersion. "
                        "Table 1 summarises the fitted models by their coefficients and their log-likelihood.",
                        fontsize=11)
    draw_ruled_table(page, [72, 220, 320, 420, 520], 220, 22, [
        ("", "Poisson", "Quasi-Poisson", "Neg. binomial"), ("(Intercept)", "1.029", "1.029", "0.929"),
        ("hospital", "0.165", "0.165", "0.218"), ("age", "-0.055", "-0.055", "-0.062"),
        ("Log-likelihood", "-17971.6", "", "-12170.6"), ("AIC", "35959.2", "", "24359.1")])
    page.insert_text((72, 360), "Table 1: Fitted count regression models for the visits data.", fontsize=10)
    doc.save(root / "counts.pdf")
    doc.close()
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    with Pagelens(settings) as app:
        assert app.ingest([root / "counts.pdf"])[0].status == "indexed"
        yield app


def test_a_level_reached_that_the_model_has_no_cell_for_is_abstained_on(models):
    ans = models.ask("What AIC does the negative binomial model reach?")
    assert not ans.abstained and "24359.1" in ans.answer, ans.answer
    for q in ("What AIC does the quasi-Poisson model reach?",  # not a coefficient of its column
              "What log-likelihood does the quasi-Poisson model achieve?"):
        ans = models.ask(q)
        assert ans.abstained, (q, ans.answer)


def test_a_per_unit_weighs_less_than_the_thing_measured():
    focus = focus_of("What dividend per share did Meta declare?")
    assert focus.units == ("share",)
    from pagelens.answer.focus import focus_idf

    idf = focus_idf(focus, ["earnings per share 2.98", "dividend policy"])
    assert idf["share"] < idf["dividend"]


def _row(label: str, header: list[str], cells: list[str], caption: str = "") -> Candidate:
    text = "; ".join(f"{h}: {c}" if h and i else c for i, (h, c) in enumerate(zip(header, cells)))
    return Candidate(text, f"{text} {caption}", 0, 1, "row", header, cells, label=label)


def test_a_row_that_names_another_thing_does_not_attach_the_value_to_the_focus():
    q = "What dividend per share did Meta declare in 2023?"
    header = ["", "2023", "2022"]
    eps = _row("Diluted earnings per share", header, ["Diluted earnings per share", "2.98", "2.46"])
    div = _row("Cash dividend per share", header, ["Cash dividend per share", "0.50", "0.00"])
    focus = focus_of(q)
    idf = {"dividend": 3.0, "share": 1.5}
    span_eps, near_eps, _ = attachment(focus, q, eps, 1, idf)
    span_div, near_div, _ = attachment(focus, q, div, 1, idf)
    assert span_div == 1.0 and near_div == 1.0
    assert span_eps < 0.5 and near_eps < 0.5


def test_a_value_in_the_clause_of_the_focus_is_closer_than_one_further_away():
    q = "How many employees did Fabrikam have?"
    focus = focus_of(q)
    near = Candidate("Fabrikam had 5,300 employees at the end of June.", "", 0, 1, "sentence")
    far = Candidate("Employees were surveyed in every region, the survey ran for a month, and 5,300 answers came "
                    "back, which is a record for any company of its size in the region.", "", 0, 1, "sentence")
    assert attachment(focus, q, near, None, {})[1] == 1.0
    assert attachment(focus, q, far, None, {})[1] < 1.0


def test_dates_count_as_units_and_the_support_score_falls_with_every_missing_support():
    terms = {"novemb", "2015", "texa"}
    assert sp.dates_found("How many checks for Texas in November 2015?", terms) == 1.0
    assert sp.dates_found("How many checks for Texas in October 2015?", terms) == 0.0  # 2015 alone is not enough
    assert sp.dates_found("How many checks may Texas run?", terms) == 1.0  # "may" without a year is a verb
    names = sp.FEATURES
    full = dict.fromkeys(names, 1.0) | {"score": 0.8}
    base = sp.support_score(tuple(full[n] for n in names))
    assert base == pytest.approx(0.8)
    for name in sp.SUPPORT_FACTORS:
        lower = sp.support_score(tuple((0.0 if n == name else full[n]) for n in names))
        assert lower == pytest.approx(base * sp.SOFT[sp.SUPPORT_FACTORS.index(name)])
    no_focus = tuple((0.0 if n == "focus_span" else full[n]) for n in names)
    assert sp.support_score(no_focus, soft=(0.0, 0.5, 0.5, 0.5)) == 0.0  # a soft factor of its own per support
    assert sp.support_score(no_focus, soft=(1.0, 0.0, 0.0, 0.0)) == pytest.approx(base)
    assert sp.support_score(tuple((0.0 if n == "dates_found" else full[n]) for n in names)) == 0.0


@pytest.mark.parametrize(("text", "expected"), [
    ("Table 1 summarises the fitted models by their log-likelihood.", False),  # "1" says where, not how much
    ("As Fig. 2b and Section 4.1 show, the fit improves.", False),
    ("Table 1 gives the log-likelihood as -12170.6 for the negative binomial model.", True),
    ("The model was fitted 3 times.", True),
])
def test_a_numbered_reference_is_no_value_of_a_number_question(text, expected):
    assert sp.has_type("number", text, "What log-likelihood does the model reach?") is expected


def test_a_named_cell_left_blank_is_read_as_no_answer():
    from pagelens.answer import cells as tc

    header = ["", "Poisson", "Quasi-Poisson", "Neg. binomial"]
    rows = [Candidate(text=" ".join(r), match_text=" ".join([*header, *r]), source=0, page=1, kind="row",
                      header=header, cells=list(r), label=r[0])
            for r in [("age", "-0.055", "-0.055", "-0.062"), ("Log-likelihood", "-17971.6", "", "-12170.6")]]
    q = "What log-likelihood does the quasi-Poisson model achieve?"
    read = tc.read(q, sorted(set(sp.tx.content_terms(q))), rows, focus_of(q).terms)
    assert read is not None and read.row.label == "Log-likelihood" and read.blank and not read.named
    q = "What log-likelihood does the negative binomial model achieve?"
    read = tc.read(q, sorted(set(sp.tx.content_terms(q))), rows, focus_of(q).terms)
    assert read is not None and read.named and not read.blank and read.row.cells[read.col] == "-12170.6"
