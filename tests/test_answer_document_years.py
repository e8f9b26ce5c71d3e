"""Two causes of a right answer withheld or crowded out, on documents the test builds and ingests:

* a year that qualifies the whole document ("the *2000* index score") is said in its introduction, not on
  the page of the printout that answers: a bare year the answer's document states on another retrieved page
  counts as found (``support.dates_found``'s ``years``), so the answer is given; a year the document never
  states ("the *1999* index score") is still withheld, and a month must stand on the answer's page;
* a file property whose label the question does not name ("Producer: pdfTeX", "Modified: ...") is not scored
  with the document's name: a question that names the document ("on the *utility bill*, ...") is answered from
  the bill, not from its producer (``fields.unasked_property``).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import support as sp
from index_support import ingested_app
from pdf_support import draw_ruled_table

INTRO = ("This example analyses a sample of schools from the state register. The data hold the Academic Index "
         "of every school in the year 2000 and in the year before.")
COEFFICIENTS = [("Term", "Estimate", "Std. Error", "t value"), ("(Intercept)", "820.8873", "10.0777", "81.456"),
                ("meals", "-3.1456", "0.3018", "-10.423")]
BILL = ["Itens de fatura", "Energia Eletrica kWh 17.233,37", "Contrib. Custeio Ilum Publica 861,60",
        "Data prevista da proxima leitura 23/01/2020"]


def _survey(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "A school index analysis example", fontsize=14)
    page.insert_textbox(pymupdf.Rect(72, 80, 540, 200), INTRO, fontsize=10)
    page = doc.new_page()
    page.insert_text((72, 60), "Model: glm(formula = idx00 ~ meals, design = clus)", fontsize=11)
    page.insert_text((72, 84), "Table 1: Coefficients of the glm", fontsize=10)
    draw_ruled_table(page, [72, 200, 290, 380, 460], 94, 22, COEFFICIENTS)
    doc.save(path)
    doc.close()
    return path


def _bill(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(BILL):
        page.insert_text((72, 80 + 30 * i), line, fontsize=10)
    doc.set_metadata({"producer": "pdfTeX-1.40.19", "creator": "TeX", "modDate": "D:20200303155405+01'00'",
                      "creationDate": "D:20200303155405+01'00'"})
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("years")
    with ingested_app(root, [_survey(root / "school-index-example.pdf"), _bill(root / "utility-bill.pdf")],
                      answer_cache=False) as app:
        yield app


def test_a_year_the_document_states_on_another_page_supports_the_printout(app):
    ans = app.ask("What is the meals coefficient in the glm of the 2000 index?")
    assert not ans.abstained, ans.answer
    assert "-3.1456" in ans.answer and "p.2]" in ans.answer


def test_a_year_the_document_never_states_is_withheld(app):
    ans = app.ask("What is the meals coefficient in the glm of the 1987 index?")
    assert ans.abstained, ans.answer


def test_a_bare_year_is_found_in_the_documents_years_a_month_only_on_the_page():
    page = {"meal", "coeffici"}
    assert sp.dates_found("What is the meals coefficient of the 2000 index?", page) == 0.0
    assert sp.dates_found("What is the meals coefficient of the 2000 index?", page, {"2000"}) == 1.0
    assert sp.dates_found("What was the index in October 2000?", page, {"2000"}) == 0.0  # the month is the page's
    assert sp.dates_found("What was the index in 1999 and 2000?", page, {"2000"}) == 0.5


def test_a_question_naming_the_document_is_answered_from_the_bill_not_its_file_properties(app):
    question = "On the utility bill, how much is charged for the public lighting contribution?"
    ev = app.answerer.extractive.evidence(question, app.search(question))
    assert ev is not None
    assert "Producer" not in ev.text and "Modified" not in ev.text and "Pages" not in ev.text, ev.text
    assert "861,60" in ev.text, ev.text


DIARY = ("Through all the camp a soldier may draw 2 rations each morning at the wagon. "
         "Many a family at home is dependent upon the thirteen dollars a month that a soldier draws here.")


def test_a_number_written_in_words_answers_a_how_much_question(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("diary")
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Diary of the siege.", fontsize=14)
    page.insert_textbox(pymupdf.Rect(72, 80, 540, 300), DIARY, fontsize=10)
    doc.save(root / "siege-diary.pdf")
    doc.close()
    question = "According to the siege diary, how much pay a month did a soldier draw?"
    with ingested_app(root, [root / "siege-diary.pdf"], answer_cache=False) as app:
        ev = app.answerer.extractive.evidence(question, app.search(question))
    assert ev is not None
    assert ev.text.startswith("Many a family"), ev.text  # not the sentence richer in the question's words
    assert sp.has_type("number", "the thirteen dollars a month", question)
