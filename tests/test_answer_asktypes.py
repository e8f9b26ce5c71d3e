"""What a question asks for on phrasings read before only as words: a duration ("after how long", "how many
working days", "within what period"), a count opened by "how many" whatever a later clause says ("... be
written by the primary"), a subordinate "When ..., what ..." that is no time question, a place asked of
a name the document's own naming words give (a deck's footer), and superlative words used as nouns
("the on-call primary"). The pieces on questions and spans, and the answers on a runbook the test builds."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import kinds
from pagelens.answer import support as sp
from pagelens.answer.focus import focus_of
from pagelens.app import Pagelens
from pagelens.settings import Settings


@pytest.mark.parametrize(("question", "kind"), [
    ("After how long without progress should the primary escalate to the secondary?", "duration"),
    ("Within how many working days must the review be written by the on-call primary?", "duration"),
    ("How many minutes does the backup take?", "duration"),
    ("How long did the migration take?", "duration"),
    ("Within what period must the application arrive?", "duration"),
    ("How long is the cable?", "number"),  # a length, not a duration
    ("How many pages were written by the committee?", "number"),  # a count, not the person of "written by"
    ("After October 2022, roughly how many shares could still be repurchased?", "number"),
    ("How many monthly observations does the paper use?", "number"),  # "monthly" is no unit of the answer
    ("Who wrote the review?", "person"),
    ("When is the hand-over?", "when"),
    ("When the three models are compared, what AIC does the smallest model have?", ""),  # the main clause asks
    ("In which city is Contoso headquartered?", "place"),
    # "phone" asks for a number only as the asked thing, not as the word before another noun
    ("How big did the phone bill get because nobody hung up?", "number"),
    ("What daytime phone number did the member give?", "phone"),
    ("What is the telephone of the harbour office?", "phone"),
    ("Which phone should a patient call at night?", "phone"),
    ("Where is the phone holder of the cab?", ""),
])
def test_answer_type_reads_the_opening_wh_phrase(question, kind):
    assert sp.answer_type(question) == kind


@pytest.mark.parametrize(("text", "ok"), [
    ("Escalate to the secondary after 20 minutes without progress", True),
    ("Write the post-incident review within 3 working days", True),
    ("The application must arrive within one year", True),
    ("a two-year term", True),
    ("Escalate to the secondary after the incident channel is open", False),
    ("Page volume: 19 pages per week", False),  # a rate: "per week" is its unit, no duration
    ("Room 317", False),
])
def test_a_duration_is_a_number_with_a_unit_of_time(text, ok):
    assert sp.has_type("duration", text, "How long does it take?") is ok


def test_a_duration_the_question_gives_is_no_answer():
    assert not sp.has_type("duration", "within 5 minutes", "Is it acknowledged within 5 minutes?")


def test_a_preposition_after_how_long_is_a_condition_not_the_focus():
    focus = focus_of("After how long without progress should the primary escalate?")
    assert focus.kind == "duration" and not focus.terms
    assert focus_of("Within how many working days must the review be written?").terms == ("work", "day")


SLIDES = [
    ["On-call at Halvorsen Bank", "Payments SRE rotation, 2024"],
    ["Rules for the primary", "- Acknowledge a page within 5 minutes",
     "- Escalate to the secondary after 20 minutes without progress",
     "- Write the post-incident review within 3 working days"],
    ["Anatomy of a page", "Mitigate: roll back or fail over to the Frankfurt region"],
]


def _deck(path: Path) -> Path:
    """A landscape deck whose footer (the deck's title, on every slide) names the bank the questions ask about."""
    doc = pymupdf.open()
    for n, lines in enumerate(SLIDES, 1):
        page = doc.new_page(width=842, height=595)
        y = 90
        for k, line in enumerate(lines):
            page.insert_text((60, y), line, fontsize=26 if k == 0 else 18)
            y += 48
        page.insert_text((60, 570), "SRE Guild  -  On-call at Halvorsen Bank", fontsize=9)
        page.insert_text((760, 570), f"{n} / {len(SLIDES)}", fontsize=9)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("asktypes")
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    with Pagelens(settings) as app:
        results = app.ingest([_deck(root / "oncall-rules.pdf")])
        assert results[0].status == "indexed", results[0].error
        yield app


@pytest.mark.parametrize(("question", "expected"), [
    ("After how long without progress should the Halvorsen payments primary escalate to the secondary?", "20 minutes"),
    ("Within how many working days must the post-incident review be written by the Halvorsen on-call primary?",
     "3 working days"),
    ("Which region does the Halvorsen payments team fail over to when mitigating a page?", "Frankfurt"),
])
def test_answers_a_duration_a_count_with_a_unit_and_a_region(app, question, expected):
    ans = app.ask(question)
    assert not ans.abstained, ans.answer
    assert expected in ans.answer


def test_a_duration_of_another_step_is_withheld(app):
    ans = app.ask("How many working days does the Halvorsen on-call primary have to close a change request?")
    assert ans.abstained or "3 working days" not in ans.answer, ans.answer


def test_a_period_asked_is_the_kind_of_the_answer_not_a_word_to_find():
    focus = focus_of("Within what period must the application arrive for the date of claim to be preserved?")
    assert focus.kind == "duration" and not focus.terms
    assert sp.has_type("duration", "an application that is received within one year of receipt", "")


@pytest.mark.parametrize(("question", "sentence", "missing"), [
    ("Within how many working days must the post-incident review be written?",
     "Write the post-incident review within 3 working days", False),
    ("How many working days does the primary have to close a change request?",
     "Write the post-incident review within 3 working days", True),
    ("How many pages does the review have?", "Write the review within 3 working days", False),  # not a duration
])
def test_a_duration_of_another_action_is_not_the_asked_one(question, sentence, missing):
    assert kinds.missing_action(question, sp.answer_type(question), sentence) is missing
