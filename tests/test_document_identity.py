"""What a question says to name its document is said by the whole document: a filing named only by its
cover ("filing-0002.pdf", FORM 10-K, fiscal year 2017, Acme) answers "Acme's capital expenditures in
fiscal 2017" from a page that never prints the year, while a year no filing reports is still withheld;
and a filing whose own period or form contradicts the question's yields to the one that agrees. Real
parser, MiniLM and qdrant-edge on filings the test builds."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer.focus import conditions_found
from pagelens.ingest.cover import cover_facts
from pagelens.retrieve.routing import conflicts
from index_support import ingested_app

# (file, company, form, period line, capex $M, interest $M)
FILINGS = [
    ("filing-0001.pdf", "Acme Corporation", "10-K", "For the fiscal year ended December 31, 2016", 332, 9.6),
    ("filing-0002.pdf", "Acme Corporation", "10-K", "For the fiscal year ended December 31, 2017", 409, 7.7),
    ("filing-0003.pdf", "Acme Corporation", "10-Q", "For the quarterly period ended June 30, 2017", 121, 2.1),
    ("filing-0004.pdf", "Globex Corporation", "10-K", "For the fiscal year ended December 31, 2017", 668, 5.4),
    ("filing-0005.pdf", "Initech Inc.", "10-K", "For the fiscal year ended December 31, 2016", 250, 3.3),
    ("filing-0006.pdf", "Globex Corporation", "10-K", "For the fiscal year ended December 31, 2016", 590, 5.9),
    ("filing-0007.pdf", "Umbrella Group", "10-K", "For the fiscal year ended December 31, 2015", 140, 1.9),
    ("filing-0008.pdf", "Hooli Inc.", "10-K", "For the fiscal year ended December 31, 2016", 820, 8.2),
]
# A pile of a company's filings among others' (names and years each carried by under half of the pile).


def _filing(path: Path, company: str, form: str, period: str, capex: int, interest: float) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    kind = "ANNUAL" if form == "10-K" else "QUARTERLY"
    for i, line in enumerate(["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", f"FORM {form}",
                              f"{kind} REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
                              period, company, "(Exact name of registrant as specified in its charter)"]):
        page.insert_text((60, 90 + 26 * i), line, fontsize=18 if line == company else 10)
    for title, body in (
        ("Item 7. Liquidity and Capital Resources", f"Capital expenditures were ${capex} million, primarily for new "
         "distribution centers. Cash from operations funded the investments."),
        ("Item 7A. Market Risk", f"Interest expense was ${interest} million. A one percentage point change in "
         "interest rates would change interest expense by about ten percent."),
        ("Item 1. Business", "We sell industrial equipment and services to customers in North America and Europe."),
    ):
        page = doc.new_page()
        page.insert_text((60, 80), title, fontsize=14)
        page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), body, fontsize=11)
    doc.save(path)
    doc.close()


@pytest.fixture(scope="module")
def filings(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("identity")
    for name, *rest in FILINGS:
        _filing(root / name, *rest)
    with ingested_app(root, [root / name for name, *_ in FILINGS], answer_cache=False) as app:
        yield app


def test_a_question_contradicting_a_filing_period_or_form():
    facts = {"k16": "Acme Corporation 10-K annual report FY2016 fiscal 2016 FY16 2016",
             "k17": "Acme Corporation 10-K annual report FY2017 fiscal 2017 FY17 2017",
             "q17": "Acme Corporation 10-Q quarterly report Q2 2017 2Q17 second quarter 2017", "paper": ""}
    assert conflicts("What were Acme's capital expenditures in fiscal 2017?", facts) == {"k16", "q17"}  # a year, not Q2
    assert conflicts("What were Acme's capital expenditures in the second quarter of 2017?", facts) == {"k16"}
    assert conflicts("How much interest expense did Acme report in its 2017 10-K?", facts) == {"k16", "q17"}
    assert conflicts("How did capex change from fiscal 2016 to fiscal 2017?", facts) == {"q17"}  # spans both years
    assert conflicts("What does Acme's report say about capex?", facts) == set()


def test_a_year_ended_in_january_is_also_the_year_before():
    periods = cover_facts("Target Corporation FORM 10-K For the fiscal year ended January 28, 2023").periods
    assert {"FY2023", "fiscal 2022", "FY2022"} <= set(periods)
    assert "FY2022" not in cover_facts("Acme FORM 10-K For the fiscal year ended December 31, 2023").periods


def test_a_number_inside_a_form_code_is_no_condition():
    assert conditions_found("How much interest expense did Acme report in its 2017 10-K?", "Interest expense was $7.7 million") == 1.0
    assert conditions_found("What was the loss with 12 layers?", "The loss was 0.3 with 6 layers") == 0.0


def test_the_documents_identity_states_the_year_the_page_does_not(filings):
    q = "What were Acme's capital expenditures in fiscal 2017?"
    hits = filings.search(q, k=5)
    assert (hits[0].chunk.doc_name, hits[0].chunk.page) == ("filing-0002.pdf", 2)
    assert {"Acme's", "2017"} <= set(hits[0].doc_terms)  # the question's own words
    answer = filings.ask(q)
    assert not answer.abstained and "409" in answer.answer and "332" not in answer.answer, answer.answer
    answer = filings.ask("How much interest expense did Acme report in its 2016 10-K?")
    assert not answer.abstained and "9.6" in answer.answer, answer.answer


def test_a_year_no_filing_reports_is_still_withheld(filings):
    answer = filings.ask("What were Acme's capital expenditures in fiscal 2014?")
    assert answer.abstained, answer.answer


def test_a_contradicting_filing_yields_only_to_a_sibling_that_agrees():
    from pagelens.retrieve.routing import yielding

    fact_text = {"acme17": "Acme Corporation 10-K FY2017 fiscal 2017 2017", "acme16": "Acme Corporation 10-K FY2016 fiscal 2016 2016",
                 "globex16": "Globex Corporation 10-K FY2016 fiscal 2016 2016"}
    q = "What were Acme's capital expenditures in fiscal 2016?"
    facts = {"acme17": {"acm", "fiscal"}, "acme16": {"acm", "fiscal", "2016"}, "globex16": {"fiscal", "2016"}}
    assert yielding(q, fact_text, facts) == {"acme17"}
    # Without Acme's FY2016 filing, its FY2017 one (whose statements print 2016 too) keeps its place:
    # another company's FY2016 filing agrees on the year only.
    del facts["acme16"], fact_text["acme16"]
    assert yielding(q, fact_text, facts) == set()
