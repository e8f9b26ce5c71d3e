"""How a page refers to what a question spells out: an acronym for the question's phrase ("MAE" is the "mean
absolute error"), a pronoun for the sentence before ("He is succeeded by ..."), a venue for "where ... held"
("Room 317, Bexley Hall"), a course code whose number is a name, not a condition ("PHYS 214")."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import kinds
from pagelens.answer import spellings
from pagelens.answer.focus import conditions_found
from index_support import ingested_app


def _report(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Annual report of the Fenwick Harbour Trust 2004", fontsize=14)
    page.insert_textbox(pymupdf.Rect(72, 90, 540, 200), (
        "Cargo handled in the year rose to 1.9 million tonnes, most of it timber and grain. "
        "Captain Alan Brierley, Harbour Master since 1989, retired in March after 22 years with the Trust. "
        "He is succeeded by Mrs. Joan Whitcombe, formerly Deputy Harbour Master. "
        "The north quay was resurfaced in the summer."), fontsize=10)
    page.insert_text((72, 240), "Forecast error of the berth scheduler", fontsize=12)
    for y, row in ((262, ("Scheduler", "MAE (h)", "Recall")), (278, ("Fixed rota", "5.2", "0.41")),
                   (294, ("Tide-aware", "1.7", "0.83")), (310, ("Crane-linked", "2.9", "0.66"))):
        for x, cell in zip((72, 220, 320), row):
            page.insert_text((x, y), cell, fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("references")
    with ingested_app(root, [_report(root / "fenwick-harbour-2004.pdf")], answer_cache=False) as app:
        yield app


def test_a_pronoun_sentence_is_read_with_the_sentence_before(app):
    ans = app.ask("Who took over from Captain Alan Brierley as Harbour Master in 2004?")
    assert not ans.abstained, ans.answer
    assert "Joan Whitcombe" in ans.answer.split("[1, p.1]")[0], ans.answer


def test_an_acronym_states_the_phrase_it_stands_for(app):
    ans = app.ask("Which scheduler has the lowest mean absolute error?")
    assert not ans.abstained, ans.answer
    assert "Tide-aware" in ans.answer.split("[1, p.1]")[0], ans.answer


def test_spelled_acronyms():
    assert spellings.spelled_acronyms("What mean absolute error did it get?", "MAE (s): 97") == ["mean absolute error"]
    assert spellings.spelled_acronyms("the return on investment?", "ROI 12%") == ["return on investment"]
    assert spellings.spelled_acronyms("What is the GDP of France?", "GDP 2.7") == []  # the question says the acronym itself
    assert spellings.spelled_acronyms("mean absolute error", "no capitals here") == []


def test_a_venue_is_a_place():
    q = "Where are Prof. Okonkwo's office hours held?"
    assert kinds.has_kind("place", "Office hours: Thursdays 2-4 pm, Room 317 Bexley Hall", q)
    assert kinds.has_kind("place", "Seminars meet in the Carrow Library", q)
    assert not kinds.has_kind("place", "Office hours: Thursdays 2-4 pm", q)


def test_a_course_code_number_is_no_condition():
    q = "Where are the office hours for PHYS 214 held?"
    assert conditions_found(q, "Office hours: Room 317 Bexley Hall") == 1.0
    assert conditions_found("How long does it take with 12 g of salt?", "boil for 5 minutes") == 0.0
