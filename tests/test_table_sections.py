"""Row records that keep their section: "Services › Net sales", not a second bare "Net sales".

Statements and segment notes group rows under section rows that print no values ("Products",
"Operating expenses:"), and the same label recurs under each. Each page here is built with PyMuPDF —
whitespace-aligned and ruled statements, both shapes (a section title without values, a title ending
":" closed by its "Total ..." row), and an indented statement whose last section has no total — and the
checks read the table elements' records, the row-group chunks, and the answers ``ask`` gives.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from table_support import only_table

from pagelens.app import Pagelens
from pagelens.index.chunking import chunk_document
from pagelens.models import Element
from pagelens.row_sections import row_sections
from pagelens.settings import Settings
from pagelens.store.images import ImageStore

FONT = 9
P3, P3Y, P6, P6Y = "3 Months Ended Mar. 29, 2025", "3 Months Ended Mar. 30, 2024", "6 Months Ended Mar. 29, 2025", \
    "6 Months Ended Mar. 30, 2024"
# (label, values or None for a section row); the segment shape and a ':' section closed by its total
SEGMENTS = [
    ("Net sales", ("$ 95,359", "$ 90,753", "$ 219,659", "$ 210,328")),
    ("Products", None),
    ("Net sales", ("68,714", "66,886", "166,674", "163,344")),
    ("Cost of sales", ("44,030", "42,672", "102,752", "101,050")),
    ("Services", None),
    ("Net sales", ("26,645", "23,867", "52,985", "46,984")),
    ("Cost of sales", ("6,980", "6,405", "13,802", "12,775")),
    ("Operating expenses:", None),
    ("Research and development", ("8,550", "7,903", "16,818", "15,599")),
    ("Selling, general and administrative", ("6,728", "6,468", "14,903", "13,814")),
    ("Total operating expenses", ("15,278", "14,371", "31,721", "29,413")),
    ("Net income", ("24,780", "23,636", "61,110", "57,552")),
]
# (indent, label, values): sections by indentation; "Other income:" has no total, "Net income" is top level
INDENTED = [
    (0, "Revenue:", None),
    (10, "Subscriptions", ("4,120", "3,874")),
    (10, "Hardware", ("1,305", "1,411")),
    (20, "Total revenue", ("5,425", "5,285")),
    (0, "Cost of revenue:", None),
    (10, "Subscriptions", ("1,017", "1,002")),
    (10, "Hardware", ("884", "930")),
    (20, "Total cost of revenue", ("1,901", "1,932")),
    (0, "Gross profit", ("3,524", "3,353")),
    (0, "Other income:", None),
    (10, "Interest income", ("212", "187")),
    (10, "Interest expense", ("(96)", "(101)")),
    (0, "Net income", ("2,870", "2,705")),
]


def _width(text: str) -> float:
    return pymupdf.get_text_length(text, "helv", FONT)


def _left(page: pymupdf.Page, x: float, y: float, text: str, size: float = FONT) -> None:
    page.insert_text((x, y), text, fontsize=size)


def _right(page: pymupdf.Page, x1: float, y: float, text: str) -> None:
    _left(page, x1 - _width(text), y, text)


def _centre(page: pymupdf.Page, xc: float, y: float, text: str) -> None:
    _left(page, xc - _width(text) / 2, y, text)


def segments_page(doc: pymupdf.Document) -> None:
    """A whitespace statement: spanning period titles over a date row, section rows at the labels' x."""
    page = doc.new_page(width=612, height=792)
    _left(page, 54, 60, "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)", 11)
    _left(page, 54, 74, "(in millions)")
    ends = [330.0, 400.0, 470.0, 540.0]
    _centre(page, 335, 96, "3 Months Ended")
    _centre(page, 475, 96, "6 Months Ended")
    for x, d in zip(ends, ["Mar. 29, 2025", "Mar. 30, 2024", "Mar. 29, 2025", "Mar. 30, 2024"]):
        _right(page, x, 110, d)
    y = 126.0
    for label, values in SEGMENTS:
        _left(page, 54, y, label)
        for x, v in zip(ends, values or ()):
            _right(page, x, y, v)
        y += 13
    _left(page, 54, y + 30, "Net sales grew in both segments; services led the increase in the first half.", 10)


def ruled_page(doc: pymupdf.Document) -> None:
    """The same rows (from the first section on) in a fully ruled grid, its header row inside the grid."""
    page = doc.new_page(width=612, height=792)
    _left(page, 54, 50, "SEGMENT INFORMATION (in millions)", 11)
    xs, y0, h = [50, 250, 325, 400, 475, 550], 70.0, 14.0
    rows = [("", "Q2 2025", "Q2 2024", "H1 2025", "H1 2024"), *((lab, *(v or ("", "", "", ""))) for lab, v in SEGMENTS[1:])]
    for k in range(len(rows) + 1):
        page.draw_line((xs[0], y0 + k * h), (xs[-1], y0 + k * h), width=0.5)
    for x in xs:
        page.draw_line((x, y0), (x, y0 + len(rows) * h), width=0.5)
    for k, row in enumerate(rows):
        _left(page, 54, y0 + k * h + 10, row[0])
        for x, v in zip(xs[2:], row[1:]):
            _right(page, x - 4, y0 + k * h + 10, v)


def indented_page(doc: pymupdf.Document) -> None:
    """A whitespace statement whose rows are indented under their section titles."""
    page = doc.new_page(width=612, height=792)
    _left(page, 54, 60, "STATEMENTS OF INCOME", 11)
    _left(page, 54, 74, "(in thousands)")
    _centre(page, 470, 92, "Year Ended December 31,")
    for x, year in ((440, "2024"), (520, "2023")):
        _right(page, x, 106, year)
    y = 122.0
    for indent, label, values in INDENTED:
        _left(page, 54 + indent, y, label)
        for x, v in zip((440, 520), values or ()):
            _right(page, x, y, v)
        y += 13


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    doc = pymupdf.open()
    for build in (segments_page, ruled_page, indented_page):
        build(doc)
    path = tmp_path_factory.mktemp("sections") / "statements.pdf"
    doc.save(path)
    return path


def _records(el: Element) -> dict[str, str]:
    assert el.table is not None and len(el.table.records) == len(el.table.rows)
    return {r.split(" — ")[0]: r for r in el.table.records if r}


@pytest.mark.parametrize("pno", [1, 2])
def test_rows_under_a_section_row_carry_it(pdf: Path, tmp_path: Path, pno: int) -> None:
    el = only_table(pdf, tmp_path, pno)
    recs = _records(el)
    assert set(recs) >= {"Products › Net sales", "Products › Cost of sales", "Services › Net sales",
                         "Services › Cost of sales", "Operating expenses › Research and development",
                         "Operating expenses › Selling, general and administrative"}, list(recs)
    # a total that names its section closes it (and names it already); rows after it carry none
    assert "Total operating expenses" in recs and "Net income" in recs
    services = recs["Services › Net sales"]
    assert services.endswith(f"{P6 if pno == 1 else 'H1 2025'}: 52,985; {P6Y if pno == 1 else 'H1 2024'}: 46,984"), services
    # the table itself stays as printed
    t = el.table
    assert t is not None
    assert "| Services |" in t.markdown and "›" not in t.markdown and "›" not in t.html
    assert [r[0] for r in t.rows].count("Net sales") == (3 if pno == 1 else 2)


def test_top_rows_before_any_section_carry_none(pdf: Path, tmp_path: Path) -> None:
    recs = _records(only_table(pdf, tmp_path, 1))
    assert recs["Net sales"].startswith(f"Net sales — {P3}: $ 95,359")


def test_indentation_ends_a_section_without_a_total(pdf: Path, tmp_path: Path) -> None:
    el = only_table(pdf, tmp_path, 3)
    recs = _records(el)
    assert "Revenue › Subscriptions" in recs and "Cost of revenue › Subscriptions" in recs
    assert "Other income › Interest expense" in recs
    # top level again: back at the section title's x, no total row between
    assert "Net income" in recs and "Gross profit" in recs
    assert el.table is not None and el.table.sections[-1] == ""


def test_text_rules_without_positions() -> None:
    rows = [["ASSETS:", "", ""], ["Current assets:", "", ""], ["Cash", "1", "2"], ["Total current assets", "3", "4"],
            ["Non-current assets:", "", ""], ["Securities", "5", "6"], ["Total non-current assets", "5", "6"],
            ["Total assets", "8", "10"], ["Commitments and contingencies", "", ""], ["Shareholders' equity:", "", ""],
            ["Common stock", "7", "7"], ["Total shareholders' equity", "7", "7"], ["Net income", "1", "1"]]
    assert row_sections(rows) == [
        "", "ASSETS", "ASSETS › Current assets", "ASSETS › Current assets", "ASSETS", "ASSETS › Non-current assets",
        "ASSETS › Non-current assets", "ASSETS", "", "", "Shareholders' equity", "Shareholders' equity", ""]
    # a total that names no open section ends the last segment before itself
    seg = [["Americas", "", ""], ["Net sales", "1", "2"], ["Europe", "", ""], ["Net sales", "3", "4"],
           ["Total segment operating income", "5", "6"]]
    assert row_sections(seg) == ["", "Americas", "", "Europe", ""]


def test_rows_that_are_not_sections() -> None:
    # a label wrapped over two rows, a units note, and a table of names with few values
    wrapped = [["Income before provision for", "", ""], ["income taxes", "1", "2"], ["Net income", "3", "4"]]
    assert row_sections(wrapped) == ["", "", ""]
    note = [["(in millions)", "", ""], ["Revenue", "1", "2"], ["Cost", "3", "4"]]
    assert row_sections(note) == ["", "", ""]
    names = [["Alice", ""], ["Bob", ""], ["Carol", "x"], ["Dan", ""]]
    assert row_sections(names) == ["", "", "", ""]
    # indentation: rows indented past the title belong to it, a row back at its x does not
    rows = [["Other income", "", ""], ["Interest", "1", "2"], ["Dividends", "3", "4"], ["Net income", "5", "6"]]
    assert row_sections(rows, [50.0, 60.0, 60.0, 50.0]) == ["", "Other income", "Other income", ""]
    assert row_sections(rows, [50.0, 60.0, 60.0, 50.0], [False, False, False, False])[3] == ""
    # a blank gap ends it too
    assert row_sections(rows, None, [False, False, True, False]) == ["", "Other income", "", ""]


def test_row_groups_name_the_section_of_rows_cut_from_their_title(pdf: Path, settings: Settings) -> None:
    from pagelens.ingest.pipeline import Ingestor
    from pagelens.store.catalog import Catalog

    s = settings.with_overrides(**{"ingest.ocr": "off"})
    ingestor = Ingestor(s.ingest, Catalog(s.home / "catalog.sqlite3"), ImageStore(s.home / "images"))
    result = ingestor.ingest_file(pdf)
    assert result.status == "indexed", result.error
    doc = ingestor.catalog.get_document(result.doc_id)
    assert doc is not None
    els = list(ingestor.catalog.iter_elements(result.doc_id))
    stored = next(e for e in els if e.table is not None and e.page == 1)
    assert stored.table is not None and "Services" in stored.table.sections[5]  # kept through the catalog
    ix = Settings().index.model_copy(update={"table_rows_per_chunk": 5})
    groups = [c for c in chunk_document(doc, els, ix, lambda text: len(text.split())) if c.kind == "table_rows"
              and c.pages == [1]]
    # rows 5-9: "Net sales" of Services is in a group without the "Services" row above it
    group = next(c for c in groups if "26,645" in c.text)
    assert "| Services |" not in group.text
    assert "| Services › Net sales | 26,645 |" in group.text
    assert "Services › Net sales — " in group.embed_text


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("sections-ask")
    doc = pymupdf.open()
    segments_page(doc)
    path = root / "quarterly-statement.pdf"
    doc.save(path)
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    with Pagelens(settings) as a:
        results = a.ingest([path])
        assert results[0].status == "indexed", results[0].error
        yield a


@pytest.mark.parametrize(("question", "value", "label"), [
    ("What were Services net sales for the 6 months ended Mar. 29, 2025?", "52,985", "Services › Net sales"),
    ("What were the net sales of Products in the 3 months ended Mar. 29, 2025?", "68,714", "Products › Net sales"),
    ("What was the Services cost of sales for the 3 months ended Mar. 30, 2024?", "6,405", "Services › Cost of sales"),
])
def test_ask_quotes_the_sectioned_row(app, question: str, value: str, label: str) -> None:
    ans = app.ask(question)
    assert not ans.abstained, ans.answer
    assert value in ans.answer and label in ans.answer, ans.answer
    assert ans.answer.startswith(f"{label} — "), ans.answer  # the first snippet is the asked row's cell
    assert ans.cited and ans.cited[0].page == 1 and ans.cited[0].bboxes, ans.cited


def test_plain_label_prefers_the_row_without_a_section(app) -> None:
    ans = app.ask("What were net sales for the 6 months ended Mar. 29, 2025?")
    assert not ans.abstained, ans.answer
    first = ans.answer.split("[1")[0]  # the first snippet: the top row's cell, not a segment's
    assert first.startswith("Net sales — 6 Months Ended Mar. 29, 2025: $ 219,659"), ans.answer


def test_a_long_section_path_keeps_its_innermost_section_in_the_answer() -> None:
    from pagelens.answer.span import cell_span

    label = "Liabilities and shareholders' equity of the company › Current liabilities › Accounts payable"
    cell = cell_span(["", "2024"], ["Accounts payable", "61,910"], label, 1, "What were accounts payable in 2024?")
    assert cell == "Current liabilities › Accounts payable — 2024: 61,910"


def test_no_total_closes_a_period_section() -> None:
    # a bank's table printed once per year: subtotals and the year's total stay in their year
    rows = []
    for year, card in (("2022", "311"), ("2021", "106")):
        rows += [[f"Year Ended December 31, {year}", "", ""], ["Commercial and industrial", "1", "2"],
                 ["Total commercial", "3", "4"], ["Credit card", card, "5"], ["Total consumer", "6", "7"],
                 ["Total", "9", "11"]]
    got = row_sections(rows)
    y22, y21 = "Year Ended December 31, 2022", "Year Ended December 31, 2021"
    assert got == ["", y22, y22, y22, y22, y22, "", y21, y21, y21, y21, y21]
    # a section inside a period is still closed by its own total, the period stays
    nested = [["As of June 30, 2024", "", ""], ["Assets:", "", ""], ["Cash", "1", "2"], ["Total assets", "1", "2"],
              ["Debt", "3", "4"]]
    assert row_sections(nested) == ["", "As of June 30, 2024", "As of June 30, 2024 › Assets",
                                    "As of June 30, 2024 › Assets", "As of June 30, 2024"]
