"""Vector "figures" that are tables or form layouts, told apart before a region becomes a FIGURE.

``figure_regions`` clusters every vector path of a page, so an HTML table printed by a browser (thin
cell borders drawn as hairline boxes, cell backgrounds as rounded rectangles, often no numbers at all,
so the page has no table signals) and a form page of boxes and fields come out as one big vector
figure: an image of text. A region is looked at here when it is drawn only with axis-parallel rules
and boxes (no slanted line or curve beyond a box's rounded corner and a few small marks, hardly any
raster), or, in a region that also holds a drawing (a printed page's navigation bar above a table),
in the runs of bands drawn that way:

- **table**: MuPDF's line-grid finder, run inside the region, reads a grid of two rows or more and two
  columns or more with text in its cells (the junk checks of ``table_cells``); a region of row
  separators only (no vertical rules) is read by the text-column finder (``table_text``) between them;
- **form layout**: not a table, and either it holds several form fields (widgets) or it covers a large
  part of the page with many text lines in it: its text stays body text and its fields form fields.

Anything else stays a figure: a chart, a diagram with arrows, bars between grid lines (filled shapes
that fit no cell and hold no text), a UML class box (one column of words beside "-" markers), a box
inside a larger drawing (``figures`` does not ask about those).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pymupdf

from pagelens.ingest.context import PageContext
from pagelens.ingest.table_cells import detect_header
from pagelens.ingest.table_chars import fast_chars
from pagelens.ingest.table_rowrules import text_between_rules
from pagelens.models import Element

CORNER = 4.0  # pt: a curve no larger than this is a box's rounded corner
AXIS_SLACK = 0.5  # pt a line may lean and still be horizontal or vertical
AXIS_LEAN = 0.01  # ... or this share of its length (a form's long rule drawn a hair askew)
MARK = 24.0  # pt: a slanted path no larger than this is a mark (arrowhead, bullet), not a drawing
MAX_MARKS, MARK_SHARE = 3, 0.03  # marks a ruled region may carry: this many, or this share of its paths
FORM_WIDGETS = 3  # form fields inside a region that make it a form layout
LAYOUT_SHARE = 0.35  # a region over this share of the page, with LAYOUT_LINES text lines, is a layout
LAYOUT_LINES = 12
MIN_TEXT_LINES = 2  # text lines a region needs before a table is looked for
LOGO_SHARE = 0.05  # raster share of a ruled region still read as rules and text
MIN_FIGURE_PATHS = 8  # paths left beside a table that still make a figure (figure_regions' rule)
RULE_WIDTH = 2.5  # pt: a filled box this thin is a drawn rule
MAX_LOOSE_FILLS = 2  # filled shapes outside any cell's width and without text that a table may hold
MIN_FILLED = 4  # cells with text a table needs


def _axis_item(item: tuple) -> bool:
    kind = item[0]
    if kind in ("re", "qu"):
        return True  # rectangles (and the quads MuPDF reports for them)
    if kind == "l":
        (x0, y0), (x1, y1) = item[1], item[2]
        dx, dy = abs(x1 - x0), abs(y1 - y0)
        return min(dx, dy) <= max(AXIS_SLACK, AXIS_LEAN * max(dx, dy))
    if kind == "c":
        xs = [p[0] for p in item[1:]]
        ys = [p[1] for p in item[1:]]
        return max(xs) - min(xs) <= CORNER and max(ys) - min(ys) <= CORNER
    return False


def region_paths(drawings: list[dict[str, Any]], rect: pymupdf.Rect) -> list[dict[str, Any]]:
    """The paths drawn inside ``rect`` (raw ``get_cdrawings`` form), without white paint (a page or
    column background erased in white is not part of what the region draws)."""
    out = []
    for p in drawings:
        r = p["rect"]
        if not (rect.x0 - 2 <= r[0] and rect.y0 - 2 <= r[1] and r[2] <= rect.x1 + 2 and r[3] <= rect.y1 + 2):
            continue
        fill = p.get("fill")
        if p.get("type") == "f" and fill is not None and all(c > 0.97 for c in fill):
            continue
        out.append(p)
    return out


def ruled_only(paths: list[dict[str, Any]]) -> bool:
    """Every path is made of horizontal/vertical lines, rectangles and rounded-box corners, but for
    a few marks (a form's arrowheads and bullets) no larger than ``MARK`` points."""
    marks = 0
    for p in paths:
        if all(_axis_item(it) for it in p.get("items", ())):
            continue
        r = p["rect"]
        if p.get("type") == "image" or r[2] - r[0] > MARK or r[3] - r[1] > MARK:
            return False
        marks += 1
    return bool(paths) and marks <= max(MAX_MARKS, MARK_SHARE * len(paths))


def _images_in(ctx: PageContext, rect: pymupdf.Rect) -> list[dict[str, Any]]:
    """The region's raster images as path-like entries (never rules: they end a run of rules)."""
    infos = ctx.__dict__.get("_image_boxes")
    if infos is None:
        infos = [tuple(i["bbox"]) for i in ctx.page.get_image_info(xrefs=False)]
        ctx.__dict__["_image_boxes"] = infos
    return [{"rect": b, "items": [("image",)], "type": "image"} for b in infos
            if rect.x0 - 2 <= b[0] and rect.y0 - 2 <= b[1] and b[2] <= rect.x1 + 2 and b[3] <= rect.y1 + 2]


def _text_lines(lines: list[tuple[pymupdf.Rect, str]], rect: pymupdf.Rect) -> int:
    return sum(1 for r, t in lines if t and rect.contains((r.tl + r.br) / 2))


def _widgets(ctx: PageContext) -> list[pymupdf.Rect]:
    cached = ctx.__dict__.get("_widget_rects")
    if cached is None:
        try:
            cached = [pymupdf.Rect(w.rect) for w in ctx.page.widgets()]
        except (RuntimeError, ValueError):  # a broken AcroForm: no fields to count
            cached = []
        ctx.__dict__["_widget_rects"] = cached
    return cached


def form_widgets_in(ctx: PageContext, rect: pymupdf.Rect) -> int:
    return sum(1 for w in _widgets(ctx) if rect.contains((w.tl + w.br) / 2))


def _h_rules(paths: list[dict[str, Any]]) -> list[tuple[float, float, float]]:
    from pagelens.ingest.table_signals import _rules

    return _rules(paths)[0]


def _rule_paths(page: pymupdf.Page, clip: pymupdf.Rect) -> list[dict[str, Any]]:
    """The region's rules for the line-grid finder: hairlines and stroked boxes. Filled boxes (cell
    backgrounds, the shading behind inline code) would cut cells into pieces and are left out.
    Fresh dicts on every call: the finder edits the paths it is given."""
    out = []
    for p in page.get_drawings():
        r = p["rect"]
        if not clip.intersects(r) and not clip.contains(r):
            continue
        if "s" in (p.get("type") or "") or min(r.width, r.height) <= RULE_WIDTH:
            out.append(p)
    return out


def _loose_fills(ctx: PageContext, cand: Any) -> int:
    """Filled shapes inside the table that hold no word and fit no cell's width (a chart's bars).
    Cell backgrounds span their cell; the shading behind inline code holds its words."""
    cells = [c for row in cand.rows for c in row if c]
    if not cells:
        return 0
    words = [((w[0] + w[2]) / 2, (w[1] + w[3]) / 2) for w in ctx.words if cand.bbox.contains(pymupdf.Point(w[0], w[1]))]
    n = 0
    shapes = [
        (it[1] if it[0] == "re" else p["rect"])
        for p in region_paths(ctx.drawings, cand.bbox) if "f" in (p.get("type") or "")
        for it in (p["items"] if all(it[0] == "re" for it in p["items"]) else p["items"][:1])
    ]  # a path of several bars: each bar; any other filled path: its box
    for r in shapes:
        if min(r[2] - r[0], r[3] - r[1]) <= RULE_WIDTH:
            continue
        if any(abs(r[0] - c[0]) <= 2.5 and abs(r[2] - c[2]) <= 2.5 for c in cells):
            continue
        if any(r[0] <= x <= r[2] and r[1] <= y <= r[3] for x, y in words):
            continue
        n += 1
    return n


def _worded(grid: Any, j: int) -> bool:
    """Half the cells of column ``j`` or more hold a letter or a digit."""
    cells = [r[j] for r in grid.cells if j < len(r)]
    return sum(1 for c in cells if any(ch.isalnum() for ch in c)) >= 0.5 * len(cells)


def table_in_region(ctx: PageContext, rect: pymupdf.Rect) -> Element | None:
    """A TABLE element for a ruled region whose rules form a grid with text in its cells, else None."""
    from pagelens.ingest import tables

    words = ctx.words
    clip = pymupdf.Rect(rect.x0 - 2, rect.y0 - 2, rect.x1 + 2, rect.y1 + 2)
    with fast_chars():
        found = ctx.page.find_tables(clip=clip, strategy="lines", use_layout=False, paths=_rule_paths(ctx.page, clip))
    cands = [] if found is None else [
        tables._Candidate(pymupdf.Rect(t.bbox), tables._rows_of(t), "pymupdf") for t in found.tables
    ]
    best = None
    for cand in cands:
        grid = tables._grid(cand, words)
        if grid is None or len(grid.cells) < 2 or min(len(r) for r in grid.cells) < 2:
            continue
        if best is None or abs(cand.bbox) > abs(best[1].bbox):
            best = (grid, cand)
    if best is None:
        # Row separators only: rules across the region and no vertical rules between them.
        hs = [h for h in _h_rules(region_paths(ctx.drawings, rect)) if h[2] - h[1] >= 0.9 * rect.width]
        if text_between_rules(rect, tables._line_texts(ctx), hs):  # (a stack of code boxes has gaps)
            cand = tables._text_candidate(rect, words, hs)
            grid = tables._grid(cand, words)
            if grid is not None and len(grid.cells) >= 3:
                best = (grid, cand)
    if best is None or abs(best[1].bbox) < 0.5 * abs(rect):
        return None  # no grid, or a small grid inside a larger drawing
    grid, cand = best
    if _loose_fills(ctx, cand) > MAX_LOOSE_FILLS or sum(1 for r in grid.cells for c in r if c) < MIN_FILLED:
        return None  # bars of a chart between its grid lines, or hardly any text: not a table
    if sum(1 for j in range(len(grid.cells[0])) if _worded(grid, j)) < 2:
        return None  # one column of text beside markers ("-", "+"): a diagram's box (a UML class)
    caption = tables.assign_captions(ctx, [cand.bbox])[0]
    return tables._element(ctx, detect_header(grid), cand, caption)


@dataclass
class Verdict:
    """What a candidate figure region is: tables found in it, and the part left to show as a figure
    (``None``: nothing; the region's text stays body text)."""

    tables: list[Element]
    figure: pymupdf.Rect | None


def _ruled_runs(paths: list[dict[str, Any]], gap: float = 12.0) -> list[list[dict[str, Any]]]:
    """Runs of horizontal bands drawn with rules only.

    The paths are cut into bands at every height no path crosses (real overlap, touching is not
    enough); consecutive bands drawn only with rules and boxes make one run, a band with a curve or a
    slanted line (an icon, a plot) ends it. A table printed right under a page's navigation bar is
    merged with it into one region, but no path crosses from one into the other."""
    order = sorted(paths, key=lambda p: p["rect"][1])
    bands: list[list[dict[str, Any]]] = []
    bottom = -1e9
    for p in order:
        if bands and p["rect"][1] < bottom - 0.3:
            bands[-1].append(p)
            bottom = max(bottom, p["rect"][3])
        else:
            bands.append([p])
            bottom = p["rect"][3]
    runs: list[list[dict[str, Any]]] = []
    last = None
    for band in bands:
        if not ruled_only(band):
            last = None
            continue
        top = min(p["rect"][1] for p in band)
        if last is not None and top - last <= gap:
            runs[-1].extend(band)
        else:
            runs.append(list(band))
        last = max(p["rect"][3] for p in band)
    return runs


def _bbox(paths: list[dict[str, Any]]) -> pymupdf.Rect:
    r = pymupdf.Rect(paths[0]["rect"])
    for p in paths[1:]:
        r |= pymupdf.Rect(p["rect"])
    return r


def _read_before(ctx: PageContext, table: Element) -> bool:
    """The table finders (run before the figures) already claimed this table's box."""
    box = pymupdf.Rect(table.bbox)
    return any(abs(box & c) > 0.5 * min(abs(box), abs(c)) for c in ctx.claimed)


def classify(ctx: PageContext, rect: pymupdf.Rect, raster_area: float,
             lines: list[tuple[pymupdf.Rect, str]]) -> Verdict:
    """Tables and form layouts inside a candidate figure region (see the module docstring)."""
    keep = Verdict([], rect)
    if raster_area >= 0.25 * abs(rect) or _text_lines(lines, rect) < MIN_TEXT_LINES:
        return keep  # a picture, or no text to tabulate
    drawn = region_paths(ctx.drawings, rect)
    paths = drawn + _images_in(ctx, rect)
    if ruled_only(drawn) and raster_area <= LOGO_SHARE * abs(rect):  # a small logo does not make a picture
        if form_widgets_in(ctx, rect) >= FORM_WIDGETS:
            return Verdict([], None)  # fields and boxes: text + form fields, never a table of boxes
        table = table_in_region(ctx, rect)
        if table is not None:  # (one a table finder read before: only its drawing, no second copy)
            return Verdict([] if _read_before(ctx, table) else [table], None)
        if abs(rect) >= LAYOUT_SHARE * abs(ctx.page.rect) and _text_lines(lines, rect) >= LAYOUT_LINES:
            return Verdict([], None)
        return keep
    # Mixed: look for ruled parts large enough to be tables, the rest stays a figure.
    found: list[Element] = []
    for part in _ruled_runs(paths):
        box = _bbox(part)
        if abs(box) < 0.2 * abs(rect) or box.height < 20:
            continue
        if _text_lines(lines, box) < MIN_TEXT_LINES or form_widgets_in(ctx, box) >= FORM_WIDGETS:
            continue
        table = table_in_region(ctx, box)
        if table is not None:
            found.append(table)
    if not found:
        return keep
    boxes = [pymupdf.Rect(t.bbox) for t in found]
    found = [t for t in found if not _read_before(ctx, t)]
    rest = [p for p in paths if not any(b.contains((pymupdf.Point(p["rect"][:2]) + pymupdf.Point(p["rect"][2:])) / 2)
                                        for b in boxes)]
    figure = _bbox(rest) if len(rest) >= MIN_FIGURE_PATHS else None
    for b in boxes:  # a partly hidden first row left beside the table: keep the figure off the table
        if figure is not None and figure.intersects(b):
            above = pymupdf.Rect(figure.x0, figure.y0, figure.x1, min(figure.y1, b.y0))
            below = pymupdf.Rect(figure.x0, max(figure.y0, b.y1), figure.x1, figure.y1)
            figure = max((above, below), key=lambda r: r.height if not r.is_empty else -1.0)
    if figure is not None and (abs(figure) < ctx.settings.min_figure_area or figure.width < 20 or figure.height < 20):
        figure = None
    return Verdict(found, figure)
