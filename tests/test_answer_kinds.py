"""Answer types of things (money, address, place, role) and the qualifiers that pick one instance
(Class B vs Class A, the largest ...), on a release the test builds and ingests: the asked thing is
answered where the page states it, and the answerer abstains where the page has the topic but not the
asked instance or type. And the pieces: the types read from questions, values checked in spans."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import kinds
from pagelens.answer import support as sp
from pagelens.answer.candidates import Candidate, _blocks
from pagelens.answer.focus import attachment, focus_of
from pagelens.app import Pagelens
from pagelens.settings import Settings
from pdf_support import draw_ruled_table

BODY = ("CONTOSO, March 4, 2025 - Contoso Ltd. today reported results for the fourth quarter of 2024. "
        "Our headquarters are located in Springfield, Illinois. We own and lease offices and data centers "
        "around the world, primarily in North America, Europe, and Asia. The company expects to continue to "
        "pay its quarterly dividend, subject to board approval. In the fourth quarter the average price per ad "
        "decreased by 12% year-over-year. Our Class A stock has been listed on the Nasdaq Global Market "
        "since May 5, 2009. Our Class B stock is neither listed nor traded.")
GUIDANCE = ["Full-Year 2025 Outlook", "Identical sales growth of 2.0% to 3.0%, with underlying growth of 3.5%",
            "Adjusted operating profit of $1.1 to $1.3 billion", "Adjusted effective tax rate of 21%",
            "Capital expenditures of $0.8 to $0.9 billion"]


def _release(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Contoso Reports Fourth Quarter 2024 Results", fontsize=15)
    page.insert_text((72, 84), "Comments from Chairman and CEO Maria Lindqvist", fontsize=11)
    page.insert_textbox(pymupdf.Rect(72, 96, 540, 250), BODY, fontsize=10)
    y = 262
    for line in GUIDANCE:
        page.insert_text((72, y), line, fontsize=10)
        y += 20
    page.insert_text((72, y + 16), "Repurchases of Class A and Class C stock during the fourth quarter", fontsize=10)
    cells = [("", "November", "December"), ("Average price per Class A share", "95.30", "91.77"),
             ("Average price per Class C share", "94.85", "92.06"), ("Shares purchased (thousands)", "1,968", "4,687")]
    draw_ruled_table(page, [72, 280, 380, 480], y + 30, 22, cells)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("kinds")
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    with Pagelens(settings) as app:
        results = app.ingest([_release(root / "contoso-q4-2024.pdf")])
        assert results[0].status == "indexed", results[0].error
        yield app


@pytest.mark.parametrize(("question", "expected"), [
    ("What average price per Class A share did Contoso pay for repurchases in November?", "95.30"),
    ("In which city are Contoso's headquarters located?", "Springfield"),
    ("What title does Maria Lindqvist hold at Contoso?", "Chairman and CEO"),
    ("What adjusted effective tax rate does Contoso's full-year 2025 outlook include?", "21%"),
])
def test_answers_the_typed_value_attached_to_the_asked_thing(app, question, expected):
    ans = app.ask(question)
    assert not ans.abstained, ans.answer
    assert expected in ans.answer
    assert "[1, p.1]" in ans.answer


def test_a_list_item_is_quoted_alone_not_the_whole_list(app):
    ans = app.ask("What adjusted effective tax rate does Contoso's full-year 2025 outlook include?")
    assert "Capital expenditures" not in ans.answer and "Identical sales" not in ans.answer, ans.answer


@pytest.mark.parametrize("question", [
    "What average price per Class B share did Contoso pay for repurchases in November?",  # Class A and C only
    "In which city is Contoso's largest European data center located?",  # regions, no largest, no city
    "What quarterly dividend per share does Contoso pay?",  # the dividend is named, no amount
    "What was Contoso's average price per ad, in dollars, in the fourth quarter?",  # a change in percent only
    "Since what date has Contoso's Class B stock been listed on Nasdaq?",  # Class A's date; Class B not listed
])
def test_abstains_when_no_span_carries_the_type_for_the_asked_instance(app, question):
    ans = app.ask(question)
    assert ans.abstained, ans.answer


def test_answer_types_from_the_wh_word_and_head_noun():
    assert sp.answer_type("What average price per Class B share did Alphabet pay?") == "money"
    assert sp.answer_type("What was the average price per ad, in dollars?") == "money"
    assert sp.answer_type("In which city is the data center located?") == "place"
    assert sp.answer_type("Where is the company headquartered?") == "place"
    assert sp.answer_type("What job title does the employee hold?") == "role"
    assert sp.answer_type("What title does Maria Lindqvist hold at Contoso?") == "role"
    assert sp.answer_type("What home address is given for the emergency contact?") == "address"
    assert sp.answer_type("What e-mail address did the employee enter?") == "email"  # formats come first
    assert sp.answer_type("What percentage of the price is tax?") == "percent"
    # "date of" is the asked thing only in the wh-word's phrase, not in the question's condition
    assert sp.answer_type("What is the effective date of the lease?") == "date"
    assert sp.answer_type("What date of birth is entered on the form?") == "date"
    assert sp.answer_type("Within what period must the form arrive for the date of claim to be kept?") != "date"
    assert sp.answer_type("What is the title of the paper?") != "role"  # a document's title is no job


def test_values_of_each_kind():
    assert kinds.has_kind("money", "Average Price Paid: $ 91.93", "")
    assert not kinds.has_kind("money", "the average price per ad decreased by 16%", "")
    assert kinds.has_kind("address", "133 Tin Drive", "") and kinds.has_kind("address", "at 4 Elm Street, Dover", "")
    assert not kinds.has_kind("address", "1234567890", "")
    assert kinds.has_kind("role", "Comments from Chairman and CEO Maria Lindqvist", "")
    assert not kinds.has_kind("role", "Example of an Interactive PDF Form", "")
    q = "In which city is Albertsons headquartered?"
    assert kinds.has_kind("place", "CINCINNATI, September 8, 2023 – The Kroger Co. today reported", q)
    assert kinds.has_kind("place", "Our headquarters are located in Mountain View, California.", q)
    assert not kinds.has_kind("place", "the proposed merger with Albertsons is expected to close in 2024", q)
    # The town of an address line: before a state and ZIP code, after a postal code.
    q = "In which town is the member carrier located?"
    assert kinds.has_kind("place", "Linn Electronics, Inc. 18720 Oxnard Street, Tarzana, CA 91356 (818) 708-8131", q)
    assert kinds.has_kind("place", "Maersk Line A/S 50, Esplanaden DK-1098 Copenhagen Denmark", q)
    assert kinds.has_kind("place", "Willy-Brandt-Ost-West-Strasse 59-61 20457 Hamburg Germany", q)
    assert not kinds.has_kind("place", "the company said that in 2019 Google grew its revenue", q)
    assert not kinds.has_kind("place", "Table 1234 Results of the survey were given below", q)


def test_designators_and_superlatives_qualify_the_asked_thing():
    q = "What average price per Class B share did Alphabet pay?"
    assert kinds.designator_conflict(q, "November 1 - 30 Average Price Paid per Class A Share")
    assert kinds.designator_conflict(q, "As of October 2, 2015 Alphabet became the successor issuer")
    assert not kinds.designator_conflict(q, "64 stockholders of record of our Class B stock")
    assert not kinds.designator_conflict("How many Class C shares?", "Class A and Class C stock")
    assert kinds.designators("As of December 31, 2022 the Class B stock") == {"class": {"B"}}  # a month is no key
    # a question word is no key, and a capital that starts a compound is no designator
    assert kinds.designators("What R-squared does the Longley regression of TOTEMP report?") == {}
    assert kinds.designators("Does X-ray imaging show Phase II results?") == {"phase": {"II"}}
    assert kinds.designators("Which Series A-2 preferred shares?") == {"series": {"A"}}


def test_a_date_of_another_event_is_not_the_asked_one():
    q = "Since what date has Contoso's Class B stock been listed on Nasdaq?"
    assert kinds.missing_event(q, "date", "As of December 31, 2024, 64 holders of record held our Class B stock.")
    assert not kinds.missing_event(q, "date", "Our Class A stock has been listed on Nasdaq since May 5, 2009.")
    assert not kinds.missing_event("When did the store open?", "when", "In May 2009 sales rose.")  # no participle
    assert not kinds.missing_event(q, "number", "As of December 31, 2024, 64 holders")  # no time asked


def test_a_span_of_another_quarter_is_not_the_asked_one():
    assert kinds.periods("in 2Q22, Q3 2021 and the second quarter of 2023") == {(2, "22"), (3, "21"), (2, "23")}
    assert kinds.period_conflict("By how much did sales grow in 2Q22?", "sales would have grown 2.6% in the 2nd "
                                 "quarter of 2023")
    assert not kinds.period_conflict("By how much did sales grow in 2Q22?", "ID Sales — 2Q22: 5.8%")
    assert not kinds.period_conflict("By how much did sales grow in 2Q22?", "sales grew 1.0%")  # names none


def test_a_per_unit_without_the_measure_supports_nothing():
    q = "What dividend per share did Contoso declare?"
    focus = focus_of(q)
    eps = Candidate("Diluted earnings per share — Q2 2024: $ 1.42", "Diluted earnings per share — Q2 2024: $ 1.42",
                    0, 1, "sentence")
    dividend = Candidate("The board declared a cash dividend of $0.35 per share.",
                         "The board declared a cash dividend of $0.35 per share.", 0, 1, "sentence")
    assert attachment(focus, q, eps, None, {})[0] == 0.0
    assert attachment(focus, q, dividend, None, {})[:2] == (1.0, 1.0)


def test_a_form_field_belongs_to_the_party_the_question_names():
    q = "What date of birth is given for the emergency contact on the HR employee form?"
    assert kinds.parties(q) == [["emergenc", "contact"]]
    assert kinds.parties("What date of birth is entered on the HR employee form?") == []
    focus = focus_of(q)
    employee = Candidate("MONTH/DAY/YEAR: 08/29/2020", "MONTH/DAY/YEAR: 08/29/2020", 0, 1, "field")
    contact = Candidate("Emergency contact birth date: 01/02/1990", "", 0, 1, "field")
    parties = kinds.parties(q)
    assert attachment(focus, q, employee, None, {}, (), parties)[0] == 0.0
    assert attachment(focus, q, contact, None, {}, (), parties)[:2] == (1.0, 1.0)


def test_a_field_of_another_type_is_not_attached():
    q = "What home address is given for the emergency contact?"
    focus = focus_of(q)
    phone = Candidate("HOME: 1234567890", "HOME: 1234567890", 0, 1, "field")
    street = Candidate("HOME: 12 Elm Road", "HOME: 12 Elm Road", 0, 1, "field")
    assert attachment(focus, q, phone, None, {})[1] == 0.0
    assert attachment(focus, q, street, None, {})[1] == 1.0


def test_list_items_are_blocks_and_carry_their_heading():
    blocks = _blocks(GUIDANCE)
    assert [b for b, _ in blocks][-1] == "Capital expenditures of $0.8 to $0.9 billion"
    assert blocks[-1][1] == "Full-Year 2025 Outlook"
    assert blocks[0][0].startswith("Full-Year 2025 Outlook\nIdentical sales")
    prose = ["The settlement will be paid over eleven years, most of", "which is tax deductible."]
    assert len(_blocks(prose)) == 1  # a wrapped sentence stays whole
