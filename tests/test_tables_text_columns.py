"""Two columns of text before the amounts (issue #10, "tables with their structure").

"Segment | Description | 2023 | 2022": the whitespace reader took everything left of the first value
column as one row label, so the name and the description were fused ("Cloud Hosted services for
business — 2023: 1,204"), and where a ruled grid read the columns apart the fused whitespace reading
still won the region. Text columns are kept apart when a gutter wider than a word gap, open on most
rows, separates them and the header titles each side (``table_textcols``); a wrapped label whose
continuation is indented stays one label, and so does a long label running into the gap. Pages are
built with PyMuPDF and read through ``tables.extract_tables`` the way the pipeline reads them.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
from table_support import only_table

FONT = 9
ROWS = [
    ("Cloud", "Hosted services for business", "1,204", "998"),
    ("Devices", "Phones and tablets", "877", "901"),
    ("Gaming", "Consoles and content", "2,310", "2,118"),
    ("Search", "Advertising on search pages", "5,402", "4,990"),
]


def _right(page: pymupdf.Page, x1: float, y: float, text: str) -> None:
    page.insert_text((x1 - pymupdf.get_text_length(text, "helv", FONT), y), text, fontsize=FONT)


def _borderless(heads: list[tuple[float, str]], rows: list[list[tuple[float, str]]],
                amounts: list[tuple[str, str]]) -> bytes:
    """One page: a sentence, a title, a header line (``heads``: (x, text) pieces over the text, then
    "2023  2022" over the amounts) and rows of text pieces, each line's amounts right-aligned at 400
    and 470. A row of ``rows`` without an amount (``("", "")``) is a label-only line."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "Revenue by segment is set out below, with comparisons to the prior year.", fontsize=10)
    page.insert_text((54, 96), "Segment revenue", fontsize=11)
    page.insert_text((54, 110), "(in millions)", fontsize=FONT)
    for x, text in heads:
        page.insert_text((x, 142), text, fontsize=FONT)
    _right(page, 400, 142, "2023")
    _right(page, 470, 142, "2022")
    y = 160.0
    for pieces, (a, b) in zip(rows, amounts):
        for x, text in pieces:
            page.insert_text((x, y), text, fontsize=FONT)
        if a:
            _right(page, 400, y, a)
            _right(page, 470, y, b)
        y += 13 if a else 11
    return doc.tobytes()


def _described(rows: list[tuple[str, str, str, str]] = ROWS, desc_x: float = 150) -> bytes:
    return _borderless([(54, "Segment"), (desc_x, "Description")],
                       [[(54, name), (desc_x, text)] for name, text, _, _ in rows], [(a, b) for *_, a, b in rows])


def _ruled(lines: list[list[str]], widths: list[float]) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "Revenue by segment is summarised in the table below.", fontsize=10)
    page.insert_text((72, 112), "Table 7: Segment revenue (in millions)", fontsize=FONT)
    xs = [72.0]
    for w in widths:
        xs.append(xs[-1] + w)
    top, pitch = 120.0, 18.0
    for i in range(len(lines) + 1):
        page.draw_line((xs[0], top + i * pitch), (xs[-1], top + i * pitch), width=0.6)
    for x in xs:
        page.draw_line((x, top), (x, top + len(lines) * pitch), width=0.6)
    for i, row in enumerate(lines):
        for j, text in enumerate(row):
            page.insert_text((xs[j] + 4, top + i * pitch + 12), text, fontsize=FONT)
    return doc.tobytes()


def test_borderless_name_and_description_stay_apart(tmp_path: Path) -> None:
    t = only_table(_described(), tmp_path).table
    assert t is not None
    assert t.header == ["Segment", "Description", "2023", "2022"]
    assert t.rows == [list(r) for r in ROWS]
    assert t.records[0] == "Cloud — Description: Hosted services for business; 2023: 1,204; 2022: 998"


def test_three_columns_of_text(tmp_path: Path) -> None:
    """A code, a name and a description: two gutters, three titled columns."""
    rows = [("A1", "Cloud", "Hosted services", "1,204", "998"), ("B2", "Devices", "Phones and tablets", "877", "901"),
            ("C3", "Gaming", "Consoles", "2,310", "2,118"), ("D4", "Search", "Advertising", "5,402", "4,990")]
    data = _borderless([(54, "Code"), (100, "Segment"), (180, "Description")],
                       [[(54, c), (100, n), (180, d)] for c, n, d, _, _ in rows], [(a, b) for *_, a, b in rows])
    t = only_table(data, tmp_path).table
    assert t is not None
    assert t.header == ["Code", "Segment", "Description", "2023", "2022"]
    assert t.rows == [list(r) for r in rows]


def test_a_long_name_running_into_the_gutter_stays_whole(tmp_path: Path) -> None:
    """One name reaches into the gap the other rows leave open: it stays one name, in its column."""
    rows = [ROWS[0], ("Professional services", "Consulting and support", "640", "588"), *ROWS[1:]]
    t = only_table(_described(rows), tmp_path).table
    assert t is not None
    assert t.header == ["Segment", "Description", "2023", "2022"]
    assert t.rows[1] == ["Professional services", "Consulting and support", "640", "588"]
    assert [r[0] for r in t.rows] == [r[0] for r in rows]


def test_a_wrapped_name_with_an_indented_continuation_is_one_label(tmp_path: Path) -> None:
    """"Enterprise and" / "   partner services": the continuation starts left of the gutter, so the two
    lines are one row label, and the description stays apart."""
    pieces = [[(54, "Cloud"), (150, "Hosted services for business")], [(54, "Enterprise and")],
              [(62, "partner services"), (150, "Licences and support")], [(54, "Devices"), (150, "Phones and tablets")],
              [(54, "Gaming"), (150, "Consoles and content")]]
    amounts = [("1,204", "998"), ("", ""), ("3,050", "2,870"), ("877", "901"), ("2,310", "2,118")]
    t = only_table(_borderless([(54, "Segment"), (150, "Description")], pieces, amounts), tmp_path).table
    assert t is not None
    assert t.header == ["Segment", "Description", "2023", "2022"]
    assert t.rows[1] == ["Enterprise and partner services", "Licences and support", "3,050", "2,870"]
    assert len(t.rows) == 4


def test_one_label_column_with_long_labels_is_not_cut(tmp_path: Path) -> None:
    """A label column whose long labels run into the space the short ones leave, under a header with a
    second piece over the label zone (a units note): one column of labels, each whole."""
    labels = ["Revenue", "Cost of revenue", "Research and development expenses of the period",
              "Income taxes", "Net income"]
    amounts = [("1,204", "998"), ("877", "901"), ("2,310", "2,118"), ("402", "390"), ("5,402", "4,990")]
    data = _borderless([(54, "Item"), (250, "(in millions)")], [[(54, lab)] for lab in labels], amounts)
    t = only_table(data, tmp_path).table
    assert t is not None
    assert [r[0] for r in t.rows] == labels
    assert all(len(r) == 3 for r in t.rows)
    assert t.header[1:] == ["2023", "2022"]


def test_no_header_over_the_second_text_column_keeps_one_label(tmp_path: Path) -> None:
    """Without a title over each side the text before the amounts stays one row label (it may be a
    label printed with a wide space)."""
    data = _borderless([(54, "Segment")], [[(54, n), (150, d)] for n, d, _, _ in ROWS], [(a, b) for *_, a, b in ROWS])
    t = only_table(data, tmp_path).table
    assert t is not None
    assert all(len(r) == 3 for r in t.rows)
    assert t.rows[0][0] == "Cloud Hosted services for business"


def test_ruled_grid_with_text_columns_keeps_them(tmp_path: Path) -> None:
    """A ruled grid reads "Segment | Description" apart; no reading that joins them replaces it."""
    lines = [["Segment", "Description", "2023", "2022"], ["Cloud", "Hosted services", "1,204", "998"],
             ["Devices", "Phones, tablets", "877", "901"], ["Gaming", "Consoles, games", "2,310", "2,118"],
             ["Search", "Search ads", "5,402", "4,990"]]
    t = only_table(_ruled(lines, [80, 150, 90, 90]), tmp_path).table
    assert t is not None
    assert t.header == lines[0]
    assert t.rows == lines[1:]
    assert t.records[0] == "Cloud — Description: Hosted services; 2023: 1,204; 2022: 998"


def test_a_fused_reading_does_not_replace_a_grid_with_titled_text_columns() -> None:
    """``table_prefer``: a reading with fewer titled text columns does not win the region."""
    from pagelens.ingest.table_cells import Grid
    from pagelens.ingest.table_prefer import prefer_whitespace, text_columns

    grid = Grid(cells=[["Segment", "Description", "2023", "2022"], ["Cloud", "Hosted", "$", "998"],
                       ["Devices", "Phones", "877", "901"], ["Gaming", "Consoles", "2,310", "2,118"]], header_rows=1)
    fused = Grid(cells=[["Segment Description", "2023", "2022"], ["Cloud Hosted", "$ 1,204", "998"],
                        ["Devices Phones", "877", "901"], ["Gaming Consoles", "2,310", "2,118"]], header_rows=1)
    assert text_columns(grid) == 2 and text_columns(fused) == 1
    assert not prefer_whitespace(fused, grid)
