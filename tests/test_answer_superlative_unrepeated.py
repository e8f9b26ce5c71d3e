"""A sentence need not repeat the question's superlative to answer it: "the *main* cause" of a delay is the
sentence that gives its cause, without "main". (A
rule that withheld such answers was dropped: on the check sets it withheld right answers only.) The
unanswerable "largest European data center" of tests/test_answer_kinds.py is still withheld, by its
missing place."""

from __future__ import annotations

import pytest

from index_support import ingested_app
from pdf_support import headed_pages


REPORT = ("Orrin Bridge Works - Progress Report, March\n"
          "The deck of the Orrin footbridge was finished three weeks late. The delay was caused by a shortage of "
          "structural steel at the mill in Corby. Painting of the railings starts in April and the bridge is "
          "expected to open to the public on 14 May.")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("superlative")
    with ingested_app(root, [headed_pages(root / "orrin-bridge-report.pdf", [REPORT])], answer_cache=False) as app:
        yield app


def test_the_cause_answers_the_main_cause(app):
    ans = app.ask("What was the main cause of the delay to the Orrin footbridge deck?")
    assert not ans.abstained and "shortage" in ans.answer, ans.answer
