"""Two causes of a right answer withheld or cut away, on a letter of transmittal the test builds and ingests:

* a person named with a title ("Secretary Marlow") whose letter prints the title and the name apart ("The
  Secretary of the Interior ... Respectfully submitted. EDWIN MARLOW."): the title is no part of the name
  (``distinct.TITLES``), so the name is stated and the answer is given; a surname the letter never prints
  ("Secretary Hadley") is still withheld;
* a long sentence whose answer stands in the clause that names the thing asked ("which *paragraph* ...":
  "limited by paragraph 431"), after clauses richer in the question's other words: the quoted span is the
  clause run that names it (``span.FOCUS_CLAUSE_BONUS``).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import distinct as ds
from pagelens.answer import span
from pagelens.answer import text as tx
from pagelens.answer.focus import Focus, focus_of
from index_support import ingested_app

SENTENCE = (
    "A copy of Chapter XII of the colonial ordinance is also submitted, and the Secretary of the Interior respectfully "
    "suggests, for the consideration of the harbour tribunals, the propriety of limiting the power of commissioners to "
    "make rules and orders, as restricted by paragraph 431 of the chapter before named, that is, to acts needed to "
    "organize the courts created by the ordinance."
)
LETTER = (
    "The Secretary of the Interior has the honor to submit herewith, for revision by Parliament, a copy of the "
    "rules for the harbour tribunals of the colony at Port Averly, drawn up and issued by the resident commissioner "
    f"of the colony. {SENTENCE} Respectfully submitted. EDWIN MARLOW."
)
QUESTION = ("Which paragraph does Secretary {name} cite as the limit on the power of commissioners to make rules, "
            "in the letter on the harbour tribunals of Port Averly?")


def _letter(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "DEPARTMENT OF THE INTERIOR, Averly, March 3, 1902.", fontsize=11)
    page.insert_textbox(pymupdf.Rect(72, 80, 540, 400), LETTER, fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("titles")
    with ingested_app(root, [_letter(root / "harbour-letter-1902.pdf")], answer_cache=False) as app:
        yield app


def test_a_titled_name_printed_apart_from_its_title_is_answered_with_the_clause_that_names_the_asked_thing(app):
    ans = app.ask(QUESTION.format(name="Marlow"))
    assert not ans.abstained, ans.answer
    assert "paragraph 431" in ans.answer
    assert "[1, p.1]" in ans.answer


def test_a_titled_name_the_letter_never_prints_is_withheld(app):
    ans = app.ask(QUESTION.format(name="Hadley"))
    assert ans.abstained, ans.answer


def test_a_leading_title_is_no_part_of_the_name_unit():
    question = "Which paragraph does Secretary Marlow cite, and what did Vice President Hale sign?"
    labels = [u.label for u in ds.units(question, ["letter.pdf"], focus_of(question), {})]
    assert "marlow" in labels and not any("secretari" in label for label in labels)
    # "General" opens names of organisations: it is not taken for a title
    labels = [u.label for u in ds.units("How many cars did General Motors sell?", ["r.pdf"], Focus((), (), ""), {})]
    assert "general motor" in labels
    assert ds.Sources.of(["The Secretary of the Interior suggests. Respectfully submitted. EDWIN MARLOW."]).states(
        ["marlow"])


def test_the_clause_run_naming_the_focus_wins_over_one_richer_in_other_words():
    question = QUESTION.format(name="Marlow")
    terms = set(tx.content_terms(question))
    assert "431" not in span.clause_span(SENTENCE, terms, question)  # without the focus: the wordier clauses
    assert "paragraph 431" in span.clause_span(SENTENCE, terms, question, ["paragraph"])
