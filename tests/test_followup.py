"""Multi-turn without an LLM: short follow-ups are retrieved together with the previous question."""

from __future__ import annotations

from pathlib import Path

from pagelens.answer.query import follow_up_query
from pagelens.app import Pagelens
from pagelens.settings import Settings

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "otsl-2305.03393v1-p9.pdf"


def test_follow_up_detection() -> None:
    prev = [("What CoLA score does BERT-Large get?", "60.5 [1, p.6]")]
    assert follow_up_query("and BERT-Base?", prev) == "What CoLA score does BERT-Large get? and BERT-Base?"
    assert follow_up_query("What does it cost per year?", prev).startswith("What CoLA score")
    standalone = "How large is the WordPiece vocabulary that BERT uses for its inputs?"
    assert follow_up_query(standalone, prev) == standalone
    assert follow_up_query("and BERT-Base?", []) == "and BERT-Base?"


def test_extractive_chat_answers_a_follow_up(settings: Settings) -> None:
    with Pagelens(settings.with_overrides(**{"ingest.ocr": "off", "answer.cache": False})) as app:
        app.ingest([SAMPLE])
        first = app.ask("Which CPU was used to measure inference timing?")
        assert "EPYC" in first.answer
        follow = app.ask("and what was its clock speed?", history=[(first.question, first.answer)])
        assert "2.45 GHz" in follow.answer and not follow.abstained
