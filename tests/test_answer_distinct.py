"""Near-miss questions: the topic is on the page, the thing that distinguishes the asked fact is not.

On a results release the test builds and ingests, a question whose distinguishing name or count the
sources never state (a product line the release does not report, a nine-month column of a statement
with three- and six-month ones) is withheld, and its answerable twin (the line or the column the page
prints) is answered with the right cell or sentence and its citation. And the pieces of
``pagelens.answer.distinct``: the units read from a question, where each is found around a span.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import distinct as ds
from pagelens.answer import support as sp
from pagelens.answer import text as tx
from pagelens.answer.extractive import ExtractiveAnswerer
from pagelens.answer.support import FEATURES
from pagelens.answer.focus import focus_of
from pagelens.app import Pagelens
from pagelens.models import Chunk
from pagelens.settings import AnswerSettings, Settings

from answer_support import hit, minilm  # noqa: F401 (minilm: session fixture)
from pdf_support import draw_ruled_table

BODY = ("REDMOND, April 24, 2025 - Fabrikam Inc. today reported results for the quarter ended March 31, 2025. "
        "Fabrikam Video monthly active users were 410 million as of March 31, 2025, an increase of 8% "
        "year-over-year. Fabrikam Social daily active users were 1.21 billion on average for March 2025. "
        "Restructuring charges were $45 million in the quarter, mostly severance.")


def _release(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Fabrikam Reports Results for the Quarter Ended March 31, 2025", fontsize=14)
    page.insert_textbox(pymupdf.Rect(72, 80, 540, 200), BODY, fontsize=10)
    page.insert_text((72, 222), "Condensed statements of operations (in millions)", fontsize=10)
    cells = [("", "3 Months Ended", "6 Months Ended"), ("Net sales", "12,480", "25,112"),
             ("Research and development", "4,210", "8,377"), ("Operating income", "2,905", "5,640")]
    draw_ruled_table(page, [72, 260, 390, 520], 236, 22, cells)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("distinct")
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    with Pagelens(settings) as app:
        results = app.ingest([_release(root / "fabrikam-q1-2025.pdf")])
        assert results[0].status == "indexed", results[0].error
        yield app


@pytest.mark.parametrize(("question", "expected"), [
    ("How many monthly active users did Fabrikam Video have as of March 31, 2025?", "410 million"),
    ("How much did Fabrikam spend on research and development in the six months ended March 31, 2025?", "8,377"),
])
def test_the_answerable_twin_is_answered_with_its_cited_span(app, question, expected):
    ans = app.ask(question)
    assert not ans.abstained, ans.answer
    assert expected in ans.answer
    assert "[1, p.1]" in ans.answer


@pytest.mark.parametrize("question", [
    "How many monthly active users did Fabrikam Music have as of March 31, 2025?",  # Video and Social only
    "How much did Fabrikam spend on research and development in the nine months ended March 31, 2025?",  # 3 and 6
])
def test_a_near_miss_whose_distinguishing_term_is_nowhere_abstains(app, question):
    ans = app.ask(question)
    assert ans.abstained, ans.answer


def test_units_are_names_designators_counts_and_focus_terms():
    q = "What average price per Class B share did Fabrikam Music pay in the first quarter of 2025?"
    us = ds.units(q, ["fabrikam-results.pdf"], focus_of(q), {})
    labels = {u.label for u in us if not u.focus}
    assert {"music", "class B", "first", "2025"} <= labels  # "Fabrikam" is the document's own name
    assert not any(u.label == "fabrikam" for u in us)
    q = "What street address is entered on the Global Electronics HR employee form?"  # names the document
    assert not [u for u in ds.units(q, ["hr-form.pdf"], focus_of(q), {}) if not u.focus]
    q = "To what address should a Space Force veteran send a completed DD Form 293?"
    labels = {u.label for u in ds.units(q, ["dd-form-293.pdf"], focus_of(q), {}) if not u.focus}
    assert "space forc" in labels and "dd" not in labels
    assert ds._count_units("which part of the body is the first to start itching?") == []  # no instance
    six = ds._count_units("in the six months ended")[0]
    assert six.found(ds.Sources.of(["6 Months Ended Mar. 31"])) and not six.found(ds.Sources.of(["3 Months Ended Mar. 31"]))
    second = ds._count_units("in the second quarter of 2022")[0]
    assert second.found(ds.Sources.of(["ID Sales 2Q22: 5.8%"])) and second.found(ds.Sources.of(["Q2 results"]))
    assert not second.found(ds.Sources.of(["first quarter results"]))


def test_a_capital_inside_a_word_makes_a_name():
    """Product names spelt with a capital inside ("iPhone", "eBay") are names like "Instagram": a
    statement that never prints one does not answer for it."""
    q = "What were Fabrikam's iPhone net sales in the quarter ended March 29, 2025?"
    assert ["fabrikam", "iphon"] in tx.key_names(q)
    assert tx.key_names("eBay revenue in 2024?")[0] == ["ebay"]  # the first word too
    assert tx.key_names("What is the net income of the company?") == []  # plain words stay out
    labels = {u.label for u in ds.units(q, ["fabrikam-results.pdf"], focus_of(q), {}) if not u.focus}
    assert "iphon" in labels
    assert ds.distinct([u for u in ds.units(q, ["fabrikam-results.pdf"], focus_of(q), {}) if not u.focus],
                       ds.Sources.of(["Net sales 3 Months Ended March 29, 2025: 12,480"]))[0] == 0.0


def test_a_unit_counts_as_absent_only_when_no_source_states_it():
    q = "How many monthly active users did Fabrikam Music have?"
    us = ds.units(q, ["fabrikam.pdf"], focus_of(q), {})
    span = "Fabrikam Video monthly active users were 410 million as of March 31, 2025."
    assert ds.distinct(us, ds.Sources.of([span])) == (0.0, 1.0)  # Music is in no source
    assert ds.distinct(us, ds.Sources.of([span, "Fabrikam Music launched in May."])) == (1.0, 1.0)
    q = "What average price per Class B share did Fabrikam pay in November?"
    us = ds.units(q, ["fabrikam.pdf"], focus_of(q), {})
    row = "November; Average price per Class A share: 95.30; Average price per Class C share: 94.85"
    assert ds.distinct(us, ds.Sources.of([row]))[0] == 0.0  # "Class B" is not "Class A ... C"
    assert ds.distinct(us, ds.Sources.of([row, "Our Class B stock is not traded."]))[0] == 1.0
    q = "What fax number does the release give?"  # a focus term no source states costs its rarity
    us = ds.units(q, ["fabrikam.pdf"], focus_of(q), {"fax": 0.9})
    assert ds.distinct(us, ds.Sources.of(["Call 1-800-555-0199."])) == (1.0, pytest.approx(0.1))


def test_a_state_postal_code_before_a_zip_code_states_the_state():
    q = "Which member carrier is based in Oakland, California?"
    us = ds.units(q, ["members.pdf"], focus_of(q), {})
    address = "Crowley Maritime Corp. 155 Grand Avenue Oakland, CA 94612 United States"
    assert ds.distinct(us, ds.Sources.of([address]))[0] == 1.0
    assert ds.Sources.of(["Suite 300 Scottsdale, AZ 85254-1781"]).states(("arizona",))
    # Without a ZIP code "CA" is no state: a column of CA values, calcium, a certificate authority.
    assert ds.distinct(us, ds.Sources.of(["Oakland CA staff: 12", "CA 12.5 mg"]))[0] == 0.0


def test_the_support_score_keeps_the_old_score_when_every_unit_is_local():
    x = [0.8] + [1.0] * (len(sp.FEATURES) - 1)
    assert sp.support_score(x) == pytest.approx(0.8)
    x[sp.FEATURES.index("distinct_names")] = 0.0
    floor = sp.DISTINCT_FLOORS[0]
    assert sp.support_score(x) == pytest.approx(0.8 * floor)


def _chunk(doc: str, page: int, text: str) -> Chunk:
    return Chunk(id=f"{doc}-{page}", doc_id=doc, doc_name=doc, kind="text", text=text, embed_text=text, pages=[page])


ARRESTS = ("Arrests by race, 2009. Robbery arrests were 43,039 of White persons, 55,742 of Black persons and "
           "989 of Asian Pacific Islander persons.")


def test_a_name_only_another_document_states_does_not_support_the_answer(minilm):
    """A distinguishing name counts as stated only by the documents the answer quotes: the word
    "Hispanic" in another document's notes says nothing about the arrests table."""
    answerer = ExtractiveAnswerer(AnswerSettings(), minilm)
    other = _chunk("schools-data.pdf", 3, "perhisp - percentage of Hispanic students in the school district.")
    same = _chunk("arrests-2009.pdf", 2, "Hispanic origin is not reported by the agencies in these tables.")
    hits = [hit(_chunk("arrests-2009.pdf", 1, ARRESTS), 1), hit(other, 2)]
    at = FEATURES.index("distinct_names")
    q = "How many robbery arrests of Hispanic persons were there in 2009?"
    assert answerer.evidence(q, hits).features[at] == 0.0
    assert answerer.answer(q, hits)[1]  # abstained
    assert answerer.evidence(q, [*hits, hit(same, 3)]).features[at] == 1.0  # its own document states it
    twin = answerer.answer("How many robbery arrests of Black persons were there in 2009?", hits)
    assert not twin[1] and "55,742" in twin[0]
