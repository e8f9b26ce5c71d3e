"""A grid's first row "Revenue | 2023 | 2022": a row label, then years over the amount columns (issue #10).

Statements drawn as grids often print the first line item (or the table's subject) in the label cell
of the year row. Header detection read that row as data (a label and two numbers), so the table had no
header and its values were named by nothing. The years are told from amounts by how the columns print
their amounts: "2023" over "1,204" / "31,999" (thousands set apart) or over "2.46" (decimals) would
read "2,023" or "2,023.00" as an amount. Where the columns print small counts or plain four-digit
numbers, the row stays data. The grids are sparse (cells left empty), so only the grid finder reads
them, as the pipeline does (``tables.extract_tables``).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from pdf_support import draw_ruled_table
from table_support import only_table

FONT = 9
PITCH = 18.0


def _grid(rows: list[list[str]], widths: list[float]) -> bytes:
    """One page: a sentence, a "Table 2" caption and a fully ruled grid of ``rows``."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    top = 170.0
    page.insert_text((72, 80), "Selected results of the group for the last two years follow.", fontsize=10)
    page.insert_text((72, top - 20), "Table 2: Selected results", fontsize=FONT)
    xs = [72.0]
    for w in widths:
        xs.append(xs[-1] + w)
    draw_ruled_table(page, xs, top, PITCH, rows, size=FONT, pad=(4, 12), width=0.6)
    return doc.tobytes()


AMOUNTS = [
    ["Cost of sales", "14,210", ""],
    ["Gross profit", "", "9,870"],
    ["Operating expenses", "6,120", "5,904"],
    ["Operating profit", "4,455", ""],
]
PER_SHARE = [
    ["Basic earnings", "2.46", ""],
    ["Diluted earnings", "", "2.01"],
    ["Dividends", "0.80", "0.72"],
]


@pytest.mark.parametrize("label", ["Revenue", "Group", "Consolidated"])
@pytest.mark.parametrize("body", [AMOUNTS, PER_SHARE], ids=["thousands", "decimals"])
def test_years_beside_a_row_label_title_the_columns(label: str, body: list[list[str]], tmp_path: Path) -> None:
    header = [label, "2023", "2022"]
    t = only_table(_grid([header, *body], [170, 90, 90]), tmp_path).table
    assert t is not None
    assert t.header == header
    assert t.rows == body


def test_three_years_beside_a_label(tmp_path: Path) -> None:
    rows = [["Net sales", "2023", "2022", "2021"], ["Americas", "12,404", "", "10,877"],
            ["Europe", "", "7,312", "6,950"], ["Asia", "4,018", "3,770", ""]]
    t = only_table(_grid(rows, [150, 80, 80, 80]), tmp_path).table
    assert t is not None
    assert t.header == rows[0]
    assert t.rows == rows[1:]


def test_years_printed_like_the_counts_under_them_stay_data(tmp_path: Path) -> None:
    """Counts printed without separators ("1875"): "2023 | 2022" may be the first row's counts."""
    rows = [["Visitors", "2023", "2022"], ["Members", "1875", ""], ["Guests", "", "312"], ["Staff", "41", "38"]]
    t = only_table(_grid(rows, [150, 90, 90]), tmp_path).table
    assert t is not None
    assert t.header == []
    assert t.rows == rows


def test_a_column_of_years_under_a_label_row_stays_data(tmp_path: Path) -> None:
    rows = [["Founded", "1998", "2004"], ["Listed", "2006", ""], ["Merged", "", "2015"], ["Renamed", "2019", "2021"]]
    t = only_table(_grid(rows, [150, 90, 90]), tmp_path).table
    assert t is not None
    assert t.header == []
    assert t.rows == rows


def test_years_beside_a_section_title_do_not_become_the_header() -> None:
    """A section title ("Operating activities:") heads the rows under it, not the columns."""
    from pagelens.ingest.table_cells import reads_as_periods

    assert reads_as_periods(["Revenue", "2023", "2022"], AMOUNTS, first=True)
    assert not reads_as_periods(["Operating activities:", "2023", "2022"], AMOUNTS, first=True)
    assert not reads_as_periods(["Revenue", "2023", "2022"], AMOUNTS)  # below the first row: a row
