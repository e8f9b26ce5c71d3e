"""A question for a reason ("Why was X withdrawn?") is answered by the clause that gives one ("Due to
difficulty in ..."), not by the clause that repeats the question's words ("X has been withdrawn"): the
span is cut to the reason when the sentence is long (fresh2: the lme4 paper's mcmcsamp)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import span
from pagelens.answer import text as tx
from index_support import ingested_app

BODY = ("Earlier releases of the toolkit provided the resample function, which drew a bootstrap sample of the "
        "fitted parameters from their sampling distribution under flat weights. Due to difficulty in constructing a "
        "version of the bootstrap sampler that was reliable even in cases where the estimated group variances "
        "were near zero, resample has been withdrawn. Users should call the profile function instead, which computes likelihood "
        "intervals for every parameter of the fitted model.")
WHY = "Why was the resample function withdrawn from the toolkit?"


def _manual(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "5. Output module", fontsize=14)
    page.insert_textbox(pymupdf.Rect(72, 80, 540, 300), BODY, fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("reason")
    with ingested_app(root, [_manual(root / "toolkit-manual.pdf")], answer_cache=False) as app:
        yield app


def test_a_why_question_is_answered_with_the_reason(app):
    ans = app.ask(WHY)
    assert not ans.abstained, ans.answer
    assert "difficulty in constructing" in ans.answer


def test_the_clause_span_keeps_the_reason_clause():
    sentence = ("Due to difficulty in constructing a version of the bootstrap sampler that was reliable even in cases "
                "where the estimated group variances were near zero, resample has been withdrawn.")
    got = span.clause_span(sentence, set(tx.content_terms(WHY)), WHY)
    assert "Due to difficulty" in got
    # Not a why-question: the clause with the question's words is enough.
    what = "What has been withdrawn from the toolkit?"
    assert "Due to" not in span.clause_span(sentence, set(tx.content_terms(what)), what)
