"""A designator of the question that the document's own name holds ("DD Form 293" asked of
dd-form-293.pdf) names the document, which every page of it is about: a sentence of that form need not
repeat "Form 293" to be about it, and "293" is no condition the span must state. Read as an instance
to match, it withheld every answer on a form's instruction pages (realdocs: the review boards'
addresses of DD Form 293; the OMB numbers of two forms). Another form ("Form 214") quoted for it still
conflicts."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import kinds
from pagelens.answer.candidates import Candidate
from pagelens.answer.focus import attachment, conditions_found, focus_of
from index_support import ingested_app

INSTRUCTIONS = [
    "INSTRUCTIONS FOR COMPLETING THE APPLICATION",
    "Mail the completed application to the review board of your branch of service.",
    "Army veterans: the street address is 251 18th Street South, Suite 385 Arlington, VA 22202-3531.",
    "Air Force veterans: the street address is 3351 Celmers Lane Joint Base Andrews, MD 20762-6435.",
    "Navy veterans: the street address is 720 Kennon Avenue S.E., Suite 309 Washington, DC 20374-5023.",
]
QUESTION = "To what street address should an Air Force veteran send a completed DD Form 417?"


def _form(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "APPLICATION FOR THE REVIEW OF DISCHARGE", fontsize=13)
    y = 100
    for line in INSTRUCTIONS:
        page.insert_text((72, y), line, fontsize=10)
        y += 28
    page.insert_text((72, 760), "DD FORM 417, MAY 2018", fontsize=8)  # the form's number, as forms print it
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("docdesignator")
    with ingested_app(root, [_form(root / "dd-form-417.pdf")], answer_cache=False) as app:
        yield app


def test_answers_from_a_form_whose_name_holds_the_asked_designator(app):
    ans = app.ask(QUESTION)
    assert not ans.abstained, ans.answer
    assert "3351 Celmers Lane" in ans.answer


def test_the_document_name_states_its_designator_and_number():
    line = INSTRUCTIONS[3]
    assert kinds.designators("DD FORM 417, MAY 2018", capitals=True) == {"form": {"417"}}  # as forms print it
    assert kinds.designators("DD FORM 417, MAY 2018") == {}  # a question's capitals are no key
    assert kinds.designator_conflict(QUESTION, line, line)  # no document: "Form 417" is missing
    assert not kinds.designator_conflict(QUESTION, line, line, "dd-form-417.pdf")
    assert kinds.designator_conflict(QUESTION, line, line, "dd-form-214.pdf")  # another form's file
    assert kinds.designator_conflict(QUESTION, "see Form 214", "see Form 214", "dd-form-417.pdf")  # another form
    assert conditions_found(QUESTION, line) == 0.0
    assert conditions_found(QUESTION, line, "dd-form-417.pdf") == 1.0
    focus = focus_of(QUESTION)
    quoted = Candidate(line, line, 0, 1, "sentence", doc="dd-form-417.pdf")
    other = Candidate(line, line, 0, 1, "sentence", doc="application-instructions.pdf")
    assert attachment(focus, QUESTION, quoted, None, {})[0] > attachment(focus, QUESTION, other, None, {})[0]
