"""Near-miss names on a reference guide the test builds and ingests: the question's distinguishing name or
identifier is not stated, only a look-alike is — a prefix of it ("Fit" and "FitH" for "FitB"), its words
spread over other entries (a donor list with GRIMBERG MARQUEZ PAULA and SOSA MARIA, asked for GRIMBERG
MARQUEZ MARIA), or another identifier of the same family (glp_intfeas1 asked as glp_minisat1). Each is
withheld, and its twin that names an entry the page prints is answered with the right cell or sentence.
And the matching rules of ``pagelens.answer.distinct.Sources.states`` on their own.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import distinct as ds
from index_support import ingested_app

from pdf_support import draw_ruled_table

ROUTINE = ("The routine glp_intfeas1 solves an integer feasibility problem. If the problem has been solved to the "
           "end, glp_intfeas1 returns 0. If an integer overflow occurs, glp_intfeas1 returns GLP_ERANGE. "
           "The solver uses a time limit of 60 seconds by default.")


def _guide(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Contoso PDF Toolkit Reference: destination fit types", fontsize=14)
    page.insert_text((72, 90), "Table 4-1: Required parameters of each fit type of bookmarkPage", fontsize=10)
    draw_ruled_table(page, [72, 180, 420], 100, 22, [
        ("Fit type", "Parameters required"), ("Fit", "none"), ("FitH", "top"), ("FitV", "left"),
        ("FitR", "left bottom right top"), ("XYZ", "left top zoom")])
    page.insert_text((72, 260), "Table 4-2: Donations received by the campaign (pesos)", fontsize=10)
    draw_ruled_table(page, [72, 330, 450], 270, 22, [
        ("Donor", "Amount"), ("GRIMBERG MARQUEZ PAULA", "15,000"), ("SOSA MARIA ELENA", "8,200"),
        ("GRIMBERG MARQUEZ JUAN CARLOS", "12,500"), ("PEREZ ANA LUCIA", "4,750")])
    page = doc.new_page()
    page.insert_text((72, 60), "Integer feasibility routines", fontsize=14)
    page.insert_textbox(pymupdf.Rect(72, 80, 540, 260), ROUTINE, fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("near-miss")
    with ingested_app(root, [_guide(root / "contoso-toolkit-reference.pdf")], answer_cache=False) as app:
        yield app


@pytest.mark.parametrize(("question", "expected", "page"), [
    ("Which parameters are required by FitR?", "left bottom right top", "p.1"),
    ("How much did SOSA MARIA ELENA donate to the campaign?", "8,200", "p.1"),
    ("What does glp_intfeas1 return when an integer overflow occurs?", "GLP_ERANGE", "p.2"),
])
def test_the_exact_name_with_its_fact_is_answered(app, question, expected, page):
    ans = app.ask(question)
    assert not ans.abstained, ans.answer
    assert expected in ans.answer
    assert f"[1, {page}]" in ans.answer


@pytest.mark.parametrize("question", [
    "Which parameters are required by FitB?",  # a prefix: Fit, FitH ... are printed
    "How much did GRIMBERG MARQUEZ MARIA donate to the campaign?",  # each word is printed, for other donors
    "What does glp_minisat1 return when an integer overflow occurs?",  # another routine of the family
])
def test_a_near_miss_name_abstains(app, question):
    ans = app.ask(question)
    assert ans.abstained, ans.answer


def test_names_are_stated_as_whole_terms_close_together():
    rows = ds.Sources.of(["| Fit | none |\n| FitH | top |\n| FitR | left bottom right top |"])
    assert rows.states(["fitr"]) and rows.states(["fit"])
    assert not rows.states(["fitb"]) and not rows.states(["fi"])  # no prefix either way
    assert not ds.Sources.of(["Use Fit. The FitH type scales"]).states(["fitb"])  # a sentence's end is no abbreviation
    donors = ds.Sources.of(["| GRIMBERG MARQUEZ PAULA | 15,000 |\n| SOSA MARIA ELENA | 8,200 |"])
    assert donors.states(["grimberg", "marquez", "paula"]) and donors.states(["maria", "sosa"])  # any order
    assert not donors.states(["grimberg", "marquez", "maria"])  # three words of two donors
    prose = ds.Sources.of(["GRIMBERG MARQUEZ PAULA 15,000 SOSA MARIA ELENA 8,200"])  # a list read as one line
    assert not prose.states(["grimberg", "marquez", "maria"])


@pytest.mark.parametrize(("text", "name"), [
    ("Studies from the Ponemon Institute2 revealed", ["ponemon", "institut"]),  # a footnote mark glued on
    ("the attribute CoastalIsland of the class", ["island"]),  # words joined in camel case
    ("β2=0.999 gives the best results", ["beta2"]),  # a Greek letter spelt out in the question
    ("3 Months Ended Mar. 29, 2025", ["march"]),  # an abbreviated month
    ("Kroger’s identical sales", ["kroger"]),  # a possessive with a curly apostrophe
    ("results for BERT-Large and", ["bertlarg"]),  # hyphenated words joined
    ("results for BERT LARGE and", ["bertlarg"]),  # two adjacent words joined
    ("Microsoft Corp. revenue was", ["microsoft", "corpor"]),  # an abbreviation mid-sentence
])
def test_spellings_of_a_name_are_normalised(text, name):
    assert ds.Sources.of([text]).states(name)


def test_identifiers_keep_their_digits():
    assert ds._identifiers("What does glp_minisat1 return on x86 with utf8?") == ["glp_minisat1", "x86", "utf8"]
    assert not ds.Sources.of(["crypto-sha1 | 5.95x", "HC0 and HC4 are printed"]).states(["hc2"])
    assert ds.Sources.of(["| crypto-sha1 | 5.95x |"]).states(["cryptosha1"])


def test_an_identifier_stated_only_outside_the_quoted_span_lowers_distinct_span():
    from pagelens.answer.focus import focus_of

    q = "What standard error does the HC2 estimator give the Income coefficient?"
    us = ds.units(q, ["sandwich-covariance.pdf"], focus_of(q), {})
    assert ds.in_span(us, ds.Sources.of(["HC0 standard error of Income: 0.83"])) == 0.0  # HC2 is elsewhere
    assert ds.in_span(us, ds.Sources.of(["HC2 standard error of Income: 0.91"])) == 1.0
    plain = "What standard error does the robust estimator give the Income coefficient?"
    assert ds.in_span(ds.units(plain, ["sandwich-covariance.pdf"], focus_of(plain), {}), ds.Sources.of(["x"])) == 1.0
