"""The extractive answer is the shortest span that answers, and abstention comes from the evidence.

Two editions of a report the test builds (``tests/pdfs/report.py``), ingested into two homes: they
differ only in whether the contact page prints an e-mail address. Real ingest, index and MiniLM.
"""

from __future__ import annotations

import re

import pytest

from pagelens.answer import span
from pagelens.answer import support as sp
from pagelens.app import Pagelens
from pagelens.settings import Settings

from pdfs.report import EMAIL, INTEREST, LONG_SENTENCE, report_pdf

CITE = re.compile(r"\[(\d+), p\.(\d+)\]")


def _home(root, with_email: bool):
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    pdf = root / "larkspur-2009.pdf"
    report_pdf(pdf, with_email=with_email)
    app = Pagelens(settings)
    res = app.ingest([pdf])
    assert res[0].status == "indexed", res[0].error
    return app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    with _home(tmp_path_factory.mktemp("with-email"), with_email=True) as a:
        yield a


@pytest.fixture(scope="module")
def app_without_email(tmp_path_factory: pytest.TempPathFactory):
    with _home(tmp_path_factory.mktemp("without-email"), with_email=False) as a:
        yield a


def _cited(ans) -> list[tuple[int, int]]:
    return [(int(n), int(p)) for n, p in CITE.findall(ans.answer)]


def test_table_answer_is_the_cell_with_its_row_and_column(app):
    ans = app.ask("What was the interest expense of the Rail segment in 2009?")
    assert not ans.abstained, ans.answer
    first = CITE.split(ans.answer)[0].strip()
    assert first == "Rail — 2009: $3.8 million", ans.answer  # the cell, its row label, its column header
    n, page = _cited(ans)[0]
    assert page == 2 and ans.sources[n - 1].chunk.page == 2 and "$3.8 million" in ans.sources[n - 1].chunk.text
    assert not ans.invalid_citations
    assert "$2.1 million" not in first and "Trucking" not in first  # not the whole row, not the table


def test_prose_answer_is_the_clause_not_the_sentence(app):
    ans = app.ask("How many jobs did the new sorting terminal in Duluth add?")
    assert not ans.abstained and "340 jobs" in ans.answer, ans.answer
    first = CITE.split(ans.answer)[0].strip()
    assert len(first) < len(LONG_SENTENCE) and "fuel prices" not in first, first
    assert _cited(ans)[0][1] == 1


@pytest.mark.parametrize("question", [
    "What e-mail address can investors write to?",
    "Which email address does Larkspur Freight give for investor relations?",
])
def test_same_question_answers_or_abstains_with_the_evidence(app, app_without_email, question):
    """The wording is the same on both homes; only the document differs."""
    given = app.ask(question)
    assert not given.abstained and EMAIL in given.answer and _cited(given)[0][1] == 3, given.answer
    missing = app_without_email.ask(question)
    assert missing.abstained and missing.cited == [], missing.answer


@pytest.mark.parametrize("question", [
    "What was the interest expense of the Rail segment in 2012?",  # the table has 2008 and 2009
    "How much interest expense did Trucking report for 2015?",
    "What BLEU score does Larkspur Freight reach on WMT 2014 English-to-German translation?",  # not its topic
])
def test_abstains_when_the_document_does_not_say(app, question):
    ans = app.ask(question)
    assert ans.abstained and ans.cited == [], ans.answer


def test_abstention_features_follow_the_evidence_not_the_wording():
    """The answer-type check is about the value's form in the span, whatever words ask for it."""
    for q in ("What is the e-mail address of the head office?", "Which email should investors use?"):
        assert sp.answer_type(q) == "email"
        assert sp.format_mismatch("email", "Telephone: (555) 201-7788", q)
        assert not sp.format_mismatch("email", f"e-mail: {EMAIL}", q)
    assert sp.answer_type("What is the date of the opening?") == "date"
    # "When ...?" takes any time expression: a quarter or a season answers it, a plain clause does not.
    assert sp.answer_type("When was the terminal opened?") == "when"
    assert not sp.format_mismatch("when", "Sightings peak in the third quarter.", "When do sightings peak?")
    assert sp.has_type("when", "Sightings peak in the third quarter.", "When do sightings peak?")
    assert not sp.has_type("when", "Sightings are counted by volunteers.", "When do sightings peak?")
    assert sp.answer_type("What accuracy is reached when 80% of tokens are masked?") == "number"  # a mid 'when'
    assert not sp.format_mismatch("date", "opened in September", "When was the terminal opened?")
    assert sp.format_mismatch("date", "we decided to open it", "When was the terminal opened?")


def test_cell_span_names_the_cells_the_question_gives():
    header = ["#L", "#H", "#A", "LM (ppl)", "MRPC"]
    text = span.cell_span(header, ["6", "768", "3", "5.24", "84.8"], "", 3, "Perplexity with 6 layers, 768 hidden, 3 heads?")
    assert text == "#L: 6 — #H: 768; #A: 3; LM (ppl): 5.24"
    assert span.cell_span(["Segment", "2008", "2009"], list(INTEREST[1]), "Rail", 2, "Rail in 2009?") == \
        "Rail — 2009: $3.8 million"
