"""Tables without rules: statements aligned by whitespace, on PDFs built here with PyMuPDF.

Each page is drawn the way earnings releases and annual reports print their statements: no rules, a
header band of periods, ``$`` in its own column, negatives in parentheses, dot leaders, row labels
wrapped over two lines, a scale note. The checks read the elements the ingest pipeline stores (cells,
header, records, what is left as body text) and the chunks built from them.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.index.chunking import chunk_document
from pagelens.ingest import tables
from pagelens.ingest.context import PageContext
from pagelens.ingest.layout_model import PageTier, page_tier
from pagelens.ingest.pipeline import Ingestor
from pagelens.models import Document, Element, ElementKind
from pagelens.settings import IngestSettings, Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore

FONT = 9


def _right(page: pymupdf.Page, x1: float, y: float, text: str, size: float = FONT) -> None:
    """Text whose right edge is at ``x1`` (values are right-aligned in their columns)."""
    page.insert_text((x1 - pymupdf.get_text_length(text, "helv", size), y), text, fontsize=size)


def _left(page: pymupdf.Page, x: float, y: float, text: str, size: float = FONT) -> None:
    page.insert_text((x, y), text, fontsize=size)


def earnings_page(doc: pymupdf.Document) -> None:
    """An earnings-release page: prose, then a financial-highlights statement, then prose."""
    page = doc.new_page(width=612, height=792)
    _left(page, 54, 72, "Northwind Reports Second Quarter 2024 Results", 14)
    _left(page, 54, 100, "REDMOND, Wash. - July 30, 2024 - Northwind Corp. today reported results for the quarter", 10)
    _left(page, 54, 113, "ended June 30, 2024. Revenue grew on strong demand for its logistics software.", 10)
    _left(page, 54, 150, "Second Quarter 2024 Financial Highlights", 11)
    _left(page, 350, 176, "Three Months Ended June 30,")
    _left(page, 54, 190, "(In millions, except per share amounts)")
    _right(page, 390, 190, "2024")
    _right(page, 470, 190, "2023")
    _right(page, 540, 190, "% Change")
    rows = [
        ("Revenue", "$", "12,480", "$", "11,020", "13%"),
        ("Cost of revenue", "", "(5,120)", "", "(4,870)", "5%"),
        ("Income from operations", "$", "3,958", "$", "3,104", "28%"),
        ("Other income (expense), net", "", "(112)", "", "45", "NM"),
        ("Diluted earnings per share", "$", "2.41", "$", "1.87", "29%"),
    ]
    y = 206.0
    for label, c1, v1, c2, v2, ch in rows:
        leader = label + " " + ". " * int((260 - pymupdf.get_text_length(label, "helv", FONT)) / 5)
        _left(page, 54, y, leader.rstrip())
        if c1:
            _left(page, 330, y, c1)
        _right(page, 390, y, v1)
        if c2:
            _left(page, 410, y, c2)
        _right(page, 470, y, v2)
        _right(page, 540, y, ch)
        y += 15
    # A row label wrapped over two lines, the values on the second.
    _left(page, 54, y, "Net cash provided by (used in)")
    y += 11
    _left(page, 62, y, "operating activities")
    _right(page, 390, y, "4,310")
    _right(page, 470, y, "(1,275)")
    _right(page, 540, y, "NM")
    y += 40
    _left(page, 54, y, "Capital expenditures were $1.2 billion, and the company repurchased $800 million of stock.", 10)
    _left(page, 54, y + 13, "Headcount was 21,450 as of June 30, 2024, an increase of 3% year over year.", 10)


def cash_flow_page(doc: pymupdf.Document) -> None:
    """A cash-flow statement: year band, section rows, indented items, a label wrapped below its values."""
    page = doc.new_page(width=612, height=792)
    _left(page, 54, 72, "CONSOLIDATED STATEMENTS OF CASH FLOWS", 11)
    _left(page, 54, 86, "(in thousands)")
    _left(page, 360, 104, "Year Ended December 31,")
    for x, year in ((400, "2018"), (470, "2017"), (540, "2016")):
        _right(page, x, 118, year)
    items = [
        ("Cash flows from operating activities:", None),
        ("  Net income", ("5,349", "4,858", "5,050")),
        ("  Depreciation and amortization", ("1,488", "1,544", "1,474")),
        ("  Changes in accounts receivable", ("(305)", "(245)", "(313)")),
        ("Net cash provided by operating activities", ("6,439", "6,240", "6,662")),
        ("Cash flows from investing activities:", None),
        ("  Purchases of property, plant and equipment", ("(1,577)", "(1,373)", "(1,420)")),
        ("  Proceeds from sale of businesses", ("846", "1,065", "142")),
        ("Net cash used in investing activities", ("(222)", "(3,086)", "(1,403)")),
    ]
    y = 136.0
    for label, values in items:
        _left(page, 54, y, label)
        for x, v in zip((400, 470, 540), values or ()):
            _right(page, x, y, v)
        y += 13
    # Values on the first line, the label's end on the second, closer than the row pitch.
    _left(page, 54, y, "  Effect of exchange rate changes on cash")
    for x, v in zip((400, 470, 540), ("(160)", "156", "(33)")):
        _right(page, x, y, v)
    _left(page, 62, y + 9, "and cash equivalents")
    y += 22
    _left(page, 54, y, "Net increase (decrease) in cash")
    for x, v in zip((400, 470, 540), ("6,057", "3,310", "5,229")):
        _right(page, x, y, v)
    # A section title without a colon over two indented rows: a row of its own, not a label prefix.
    _left(page, 54, y + 13, "Supplemental cash flow information")
    for k, (label, values) in enumerate(
        (("  Cash paid for interest", ("320", "305", "298")), ("  Cash paid for income taxes", ("1,120", "990", "1,010")))
    ):
        _left(page, 54, y + 26 + 13 * k, label)
        for x, v in zip((400, 470, 540), values):
            _right(page, x, y + 26 + 13 * k, v)


def text_page(doc: pymupdf.Document) -> None:
    page = doc.new_page(width=612, height=792)
    text = (
        "The company was founded in 1998 and moved its headquarters in 2004. Over the following years it "
        "grew from 12 to 4,500 employees across 9 countries. " * 6
    )
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 720), text, fontsize=11)


def two_column_page(doc: pymupdf.Document) -> None:
    """Two columns of prose whose lines sit side by side, with years and figures in the sentences."""
    page = doc.new_page(width=612, height=792)
    left = (
        "In 2019 revenue rose 12% to 4,210 million, and in 2020 it fell 3% to 4,084 million as stores closed. "
        "Margins held at 21% because freight costs dropped. " * 5
    )
    right = (
        "Capital spending was 310 million in 2021 and 355 million in 2022, most of it on 14 new warehouses "
        "and 2 data centres. Debt fell to 1,050 million. " * 5
    )
    page.insert_textbox(pymupdf.Rect(54, 72, 296, 720), left, fontsize=10)
    page.insert_textbox(pymupdf.Rect(316, 72, 558, 720), right, fontsize=10)


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    doc = pymupdf.open()
    earnings_page(doc)
    cash_flow_page(doc)
    text_page(doc)
    two_column_page(doc)
    path = tmp_path_factory.mktemp("borderless") / "northwind-q2-2024.pdf"
    doc.save(path)
    return path


def _ctx(path: Path, pno: int, tmp_path: Path) -> PageContext:
    doc = pymupdf.open(path)
    ctx = PageContext.build(
        doc[pno - 1], doc_id="d", file_name=path.name, settings=IngestSettings(), images=ImageStore(tmp_path / "img"),
        pdf_bytes=path.read_bytes(),
    )
    ctx.use_layout = tables.is_hard_page(ctx)
    return ctx


def _row(el: Element, label: str) -> list[str]:
    assert el.table is not None
    found = [r for r in el.table.rows if r[0] == label]
    assert len(found) == 1, [r[0] for r in el.table.rows]
    return found[0]


def _col(el: Element, name: str) -> int:
    assert el.table is not None
    return next(i for i, h in enumerate(el.table.header) if h.endswith(name))


def test_earnings_statement_cells_header_and_records(pdf: Path, tmp_path: Path) -> None:
    ctx = _ctx(pdf, 1, tmp_path)
    assert page_tier(ctx, tables.table_signals(ctx)) == PageTier.TABLES  # no ONNX model for it
    els = tables.extract_tables(ctx)
    assert len(els) == 1
    el = els[0]
    t = el.table
    assert t is not None and t.finder == "whitespace"
    # The header band: the spanning period over both years, the scale note over the labels.
    assert t.header[0] == "(In millions, except per share amounts)"
    assert t.header[1:] == ["Three Months Ended June 30, 2024", "Three Months Ended June 30, 2023", "% Change"]
    assert not any(h.startswith("Col") for h in t.header) and "Col" not in t.markdown.split("\n")[0]
    # Dot leaders are gone, $ joins its value, negatives keep their parentheses.
    assert _row(el, "Revenue")[1:] == ["$ 12,480", "$ 11,020", "13%"]
    assert _row(el, "Cost of revenue")[_col(el, "2023")] == "(4,870)"
    assert _row(el, "Other income (expense), net")[1:] == ["(112)", "45", "NM"]
    # A label wrapped over two lines is one row label.
    assert _row(el, "Net cash provided by (used in) operating activities")[_col(el, "2024")] == "4,310"
    assert len(t.rows) == 6 and all(len(r) == 4 for r in t.rows)
    assert t.caption == "Second Quarter 2024 Financial Highlights"
    assert el.attrs["scale"] == "in millions"
    assert "Income from operations — Three Months Ended June 30, 2024: $ 3,958; " \
        "Three Months Ended June 30, 2023: $ 3,104; % Change: 28%" in t.records
    assert len(t.records) == len(t.rows)
    assert "<th>Three Months Ended June 30, 2023</th>" in t.html and "<td>(1,275)</td>" in t.html
    # The table's box (header band included) is claimed; the prose below is not.
    assert ctx.is_claimed(pymupdf.Rect(340, 182, 400, 192))
    assert not ctx.is_claimed(pymupdf.Rect(54, 330, 500, 345))


def test_cash_flow_statement_sections_and_wrapped_labels(pdf: Path, tmp_path: Path) -> None:
    ctx = _ctx(pdf, 2, tmp_path)
    els = tables.extract_tables(ctx)
    assert len(els) == 1
    el = els[0]
    t = el.table
    assert t is not None
    assert t.header[1:] == ["Year Ended December 31, 2018", "Year Ended December 31, 2017", "Year Ended December 31, 2016"]
    capex = _row(el, "Purchases of property, plant and equipment")
    assert capex[_col(el, "2018")] == "(1,577)" and capex[_col(el, "2016")] == "(1,420)"
    # Section titles are rows of their own, without values.
    assert _row(el, "Cash flows from investing activities:")[1:] == ["", "", ""]
    # The label's second line (below its values, closer than the row pitch) joins it.
    fx = _row(el, "Effect of exchange rate changes on cash and cash equivalents")
    assert fx[1:] == ["(160)", "156", "(33)"]
    assert _row(el, "Net increase (decrease) in cash")[1] == "6,057"
    assert _row(el, "Supplemental cash flow information")[1:] == ["", "", ""]
    assert _row(el, "Cash paid for interest")[1:] == ["320", "305", "298"]
    assert t.caption == "CONSOLIDATED STATEMENTS OF CASH FLOWS (in thousands)"
    assert el.attrs["scale"] == "in thousands"
    assert "Cash flows from investing activities › Purchases of property, plant and equipment — Year Ended December 31, " \
        "2018: (1,577); Year Ended December 31, 2017: (1,373); Year Ended December 31, 2016: (1,420)" in t.records
    assert t.records[t.rows.index(_row(el, "Cash flows from operating activities:"))] == ""


def test_text_page_stays_on_the_fast_tier(pdf: Path, tmp_path: Path) -> None:
    ctx = _ctx(pdf, 3, tmp_path)
    sig = tables.table_signals(ctx)
    assert page_tier(ctx, sig) == PageTier.TEXT and not ctx.use_layout
    assert sig.aligned_rows == 0
    assert tables.extract_tables(ctx) == []


def test_two_column_prose_is_not_a_table(pdf: Path, tmp_path: Path) -> None:
    ctx = _ctx(pdf, 4, tmp_path)
    assert not ctx.use_layout
    assert tables.extract_tables(ctx) == []


@pytest.fixture
def stored(pdf: Path, settings: Settings) -> tuple[Document, list[Element]]:
    s = settings.with_overrides(**{"ingest.ocr": "off"})
    ingestor = Ingestor(s.ingest, Catalog(s.home / "catalog.sqlite3"), ImageStore(s.home / "images"))
    result = ingestor.ingest_file(pdf)
    assert result.status == "indexed", result.error
    doc = ingestor.catalog.get_document(result.doc_id)
    assert doc is not None
    return doc, list(ingestor.catalog.iter_elements(result.doc_id))


def test_pipeline_keeps_headers_and_labels_out_of_body_text(stored: tuple[Document, list[Element]]) -> None:
    """The year band and the row labels are in the table, not loose text elements beside it."""
    _, els = stored
    assert sum(1 for e in els if e.kind == ElementKind.TABLE) == 2
    assert [e.page for e in els if e.kind == ElementKind.TABLE] == [1, 2]
    loose = [e.text for e in els if e.kind != ElementKind.TABLE and e.page in (1, 2)]
    assert not any("2018" in t and "2017" in t for t in loose), loose
    assert not any("Purchases of property" in t or "Income from operations" in t for t in loose), loose
    assert any("Headcount was 21,450" in t for t in loose)  # prose after the table stays text
    assert not any(e.kind == ElementKind.TABLE for e in els if e.page in (3, 4))


def test_row_groups_are_embedded_as_records(stored: tuple[Document, list[Element]]) -> None:
    doc, els = stored
    ix = Settings().index.model_copy(update={"table_rows_per_chunk": 4})
    chunks = list(chunk_document(doc, els, ix, lambda text: len(text.split())))
    groups = [c for c in chunks if c.kind == "table_rows" and c.pages == [2]]
    assert len(groups) >= 3
    capex = next(c for c in groups if "Purchases of property" in c.text)
    caption, header = capex.text.splitlines()[:2]
    assert caption == "CONSOLIDATED STATEMENTS OF CASH FLOWS (in thousands)"
    assert header.startswith("|  | Year Ended December 31, 2018 |")  # shown as markdown under its header
    assert "Purchases of property, plant and equipment — Year Ended December 31, 2018: (1,577)" in capex.embed_text


def test_statement_found_by_the_layout_model_keeps_its_structure(pdf: Path, tmp_path: Path) -> None:
    """When the ONNX layout model flags the statement (layout_model="always"), its box is read by the
    whitespace finder too: one label per row, the year band as header cells, no ColN."""
    doc = pymupdf.open(pdf)
    ctx = PageContext.build(
        doc[1], doc_id="d", file_name=pdf.name, settings=IngestSettings(layout_model="always"),
        images=ImageStore(tmp_path / "img"), pdf_bytes=pdf.read_bytes(),
    )
    ctx.use_layout = True
    els = tables.extract_tables(ctx)
    assert len(els) == 1
    el = els[0]
    assert el.table is not None and el.table.finder == "whitespace"
    assert [h.split()[-1] for h in el.table.header[1:]] == ["2018", "2017", "2016"]
    assert _row(el, "Net income")[1:] == ["5,349", "4,858", "5,050"]
    assert not any(r[0] == "" and any(r[1:]) for r in el.table.rows)  # no values without their label
