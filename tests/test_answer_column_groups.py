"""A results table whose columns repeat one measure under several benchmarks ("SQuAD 1.1 F1", "SQuAD 2.0
F1"): the asked thing ("F1") names them alike, and the whole question picks among them ("... on SQuAD
*2.0*"; ``cells.asked_column``). An extreme asked of the column the asked thing names ("the lowest SQuAD 1.1
F1") is a question for a row, which the table need not name (``table_read``). A row that names the asked
kind by another modifier ("Learning rate" for the "dropout rate") is another instance: its cell is not read
as the answer (``kinds.modifier_conflict`` in ``table_read``)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from index_support import ingested_app
from pdf_support import draw_ruled_table

RESULTS = [("System", "SQuAD 1.1 EM", "SQuAD 1.1 F1", "SQuAD 2.0 EM", "SQuAD 2.0 F1"),
           ("BiDAF", "67.7", "77.3", "59.2", "62.1"),
           ("DrQA", "69.5", "78.8", "61.0", "64.3"),
           ("R-Net", "71.1", "79.5", "62.5", "65.8"),
           ("Ours (base)", "80.4", "87.9", "72.3", "75.6"),
           ("Ours (large)", "84.1", "90.9", "78.7", "81.9")]

HYPER = [("Hyperparameter", "Base", "Large"), ("Layers", "12", "24"), ("Hidden size", "768", "1024"),
         ("Learning rate", "5e-5", "3e-5"), ("Batch size", "32", "48")]


def _paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "5 Experiments", fontsize=14)
    page.insert_textbox(pymupdf.Rect(72, 70, 540, 130), "Table 2 compares our reader with earlier systems on two "
                        "reading comprehension benchmarks. We report exact match (EM) and F1 on the development "
                        "sets.", fontsize=10)
    draw_ruled_table(page, [72, 190, 280, 370, 460, 550], 140, 20, RESULTS)
    page.insert_textbox(pymupdf.Rect(72, 270, 540, 300), "Table 2: Results on the SQuAD development sets.", fontsize=9)
    draw_ruled_table(page, [72, 220, 320, 420], 320, 20, HYPER)
    page.insert_textbox(pymupdf.Rect(72, 445, 540, 470), "Table 3: Hyperparameters of the two models.", fontsize=9)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("column_groups")
    with ingested_app(root, [_paper(root / "reader-paper.pdf")], answer_cache=False) as a:
        yield a


@pytest.mark.parametrize(("question", "cell"), [
    ("What F1 does DrQA reach on SQuAD 2.0?", "DrQA — SQuAD 2.0 F1: 64.3"),
    ("What EM does the base version of our reader achieve on SQuAD 2.0?", "Ours (base) — SQuAD 2.0 EM: 72.3"),
    ("What F1 does R-Net reach on SQuAD 1.1?", "R-Net — SQuAD 1.1 F1: 79.5"),
])
def test_the_benchmark_the_question_names_picks_among_columns_of_one_measure(app, question, cell):
    ans = app.ask(question)
    assert not ans.abstained, ans.answer
    assert ans.answer.startswith(cell), ans.answer


def test_an_extreme_of_the_named_column_is_answered(app):
    ans = app.ask("What is the lowest SQuAD 1.1 F1 in Table 2?")
    assert not ans.abstained, ans.answer
    assert ans.answer.startswith("BiDAF — SQuAD 1.1 F1: 77.3"), ans.answer


def test_the_asked_kind_under_another_modifier_is_no_answer(app):
    ans = app.ask("What learning rate does the large model use?")
    assert not ans.abstained, ans.answer
    assert ans.answer.startswith("Learning rate — Large: 3e-5"), ans.answer
    ans = app.ask("What dropout rate does the large model use?")
    assert ans.abstained, ans.answer
