"""Header bands of statement tables: period titles spanning date columns, tight date and year rows,
units notes, the stub (the label column's own header) stacked beside the period rows.

Filings and annual reports print "Three Months Ended" over two columns and "Six Months Ended" over the
next two, then a row of dates set one space apart ("June 29, 2024 July 1, 2023 ..."), sometimes a
"(unaudited)" row or a units note tight above the first row; printed HTML statements (SEC "R" pages)
stack the statement's name, "- USD ($)" and "$ in Millions" in the label column beside them. Each page
here is built with PyMuPDF (or printed by chromium from HTML written here); the checks read the table
elements: every value column's header composes the period and the date, each row record names it, no
``ColN`` is left.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pymupdf
import pytest
from table_support import only_table

from pagelens.ingest import tables
from pagelens.ingest.context import PageContext
from pagelens.ingest.pipeline import Ingestor
from pagelens.ingest.table_header import Column, split_at_columns
from pagelens.ingest.table_segments import page_lines
from pagelens.models import Element, ElementKind
from pagelens.settings import IngestSettings, Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore

FONT = 9
ROWS = [
    ("Net revenue", ("85,777", "81,797", "176,100", "170,410")),
    ("Cost of revenue", ("46,099", "45,384", "94,310", "92,021")),
    ("Gross profit", ("39,678", "36,413", "81,790", "78,389")),
    ("Research and development", ("8,006", "7,442", "15,810", "14,802")),
    ("Operating income", ("25,352", "22,998", "51,322", "47,110")),
    ("Net income", ("21,448", "19,881", "43,210", "40,012")),
]
PERIODS = ["Three Months Ended June 29, 2024", "Three Months Ended July 1, 2023",
           "Six Months Ended June 29, 2024", "Six Months Ended July 1, 2023"]


def _width(text: str) -> float:
    return pymupdf.get_text_length(text, "helv", FONT)


def _left(page: pymupdf.Page, x: float, y: float, text: str, size: float = FONT) -> None:
    page.insert_text((x, y), text, fontsize=size)


def _right(page: pymupdf.Page, x1: float, y: float, text: str) -> None:
    _left(page, x1 - _width(text), y, text)


def _centre(page: pymupdf.Page, xc: float, y: float, text: str) -> None:
    _left(page, xc - _width(text) / 2, y, text)


def _body(page: pymupdf.Page, y: float, ends: list[float], n: int = 4, align: str = "right") -> None:
    for label, values in ROWS:
        _left(page, 54, y, label)
        for x, v in zip(ends, values[:n]):
            (_right if align == "right" else _left)(page, x, y, v)
        y += 13


def tight_dates_page(doc: pymupdf.Document) -> None:
    """Spanning period titles over a date row set one space apart, right-aligned with the values."""
    page = doc.new_page(width=612, height=792)
    _left(page, 54, 60, "CONSOLIDATED STATEMENTS OF INCOME", 11)
    _left(page, 54, 74, "(in millions, except per-share amounts)")
    ends = [300.0, 360.0, 420.0, 480.0]
    _centre(page, 305, 96, "Three Months Ended")
    _centre(page, 425, 96, "Six Months Ended")
    for x, d in zip(ends, ["June 29, 2024", "July 1, 2023", "June 29, 2024", "July 1, 2023"]):
        _right(page, x, 110, d)
    _body(page, 126, ends)


def ruled_years_page(doc: pymupdf.Document) -> None:
    """A year row tight above the first row, one rule under the header and none elsewhere."""
    page = doc.new_page(width=612, height=792)
    _left(page, 54, 60, "SEGMENT OPERATING RESULTS", 11)
    _centre(page, 440, 84, "Year Ended December 31,")
    for x, year in zip([400, 470, 540], ["2024", "2023", "2022"]):
        _right(page, x, 95, year)
    page.draw_line((54, 98), (540, 98), width=0.6)
    _body(page, 106, [400, 470, 540], n=3)


def grid_below_header_page(doc: pymupdf.Document) -> None:
    """A ruled grid drawn around the body rows only: the period and year rows sit above its top rule,
    outside the box PyMuPDF's line finder returns."""
    page = doc.new_page(width=612, height=792)
    _left(page, 54, 60, "CASH AND REVENUE SUMMARY", 11)
    _left(page, 54, 74, "($ in thousands)")
    _centre(page, 440, 84, "Fiscal Year Ended")
    for x, year in zip([400, 470, 540], ["2024", "2023", "2022"]):
        _right(page, x, 96, year)
    xs, y0, h = [50, 340, 405, 475, 545], 100.0, 14.0
    for k in range(len(ROWS) + 1):
        page.draw_line((xs[0], y0 + k * h), (xs[-1], y0 + k * h), width=0.5)
    for x in xs:
        page.draw_line((x, y0), (x, y0 + len(ROWS) * h), width=0.5)
    for k, (label, values) in enumerate(ROWS):
        _left(page, 54, y0 + k * h + 10, label)
        for x, v in zip([400, 470, 540], values[:3]):
            _right(page, x, y0 + k * h + 10, v)


def periods_over_grid_page(doc: pymupdf.Document) -> None:
    """A fully ruled grid whose first row holds the dates; the period titles are printed above its
    top rule, outside the grid the line finder reads."""
    page = doc.new_page(width=612, height=792)
    _left(page, 54, 50, "STATEMENT OF INCOME (in millions)", 11)
    xs, y0, h = [50, 250, 320, 390, 460, 530], 80.0, 14.0
    _centre(page, (xs[1] + xs[3]) / 2, y0 - 5, "Three Months Ended")
    _centre(page, (xs[3] + xs[5]) / 2, y0 - 5, "Six Months Ended")
    for k in range(len(ROWS) + 2):
        page.draw_line((xs[0], y0 + k * h), (xs[-1], y0 + k * h), width=0.5)
    for x in xs:
        page.draw_line((x, y0), (x, y0 + (len(ROWS) + 1) * h), width=0.5)
    for x, d in zip(xs[2:], ["June 29, 2024", "July 1, 2023", "June 29, 2024", "July 1, 2023"]):
        _right(page, x - 4, y0 + 10, d)
    for k, (label, values) in enumerate(ROWS):
        _left(page, 54, y0 + (k + 1) * h + 10, label)
        for x, v in zip(xs[2:], values):
            _right(page, x - 4, y0 + (k + 1) * h + 10, v)


def stub_page(doc: pymupdf.Document) -> None:
    """A printed filing statement: the stub (statement name, "- USD ($)", "$ in Millions") centred in
    the label column over five lines, the period titles beside its second line, a left-aligned date
    row beside its fourth, and its last line tight above the first row."""
    page = doc.new_page(width=612, height=792)
    stub = ["CONSOLIDATED STATEMENTS", "OF INCOME (Unaudited)", "- USD ($)", "shares in Thousands, $ in", "Millions"]
    for k, text in enumerate(stub):
        _centre(page, 110, 50 + 13 * k, text)
    starts = [272.0, 332.0, 392.0, 452.0]
    _centre(page, 320, 63, "Three Months Ended")
    _centre(page, 440, 63, "Six Months Ended")
    x = starts[0]
    for d in ["Jun. 29, 2024", "Jul. 1, 2023", "Jun. 29, 2024", "Jul. 1, 2023"]:
        _left(page, x, 89, d)  # each date starts its column; the next starts one space after it ends
        x += _width(d + " ")
    # the columns start where the dates do, so the values are set at the same x
    xs = [272.0]
    for d in ["Jun. 29, 2024", "Jul. 1, 2023", "Jun. 29, 2024"]:
        xs.append(xs[-1] + _width(d + " "))
    _body(page, 116, xs, align="left")


def unaudited_page(doc: pymupdf.Document) -> None:
    """A date row, then "(unaudited)" under each date, tight above the first row; the units note is
    the label column's line just above the first row."""
    page = doc.new_page(width=612, height=792)
    _left(page, 54, 60, "CONDENSED STATEMENTS OF OPERATIONS", 11)
    ends = [330.0, 400.0, 470.0, 540.0]
    _centre(page, 335, 84, "Three Months Ended")
    _centre(page, 475, 84, "Six Months Ended")
    for x, d in zip(ends, ["June 29, 2024", "July 1, 2023", "June 29, 2024", "July 1, 2023"]):
        _right(page, x, 96, d)
        _right(page, x, 106, "(unaudited)")
    _left(page, 54, 106, "(in millions)")
    _body(page, 118, ends)


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    doc = pymupdf.open()
    for build in (tight_dates_page, ruled_years_page, grid_below_header_page, stub_page, unaudited_page,
                  periods_over_grid_page):
        build(doc)
    path = tmp_path_factory.mktemp("header-band") / "statements.pdf"
    doc.save(path)
    return path


def _no_placeholders(el: Element) -> None:
    t = el.table
    assert t is not None
    assert all(h.strip() for h in t.header[1:]), t.header
    assert not any(h.lower().startswith("col") for h in t.header), t.header
    names = [c.strip() for c in t.markdown.splitlines()[0].strip("|").split("|")]
    assert not any(n.startswith("Col") for n in names[1:]), names  # the label column may print no title


def _row(el: Element, label: str) -> list[str]:
    assert el.table is not None
    found = [r for r in el.table.rows if r[0] == label]
    assert len(found) == 1, [r[0] for r in el.table.rows]
    return found[0]


def test_tight_date_row_is_cut_into_its_columns_under_the_spanning_periods(pdf: Path, tmp_path: Path) -> None:
    el = only_table(pdf, tmp_path, 1)
    t = el.table
    assert t is not None
    assert t.header[1:] == PERIODS
    _no_placeholders(el)
    assert _row(el, "Net revenue")[1:] == ["85,777", "81,797", "176,100", "170,410"]
    assert "Net revenue — Three Months Ended June 29, 2024: 85,777; Three Months Ended July 1, 2023: 81,797; " \
        "Six Months Ended June 29, 2024: 176,100; Six Months Ended July 1, 2023: 170,410" in t.records
    assert el.attrs["scale"] == "in millions"


def test_year_row_tight_above_the_first_row_under_a_single_rule(pdf: Path, tmp_path: Path) -> None:
    el = only_table(pdf, tmp_path, 2)
    t = el.table
    assert t is not None
    assert t.header[1:] == [f"Year Ended December 31, {y}" for y in (2024, 2023, 2022)]
    _no_placeholders(el)
    assert "Operating income — Year Ended December 31, 2024: 25,352; Year Ended December 31, 2023: 22,998; " \
        "Year Ended December 31, 2022: 51,322" in t.records
    assert [r[0] for r in t.rows] == [label for label, _ in ROWS]


def test_year_row_above_a_ruled_grid_names_its_columns(pdf: Path, tmp_path: Path) -> None:
    el = only_table(pdf, tmp_path, 3)
    t = el.table
    assert t is not None
    assert t.header[1:] == ["Fiscal Year Ended 2024", "Fiscal Year Ended 2023", "Fiscal Year Ended 2022"]
    _no_placeholders(el)
    assert "Gross profit — Fiscal Year Ended 2024: 39,678; Fiscal Year Ended 2023: 36,413; " \
        "Fiscal Year Ended 2022: 81,790" in t.records
    assert el.attrs["scale"] == "in thousands"
    assert el.bbox[1] < 90  # the band above the grid is inside the table's box (claimed, not loose text)


def test_stub_beside_the_period_rows_is_the_label_column_header(pdf: Path, tmp_path: Path) -> None:
    el = only_table(pdf, tmp_path, 4)
    t = el.table
    assert t is not None
    assert t.header[1:] == ["Three Months Ended Jun. 29, 2024", "Three Months Ended Jul. 1, 2023",
                            "Six Months Ended Jun. 29, 2024", "Six Months Ended Jul. 1, 2023"]
    _no_placeholders(el)
    assert t.header[0] == "CONSOLIDATED STATEMENTS OF INCOME (Unaudited) - USD ($) shares in Thousands, $ in Millions"
    # the stub's last line, tight above the first row, is neither a row nor the table's title
    assert t.rows[0][0] == "Net revenue" and t.caption != "Millions"
    assert el.attrs["scale"] == "in millions"  # the money scale, not the share count's
    assert "Net income — Three Months Ended Jun. 29, 2024: 21,448; Three Months Ended Jul. 1, 2023: 19,881; " \
        "Six Months Ended Jun. 29, 2024: 43,210; Six Months Ended Jul. 1, 2023: 40,012" in t.records


def test_unaudited_row_and_units_note_join_the_band(pdf: Path, tmp_path: Path) -> None:
    el = only_table(pdf, tmp_path, 5)
    t = el.table
    assert t is not None
    assert t.header[1:] == [f"{p} (unaudited)" for p in PERIODS]
    _no_placeholders(el)
    assert t.rows[0][0] == "Net revenue"  # "(in millions)" is the band's, not a section row
    assert not any(r[0] == "(in millions)" for r in t.rows)
    assert el.attrs["scale"] == "in millions"
    assert "Cost of revenue — Three Months Ended June 29, 2024 (unaudited): 46,099" in t.records[1]


def test_period_titles_above_a_ruled_grid_join_its_date_row(pdf: Path, tmp_path: Path) -> None:
    """The line finder's grid wins the region (no defects), and takes the band the whitespace reading
    found above it: two "June 29, 2024" columns are told apart by their periods."""
    el = only_table(pdf, tmp_path, 6)
    t = el.table
    assert t is not None and t.finder == "pymupdf"
    assert t.header[1:] == PERIODS
    _no_placeholders(el)
    assert "Operating income — Three Months Ended June 29, 2024: 25,352; Three Months Ended July 1, 2023: 22,998; " \
        "Six Months Ended June 29, 2024: 51,322; Six Months Ended July 1, 2023: 47,110" in t.records
    assert el.bbox[1] < 78 and el.attrs["scale"] == "in millions"


@pytest.mark.parametrize("pno", [1])
def test_statements_read_with_the_layout_model_keep_their_band(pdf: Path, pno: int, tmp_path: Path) -> None:
    """With the ONNX layout model on, MuPDF's grid-in-box reads the page too; its grid (two columns'
    dates in one header cell) loses to the whitespace reading, whose header composes. (The stub and
    "(unaudited)" pages, 4 and 5, are still won by the text-column finder's split header there: open.)"""
    doc = pymupdf.open(pdf)
    ctx = PageContext.build(
        doc[pno - 1], doc_id="d", file_name=pdf.name, settings=IngestSettings(layout_model="always"),
        images=ImageStore(tmp_path / "img"), pdf_bytes=pdf.read_bytes(),
    )
    ctx.use_layout = True
    els = tables.extract_tables(ctx)
    assert len(els) == 1
    t = els[0].table
    assert t is not None and t.finder == "whitespace"
    assert t.header[1].endswith("29, 2024") and t.header[1].startswith("Three Months Ended")
    assert t.header[3].startswith("Six Months Ended")
    _no_placeholders(els[0])


def _line(words: list[tuple[float, str]], y: float = 100.0) -> object:
    return page_lines([(x, y, x + _width(w), y + 9, w, 0, 0, k) for k, (x, w) in enumerate(words)])[0]


def test_a_title_spanning_several_columns_stays_whole() -> None:
    """A group title set over three year columns crosses the gaps between them at word gaps, but its
    parts name no period by themselves and do not line up with the columns: not cut."""
    columns = [Column(375, 400), Column(445, 470), Column(515, 540)]
    x, words = 390.0, []
    for w in "Year Ended December 31,".split():
        words.append((x, w))
        x += _width(w + " ")
    line = _line(words)
    assert [s.text for s in split_at_columns(line, columns).segments] == ["Year Ended December 31,"]
    # the same columns under a tight row of years: cut, one year per column
    years = _line([(400 - _width("2024"), "2024"), (470 - _width("2023"), "2023"), (540 - _width("2022"), "2022")])
    cut = split_at_columns(years, columns)
    assert [s.text for s in cut.segments] in (["2024", "2023", "2022"], [s.text for s in years.segments])
    assert all(any(c.x0 - 1 <= s.x0 and s.x1 <= c.x1 + 1 for c in columns) for s in cut.segments if s.x1 > 375)
    # a tight row (one space between columns): two dates wider than their columns, then a "% Change"
    # title right-aligned over its own: each part is dated or aligned, so the row is cut
    columns = [Column(270, 300), Column(320, 352), Column(372, 401)]
    words, x = [], 305 - _width("June 29, 2024")
    for w in "June 29, 2024 July 1, 2023 % Change".split():
        words.append((x, w))
        x += _width(w + " ")
    assert len(_line(words).segments) == 1
    cut = split_at_columns(_line(words), columns)
    assert [s.text for s in cut.segments] == ["June 29, 2024", "July 1, 2023", "% Change"]


# -- HTML statements printed by chromium -----------------------------------------------------------
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

STATEMENT_HTML = """<html><head><style>
body {{ font-family: serif; font-size: 12px }} table {{ border-collapse: collapse }}
td, th {{ padding: 1px 2px }} th {{ font-weight: bold; text-align: center }}
td.num, th.date {{ text-align: {align} }} tr.dates th {{ {rule} }}
</style></head><body><table>
<tr><th rowspan="{rowspan}" style="text-align:{stub_align}">{stub}</th>
<th colspan="2">Three Months Ended</th><th colspan="2">Six Months Ended</th></tr>
<tr class="dates"><th class="date">June 29, 2024</th><th class="date">July 1, 2023</th>
<th class="date">June 29, 2024</th><th class="date">July 1, 2023</th></tr>
{extra}
{rows}
</table></body></html>"""


def _html_rows() -> str:
    out = []
    for k, (label, values) in enumerate(ROWS):
        cells = "".join(f'<td class="num">{"$ " if k in (0, 5) else ""}{v}</td>' for v in values)
        out.append(f"<tr><td>{label}</td>{cells}</tr>")
        if k == 2:
            out.append("<tr><td><b>Operating expenses:</b></td><td></td><td></td><td></td><td></td></tr>")
    return "\n".join(out)


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if CHROMIUM is None:
        pytest.skip("chromium is not installed: the printed-HTML statements cannot be made here")
    base = tmp_path_factory.mktemp("printed")
    variants = {
        # right-aligned values and dates, a rule under the date row, the units note in the stub
        "ruled": dict(align="right", rule="border-bottom: 1px solid #000", rowspan=2, stub_align="left",
                      stub="Consolidated Statements of Income<br>(in millions, except per-share amounts)", extra=""),
        # left-aligned, no rules, an SEC-style stub centred over three rows, an (unaudited) row
        "stub": dict(align="left", rule="", rowspan=3, stub_align="center",
                     stub="CONSOLIDATED STATEMENTS OF INCOME - USD ($)<br>shares in Thousands, $ in Millions",
                     extra='<tr><th class="date">(unaudited)</th><th class="date">(unaudited)</th>'
                           '<th class="date">(unaudited)</th><th class="date">(unaudited)</th></tr>'),
    }
    out = {}
    for name, fields in variants.items():
        html = base / f"{name}.html"
        html.write_text(STATEMENT_HTML.format(rows=_html_rows(), **fields))
        pdf = base / f"{name}.pdf"
        subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
             f"--print-to-pdf={pdf}", html.as_uri()],
            check=True, capture_output=True, timeout=120,
        )
        out[name] = pdf
    return out


@pytest.mark.parametrize("variant", ["ruled", "stub"])
def test_printed_html_statement_headers_compose(printed: dict[str, Path], variant: str, tmp_path: Path) -> None:
    el = only_table(printed[variant], tmp_path, 1)
    t = el.table
    assert t is not None
    suffix = " (unaudited)" if variant == "stub" else ""
    assert t.header[1:] == [p + suffix for p in PERIODS]
    _no_placeholders(el)
    assert [r[0] for r in t.rows if any(r[1:])] == [label for label, _ in ROWS]
    assert f"Gross profit — Three Months Ended June 29, 2024{suffix}: 39,678; " \
        f"Three Months Ended July 1, 2023{suffix}: 36,413; Six Months Ended June 29, 2024{suffix}: 81,790; " \
        f"Six Months Ended July 1, 2023{suffix}: 78,389" in t.records
    assert el.attrs["scale"] == "in millions"


@pytest.fixture
def stored(pdf: Path, settings: Settings) -> list[Element]:
    s = settings.with_overrides(**{"ingest.ocr": "off"})
    ingestor = Ingestor(s.ingest, Catalog(s.home / "catalog.sqlite3"), ImageStore(s.home / "images"))
    result = ingestor.ingest_file(pdf)
    assert result.status == "indexed", result.error
    return list(ingestor.catalog.iter_elements(result.doc_id))


def test_pipeline_keeps_the_band_and_the_stub_inside_the_tables(stored: list[Element]) -> None:
    """The date rows, period titles and the stub's lines are the tables' header cells, not loose
    text elements beside them; every page keeps exactly one table."""
    assert [e.page for e in stored if e.kind == ElementKind.TABLE] == [1, 2, 3, 4, 5, 6]
    loose = [e.text for e in stored if e.kind != ElementKind.TABLE]
    for words in ("June 29, 2024", "Jun. 29, 2024", "Months Ended", "USD ($)", "Millions", "(unaudited)"):
        assert not any(words in t for t in loose), (words, loose)
    tables_ = [e for e in stored if e.kind == ElementKind.TABLE]
    assert all(e.table is not None and all(h.strip() for h in e.table.header[1:]) for e in tables_)
