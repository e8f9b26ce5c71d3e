""""What does *the applicant* propose to build?" asks for what is proposed: the noun after "what does" is the
verb's subject, not the thing asked. Read as the asked thing, it made "applicant" a modifier every field label
had to carry, and the field that answers ("Proposed work: ...") was marked down for lacking it (the Marlow
building permit of bench/forms_build.py was answered with the applicant's name)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagelens.answer import text as tx
from pagelens.answer.focus import focus_of
from index_support import ingested_app
from pdf_support import line_form


def _permit(path: Path) -> Path:
    return line_form(path, "Town of Ashby - Planning Office - Householder Planning Application",
                     ["Site address: 14 Mill Lane, Ashby", "Proposed work: single-storey timber boathouse",
                      "Applicant name: Tomasz Wierzbicki", "Agent: none", "Application fee: 206",
                      "Date received: 3 June 2025"], title_size=13)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("subject-question")
    with ingested_app(root, [_permit(root / "ashby-householder-application.pdf")], answer_cache=False) as app:
        yield app


def test_the_subject_of_what_does_is_not_the_thing_asked(app):
    ans = app.ask("What does the applicant propose to build according to the Ashby planning application?")
    assert not ans.abstained and "boathouse" in ans.answer.split("[")[0], ans.answer


@pytest.mark.parametrize("question, words", [
    ("What does the applicant propose to build?", ()),
    ("What did the committee decide about the budget?", ()),
    ("In 2019, what can the user configure?", ()),
    ("What colour does the chart use?", ("colour",)),
    ("What is the boiling point of the solvent?", ("boiling", "point")),
    ("Which optimizer do the authors use?", ("optimizer",)),
])
def test_the_asked_thing_of_a_what_question(question: str, words: tuple[str, ...]):
    assert focus_of(question).words == words
    assert [t for ts in tx.focus_words(question) for t in ts] == [t for w in words for t in tx.content_terms(w)]
