"""What a short paper's first page answers: who wrote it (its byline, names with initials), where it was
published (the journal line, "Vol." no sentence end), an average it reports ("what was the average ..."
is a number), a count in a month the question names ("in January": the stem "januari" is the same month).
The paper's title repeats the question's words; it is the topic, not the answer (the scanned-paper
built set, bench/scans_build.py: these were its misses)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import support as sp
from pagelens.answer import text as tx
from pagelens.answer.cues import Cues
from index_support import ingested_app

TITLE = "Spring emergence of mayfly nymphs in chalk streams"
JOURNAL = "Journal of Riverine Entomology, Vol. 7, No. 2 (1988), pp. 41-52"
BYLINE = "C. Hargreaves and M. T. Osei Department of Biology, University of Reading"
ABSTRACT = ("Abstract. We sampled nine chalk streams in Hampshire between February and June 1986 to follow the spring "
            "emergence of mayfly nymphs. Emergence averaged 37 per cent of the winter density across all streams "
            "and was earliest in the Test.")
RESULTS = ("Results. Nymph density fell from 212 to 74 per square metre over the spring. Frost formed on the "
           "Itchen on seven mornings in February, and emergence there began late.")


def _paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 50), JOURNAL, fontsize=8)
    page.insert_text((110, 90), TITLE, fontsize=15)
    page.insert_textbox(pymupdf.Rect(150, 100, 470, 130), BYLINE, fontsize=9, align=pymupdf.TEXT_ALIGN_CENTER)
    page.insert_textbox(pymupdf.Rect(72, 150, 540, 230), ABSTRACT, fontsize=10)
    page.insert_textbox(pymupdf.Rect(72, 240, 540, 320), RESULTS, fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("paper")
    with ingested_app(root, [_paper(root / "mayfly-emergence-1988.pdf")], answer_cache=False) as app:
        yield app


def test_a_count_in_a_named_month_is_found_on_the_page(app):
    ans = app.ask("On how many mornings did frost form on the Itchen in February?")
    assert not ans.abstained, ans.answer
    assert "seven mornings" in ans.answer


def test_who_wrote_the_paper_is_its_byline(app):
    ans = app.ask("Who wrote the paper on spring emergence of mayfly nymphs in chalk streams?")
    assert not ans.abstained, ans.answer
    assert "Hargreaves" in ans.answer.split("[1, p.1]")[0], ans.answer


def test_the_journal_is_the_line_that_names_one(app):
    ans = app.ask("In which journal was the study of mayfly nymph emergence in chalk streams published?")
    assert not ans.abstained, ans.answer
    first = ans.answer.split("[1, p.1]")[0]
    assert "Journal of Riverine Entomology, Vol. 7" in first, ans.answer


def test_an_average_is_a_number(app):
    ans = app.ask("What was the average spring emergence of mayfly nymphs across the chalk streams?")
    assert not ans.abstained, ans.answer
    assert "37 per cent" in ans.answer


def test_months_ending_in_y_match_their_stem():
    page = set(tx.content_terms("frost formed on seven mornings in February and July"))
    assert "februari" in page  # what the stemmer makes of it
    assert sp.dates_found("How many mornings in February?", page) == 1.0
    assert sp.dates_found("How many mornings in July?", page) == 1.0
    assert sp.dates_found("How many mornings in March?", page) == 0.0


def test_abbreviations_end_no_sentence():
    got = tx.split_sentences("Journal of Ecology, Vol. 12, No. 3. Capt. H. Rudge gave 150. It rained.")
    assert got == ["Journal of Ecology, Vol. 12, No. 3.", "Capt. H. Rudge gave 150.", "It rained."]


def test_the_asked_noun_of_a_which_question():
    def instance(q: str) -> str:
        return Cues.of(q, tx.content_terms(q)).instance

    assert instance("In which journal was the study published?") == "journal"
    assert instance("Which university did she attend?") == "universiti"
    assert instance("What adjusted R-squared does the supply equation reach?") == ""  # a two-word thing


def test_a_contrasting_instance_is_another_thing():
    from pagelens.answer import kinds

    q = "Within how many minutes must the on-call secondary acknowledge a page?"
    assert kinds.contrast_conflict(q, "Five rules for the primary: acknowledge a page within 5 minutes")
    assert not kinds.contrast_conflict(q, "The secondary acknowledges within 15 minutes, the primary within 5")
    assert kinds.contrast_conflict("What is the diluted EPS?", "Basic EPS 1.20")
    assert not kinds.contrast_conflict("What is the diluted EPS?", "Basic EPS 1.20, diluted EPS 1.10")
    assert not kinds.contrast_conflict("What is the net income?", "Net income 500; gross margin 40%")
    assert not kinds.contrast_conflict("How do primary and secondary roles differ?", "the primary acknowledges")


def _letter(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "NORTHFIELD PUMP WORKS LTD, 3 Quay Street, Hull HU1 1AA - Telephone 01482 220 114", fontsize=9)
    page.insert_textbox(pymupdf.Rect(72, 90, 300, 130), "Ms. R. Adeyemi Chief Buyer Greystone Brewery Ltd", fontsize=10)
    page.insert_textbox(pymupdf.Rect(72, 150, 540, 220), "Dear Ms. Adeyemi, We are pleased to quote for twelve "
                        "centrifugal pumps at a price of £410 each. Delivery would be four weeks from your order.", fontsize=10)
    page.insert_text((72, 260), "Yours faithfully,", fontsize=10)
    page.insert_text((72, 300), "Peter Lindgren", fontsize=10)
    page.insert_text((72, 314), "Sales Manager", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_who_signed_a_letter_is_the_name_under_its_close(tmp_path):
    with ingested_app(tmp_path, [_letter(tmp_path / "northfield-quotation.pdf")], answer_cache=False) as app:
        ans = app.ask("Who signed the Northfield Pump Works letter to Greystone Brewery?")
    assert not ans.abstained, ans.answer
    assert "Peter Lindgren" in ans.answer.split("[1, p.1]")[0], ans.answer
