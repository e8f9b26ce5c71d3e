"""Ruled grids whose first body row prints dollar amounts (issue #10, "tables with their structure").

Statements printed as grids set "$" before the first row's values and the totals' ("$ 1,204",
"$1,204", "$ (56)", or "$" in a cell of its own). Header detection once read "$ 1,204" as text: that
row became the header of a grid without one, or was merged into a header whose stub cell is empty
("Current $ 1,204"); a two-column grid (a label and one amount) lost its first row the same way.
Each page here is built with PyMuPDF (rules drawn as lines or as one rectangle per cell, a "Table N"
caption above) and read through ``tables.extract_tables`` the way the pipeline reads it; the checks
are on the table element's header, rows and records.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from table_support import only_table

FONT = 9
PITCH = 18.0
BODY = [
    ["Receivables", "3,412", "3,105"],
    ["Inventories", "2,876", "2,455"],
    ["Total current assets", "$ 7,492", "$ 6,558"],
]


def _grid(rows: list[list[str]], widths: list[float], boxes: bool = False, top: float = 140.0) -> bytes:
    """One page: a sentence, a "Table 1" caption and a fully ruled grid (lines, or a rectangle per cell)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 72), "The balances at the end of the period are set out below.", fontsize=10)
    page.insert_text((72, top - 8), "Table 1: Balances (in thousands)", fontsize=FONT)
    xs = [72.0]
    for w in widths:
        xs.append(xs[-1] + w)
    bottom = top + len(rows) * PITCH
    if boxes:
        for i in range(len(rows)):
            for x0, x1 in zip(xs, xs[1:]):
                page.draw_rect(pymupdf.Rect(x0, top + i * PITCH, x1, top + (i + 1) * PITCH), width=0.6)
    else:
        for i in range(len(rows) + 1):
            page.draw_line((xs[0], top + i * PITCH), (xs[-1], top + i * PITCH), width=0.6)
        for x in xs:
            page.draw_line((x, top), (x, bottom), width=0.6)
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            page.insert_text((xs[j] + 4, top + i * PITCH + 12), text, fontsize=FONT)
    return doc.tobytes()


@pytest.mark.parametrize("cash", [["$ 1,204", "$ 998"], ["$1,204", "$998"], ["$ (56)", "$ 998"], ["$ 1,204", "-"]])
def test_a_grid_without_a_header_keeps_its_dollar_row_as_data(cash: list[str], tmp_path: Path) -> None:
    rows = [["Cash and equivalents", *cash], *BODY]
    t = only_table(_grid(rows, [150, 90, 90]), tmp_path).table
    assert t is not None
    assert t.header == []
    assert t.rows == rows


@pytest.mark.parametrize("boxes", [False, True])
def test_an_empty_stub_header_does_not_swallow_the_dollar_row(boxes: bool, tmp_path: Path) -> None:
    rows = [["", "Current", "Prior"], ["Cash and equivalents", "$ 1,204", "$ 998"], *BODY]
    t = only_table(_grid(rows, [150, 90, 90], boxes=boxes), tmp_path).table
    assert t is not None
    assert t.header == ["", "Current", "Prior"]
    assert t.rows == rows[1:]
    assert "Cash and equivalents — Current: $ 1,204; Prior: $ 998" in t.records


def test_a_titled_header_stays_the_header_over_the_dollar_row(tmp_path: Path) -> None:
    rows = [["Account", "Current", "Prior"], ["Cash and equivalents", "$ 1,204", "$ 998"], *BODY]
    t = only_table(_grid(rows, [150, 90, 90]), tmp_path).table
    assert t is not None
    assert t.header == rows[0]
    assert t.rows == rows[1:]


def test_dollar_signs_in_cells_of_their_own(tmp_path: Path) -> None:
    """"$" in its own narrow column beside the first and the total rows' values: the first row is data
    however the finders split or join those columns."""
    rows = [
        ["", "", "Current", "", "Prior"],
        ["Cash and equivalents", "$", "1,204", "$", "998"],
        ["Receivables", "", "3,412", "", "3,105"],
        ["Inventories", "", "2,876", "", "2,455"],
        ["Total current assets", "$", "7,492", "$", "6,558"],
    ]
    t = only_table(_grid(rows, [150, 16, 74, 16, 74]), tmp_path).table
    assert t is not None
    assert [h for h in t.header if h] == ["Current", "Prior"]
    assert [r[0] for r in t.rows] == [r[0] for r in rows[1:]]
    cash = [c.replace(" ", "") for c in t.rows[0][1:] if c]
    assert {"1,204", "998"} <= {c.lstrip("$") for c in cash}


TWO_COLUMN = [["Prepaid expenses", "$ 410"], ["Deposits", "215"], ["Goodwill", "1,930"], ["Other", "(12)"],
              ["Total other assets", "$ 2,543"]]


def test_a_two_column_grid_without_a_header_keeps_its_first_row(tmp_path: Path) -> None:
    t = only_table(_grid(TWO_COLUMN, [170, 90]), tmp_path).table
    assert t is not None
    assert t.header == []
    assert t.rows == TWO_COLUMN


@pytest.mark.parametrize("header", [["", "Amount"], ["Asset", "Amount"]])
def test_a_two_column_grid_with_a_header(header: list[str], tmp_path: Path) -> None:
    t = only_table(_grid([header, *TWO_COLUMN], [170, 90]), tmp_path).table
    assert t is not None
    assert t.header == header
    assert t.rows == TWO_COLUMN
