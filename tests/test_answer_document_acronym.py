"""A question may name its document by the phrase its file name abbreviates ("Northern Waterways Shipping
Association" for nwsa-member-list.pdf) while the page never spells it out: the phrase names the document, as
its title would, and is no name each answer's page must repeat. A named dwelling ("Hollow Tree Farm") is
where someone lives."""

from __future__ import annotations


import pytest

from pagelens.answer import span, spellings
from pagelens.answer import support as sp
from index_support import ingested_app
from pdf_support import headed_pages


MEMBERS = ("Appendix A - Members\n"
           "Tarn Line Ltd. 12 Quay Street, Harbour Side, Whitby, England\n"
           "Orla Container Co. 4 Kaiweg, 20457 Hamburg, Germany\n"
           "Brisk Freight S.A. 40 Avenue Pictet, 1208 Geneva, Switzerland")
DONATIONS = ("Little Ashby Village Hall Appeal\n"
             "Donations received to 31st December 1978.\n"  # a scanned list read as one run of words
             "Donor Address Amount Mrs. Ada Pell Hollow Tree Farm 25.00 Mr. and Mrs. K. Barr The Old Forge 240.00 "
             "Capt. H. Rudge Ashby Grange 150.00 Miss P. Oddie Church Cottages 5.50")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("acronym")
    pdfs = [headed_pages(root / "nwsa-member-list.pdf", [MEMBERS]), headed_pages(root / "ashby-hall-appeal.pdf", [DONATIONS])]
    with ingested_app(root, pdfs, answer_cache=False) as app:
        yield app


def test_the_phrase_the_file_name_abbreviates_names_the_document(app):
    ans = app.ask("In the Northern Waterways Shipping Association member list, in which city is Orla Container Co. located?")
    assert not ans.abstained and "Hamburg" in ans.answer, ans.answer


def test_a_named_dwelling_is_where_someone_lives(app):
    ans = app.ask("Where does Mrs. Ada Pell live, according to the village hall appeal?")
    assert not ans.abstained and "Hollow Tree Farm" in ans.answer, ans.answer


def test_spelled_by_name():
    q = "In the International Council of Containership Operators member list, which carrier is in Oakland?"
    assert spellings.spelled_by_name(q, "icco-agreement-members-scan.pdf") == [
        "International Council of Containership Operators"]
    assert spellings.spelled_by_name(q, "members-scan.pdf") == []
    assert spellings.spelled_by_name("Who chairs the board?", "icco.pdf") == []


def test_numbered_references_are_no_values():
    q = "What log-likelihood does the model reach?"
    for where in ("as in Equation (18)", "see Eq. 3", "Table 2: counts", "Exercise 6"):
        assert not sp.has_type("number", where, q), where
    assert sp.has_type("number", "the log-likelihood is -1402.5", q)


def test_cause_questions_ask_for_a_reason():
    for q in ("What was the cause of the fire at the mill?", "What caused the delay?", "What led to the recall?"):
        assert span.WHY_Q.search(q), q
    assert not span.WHY_Q.search("What was the causeway's length?")


def test_a_reference_before_a_full_stop_is_still_a_reference():
    assert sp.value_numbers("Table 324. Arrests by Sex and Age: 2009") == {"2009"}
    assert sp.value_numbers("Section 4.1 and Table 3.5") == set()


def test_a_code_with_a_year_is_no_time():
    q = "When did Hanjin Shipping join the council?"
    assert not sp.has_type("when", "Ninth Revised Page No. 3 2012-2", q)  # a revision code
    for text in ("joined in 2012", "the 2012-13 season", "on 2012-03-04", "from 1991-1992"):
        assert sp.has_type("when", text, q), text
