"""Tables: page signals, finders on built and committed PDFs, markdown/HTML, continuation across pages."""

from __future__ import annotations

import time
from pathlib import Path

import pymupdf
import pytest

from pagelens.ingest import tables
from pagelens.ingest.context import PageContext
from pagelens.ingest.table_render import clean_cell, to_html, to_markdown
from pagelens.models import Element
from pagelens.settings import IngestSettings
from pagelens.store.images import ImageStore

from pdfs import ABLATION, GLUE_HEADER, GLUE_ROWS, SAMPLE, SIZES
from pdfs.layout import grid_table


def _ctx(doc: pymupdf.Document, pno: int, tmp_path: Path, layout: str = "auto", data: bytes | None = None) -> PageContext:
    """A page context the way the pipeline builds it (layout model only on hard pages in 'auto')."""
    s = IngestSettings(layout_model=layout)
    ctx = PageContext.build(
        doc[pno - 1], doc_id="d", file_name="x.pdf", settings=s, images=ImageStore(tmp_path / "img"), pdf_bytes=data
    )
    ctx.use_layout = layout == "always" or (layout == "auto" and tables.is_hard_page(ctx))
    return ctx


def _tables_of(pdf: Path, pno: int, tmp_path: Path, layout: str = "auto") -> tuple[list[Element], PageContext]:
    data = pdf.read_bytes()
    doc = pymupdf.open(stream=data, filetype="pdf")
    ctx = _ctx(doc, pno, tmp_path, layout, data)
    return tables.extract_tables(ctx), ctx


def _column(el: Element, name: str) -> int:
    assert el.table is not None
    return next(i for i, h in enumerate(el.table.header) if name in h)


@pytest.mark.parametrize("layout", ["auto", "always", "never"])
def test_glue_table_has_cola_column(paper: Path, tmp_path: Path, layout: str) -> None:
    """Table 1 of the built paper comes out whether the ONNX layout model runs or not."""
    els, ctx = _tables_of(paper, 4, tmp_path, layout)
    assert ctx.use_layout == (layout == "always")  # booktabs rules: no model needed in 'auto'
    glue = [e for e in els if e.table and any("CoLA" in h for h in e.table.header)]
    assert len(glue) == 1, [e.table.header for e in els if e.table]
    t = glue[0].table
    assert t.caption and t.caption.startswith("Table 1")
    large = next(r for r in t.rows if r[0].replace(" ", "").startswith("QUILLLARGE"))
    cola = GLUE_ROWS[-1][GLUE_HEADER.index("CoLA")]  # 61.3, as the builder wrote it
    assert large[_column(glue[0], "CoLA")] == cola
    assert cola in t.markdown and "<thead>" in t.html and f"<td>{cola}</td>" in t.html
    # The table region is claimed: its cells do not come back as body text.
    assert ctx.is_claimed(pymupdf.Rect(glue[0].bbox))


@pytest.mark.parametrize(
    ("name", "pno", "answer"),
    [
        ("paper", 5, "93.2"),  # Table 2: QUILL-Large dev F1
        ("paper", 6, "76.9"),  # Table 5: LTR & No NSP on MRPC
        ("paper", 7, "5.24"),  # Table 6: 6 layers, 3 heads
        ("sample", 1, "1.22"),
        ("redp5110_sampled.pdf", 8, "VARCHAR(10)"),
        ("redp5110_sampled.pdf", 12, "INTEGER"),
        ("redp5110_sampled.pdf", 9, "Visual Explain within Run SQL scripts"),
        ("sp-figure-corrosion-inhibitor.pdf", 1, "0.0919"),
    ],
)
def test_table_pages_hold_the_answer_in_a_cell(
    paper: Path, data_dir: Path, tmp_path: Path, name: str, pno: int, answer: str
) -> None:
    """A value printed in a table comes back as (part of) a cell of a table found on its page."""
    pdf = {"paper": paper, "sample": SAMPLE}.get(name, data_dir / name)
    els, _ = _tables_of(pdf, pno, tmp_path)
    cells = [c for e in els if e.table for r in [e.table.header, *e.table.rows] for c in r]
    assert any(answer in c for c in cells), [e.table.markdown for e in els if e.table]
    for e in els:  # no junk: every kept table has two columns and a body
        assert e.table and e.attrs["cols"] >= 2 and e.table.rows


def test_ablation_row_is_split_into_columns(paper: Path, tmp_path: Path) -> None:
    """Table 5: every task has its own column; the row named in the caption reads across."""
    els, _ = _tables_of(paper, 6, tmp_path)
    t5 = next(e for e in els if e.table and e.table.caption and e.table.caption.startswith("Table 5"))
    row = next(r for r in t5.table.rows if r[0] == "LTR & No NSP")
    expected = ABLATION[4]
    for task in ("MNLI-m", "QNLI", "MRPC", "SST-2"):
        assert row[_column(t5, task)] == expected[ABLATION[0].index(task)], (task, row)


def test_side_by_side_tables_are_separated_and_captioned(paper: Path, tmp_path: Path) -> None:
    """Page 5 prints Tables 2 and 3 in the left column and Table 4 in the right one."""
    els, _ = _tables_of(paper, 5, tmp_path)
    caps = sorted((e.table.caption or "")[:7] for e in els if e.table)
    assert caps == ["Table 2", "Table 3", "Table 4"]
    t4 = next(e for e in els if e.table and (e.table.caption or "").startswith("Table 4"))
    assert t4.bbox[0] > 300  # right column only
    assert not any("Table 4" in c for r in t4.table.rows for c in r)  # its caption is not a row
    assert [r[0].replace(" ", "") for r in t4.table.rows] == ["ESIM+ELMo", "QUILLBASE", "QUILLLARGE"]


def test_nics_dense_table_has_every_state_row(data_dir: Path, tmp_path: Path) -> None:
    els, _ = _tables_of(data_dir / "sp-table-nics-checks-2015-11.pdf", 1, tmp_path)
    t = max((e for e in els if e.table), key=lambda e: len(e.table.rows)).table
    assert len(t.rows) >= 55 and len(t.header) >= 24
    rows = {r[0]: r for r in t.rows}
    assert "146,982" in rows["Texas"]
    assert "264,140" in rows["Kentucky"]
    totals = next(r for name, r in rows.items() if name.startswith("Total"))
    assert "2,236,457" in totals
    permit = _column(els[0], "Permit") if els[0].table is t else next(i for i, h in enumerate(t.header) if "Permit" in h)
    assert rows["Kentucky"][permit] == "264,140"


def test_layout_path_keeps_tables_on_their_pages(paper: Path, tmp_path: Path) -> None:
    """With the layout model on, its table boxes are read (Table 6 sits at the page bottom)."""
    els, ctx = _tables_of(paper, 7, tmp_path, "always")
    assert ctx.use_layout
    t6 = next(e for e in els if e.table and (e.table.caption or "").startswith("Table 6"))
    row = next(r for r in t6.table.rows if r[:3] == ["6", "768", "3"])
    assert row == SIZES[2]


def test_text_pages_stay_on_the_fast_path(paper: Path, tmp_path: Path) -> None:
    doc = pymupdf.open(paper)
    for pno in (1, 2, 9):
        ctx = _ctx(doc, pno, tmp_path)
        started = time.perf_counter()
        hard = tables.is_hard_page(ctx)
        elapsed = time.perf_counter() - started
        assert not hard and not ctx.use_layout
        assert elapsed < 0.05  # ~1 ms typical; generous for a loaded machine
        assert tables.extract_tables(ctx) == []


# -- built PDFs --------------------------------------------------------------------------------------
def _draw_table(page: pymupdf.Page, top: float, rows: list[list[str]], caption: str | None, x0: float = 72) -> None:
    grid_table(page, top, rows, caption, x0=x0)


def test_built_grid_table_round_trips_with_header(tmp_path: Path) -> None:
    rows = [["Name", "Qty", "Price"], ["apples", "12", "3.50"], ["pears <5", "4", "1.25"], ["plums", "30", "9.00"]]
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Some running text above the table.", fontsize=10)
    _draw_table(page, 200, rows, "Table 1: Fruit stock")
    data = doc.tobytes()
    doc = pymupdf.open(stream=data, filetype="pdf")
    ctx = _ctx(doc, 1, tmp_path, layout="never", data=data)
    sig = tables.table_signals(ctx)
    assert sig.hard and sig.grid and not tables.is_hard_page(ctx)  # a drawn grid needs no layout model
    (el,) = tables.extract_tables(ctx)
    t = el.table
    assert t.header == ["Name", "Qty", "Price"]
    assert t.rows == rows[1:]
    assert t.caption == "Table 1: Fruit stock"
    assert t.markdown.splitlines()[0] == "| Name | Qty | Price |"
    assert "| pears <5 | 4 | 1.25 |" in t.markdown
    assert "<thead><tr><th>Name</th>" in t.html and "<td>pears &lt;5</td>" in t.html
    assert el.text.startswith("Table 1: Fruit stock")


def test_table_split_over_two_pages_is_linked(tmp_path: Path) -> None:
    head = ["Item", "Count", "Value"]
    body = [[f"item {i}", str(i * 3), f"{i * 1.5:.2f}"] for i in range(1, 30)]
    doc = pymupdf.open()
    p1 = doc.new_page()
    p1.insert_text((72, 80), "Introductory paragraph of the report.", fontsize=10)
    _draw_table(p1, 520, [head] + body[:15], "Table 7: Inventory")
    p2 = doc.new_page()
    _draw_table(p2, 60, body[15:], None)
    p2.insert_text((72, 500), "Text after the table.", fontsize=10)
    data = doc.tobytes()
    doc = pymupdf.open(stream=data, filetype="pdf")
    first = tables.extract_tables(_ctx(doc, 1, tmp_path, layout="never", data=data))
    second = tables.extract_tables(_ctx(doc, 2, tmp_path, layout="never", data=data))
    assert len(first) == 1 and len(second) == 1
    tables.mark_continuations(first, second)
    assert second[0].table.continued_from_page == 1
    assert first[0].table.continues_on_page == 2
    # The continuation takes the header of the first part; its first row stays data.
    assert second[0].table.header == head
    assert second[0].table.rows[0] == body[15]
    assert len(first[0].table.rows) + len(second[0].table.rows) == len(body)


def test_unrelated_tables_are_not_linked(tmp_path: Path) -> None:
    doc = pymupdf.open()
    p1 = doc.new_page()
    _draw_table(p1, 560, [["A", "B", "C"], ["x", "1", "2"], ["y", "3", "4"], ["z", "5", "6"]], "Table 1: One")
    p2 = doc.new_page()
    _draw_table(p2, 60, [["D", "E", "F"], ["u", "7", "8"], ["v", "9", "10"], ["w", "11", "12"]], "Table 2: Two")
    data = doc.tobytes()
    doc = pymupdf.open(stream=data, filetype="pdf")
    first = tables.extract_tables(_ctx(doc, 1, tmp_path, layout="never", data=data))
    second = tables.extract_tables(_ctx(doc, 2, tmp_path, layout="never", data=data))
    tables.mark_continuations(first, second)
    assert second[0].table.continued_from_page is None and first[0].table.continues_on_page is None


def test_render_helpers() -> None:
    assert clean_cell(None) == ""
    assert clean_cell("  a \n\n b  ") == "a\nb"
    md = to_markdown(["h|1", ""], [["two\nlines", "x"]])
    assert md.splitlines() == ["| h\\|1 | Col2 |", "|---|---|", "| two lines | x |"]
    html = to_html([], [["a & b", "c"]], caption="T <1>")
    assert "<thead>" not in html and "<td>a &amp; b</td>" in html and "<caption>T &lt;1&gt;</caption>" in html
