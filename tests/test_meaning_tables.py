"""A question asking what a name means ("What does SPENDK measure?") is answered by the text that
defines it, not by a table of numbers that has it as a column: over a PDF the test builds with PyMuPDF
(a codebook page, then a printout of the data's first rows as a ruled table)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.index.bm25 import SparseEncoder
from pagelens.retrieve.intent import asks_for_meaning, numeric_table
from pagelens.retrieve.retriever import Retriever
from index_support import built_index
from pdf_support import bystander_pdfs, draw_ruled_table

CODEBOOK = ("In this example we use the school data set. Number of observations - 303 (counties). Codebook "
            "information: NABOVE - Total number of students above the national median for the math section. "
            "NBELOW - Total number of students below the national median for the math section. LOWINC - "
            "Percentage of low income students. PERASIAN - Percentage of Asian students. PERBLACK - Percentage of "
            "black students. PERHISP - Percentage of Hispanic students. PERMINTE - Percentage of minority "
            "teachers. AVYRSEXP - Sum of teachers' years in educational service divided by the number of "
            "teachers. AVSALK - Total salary budget including benefits divided by the number of full-time "
            "teachers (in thousands). SPENDK - Per-pupil spending (in thousands). RATIO - Pupil-teacher ratio. "
            "PCTAF - Percentage of students taking prep courses. CHARTER - Percentage of charter schools. "
            "PCTYRRND - Percentage of year-round schools.")
ROWS = [("", "SPENDK", "RATIO", "LOWINC", "CHARTER"), ("0", "4.445207", "21.71025", "34.3973", "0.0"),
        ("1", "5.267598", "20.44278", "17.36507", "7.14"), ("2", "5.482922", "18.95419", "32.64324", "0.0"),
        ("3", "4.165093", "21.63539", "11.90953", "3.2"), ("4", "4.324902", "18.77984", "36.88889", "0.0")]


def _example(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 72, 520, 300), CODEBOOK, fontsize=10)
    page = doc.new_page()
    page.insert_text((72, 80), "print(data.exog.head())", fontsize=10)
    draw_ruled_table(page, [72, 110, 200, 290, 380, 470], 100, 22, ROWS)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("meaning")
    others = bystander_pdfs(root)
    with built_index(root / "home", [_example(root / "school-data-example.pdf"), *others]) as b:
        yield b.settings, b.store, b.embedder


def test_what_a_variable_measures_is_read_from_its_definition(home):
    settings, store, embedder = home
    r = Retriever(settings, store, embedder, SparseEncoder())
    hits = r.search("What does the variable SPENDK measure?", k=4)
    assert (hits[0].chunk.doc_name, hits[0].chunk.page) == ("school-data-example.pdf", 1), \
        [(h.chunk.doc_name, h.chunk.page, h.chunk.kind, h.channels) for h in hits]
    # A question for its values still finds the table first.
    hits = r.search("What is the SPENDK value in row 2 of the printout?", k=4)
    assert (hits[0].chunk.doc_name, hits[0].chunk.page) == ("school-data-example.pdf", 2)


def test_meaning_questions_and_tables_of_numbers():
    assert asks_for_meaning("What does the Star98 variable PERSPENK measure?")
    assert asks_for_meaning("What does the abbreviation NID stand for?")
    assert not asks_for_meaning("What was the mean sprint time of the footballers?")
    assert not asks_for_meaning("What does the table report for 2019?")
    printout = "| Col1 | SPENDK | RATIO |\n|---|---|---|\n| 0 | 4.44 | 21.7 |\n| 1 | 5.26 | ... |"
    glossary = "| Term | Meaning |\n|---|---|\n| NID | National Identifier |\n| LRS | Linear Reference System |"
    assert numeric_table("table", printout) and not numeric_table("table", glossary)
    assert not numeric_table("text", printout)
