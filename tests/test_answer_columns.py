"""Which column a table question asks for when its words name two columns equally: the one named by
the word nearest the wh-word ("What *speedup* does the trace statistics table list for crypto-sha1?"
asks for Speedup, though "trace" names the Traces column as fully). Found on a real paper's statistics
table (bench/realdocs.py), where the answerer quoted the Traces column."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import text as tx
from pagelens.app import Pagelens
from pagelens.settings import Settings
from pdf_support import draw_ruled_table

HEADER = ("Benchmark", "Loops", "Traces", "Aborts", "Speedup")
ROWS = [("crypto-aes", "50", "78", "19", "1.64x"), ("crypto-md5", "4", "5", "0", "2.30x"),
        ("crypto-sha1", "5", "10", "0", "5.95x"), ("math-cordic", "2", "5", "1", "4.92x")]


def _column(question: str, header: tuple[str, ...] = HEADER) -> str | None:
    col = tx.best_column(list(header), tx.content_terms(question), tx.ask_terms(question))
    return None if col is None else header[col]


@pytest.mark.parametrize(("question", "column"), [
    ("What speedup does the trace statistics table list for crypto-sha1?", "Speedup"),
    ("How many traces does the speedup table give for crypto-md5?", "Traces"),
    ("How many aborts did crypto-aes have in the trace recording statistics?", "Aborts"),
    ("How many loops and traces did math-cordic form?", "Loops"),  # both named: the first asked
])
def test_the_column_named_nearest_the_wh_word_wins_a_tie(question, column):
    assert _column(question) == column


def test_a_fuller_match_still_beats_an_earlier_word():
    # "net income" covers both words of the second column; "income" alone names only half of the first
    header = ("Item", "Income tax", "Net income")
    assert _column("What income tax figure sits beside the net income?", header) == "Income tax"
    assert _column("What net income is reported for 2009?", header) == "Net income"


def _paper(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 70), "Table 4: Trace recording statistics per benchmark", fontsize=11)
    draw_ruled_table(page, [72, 190, 260, 330, 400, 480], 90, 22, [HEADER, *ROWS])
    page.insert_textbox(pymupdf.Rect(72, 220, 540, 400),
                        "Most benchmarks form few traces; the cryptographic ones abort more often because "
                        "their loops call functions the recorder does not follow.", fontsize=11)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("columns")
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    with Pagelens(settings) as a:
        results = a.ingest([_paper(root / "tracing-paper.pdf")])
        assert results[0].status == "indexed", results[0].error
        yield a


def test_the_answer_quotes_the_asked_column_not_the_one_an_earlier_word_names(app):
    ans = app.ask("What speedup does the trace statistics table list for crypto-sha1?")
    assert not ans.abstained, ans.answer
    assert "5.95x" in ans.answer, ans.answer
    assert not ans.answer.lstrip().startswith("crypto-sha1 — Traces"), ans.answer
