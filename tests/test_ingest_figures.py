"""Figures: vector and raster regions on built and committed PDFs, rendered into the image store."""

from __future__ import annotations

import io
from pathlib import Path

import pymupdf
import pytest
from PIL import Image

from pagelens.ingest import figures, tables
from pagelens.ingest.context import PageContext
from pagelens.models import Element
from pagelens.settings import IngestSettings
from pagelens.store.images import ImageStore

from pdfs import FIGURE1_LABELS, raster_figures_pdf


def _figures(doc: pymupdf.Document, pno: int, tmp_path: Path, **settings: object) -> tuple[list[Element], PageContext]:
    ctx = PageContext.build(
        doc[pno - 1], doc_id="d", file_name="x.pdf", settings=IngestSettings(**settings),
        images=ImageStore(tmp_path / "img"),
    )
    tables.extract_tables(ctx)  # the pipeline finds tables first; their grids are not figures
    return figures.extract_figures(ctx), ctx


def _check_image(el: Element, ctx: PageContext) -> None:
    f = el.figure
    assert f is not None and ctx.images.exists(f.image)
    with Image.open(io.BytesIO(ctx.images.get(f.image))) as im:
        assert im.format == "PNG" and im.size == (f.width, f.height)


def _line_rect(page: pymupdf.Page, text: str) -> pymupdf.Rect:
    return page.search_for(text)[0]


def test_diagram_is_one_vector_figure_with_its_labels(paper: Path, tmp_path: Path) -> None:
    doc = pymupdf.open(paper)
    els, ctx = _figures(doc, 3, tmp_path)
    assert len(els) == 1
    f = els[0].figure
    assert f.source == "vector" and f.caption and f.caption.startswith("Figure 1")
    for label in FIGURE1_LABELS:
        assert label in (f.inner_text or "")
    assert els[0].text == f.inner_text
    # Labels are claimed (not body text); the caption and the paragraphs below are not.
    assert ctx.is_claimed(_line_rect(ctx.page, "Span Start/End"))
    assert not ctx.is_claimed(_line_rect(ctx.page, "Overall pre-training"))
    assert not ctx.is_claimed(_line_rect(ctx.page, "There are two steps in our framework"))
    _check_image(els[0], ctx)
    assert f.width == pytest.approx((els[0].bbox[2] - els[0].bbox[0]) * 2, abs=2)  # figure_scale 2


def test_panels_of_raster_pieces_are_one_figure_not_duplicated(paper: Path, tmp_path: Path) -> None:
    """Figure 4 mixes vector panels with 24 raster pieces: one figure, never raster + vector twins."""
    els, ctx = _figures(pymupdf.open(paper), 8, tmp_path)
    assert len(els) == 1 and els[0].figure.caption.startswith("Figure 4")
    _check_image(els[0], ctx)


def test_charts_are_vector_figures(math_paper: Path, tmp_path: Path) -> None:
    doc = pymupdf.open(math_paper)
    els, ctx = _figures(doc, 4, tmp_path)
    assert len(els) >= 2 and all(e.figure.source == "vector" for e in els)
    assert any((e.figure.caption or "").startswith("Figure 3") for e in els)
    for e in els:
        _check_image(e, ctx)
    # A page of formulas and prose has none.
    assert _figures(doc, 2, tmp_path)[0] == []


@pytest.mark.parametrize(("pno", "caption"), [(1, "Figure 1: Land use"), (2, "Figure 2: Sites")])
def test_raster_figures_of_chart_and_map(tmp_path: Path, pno: int, caption: str) -> None:
    els, ctx = _figures(pymupdf.open(stream=raster_figures_pdf(), filetype="pdf"), pno, tmp_path)
    assert len(els) == 1
    f = els[0].figure
    assert f.source == "raster" and f.caption.startswith(caption)
    assert pymupdf.Rect(els[0].bbox).contains(pymupdf.Rect(160, 205, 450, 395))  # the image placed at 156,200-456,400
    _check_image(els[0], ctx)


def test_corrosion_page_raster_chart_vector_chart_and_table_apart(data_dir: Path, tmp_path: Path) -> None:
    doc = pymupdf.open(data_dir / "sp-figure-corrosion-inhibitor.pdf")
    ctx = PageContext.build(doc[0], doc_id="d", file_name="x.pdf", settings=IngestSettings(), images=ImageStore(tmp_path))
    tabs = tables.extract_tables(ctx)
    figs = figures.extract_figures(ctx)
    by_caption = {(e.figure.caption or "")[:6]: e for e in figs}
    assert by_caption["Fig. 4"].figure.source == "raster"
    assert by_caption["Fig. 5"].figure.source == "vector"
    assert "10" in (by_caption["Fig. 5"].figure.inner_text or "")  # axis ticks in the text layer
    table_box = pymupdf.Rect(tabs[0].bbox)
    assert all(not pymupdf.Rect(f.bbox).intersects(table_box) for f in figs)


def test_figures_in_two_columns_stay_apart(data_dir: Path, tmp_path: Path) -> None:
    """amt: photos cropped to two panels side by side; their raw image boxes overlap the gutter."""
    els, ctx = _figures(pymupdf.open(data_dir / "amt_handbook_sample.pdf"), 1, tmp_path)
    caps = sorted((e.figure.caption or "")[:12] for e in els)
    assert caps == ["Figure 7-26.", "Figure 7-27."]
    left = next(e for e in els if e.figure.caption.startswith("Figure 7-26"))
    assert "Elastic anchor nut" in left.figure.inner_text
    assert "reused without impairing" not in left.figure.inner_text  # body text is not a label


def test_text_only_page_has_no_figures(paper: Path, tmp_path: Path) -> None:
    doc = pymupdf.open(paper)
    assert _figures(doc, 1, tmp_path)[0] == [] and _figures(doc, 2, tmp_path)[0] == []


def _chart_pdf() -> pymupdf.Document:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "A report with a bar chart below and a rule under this line.", fontsize=10)
    page.draw_line((72, 70), (540, 70), width=0.5)  # a rule: not a figure
    page.draw_line((100, 400), (100, 200))  # y axis
    page.draw_line((100, 400), (400, 400))  # x axis
    for y in range(220, 400, 40):  # ticks
        page.draw_line((96, y), (100, y))
    for i, h in enumerate([120, 60, 160, 90]):
        page.draw_rect(pymupdf.Rect(120 + i * 70, 400 - h, 160 + i * 70, 400), color=(0, 0, 0), fill=(0.2, 0.4, 0.8))
        page.insert_text((125 + i * 70, 415), f"Q{i + 1}", fontsize=9)
    page.insert_text((70, 300), "Sales", fontsize=9)
    page.insert_text((100, 440), "Figure 1: Quarterly sales.", fontsize=10)
    icon = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
    icon.clear_with(200)
    page.insert_image(pymupdf.Rect(500, 700, 510, 710), pixmap=icon)  # tiny icon: skipped
    return pymupdf.open(stream=doc.tobytes(), filetype="pdf")


def test_built_vector_chart(tmp_path: Path) -> None:
    els, ctx = _figures(_chart_pdf(), 1, tmp_path)
    assert len(els) == 1
    f = els[0].figure
    assert f.source == "vector" and f.caption == "Figure 1: Quarterly sales."
    assert f.inner_text and {"Q1", "Q4", "Sales"} <= set(f.inner_text.split("\n"))
    assert els[0].bbox[1] > 100  # the rule at the top is not part of it
    assert not ctx.is_claimed(_line_rect(ctx.page, "A report with a bar chart"))
    _check_image(els[0], ctx)


def test_render_is_capped_by_max_render_pixels(tmp_path: Path) -> None:
    els, ctx = _figures(_chart_pdf(), 1, tmp_path, figure_scale=4.0, max_render_pixels=20_000)
    f = els[0].figure
    assert f.width * f.height <= 20_000 * 1.05
    _check_image(els[0], ctx)


def test_point_markers_in_a_symbol_font_are_not_labels(tmp_path: Path) -> None:
    """A scatter plot whose points are characters of ZapfDingbats (as R draws them) has its axis labels
    as inner text, not a "G G GG" per point; the markers do not come back as body text either."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_rect(pymupdf.Rect(100, 200, 400, 400), color=(0, 0, 0), width=0.8)
    for x in range(100, 401, 50):  # ticks
        page.draw_line((x, 400), (x, 404))
    for y in range(200, 401, 50):
        page.draw_line((96, y), (100, y))
    for i in range(8):  # a fitted line in pieces, and a band around it
        page.draw_line((100 + i * 37, 380 - i * 20), (137 + i * 37, 360 - i * 20), width=1.2)
        page.draw_rect(pymupdf.Rect(100 + i * 37, 370 - i * 20, 137 + i * 37, 390 - i * 20), fill=(0.8, 0.8, 0.8), width=0)
    for i in range(40):
        page.insert_text((110 + (i * 37) % 280, 390 - (i * 53) % 180), "l", fontname="zadb", fontsize=6)
    for x, tick in ((100, "0.0"), (250, "0.5"), (390, "1.0")):
        page.insert_text((x, 415), tick, fontsize=8)
    page.insert_text((300, 414), "quantile", fontsize=9)
    page.insert_text((100, 460), "Figure 2: Coefficients by quantile.", fontsize=10)
    doc = pymupdf.open(stream=doc.tobytes(), filetype="pdf")
    assert any("zapf" in f[3].lower() or "dingbat" in f[3].lower() for f in doc[0].get_fonts())
    els, ctx = _figures(doc, 1, tmp_path)
    assert len(els) == 1
    lines = (els[0].figure.inner_text or "").split("\n")
    assert {"0.0", "0.5", "1.0", "quantile"} <= set(lines)
    assert len(lines) == 4, lines  # no line of markers
    marker = ctx.page.search_for("l")
    assert marker and all(ctx.is_claimed(r) for r in marker if r.y1 < 400)
