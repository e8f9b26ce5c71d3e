"""The extractive answerer on a report the test builds: a table cell named by its row and column,
a sentence, and abstention when the question's date or names are not in the answer's source; and the
abstention model's fitting functions."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from pagelens.answer.calibration import FEATURES, Calibration, best_threshold, fit
from pagelens.app import Pagelens
from pdf_support import draw_ruled_table

ROWS = [("North", "2.9", "3.8"), ("South", "4.1", "5.0"), ("West", "1.2", "1.7")]


def _report(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Umbrella Industries Annual Report 2009", fontsize=20)
    page.insert_textbox(pymupdf.Rect(72, 110, 540, 300),
                        "Umbrella Industries is headquartered in Springfield, Illinois. The company employs "
                        "4,200 people in three segments. Demand recovered in the second half of the year.", fontsize=11)
    page = doc.new_page()
    page.insert_text((72, 70), "Table 3: Interest expense by segment ($ million)", fontsize=11)
    x = [72, 220, 320, 420]
    y0, h = 90, 22
    cells = [("Segment", "2008", "2009"), *ROWS]
    draw_ruled_table(page, x, y0, h, cells)
    page.insert_textbox(pymupdf.Rect(72, 200, 540, 400),
                        "Interest expense rose in every segment as borrowing increased to fund the new plants.",
                        fontsize=11)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("built-report")
    from pagelens.settings import Settings

    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    with Pagelens(settings) as a:
        results = a.ingest([_report(root / "umbrella-2009.pdf")])
        assert results[0].status == "indexed", results[0].error
        yield a


def _pages(text: str) -> set[int]:
    return {int(p) for p in re.findall(r"\[\d+, p\.(\d+)\]", text)}


def test_a_cell_is_named_by_its_row_and_column(app):
    ans = app.ask("What interest expense did the South segment have in 2009?")
    assert not ans.abstained and "5.0" in ans.answer
    assert re.search(r"South\W+2009: 5\.0", ans.answer), ans.answer
    assert 2 in _pages(ans.answer) and not ans.invalid_citations


def test_a_sentence_answers_from_running_text(app):
    ans = app.ask("In which city is Umbrella Industries headquartered?")
    assert not ans.abstained and "Springfield" in ans.answer and 1 in _pages(ans.answer)


@pytest.mark.parametrize("question", [
    "What interest expense did the South segment have in 2012?",  # the table has 2008 and 2009 only
    "How much did Hooli pay Pied Piper for the compression license?",  # names in no source
])
def test_abstains_when_the_source_lacks_the_asked_date_or_names(app, question):
    ans = app.ask(question)
    assert ans.abstained, ans.answer


def test_fit_recovers_a_separating_feature_and_the_cut_maximises_accuracy():
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 1, size=(200, 2))
    y = (x[:, 0] > 0.5).astype(float)  # only the first feature matters
    w, b = fit(x, y, l2=0.01)
    assert w[0] > 5 and abs(w[1]) < 1 and -b / w[0] == pytest.approx(0.5, abs=0.1)
    cal = Calibration(tuple(w), b)
    assert cal.probability((0.9, 0.5)) > 0.9 > 0.1 > cal.probability((0.1, 0.5))
    # Answerable-and-right at high p, unanswerable at low p: the cut falls between them.
    p = [0.9, 0.8, 0.7, 0.2, 0.1]
    cut = best_threshold(p, [True, True, False, False, False], [True, True, True, False, False])
    assert 0.2 < cut <= 0.8  # answers 0.9 and 0.8, abstains on 0.2 and 0.1 (0.7 is wrong either way)


def test_the_shipped_calibration_matches_its_features():
    from pagelens.answer.calibration import DEFAULT

    assert len(DEFAULT.weights) == len(FEATURES)
    strong = (0.9, 0.8, 1.0, 1.0, 1.0, 0.3, 1.0, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
    weak = (0.3, 0.1, 0.3, 0.0, 0.5, 0.0, 0.3, 0.2, 0.0, 0.5, 0.2, 0.0, 1.0, 0.0, 0.5, 0.5)
    assert DEFAULT.probability(strong) > DEFAULT.probability(weak)
