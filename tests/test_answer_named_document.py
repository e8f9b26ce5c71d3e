"""A question that names its document ("on the Calder Valley membership form", "the Harbour Energy electricity
bill") is answered from that document: routing marks the sources of the documents it names, a candidate of
another document is marked down (``extractive.OFF_ROUTE_PENALTY``), and the snippets after the first never
come from a document the question does not name. An answer had been assembled from two forms (a member's
name from one, a date of birth from another person's form) and a bill's tax answered with a sentence of a
report on electricity generation."""

from __future__ import annotations

import pytest

from index_support import ingested_app
from pdf_support import headed_pages, line_form


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("named-document")
    pdfs = [
        line_form(root / "calder-valley-membership-renewal.pdf", "Calder Valley Naturalists - Membership Renewal 2025",
                  ["Membership number: CVN-3318", "Member name: Priya Ramanathan"], metadata_title=True),
        line_form(root / "riverside-walkers-membership.pdf", "Riverside Walkers - Membership Application",
                  ["Applicant name: Tomasz Wierzbicki", "Date of birth: 03/14/1979", "Membership type: Single"],
                  metadata_title=True),
        line_form(root / "harbour-energy-electricity-bill.pdf", "Harbour Energy - Electricity Bill - March 2025",
                  ["Account number: 4471-220", "Energy used (kWh): 412", "Energy charge: 84.20", "Tax (VAT 20%): 16.84",
                   "Total due: 101.04"], metadata_title=True),
        headed_pages(root / "national-electricity-generation.pdf", [
            "Annual electricity generation\nThe electricity generation tax credit shown in Figure 1 rose from "
            "1.2 to 2.5 billion over 55 observations of annual net electricity generation from 1949 through 2003."]),
    ]
    with ingested_app(root, pdfs, answer_cache=False) as app:
        yield app


def test_no_snippet_of_another_persons_form(app):
    ans = app.ask("What is the renewing member's date of birth on the Calder Valley membership renewal form?")
    assert "03/14/1979" not in ans.answer, ans.answer


def test_the_named_bill_answers_before_another_document(app):
    ans = app.ask("How much tax does the Harbour Energy electricity bill show?")
    assert not ans.abstained and "16.84" in ans.answer.split("[")[0], ans.answer
    assert "generation" not in ans.answer, ans.answer
