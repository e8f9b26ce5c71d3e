""""Who wrote the paper on ...?" asks about one document: a letter's signature in another retrieved document
is not its author. The byline and signature cues count for the top source's document only (the scans set's
trout paper was answered first with the name under a supplier's letter, "Yours faithfully, M. Ellison")."""

from __future__ import annotations

import pytest

from index_support import ingested_app
from pdf_support import headed_pages

_PAPER = ("Winter grazing of red deer on upland moorland\n"
          "A. Lindqvist and R. Pemberton Department of Zoology, University of Aberdeen\n\n"
          "We counted red deer grazing on six upland moorland sites between November and March to measure how "
          "winter grazing pressure changes with snow cover. Grazing pressure fell by half on days with deep snow.")
_LETTER = ("Harwood Fencing Supplies\n"
           "Dear Dr. Pemberton, thank you for your enquiry about deer fencing for the upland moorland study sites. "
           "We can supply 2 km of high-tensile deer fence by the end of October.\n\n"
           "Yours faithfully,\nM. Ellison\nMargaret Ellison, Sales Director")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("byline")
    pdfs = [headed_pages(root / "red-deer-winter-grazing.pdf", [_PAPER]),
            headed_pages(root / "harwood-fencing-letter.pdf", [_LETTER])]
    with ingested_app(root, pdfs, answer_cache=False) as app:
        yield app


def test_the_paper_is_answered_with_its_byline_not_another_documents_signature(app):
    ans = app.ask("Who wrote the paper on winter grazing of red deer on upland moorland?")
    first = ans.answer.split("[")[0]
    assert not ans.abstained and "Lindqvist" in first and "Ellison" not in ans.answer, ans.answer


def test_a_letter_is_still_answered_with_its_signature(app):
    ans = app.ask("Who signed the letter from Harwood Fencing Supplies about deer fencing?")
    assert not ans.abstained and "Ellison" in ans.answer.split("[")[0], ans.answer
