"""Figures: raster images and vector drawings as FIGURE elements with a rendered PNG.

Regions come from ``figure_regions`` (rasters and vector paths clustered together, so a chart with a
raster inset or a diagram with raster sub-captions is one figure, never two overlapping ones). Each
region takes in the text-layer lines drawn inside it (axis labels, box labels): that text is kept as
``figure.inner_text`` and the region is claimed so the labels do not also become body text. The region
is rendered at ``figure_scale`` (kept under ``max_render_pixels``) into the image store. A "Figure N"
/ "Fig. N" block right below or above the region becomes ``figure.caption`` (``order.link_captions``
may also link captions later).
"""

from __future__ import annotations

import math
import re
import pymupdf

from pagelens.errors import PageError
from pagelens.ingest import ruled_regions
from pagelens.ingest.context import PageContext
from pagelens.ingest.figure_regions import Region, graphic_regions
from pagelens.models import Element, ElementKind, FigureData

_CAPTION = re.compile(r"^\s*(?:Figure|FIGURE|Fig\.|FIG\.)\s*[0-9IVX]")
_LABEL_MARGIN = 12.0  # points outside the drawing where short labels (axis titles, ticks) still belong


_MARKER_FONT = re.compile(r"dingbat|wingding|webding", re.IGNORECASE)
"""Fonts of symbols, not letters: a plot's point markers set in ZapfDingbats (as R draws them) read as
"G G GGGG" in the text layer and would bury a chart's axis labels under hundreds of false words."""


def _lines(ctx: PageContext) -> list[tuple[pymupdf.Rect, str]]:
    """The page's text lines, without the spans set in a symbol font (``_MARKER_FONT``); a line of
    markers only comes out empty and is neither a label nor absorbed (it lies inside its plot anyway)."""
    return [
        (pymupdf.Rect(ln["bbox"]), "".join(s["text"] for s in ln["spans"] if not _MARKER_FONT.search(s.get("font", ""))).strip())
        for b in ctx.text.get("blocks", ()) if b.get("type") == 0 for ln in b["lines"]
    ]


def _is_prose(text: str) -> bool:
    return len(text.split()) >= 6


def _absorb_text(
    rect: pymupdf.Rect, lines: list[tuple[pymupdf.Rect, str]]
) -> tuple[pymupdf.Rect, list[tuple[pymupdf.Rect, str]]]:
    """Grow the region over the labels inside it and the short labels just outside it.

    Running text drawn over a picture (a cover page, a paragraph beside a photo) is not a label: it
    stays body text and is neither absorbed nor claimed.
    """
    grown = pymupdf.Rect(rect)
    near = pymupdf.Rect(rect.x0 - _LABEL_MARGIN, rect.y0 - _LABEL_MARGIN, rect.x1 + _LABEL_MARGIN, rect.y1 + _LABEL_MARGIN)
    taken: list[tuple[pymupdf.Rect, str]] = []
    for r, text in lines:
        if not text or _CAPTION.match(text) or _is_prose(text):
            continue
        centre = (r.tl + r.br) / 2
        inside = rect.contains(centre)
        label = near.intersects(r) and len(text.split()) <= 4 and r.width <= rect.width
        if inside or label:
            taken.append((r, text))
            if label:
                grown |= r
    taken.sort(key=lambda rt: (round(rt[0].y0), rt[0].x0))
    return grown, taken


def _caption(rect: pymupdf.Rect, ctx: PageContext) -> str | None:
    best: tuple[float, str] | None = None
    for b in ctx.text.get("blocks", ()):
        if b.get("type") != 0 or not b["lines"]:
            continue
        r = pymupdf.Rect(b["bbox"])
        if min(r.x1, rect.x1) - max(r.x0, rect.x0) <= 0:
            continue
        gap = r.y0 - rect.y1 if r.y0 >= rect.y1 - 2 else rect.y0 - r.y1
        if -2 <= gap <= 30:
            # Only the lines over the figure: a block may run on into the next column's caption.
            text = " ".join(
                "".join(s["text"] for s in ln["spans"]) for ln in b["lines"]
                if min(ln["bbox"][2], rect.x1) - max(ln["bbox"][0], rect.x0) > 0
            ).strip()
            if _CAPTION.match(text) and (best is None or gap < best[0]):
                best = (gap, " ".join(text.split()))
    return best[1] if best else None


def render_region(page: pymupdf.Page, rect: pymupdf.Rect, scale: float, max_pixels: int) -> pymupdf.Pixmap:
    """The region as an RGB pixmap at ``scale``, scaled down to stay under ``max_pixels``."""
    if rect.width * rect.height * scale * scale > max_pixels:
        scale = math.sqrt(max_pixels / max(rect.width * rect.height, 1.0))
    return page.get_pixmap(clip=rect, matrix=pymupdf.Matrix(scale, scale), alpha=False)


_VALUE = re.compile(r"^[-+−]?[$€£¥]?\d[\d,]*(?:\.\d+)?\s*(?:%|[A-Za-z]{1,8})?$")
"""A chart's value label: "12.4", "$41.6M", "46%", "19 votes"."""
MIN_CATEGORIES = 3


def chart_values(labels: list[tuple[pymupdf.Rect, str]]) -> list[str]:
    """A bar or line chart's value labels read with their categories: ``"Pacific NW: 12.4"``.

    The category axis is the lowest row of at least ``MIN_CATEGORIES`` labels on one baseline with value
    labels (numbers) above it; each number above that row goes to the category whose centre is nearest
    its own, within half the categories' spacing. The value axis's ticks (a column of numbers with one
    right or left edge, outside the categories' span) are left out. A horizontal bar chart is read the
    same way turned a quarter (whichever reading names more categories): its categories a column of labels with one right edge, each number right of
    it going to the category level with it (``_horizontal``). Empty when no such axis is found: the labels
    are then read as they lie (``FigureData.inner_text``)."""
    values = [(r, t) for r, t in labels if _VALUE.match(t.strip())]
    if len(values) < 2:
        return []
    # The reading that gives more categories their values wins: a horizontal chart's tick row can pass for
    # a category axis with its bar labels over it.
    upright, turned = _vertical(labels, values), _horizontal(labels, values)
    return turned if len(turned) > len(upright) else upright


def _vertical(labels: list[tuple[pymupdf.Rect, str]], values: list[tuple[pymupdf.Rect, str]]) -> list[str]:
    rows: dict[int, list[tuple[pymupdf.Rect, str]]] = {}
    for r, t in labels:
        key = next((k for k in rows if abs(k - r.y1) <= 2), round(r.y1))
        rows.setdefault(key, []).append((r, t))
    for y in sorted(rows, reverse=True):
        cats = sorted(rows[y], key=lambda rt: rt[0].x0)
        if len(cats) < MIN_CATEGORIES:
            continue
        above = [(r, t) for r, t in values if r.y1 < y - 1 and not any(r == c for c, _ in cats)]
        ticks = _ticks(above)
        paired = _pair(cats, [(r.x0 + r.x1) / 2 for r, _ in cats],
                       [((r.x0 + r.x1) / 2, r.y0, t.strip()) for r, t in above if id(r) not in ticks])
        if paired:
            return paired
    return []


def _horizontal(labels: list[tuple[pymupdf.Rect, str]], values: list[tuple[pymupdf.Rect, str]]) -> list[str]:
    """Categories down the left (a column of at least ``MIN_CATEGORIES`` words with one right edge), the
    numbers right of them; the value axis's ticks (three or more numbers on one baseline) left out."""
    words = [(r, t) for r, t in labels if not _VALUE.match(t.strip())]
    columns: dict[int, list[tuple[pymupdf.Rect, str]]] = {}
    for r, t in words:
        key = next((k for k in columns if abs(k - r.x1) <= 2), round(r.x1))
        columns.setdefault(key, []).append((r, t))
    ticks = {id(r) for r, _ in values
             if sum(1 for s, _ in values if abs(s.y1 - r.y1) <= 1.0) >= MIN_CATEGORIES}
    for x in sorted(columns, reverse=True):
        cats = sorted(columns[x], key=lambda rt: rt[0].y0)
        if len(cats) < MIN_CATEGORIES:
            continue
        paired = _pair(cats, [(r.y0 + r.y1) / 2 for r, _ in cats],
                       [((r.y0 + r.y1) / 2, r.x0, t.strip()) for r, t in values if id(r) not in ticks and r.x0 >= x - 1])
        if paired:
            return paired
    return []


def _pair(cats: list[tuple[pymupdf.Rect, str]], mids: list[float], placed: list[tuple[float, float, str]]) -> list[str]:
    """``"category: value"`` for each category that values go to: a value (its place along the category axis,
    its place across it, its text) goes to the category whose centre (``mids``) is nearest its own, within
    half the categories' spacing. [] when the categories overlap or fewer than two get a value."""
    gaps = [b - a for a, b in zip(mids, mids[1:])]
    if min(gaps) <= 0:
        return []
    half = min(gaps) / 2
    found: dict[int, list[tuple[float, str]]] = {}
    for mid, across, t in placed:
        i = min(range(len(mids)), key=lambda k: abs(mids[k] - mid))
        if abs(mids[i] - mid) <= half:
            found.setdefault(i, []).append((across, t))
    if len(found) < 2:
        return []
    return [f"{cats[i][1].strip()}: {', '.join(t for _, t in sorted(found[i]))}" for i in sorted(found)]


def _ticks(values: list[tuple[pymupdf.Rect, str]]) -> set[int]:
    """The value axis's tick labels among ``values``: three or more numbers sharing a right (or left) edge."""
    out: set[int] = set()
    for edge in (lambda r: r.x1, lambda r: r.x0):
        for r, _ in values:
            column = [s for s, _ in values if abs(edge(s) - edge(r)) <= 1.0]
            if len(column) >= 3 and len({round(s.y0) for s in column}) == len(column):
                out.update(id(s) for s in column)
    return out


def _element(ctx: PageContext, reg: Region, rect: pymupdf.Rect, inner: list[str],
             values: list[str] | None = None) -> Element:
    s = ctx.settings
    try:
        pix = render_region(ctx.page, rect, s.figure_scale, s.max_render_pixels)
        png = pix.tobytes("png")
    except (RuntimeError, ValueError) as exc:
        raise PageError(f"figure render failed ({exc})", file=ctx.file_name, page=ctx.page_no, stage="figures") from exc
    sha = ctx.images.put(png)
    source = "raster" if reg.raster_area >= 0.3 * abs(reg.rect) else "vector"
    inner_text = "\n".join(inner) or None
    caption = _caption(rect, ctx)
    return Element(
        doc_id=ctx.doc_id, page=ctx.page_no, order=0, kind=ElementKind.FIGURE, text=inner_text or "",
        bbox=(rect.x0, rect.y0, rect.x1, rect.y1), parser="pymupdf",
        figure=FigureData(
            image=sha, width=pix.width, height=pix.height, source=source, inner_text=inner_text, caption=caption
        ),
        attrs={"paths": reg.paths, **({"values": values} if values else {})},
    )


def extract_figures(ctx: PageContext) -> list[Element]:
    """FIGURE elements of one page; their regions (labels included) are added to ``ctx.claimed``.

    A region drawn only with axis-parallel rules and boxes may be a table (returned as a TABLE
    element, claimed) or a form layout (no element: its text stays text), see ``ruled_regions``.

    A region with running text inside claims only its labels, so the paragraph stays body text.
    """
    lines = _lines(ctx)
    prose = [r for r, t in lines if _is_prose(t)]
    blocked = list(ctx.claimed)  # tables found before us
    regions = graphic_regions(
        ctx.page, ctx.drawings, blocked, ctx.settings.min_figure_area, has_text=bool(lines), prose=prose
    )
    out: list[Element] = []
    done: list[pymupdf.Rect] = []
    for reg in regions:
        nested = any(o is not reg and abs(o.rect & reg.rect) > 0.5 * abs(reg.rect) and abs(o.rect) > abs(reg.rect)
                     for o in regions)  # a box inside a larger drawing is part of that figure
        verdict = ruled_regions.Verdict([], reg.rect) if nested else ruled_regions.classify(
            ctx, reg.rect, reg.raster_area, lines)
        for table in verdict.tables:  # a grid of rules with text in its cells: a table, not a picture of one
            out.append(table)
            ctx.claimed.append(pymupdf.Rect(table.bbox))
        if verdict.figure is None:  # all tables, or boxes around a form's labels and fields (body text)
            continue
        rect, labels = _absorb_text(verdict.figure, lines)
        rect &= ctx.page.rect
        if rect.is_empty or any(abs(rect & d) > 0.5 * abs(rect) for d in done):
            continue
        out.append(_element(ctx, reg, rect, [t for _, t in labels], chart_values(labels)))
        done.append(rect)
        if any(rect.contains((p.tl + p.br) / 2) for p in prose):
            ctx.claimed.extend(pymupdf.Rect(r) for r, _ in labels)
        else:
            ctx.claimed.append(pymupdf.Rect(rect))
    return out
