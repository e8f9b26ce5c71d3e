"""Tables that were not recognised as tables: light-ruled web tables (drawn grids of text cells that
became vector figures), tables typed in monospace between rules of characters, and form pages of
boxes and fields (a whole-page figure, or a page-wide table of boxes). PDFs built here with PyMuPDF,
and HTML printed by chromium where it is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pymupdf
import pytest

from pagelens.ingest import figures, forms, tables, text
from pagelens.ingest.context import PageContext
from pagelens.ingest.table_signals import table_signals
from pagelens.models import Element, ElementKind
from pagelens.settings import IngestSettings
from pagelens.store.images import ImageStore

from pdf_support import add_text_field

GREY = (0.87, 0.87, 0.87)
HEADER = ("Module", "Maintainer", "Status")
ROWS = [
    ("asyncio", "Yury Selivanov", "stable and widely used"),
    ("tomllib", "Taneli Hukkinen", "new in this release"),
    ("typing", "Guido van Rossum", "gradual typing helpers"),
    ("wsgiref", "Phillip Eby", "kept for compatibility"),
]


def _page_elements(pdf: bytes, tmp_path: Path, pno: int = 1) -> tuple[list[Element], PageContext]:
    """Tables, figures, form fields and text of one page, in the pipeline's order."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    ctx = PageContext.build(
        doc[pno - 1], doc_id="d", file_name="x.pdf", settings=IngestSettings(), images=ImageStore(tmp_path / "img"),
        pdf_bytes=pdf,
    )
    els = tables.extract_tables(ctx)
    els += figures.extract_figures(ctx)
    els += forms.extract_form_fields(ctx)
    els += text.extract_text(ctx)
    return els, ctx


def _kind(els: list[Element], kind: ElementKind) -> list[Element]:
    return [e for e in els if e.kind == kind]


def _hairline_grid(page: pymupdf.Page, x: list[float], y: list[float], verticals: bool = True) -> None:
    """Cell borders the way a browser prints them: thin filled boxes, one per cell edge."""
    for yi in y:
        page.draw_rect(pymupdf.Rect(x[0], yi, x[-1], yi + 0.75), color=None, fill=GREY)
    if verticals:
        for xi in x:
            page.draw_rect(pymupdf.Rect(xi, y[0], xi + 0.75, y[-1]), color=None, fill=GREY)


def _web_table_pdf(verticals: bool = True) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((50, 60), "The modules below changed in this release; see each entry for details.", fontsize=10)
    x = [50.0, 160.0, 300.0, 545.0]
    y = [90.0 + 30 * i for i in range(len(ROWS) + 2)]
    # header background and cell backgrounds drawn as rounded boxes, as chromium draws them
    page.draw_rect(pymupdf.Rect(x[0], y[0], x[-1], y[1]), color=None, fill=(0.93, 0.93, 0.93), radius=0.05)
    for r in range(1, len(y) - 1):
        for c in range(len(x) - 1):
            page.draw_rect(pymupdf.Rect(x[c], y[r], x[c + 1], y[r + 1]), color=None, fill=(0.99, 0.99, 0.985), radius=0.1)
    _hairline_grid(page, x, y, verticals)
    for r, row in enumerate([HEADER, *ROWS]):
        for c, value in enumerate(row):
            page.insert_text((x[c] + 6, y[r] + 19), value, fontsize=10)
    # inline-code shading behind one word in a cell must not cut the cell in two
    word = page.search_for("tomllib")[0]
    page.draw_rect(word + (-2, -1, 2, 1), color=None, fill=(0.9, 0.9, 0.9))
    page.insert_text((50, y[-1] + 40), "Other modules are unchanged and keep their previous behaviour.", fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


@pytest.mark.parametrize("verticals", [True, False], ids=["grid", "row-separators"])
def test_light_ruled_text_table_is_a_table_not_a_figure(tmp_path: Path, verticals: bool) -> None:
    els, ctx = _page_elements(_web_table_pdf(verticals), tmp_path)
    assert not table_signals(ctx).hard  # no numbers, no caption: the page tier sends it nowhere
    assert _kind(els, ElementKind.FIGURE) == []
    found = _kind(els, ElementKind.TABLE)
    assert len(found) == 1
    t = found[0].table
    assert t is not None and t.header == list(HEADER)
    assert [r[0] for r in t.rows] == [r[0] for r in ROWS]
    assert t.rows[1] == list(ROWS[1])  # the shaded word stays in its cell, its row whole
    assert t.records[2] == "typing — Maintainer: Guido van Rossum; Status: gradual typing helpers"
    # The cells are the table's, not body text; the paragraphs around it are text.
    body = " ".join(e.text for e in _kind(els, ElementKind.TEXT))
    assert "Taneli Hukkinen" not in body
    assert "changed in this release" in body and "unchanged" in body


def test_bar_chart_between_grid_lines_stays_a_figure(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    x0, y0, x1, y1 = 80.0, 100.0, 400.0, 300.0
    for i in range(5):  # grid lines and axes: a grid of rules like a table's
        yy = y0 + i * (y1 - y0) / 4
        page.draw_line((x0, yy), (x1, yy), color=(0.8, 0.8, 0.8), width=0.5)
    page.draw_line((x0, y0), (x0, y1))
    page.draw_line((x1, y0), (x1, y1))
    shape = page.new_shape()
    for i, h in enumerate([120, 80, 160, 60, 140, 100]):
        bx = x0 + 20 + i * 50
        shape.draw_rect(pymupdf.Rect(bx, y1 - h, bx + 18, y1))
    shape.finish(fill=(0.4, 0.6, 0.8), color=(0.4, 0.6, 0.8))
    shape.commit()
    for i, label in enumerate(["north", "south", "east"]):  # a legend inside the plot
        page.insert_text((x1 - 70, y0 + 20 + 14 * i), label, fontsize=9)
    page.insert_text((x0, y1 + 30), "Figure 2: Sales by region.", fontsize=10)
    els, _ = _page_elements(doc.tobytes(), tmp_path)
    assert _kind(els, ElementKind.TABLE) == []
    figs = _kind(els, ElementKind.FIGURE)
    assert len(figs) == 1 and figs[0].figure is not None and figs[0].figure.caption == "Figure 2: Sales by region."


def test_stacked_code_boxes_and_a_class_box_are_not_tables(tmp_path: Path) -> None:
    """Boxes with rules across them that are no table: one-line code boxes stacked with gaps between
    them (a manual's examples), and a UML class box (a name over "-" attribute lines)."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((50, 60), "This is equivalent to any one of the following lines.", fontsize=10)
    for i, code in enumerate(["perl -ne 'print $f[2]' data.txt", "awk '{ print $3 }' data.txt", "cut -d ' ' -f 3 data.txt"]):
        y = 80 + 20 * i  # 4 pt apart: one drawing region
        page.draw_rect(pymupdf.Rect(50, y, 545, y + 16), color=(0.6, 0.6, 0.6), fill=(0.95, 0.95, 0.95), width=0.6)
        page.insert_text((56, y + 12), code, fontsize=9, fontname="cour")
    box = pymupdf.Rect(200, 260, 360, 340)
    page.draw_rect(box, color=(0, 0, 0), width=0.8)
    page.draw_line((box.x0, 280), (box.x1, 280), width=0.6)
    page.draw_line((box.x0, 325), (box.x1, 325), width=0.6)
    page.insert_text((230, 274), "Island", fontsize=9)
    for i, attr in enumerate(["CoastalIsland: boolean", "AreaKm2: real"]):
        page.insert_text((204, 294 + 13 * i), "-", fontsize=9)
        page.insert_text((214, 294 + 13 * i), attr, fontsize=9)
    els, _ = _page_elements(doc.tobytes(), tmp_path)
    assert _kind(els, ElementKind.TABLE) == [], [e.text for e in _kind(els, ElementKind.TABLE)]


def _form_pdf() -> bytes:
    """A form page: a grid of boxes, each with a numbered label and a text field, and lines of numbers
    (form and approval numbers) under it: table signals without a table (what made the page-wide
    fallback read the whole form as one table)."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((40, 40), "APPLICATION FOR THE REVIEW OF A PERMIT", fontsize=12)
    labels = ["1. LAST NAME", "2. FIRST NAME", "3. DATE OF BIRTH", "4. CASE NUMBER", "5. STREET", "6. CITY",
              "7. ZIP CODE", "8. PHONE", "9. DATE SIGNED", "10. SIGNATURE", "11. UNIT", "12. GRADE"]
    cols = [30.0, 210.0, 390.0, 570.0]
    top, h = 60.0, 52.0
    for i, label in enumerate(labels):
        r, c = divmod(i, 3)
        box = pymupdf.Rect(cols[c], top + r * h, cols[c + 1], top + (r + 1) * h)
        page.draw_rect(box, color=(0, 0, 0), width=0.6)
        page.insert_text((box.x0 + 3, box.y0 + 9), label, fontsize=7)
        add_text_field(page, label.split(". ", 1)[1].title().replace(" ", ""),
                       (box.x0 + 3, box.y0 + 14, box.x1 - 3, box.y1 - 4), "2024 03 15" if "DATE" in label else "")
    y = top + 4 * h + 20
    page.insert_text((40, y), "OMB No. 0704 0004   approval expires 2026 02 28", fontsize=8)  # rows of numbers
    page.insert_text((40, y + 14), "Form 293   revised 2025 02   edition 3", fontsize=8)
    page.insert_text((40, y + 40), "Instructions: print or type every entry and sign the application.", fontsize=8)
    data = doc.tobytes()
    doc.close()
    return data


def test_form_page_is_text_and_fields_not_a_figure_or_a_table(tmp_path: Path) -> None:
    els, ctx = _page_elements(_form_pdf(), tmp_path)
    assert table_signals(ctx).hard  # ruled and numbers: the table finders do run on this page
    assert _kind(els, ElementKind.FIGURE) == []
    assert _kind(els, ElementKind.TABLE) == []
    fields = _kind(els, ElementKind.FORM)
    assert len(fields) == 12
    body = " ".join(e.text for e in els if e.kind in (ElementKind.TEXT, ElementKind.HEADING, ElementKind.LIST_ITEM))
    assert "APPLICATION FOR THE REVIEW" in body and "approval expires" in body and "print or type" in body


SUMMARY = """\
                            OLS Regression Results
==============================================================================
Dep. Variable:                      y   R-squared:                       0.933
Model:                            OLS   Adj. R-squared:                  0.928
Method:                 Least Squares   F-statistic:                     211.8
No. Observations:                  50   AIC:                             70.11
==============================================================================
                 coef    std err          t      P>|t|      [0.025      0.975]
------------------------------------------------------------------------------
x1             0.4687      0.026     17.751      0.000       0.416       0.522
x2             0.4836      0.104      4.659      0.000       0.275       0.693
const          5.2058      0.171     30.405      0.000       4.861       5.550
=============================================================================="""


def test_monospace_summary_between_character_rules_is_tables(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((50, 60), "Fit and summary of the model:", fontsize=10)
    for i, line in enumerate(SUMMARY.splitlines()):
        page.insert_text((50, 90 + 11 * i), line, fontsize=7.5, fontname="cour")
    page.insert_text((50, 90 + 11 * 16), "The coefficients are close to the true values.", fontsize=10)
    els, _ = _page_elements(doc.tobytes(), tmp_path)
    found = _kind(els, ElementKind.TABLE)
    assert len(found) == 2, [e.text for e in found]
    pairs, coef = (e.table for e in found)
    assert pairs is not None and coef is not None
    assert pairs.caption == coef.caption == "OLS Regression Results"
    # "key: value   key: value" lines: one (field, value) row per pair
    assert ["R-squared:", "0.933"] in pairs.rows and ["Method:", "Least Squares"] in pairs.rows
    assert coef.header[1:] == ["coef", "std err", "t", "P>|t|", "[0.025", "0.975]"]
    assert coef.rows[0] == ["x1", "0.4687", "0.026", "17.751", "0.000", "0.416", "0.522"]
    assert coef.records[2].startswith("const — coef: 5.2058; std err: 0.171")
    # The rules and the title are claimed with the tables: no text element is a row of "=".
    body = [e.text for e in els if e.kind not in (ElementKind.TABLE,)]
    assert not any("=====" in t or "-----" in t for t in body)
    assert any("close to the true values" in t for t in body)


def test_text_without_character_rules_keeps_only_its_printout_table(tmp_path: Path) -> None:
    """Without the rules, the ``key: value`` lines stay text; the coefficient lines are still a
    printout (``table_printout``), their titles one blank line above them."""
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(SUMMARY.replace("=", " ").replace("-", " ").splitlines()):
        page.insert_text((50, 90 + 11 * i), line, fontsize=7.5, fontname="cour")
    els, _ = _page_elements(doc.tobytes(), tmp_path)
    found = _kind(els, ElementKind.TABLE)
    assert len(found) == 1, [e.text for e in found]
    coef = found[0].table
    assert coef is not None and coef.finder == "monospace"
    assert coef.header[1:] == ["coef", "std err", "t", "P>|t|", "[0.025", "0.975]"], coef.markdown
    assert coef.rows[2] == ["const", "5.2058", "0.171", "30.405", "0.000", "4.861", "5.550"]
    body = " ".join(e.text for e in els if e.kind != ElementKind.TABLE)
    assert "R squared: 0.933" in body and "Least Squares" in body


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")

HTML = """<!doctype html><html><head><meta charset="utf-8"><style>
body { font-family: sans-serif; font-size: 14px; margin: 40px; }
table { border-collapse: collapse; margin: 16px 0; }
td, th { padding: 6px 10px; text-align: left; }
table.grid td, table.grid th { border: 1px solid #ddd; }
table.grid th { background: #eee; }
table.rows td, table.rows th { border-bottom: 1px solid #ccc; }
code { background: #eee; padding: 1px 3px; }
</style></head><body>
<h2>Deprecated aliases</h2>
<p>The following aliases of test case methods were removed in this release.</p>
<table class="grid"><tr><th>Deprecated alias</th><th>Method name</th><th>Replacement note</th></tr>
<tr><td>failUnless</td><td><code>assertTrue()</code></td><td>use the new name</td></tr>
<tr><td>failIf</td><td><code>assertFalse()</code></td><td>use the new name</td></tr>
<tr><td>assertEquals</td><td><code>assertEqual()</code></td><td>spelling without the s</td></tr>
</table>
<p>Modules removed from the standard library are listed next.</p>
<table class="rows"><tr><th>Module</th><th>Replacement</th><th>Reason</th></tr>
<tr><td>asynchat</td><td>asyncio</td><td>superseded long ago</td></tr>
<tr><td>imp</td><td>importlib</td><td>old import machinery</td></tr>
<tr><td>distutils</td><td>setuptools</td><td>packaging moved out</td></tr>
</table>
<p>All other modules keep working as before.</p>
</body></html>"""


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium): no HTML printing")
def test_html_tables_printed_by_chromium_are_tables(tmp_path: Path) -> None:
    html = tmp_path / "page.html"
    html.write_text(HTML)
    out = tmp_path / "page.pdf"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
         f"--print-to-pdf={out}", html.as_uri()],
        check=True, capture_output=True, timeout=120,
    )
    els, _ = _page_elements(out.read_bytes(), tmp_path)
    found = [e.table for e in _kind(els, ElementKind.TABLE)]
    assert _kind(els, ElementKind.FIGURE) == []
    assert len(found) == 2, [e.text for e in els]
    grid, rows = found
    assert grid is not None and rows is not None
    assert grid.header == ["Deprecated alias", "Method name", "Replacement note"]
    assert ["failIf", "assertFalse()", "use the new name"] in grid.rows
    assert rows.header == ["Module", "Replacement", "Reason"]
    assert ["imp", "importlib", "old import machinery"] in rows.rows
