"""The quoted span reaches the answer: the next sentence when it continues the answer sentence, a name
past its initials, the clause a colon introduces, the value after the words that name it, and a table
row named by a model term with digits ("I(Income^2)").

A one-page guide the test builds with PyMuPDF, real ingest, index and MiniLM; and the span functions.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import span
from pagelens.answer import text as tx
from pagelens.app import Pagelens
from pagelens.settings import Settings
from pdf_support import draw_ruled_table

PARAGRAPHS = [
    "Routing. Two earlier routing methods are kept but deprecated now that routeAll is so general. "
    "These are routeNorthward and routeSouthward. New code should call routeAll with a compass heading.",
    "Charter. In June a copy of the harbour charter was decreed and issued by C. E. Marlowe, the harbour "
    "master of Kestrel Bay, and the papers concerning it were laid before the council in the autumn.",
    "Ferries. The ferry timetable of Kestrel Bay was revised twice in the spring, and the revised timetable, "
    "as the council noted, was obviously heavily distorted by a single late crossing: Brindlemoor.",
]
TERMS = [("", "Estimate", "Std. Error"), ("(Intercept)", "833", "461"), ("Income", "-1834", "1243"),
         ("I(Income^2)", "1587", "830")]


def _guide(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 70), "Kestrel Bay Harbour Guide", fontsize=18)
    y = 100
    for text in PARAGRAPHS:
        page.insert_textbox(pymupdf.Rect(72, y, 540, y + 90), text, fontsize=10)
        y += 100
    page = doc.new_page()
    page.insert_text((72, 70), "Table 4: Quadratic model of harbour dues on income (HC0 standard errors)", fontsize=11)
    draw_ruled_table(page, [72, 220, 320, 420], 90, 22, TERMS)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("guide")
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    with Pagelens(settings) as a:
        results = a.ingest([_guide(root / "kestrel-guide.pdf")])
        assert results[0].status == "indexed", results[0].error
        yield a


def test_the_next_sentence_that_points_back_is_quoted(app):
    ans = app.ask("Which two routing methods are kept but deprecated now that routeAll is general?")
    assert not ans.abstained and "routeNorthward" in ans.answer, ans.answer


def test_a_name_after_its_initials_is_in_the_quoted_sentence(app):
    ans = app.ask("Who decreed and issued the harbour charter of Kestrel Bay?")
    assert "issued by C. E. Marlowe" in ans.answer, ans.answer  # not cut at "C."


def test_a_row_named_by_a_model_term_with_digits_is_read(app):
    ans = app.ask("What standard error does the quadratic income term I(Income^2) have in the harbour dues model?")
    assert not ans.abstained and "830" in ans.answer and "1243" not in ans.answer, ans.answer


def test_a_name_initial_ends_no_sentence():
    text = "The charter was issued by C. E. Marlowe, the harbour master. The council met in June."
    assert tx.split_sentences(text) == ["The charter was issued by C. E. Marlowe, the harbour master.",
                                        "The council met in June."]


def test_a_clause_ending_in_a_colon_keeps_the_clause_it_introduces():
    question = "Which single late crossing distorted the revised ferry timetable?"
    shown = span.clause_span(PARAGRAPHS[2].split("Ferries. ")[1], set(tx.content_terms(question)), question)
    assert shown.endswith("Brindlemoor."), shown


@pytest.mark.parametrize(("shown", "after", "question", "kind", "focus", "kept"), [
    ("Two earlier methods are deprecated.", "These are A and B.", "Which methods are deprecated?", "", (), True),
    ("The nut has two sections.", "The two sections are joined by a spring.", "What joins the sections?", "", (), True),
    ("We chose the interquartile range as the statistic.", "The p value of 0.78 shows an adequate fit.",
     "What p value is reported?", "number", ("p",), True),
    ("The p value of 0.78 shows an adequate fit.", "The model is adequate.", "What p value is reported?", "number",
     ("p",), False),
    ("The ferry runs daily.", "Tickets are sold on board.", "When does the ferry run?", "", (), False),
])
def test_continuation(shown, after, question, kind, focus, kept):
    assert bool(span.continuation(shown, after, question, kind, focus)) is kept


def test_a_window_keeps_room_after_the_words_that_name_the_value():
    text = ("Isolated: boolean - LevelPriority: CL_LevelPriority - NetworkFlowType: CL_NetworkFlowType - "
            "FlowDirection: CL_DirectionFlag - Depth: real - Width: real - Permanency: CL_Permanency")
    terms = set(tx.content_terms("What data type does the FlowDirection attribute of NetworkLinearFlow have?"))
    assert "CL_DirectionFlag" in span.window(text, terms, 60)


@pytest.mark.parametrize(("cell", "named"), [("I(Income^2)", True), ("Q3", True), ("November 1 - 30", False),
                                             ("10 g", False), ("(0.062)", False)])
def test_a_one_word_cell_opening_with_a_letter_names_its_row(cell, named):
    assert (tx.row_label([cell, "1.5"]) == cell) is named


def test_a_greek_letter_counts_as_its_name():
    terms = tx.content_terms("Good default settings are α= 0.001, β1 = 0.9 and ε= 10−8.")
    assert {"alpha", "beta", "epsilon"} <= set(terms)
    assert "epsilon" in tx.content_terms("What small constant epsilon is added to the denominator?")
