"""Ruled grids whose header row is years (issue #10, "tables with their structure").

Statements printed as grids title their value columns by period: "| 2023 | 2022", "Item | 2023 | 2022",
"(in millions) | FY2023 | FY2022", "Three months ended June 30, | 2023 | 2022". Years are numbers, so
header detection once read that row as data: the table had no header (its values named by nothing) and
the year row sat in the body; where another finder's header band was taken for the grid, the year row
stayed in the body under it, printed twice. Years are still data where they label rows ("2019 | Product
launch") or run down a column. Each page is built with PyMuPDF (every rule drawn, a "Table N" caption
above) and read through ``tables.extract_tables`` the way the pipeline reads it; the checks are on the
table element's header, rows and records.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from table_support import only_table

from pagelens.ingest import tables
from pagelens.ingest.table_cells import Grid

FONT = 9
PITCH = 18.0
# Every row filled (the whitespace finder reads these too) and rows with gaps (only the grid reads them).
FULL = [
    ["Cash and equivalents", "1,204", "998"],
    ["Receivables", "3,412", "3,105"],
    ["Inventories", "2,876", "2,455"],
    ["Total current assets", "7,492", "6,558"],
]
SPARSE = [
    ["Cash and equivalents", "1,204", "998"],
    ["Receivables", "3,412", ""],
    ["Inventories", "", "2,455"],
    ["Total current assets", "4,616", "3,453"],
]


def _grid(rows: list[list[str]], widths: list[float], above: str | None = None, span_first: bool = False) -> bytes:
    """One page: a sentence, a "Table 1" caption and a fully ruled grid. ``above``: a line printed just
    over the value columns, outside the rules (a period title); ``span_first``: the first row's value
    cells are one merged cell (no rule between them)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    top = 150.0
    page.insert_text((72, 72), "The balances at the end of the period are set out below.", fontsize=10)
    page.insert_text((72, top - 24), "Table 1: Balances (in thousands)", fontsize=FONT)
    xs = [72.0]
    for w in widths:
        xs.append(xs[-1] + w)
    if above:
        page.insert_text((xs[1] + 10, top - 6), above, fontsize=FONT)
    bottom = top + len(rows) * PITCH
    for i in range(len(rows) + 1):
        page.draw_line((xs[0], top + i * PITCH), (xs[-1], top + i * PITCH), width=0.6)
    for k, x in enumerate(xs):
        inner = 1 < k < len(xs) - 1
        page.draw_line((x, top + PITCH if span_first and inner else top), (x, bottom), width=0.6)
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            page.insert_text((xs[j] + 4, top + i * PITCH + 12), text, fontsize=FONT)
    return doc.tobytes()


HEADERS = [
    ["", "2023", "2022"],
    ["Item", "2023", "2022"],
    ["(in millions)", "2023", "2022"],
    ["Three months ended June 30,", "2023", "2022"],
    ["(in millions)", "Fiscal 2023", "Fiscal 2022"],
    ["", "FY2023", "FY2022"],
    ["", "2Q23", "2Q22"],
    ["", "Q3 2023", "Q3 2022"],
]


@pytest.mark.parametrize("body", [FULL, SPARSE], ids=["full", "sparse"])
@pytest.mark.parametrize("header", HEADERS, ids=lambda h: "|".join(h))
def test_a_row_of_periods_is_the_header_and_printed_once(header: list[str], body: list[list[str]], tmp_path: Path) -> None:
    t = only_table(_grid([header, *body], [160, 90, 90]), tmp_path).table
    assert t is not None
    assert t.header == header
    assert t.rows == body
    assert t.records == [
        f"{r[0]} — " + "; ".join(f"{h}: {v}" for h, v in zip(header[1:], r[1:]) if v) for r in body
    ]


def test_three_year_columns_over_a_short_body(tmp_path: Path) -> None:
    rows = [["", "2023", "2022", "2021"], ["Revenue", "31,999", "28,822", "27,908"], ["Net income", "7,788", "6,687", ""]]
    t = only_table(_grid(rows, [160, 80, 80, 80]), tmp_path).table
    assert t is not None
    assert t.header == rows[0]
    assert t.rows == rows[1:]


def test_years_under_a_period_title_spanning_them(tmp_path: Path) -> None:
    rows = [["", "Three months ended June 30,", ""], ["", "2023", "2022"], *SPARSE]
    t = only_table(_grid(rows, [160, 90, 90], span_first=True), tmp_path).table
    assert t is not None
    assert t.header == ["", "Three months ended June 30, 2023", "Three months ended June 30, 2022"]
    assert t.rows == SPARSE


@pytest.mark.parametrize("body", [FULL, SPARSE], ids=["full", "sparse"])
def test_a_period_title_above_the_rules_names_the_year_columns(body: list[list[str]], tmp_path: Path) -> None:
    """The grid's year row under a title printed above the rules: one header, no year row in the body."""
    t = only_table(_grid([["", "2023", "2022"], *body], [160, 90, 90], above="Year ended December 31,"), tmp_path).table
    assert t is not None
    assert [h.split()[-1] if h else h for h in t.header] == ["", "2023", "2022"]
    assert t.rows == body


# -- years that are data ------------------------------------------------------------------------------
MILESTONES = [["2019", "Product launch", "1,200"], ["2020", "Berlin office", "340"],
              ["2021", "Acquisition", "2,950"], ["2022", "Listing", "410"]]


def test_years_as_row_labels_are_data(tmp_path: Path) -> None:
    t = only_table(_grid(MILESTONES, [60, 110, 90]), tmp_path).table
    assert t is not None
    assert t.header == []
    assert t.rows == MILESTONES


def test_years_as_row_labels_under_a_titled_header(tmp_path: Path) -> None:
    rows = [["Year", "Milestone", "Cost"], *MILESTONES]
    t = only_table(_grid(rows, [60, 110, 90]), tmp_path).table
    assert t is not None
    assert t.header == rows[0]
    assert t.rows == MILESTONES


def test_a_column_of_years_down_the_body_is_data(tmp_path: Path) -> None:
    """The first row's numbers are distinct years beside a caption-like label, but the columns under
    them hold years on every row: periods of a schedule, not column titles."""
    rows = [["Period 1", "2019", "2020"], ["Period 2", "2020", "2021"], ["Period 3", "2021", "2022"],
            ["Period 4", "2022", "2023"]]
    t = only_table(_grid(rows, [160, 90, 90]), tmp_path).table
    assert t is not None
    assert t.header == []
    assert t.rows == rows


def test_a_row_label_beside_year_like_counts_is_data(tmp_path: Path) -> None:
    """A row label is not a caption: "Units shipped | 2023 | 2022" in a grid stays a row. (Rows with
    gaps, which only the grid finder reads: the whitespace finder takes a line of years above its
    value rows as its header band by its own rule, ``table_header.is_header_line``.)"""
    rows = [["Units shipped", "2023", "2022"], ["Units returned", "41", ""], ["Units in repair", "", "12"],
            ["Units scrapped", "9", "7"]]
    t = only_table(_grid(rows, [160, 90, 90]), tmp_path).table
    assert t is not None
    assert t.header == []
    assert t.rows == rows


@pytest.mark.parametrize("row", [
    ["", "2023", "2023"],  # the same year twice: not one title per column
    ["2019", "2020", "2021"],  # a year in the label column
    ["", "2023", "1,204"],  # an amount among the years
])
def test_rows_that_are_not_period_titles(row: list[str]) -> None:
    from pagelens.ingest.table_cells import reads_as_periods

    assert not reads_as_periods(row, FULL)


COUNTS = [["Units returned", "41", "38"], ["Units in repair", "1204", "12"], ["Units scrapped", "9", "7"]]


def test_a_row_label_beside_years_printed_like_the_amounts_is_data() -> None:
    """Beside a row label, years stay amounts where the columns print their amounts as the years are
    printed (small counts, "1204" without a thousands separator)."""
    from pagelens.ingest.table_cells import reads_as_periods

    assert not reads_as_periods(["Revenue", "2023", "2022"], COUNTS, first=True)


# -- a header band taken from another reading ----------------------------------------------------------
def test_a_band_taken_from_the_whitespace_reading_replaces_the_year_row() -> None:
    """When the grid keeps its region but takes the whitespace reading's fuller band, a body row that
    only repeats the band (the grid's own year row, read as data) is dropped."""
    band = ["", "Year Ended December 31, 2023", "Year Ended December 31, 2022"]
    # The whitespace reading carries a defect ("$" alone in a cell), so the grid keeps the region.
    whitespace = Grid(cells=[band, ["Cash and equivalents", "$", "998"], *FULL[1:]], header_rows=1)
    grid = Grid(cells=[["", "2023", "2022"], *FULL])  # the year row left in the body (header_rows=0)
    cand = tables._Candidate(pymupdf.Rect(72, 100, 400, 250), [], "whitespace")
    other = tables._Candidate(pymupdf.Rect(72, 120, 400, 250), [], "pymupdf")
    (kept, _), = tables._resolve([(whitespace, cand)], [(grid, other)])
    assert kept is grid
    assert kept.header == band
    assert kept.body == FULL
