"""Tables: which pages may hold one, finding them, and linking tables split across pages.

Cost shapes the design. Table finding costs 0.1-2 s per page (line grids, the ONNX layout model), plain
text extraction about 5 ms, so the page tier (``layout_model.page_tier``) decides from signals that
cost ~1 ms (``table_signals``: a "Table N" caption line, rules drawn with a common extent, rows of
numbers, value columns aligned by whitespace) which pages pay, and for what.

On a hard page the finders run in this order:

1. PyMuPDF's line-grid finder (``find_tables(strategy="lines", use_layout=False)``) when the page
   draws rules;
2. the layout model's ``table`` boxes (when the pipeline turned the model on for the page) confirm
   line grids and, where no line grid matches, MuPDF's grid-in-box finder reads the box (tables drawn
   with three rules only, as LaTeX ``booktabs`` does, have no line grid);
3. pdfplumber (``text`` columns between drawn rules) where neither found anything;
4. the whitespace finder (``table_whitespace``) on pages with aligned value columns and inside layout
   boxes: statements printed without rules. Where another finder read the same region, its grid is
   kept unless it shows a statement's defects (``table_prefer``: ColN headers, a row label cut over
   columns, ``$`` alone, merged values).

Every candidate's cell text is read from the page's words (``table_cells``), junk grids are dropped
(one column, fewer than two rows, mostly empty, paragraphs), and the kept table's box is claimed so its
text does not come back as body text. Every table carries one record per row (``table_records``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import pymupdf

from pagelens.errors import ComponentUnavailable
from pagelens.ingest.context import PageContext
from pagelens.ingest.table_cells import Cell, Grid, detect_header, drop_empty, grid_from_rows, junk_reason
from pagelens.ingest.table_captions import CAPTION as _CAPTION
from pagelens.ingest.table_chars import fast_chars
from pagelens.ingest.table_captions import assign_captions, caption_near, figure_caption_near
from pagelens.ingest.layout_model import PageTier, page_tier
from pagelens.ingest.table_continuation import mark_continuations
from pagelens.ingest.table_mono import find_mono_tables, has_char_rules
from pagelens.ingest.table_printout import find_printout_tables, has_printout
from pagelens.ingest.table_prefer import band_header, prefer_whitespace, with_band
from pagelens.ingest.table_records import label_positions, row_records
from pagelens.ingest.table_rowrules import header_above, join_rules, rows_ruled, text_between_rules
from pagelens.ingest.table_render import to_html, to_markdown
from pagelens.ingest.table_signals import TableSignals, _rules, table_signals
from pagelens.ingest.table_text import rule_group_boxes, text_grid
from pagelens.ingest.table_upright import to_page, upright
from pagelens.ingest.table_values import is_numeric
from pagelens.ingest.table_whitespace import FoundTable, find_whitespace_tables
from pagelens.ingest.ruled_regions import FORM_WIDGETS, form_widgets_in
from pagelens.row_sections import row_sections
from pagelens.models import Element, ElementKind, TableData

__all__ = ["extract_tables", "is_hard_page", "mark_continuations", "table_signals"]

WHITESPACE_HEADER_REACH = 80.0  # pt above a layout table box searched for its header band


def is_hard_page(ctx: PageContext) -> bool:
    """True when the page needs the ONNX layout model (``layout_model.page_tier``): table signals
    (a "Table N" caption, rows of numbers) but no structure the cheap finders read.

    ``extract_tables`` runs its own cheap finders on every page with table signals, layout or not;
    ruled grids (the NICS report), booktabs tables (the BERT paper) and whitespace-aligned statements
    (earnings releases) never pay for the model.
    """
    return page_tier(ctx, table_signals(ctx)) == PageTier.LAYOUT


# -- finders ---------------------------------------------------------------------------------------
@dataclass
class _Candidate:
    bbox: pymupdf.Rect
    rows: list[list[Cell]]
    finder: str
    title: str | None = None  # whitespace tables: the line naming the table above its header band
    scale: str | None = None  # "in millions" when the page states a scale for the table


def _rows_of(table: Any) -> list[list[Cell]]:
    return [[tuple(c) if c is not None else None for c in row.cells] for row in table.rows]


def _line_tables(ctx: PageContext) -> list[_Candidate]:
    with fast_chars():  # the same characters, built faster (table_chars)
        found = ctx.page.find_tables(strategy="lines", use_layout=False)
    if found is None:  # PyMuPDF logs its own exception and returns None
        ctx.warnings.append("tables: PyMuPDF's table finder failed on this page")
        return []
    return [_Candidate(pymupdf.Rect(t.bbox), _rows_of(t), "pymupdf") for t in found.tables]


def _grid_in_box(ctx: PageContext, box: pymupdf.Rect, words: list[tuple]) -> _Candidate | None:
    """MuPDF's own table-structure finder inside a layout box (what ``find_tables`` does for layout boxes)."""
    from pymupdf import table as ptable

    make = getattr(ptable, "make_table_from_bbox", None)
    flags = getattr(ptable, "TABLE_DETECTOR_FLAGS", None)
    if make is None or flags is None:
        return None
    tp = ctx.page.get_textpage(flags=flags)
    cells = make(tp, [pymupdf.Rect(w[:4]) for w in words], box)
    if not cells:
        return None
    table = ptable.Table(ctx.page, cells)
    return _Candidate(pymupdf.Rect(table.bbox), _rows_of(table), "layout")


def _plumber_tables(ctx: PageContext, clip: pymupdf.Rect | None, ruled: bool) -> list[_Candidate]:
    """pdfplumber with text-aligned columns (between drawn rules when the page has them)."""
    if not ctx.settings.pdfplumber_tables:
        return []
    try:
        import pdfplumber
    except ImportError as exc:  # pragma: no cover - pdfplumber is a core dependency
        raise ComponentUnavailable("pdfplumber tables", str(exc), "pip install pdfplumber") from exc
    data = ctx.pdf_bytes if ctx.pdf_bytes is not None else getattr(ctx.page.parent, "stream", None)
    if data is None:
        ctx.warnings.append("tables: pdfplumber skipped (the file bytes are not available)")
        return []
    settings = {"vertical_strategy": "text", "horizontal_strategy": "lines" if ruled else "text"}
    with pdfplumber.open(io.BytesIO(data), pages=[ctx.page.number + 1]) as pdf:
        page = pdf.pages[0]
        if clip is not None:
            box = (max(clip.x0, 0), max(clip.y0, 0), min(clip.x1, page.width), min(clip.y1, page.height))
            page = page.crop(box)
        return [
            _Candidate(pymupdf.Rect(t.bbox), [list(r.cells) for r in t.rows], "pdfplumber")
            for t in page.find_tables(settings)
        ]


def _overlap(a: pymupdf.Rect, b: pymupdf.Rect) -> float:
    """Intersection over the smaller area."""
    inter = abs(pymupdf.Rect(a) & b)
    return inter / (min(abs(a), abs(b)) or 1e-6)


def _iou(a: pymupdf.Rect, b: pymupdf.Rect) -> float:
    inter = abs(pymupdf.Rect(a) & b)
    return inter / ((abs(a) + abs(b) - inter) or 1e-6)


def split_at_gutters(box: pymupdf.Rect, words: list[tuple], rules: list[tuple[float, float, float]]) -> list[pymupdf.Rect]:
    """Cut a table box at vertical strips (12 pt or wider) that no word and no drawn rule crosses.

    The layout model (and the line finder) sometimes return two tables printed side by side, one in
    each column of a two-column page, as one box. Within one ruled table the rules span every column,
    so the cut only happens where there are rules on both sides and none across.
    """
    inside = [(x0, x1) for y, x0, x1 in rules if box.y0 - 2 <= y <= box.y1 + 2 and x1 > box.x0 and x0 < box.x1]
    if len(inside) < 2:
        return [box]
    spans = sorted(inside + [
        (w[0], w[2]) for w in words if box.contains(pymupdf.Point((w[0] + w[2]) / 2, (w[1] + w[3]) / 2))
    ])
    parts: list[list[float]] = []
    for x0, x1 in spans:
        x0, x1 = max(x0, box.x0), min(x1, box.x1)
        if parts and x0 < parts[-1][1] + 12:
            parts[-1][1] = max(parts[-1][1], x1)
        else:
            parts.append([x0, x1])
    if len(parts) < 2:
        return [box]
    return [pymupdf.Rect(x0 - 1, box.y0, x1 + 1, box.y1) for x0, x1 in parts]


def _grid(cand: _Candidate | None, words: list[tuple]) -> Grid | None:
    if cand is None or not cand.rows:
        return None
    grid = drop_empty(grid_from_rows(cand.rows, words))
    return None if junk_reason(grid) else grid


def quality(grid: Grid) -> float:
    """Filled cells, less three for each cell that still holds several numbers (merged columns/rows)."""
    score = 0.0
    for row in grid.cells:
        for c in row:
            if c:
                merged = len(c.split()) > 1 and sum(1 for t in c.split() if is_numeric(t)) >= 2
                score += -3 if merged else 1
    return score


def _line_texts(ctx: PageContext) -> list[tuple[pymupdf.Rect, str]]:
    return [
        (pymupdf.Rect(ln["bbox"]), "".join(s["text"] for s in ln["spans"]))
        for b in ctx.text.get("blocks", ()) if b.get("type") == 0 for ln in b["lines"]
    ]


def _trim_caption(box: pymupdf.Rect, lines_text: list[tuple[pymupdf.Rect, str]]) -> pymupdf.Rect:
    """Cut a caption that a layout box swallowed off the box (keeps the larger side)."""
    for r, t in lines_text:
        if _CAPTION.match(t) and box.contains((r.tl + r.br) / 2):
            above = pymupdf.Rect(box.x0, box.y0, box.x1, r.y0)
            below = pymupdf.Rect(box.x0, r.y1, box.x1, box.y1)
            box = above if above.height >= below.height else below
    return box


def _text_candidate(box: pymupdf.Rect, words: list[tuple], rules: list[tuple[float, float, float]]) -> _Candidate:
    ys = [y for y, x0, x1 in rules if x0 < box.x1 and x1 > box.x0]
    return _Candidate(pymupdf.Rect(box), text_grid(box, words, ys), "text")


def _plausible(ctx: PageContext, cand: _Candidate, grid: Grid) -> bool:
    """Without the layout model to confirm it, a candidate needs a body (three rows or more) and
    either a drawn grid of five rows or more, a "Table N" caption next to it or two rows of numbers
    (a diagram of framed boxes draws a small grid too)."""
    if len(grid.cells) < 3:
        return False
    if caption_near(ctx, cand.bbox) is not None:
        return True
    if figure_caption_near(ctx, cand.bbox):
        return False
    numeric_rows = sum(1 for r in grid.cells if sum(1 for c in r if c and is_numeric(c)) >= 2)
    return numeric_rows >= 2 or (cand.finder == "pymupdf" and len(grid.cells) >= 5)


def _candidates(
    ctx: PageContext, sig: TableSignals, words: list[tuple], plumber: bool = True
) -> list[tuple[Grid, _Candidate]]:
    """Every plausible (grid, candidate); overlapping ones are resolved by ``quality`` afterwards.
    ``plumber=False``: the page-wide pdfplumber fallback is not needed (whitespace tables were found)."""
    rules, _ = _rules(ctx.drawings)
    lines_text = _line_texts(ctx)
    found: list[tuple[Grid, _Candidate]] = []

    def add(cand: _Candidate | None) -> bool:
        grid = _grid(cand, words)
        if grid is not None and cand is not None:
            found.append((grid, cand))
        return grid is not None

    hard = sig.hard or ctx.use_layout  # else only tables of text between row rules (``table_rowrules``)
    lines = _line_tables(ctx) if hard and sig.h_rules >= 2 and sig.v_rules >= 2 else []
    ruled = [_text_candidate(b, words, rules) for b in rule_group_boxes(rules, lines_text)] if hard else []
    if not ctx.use_layout:
        for cand in lines + ruled:
            grid = _grid(cand, words)
            if grid is not None and _plausible(ctx, cand, grid):
                found.append((grid, cand))
        # A browser draws each cell's bottom border on its own: joined, they are rules across the table.
        joined = join_rules(rules)
        for box in rule_group_boxes(joined, lines_text):
            if any(_overlap(box, c.bbox) > 0.5 for _, c in found) or not text_between_rules(box, lines_text, joined):
                continue
            box = header_above(box, lines_text)
            cand = _text_candidate(box, words, joined)
            grid = _grid(cand, words)
            if grid is not None and rows_ruled(ctx, box, grid, joined):
                found.append((grid, cand))
        if not found and sig.hard and plumber and form_widgets_in(ctx, ctx.page.rect) < FORM_WIDGETS:
            # (not on a fillable form: its boxes are fields, read as form fields, not a page-wide table)
            for cand in _plumber_tables(ctx, None, sig.h_rules >= 2):
                add(cand)
        return found
    regions = ctx.layout_regions()
    pictures = [r for r, label in regions if label == "picture"]
    boxes = [
        part for r, label in regions if label == "table"
        for part in split_at_gutters(_trim_caption(r, lines_text), words, rules)
    ]
    used: set[int] = set()
    for box in boxes:
        own = [c for c in lines + ruled if _iou(c.bbox, box) >= 0.6 or _overlap(c.bbox, box) >= 0.9]
        used.update(id(c) for c in own)
        ok = [add(c) for c in own]
        if not any(ok):
            add(_grid_in_box(ctx, box, words))
            add(_text_candidate(box, words, rules))
        if not any(c.bbox.intersects(box) for _, c in found):
            for cand in _plumber_tables(ctx, box, True):
                add(cand)
    # Tables the layout model did not flag: a drawn grid or a rule group next to a "Table N" caption.
    for cand in lines + ruled:
        if id(cand) in used or any(_overlap(cand.bbox, p) > 0.5 for p in pictures):
            continue
        if (cand.finder == "pymupdf" and sig.grid) or caption_near(ctx, cand.bbox):
            grid = _grid(cand, words)
            if grid is not None and len(grid.cells) >= 3:
                found.append((grid, cand))
    return found


# -- whitespace tables ----------------------------------------------------------------------------
def _whitespace(ctx: PageContext, words: list[tuple]) -> list[tuple[Grid, _Candidate]]:
    """Whitespace tables of the page, and inside each layout-model table box (with room above it for
    the header band the model's box often leaves out)."""
    try:
        found: list[FoundTable] = find_whitespace_tables(words, lines=ctx.word_lines)
        if ctx.use_layout:
            for r, label in ctx.layout_regions():
                if label != "table":
                    continue
                clip = pymupdf.Rect(r.x0 - 2, r.y0 - WHITESPACE_HEADER_REACH, r.x1 + 2, r.y1 + 2)
                for t in find_whitespace_tables(words, clip):
                    if not any(_overlap(t.bbox, u.bbox) > 0.5 for u in found):
                        found.append(t)
    except (ValueError, IndexError, ZeroDivisionError) as exc:
        # A layout this finder has not met must not cost the page its other tables and its text.
        ctx.warnings.append(f"tables: whitespace finder failed ({type(exc).__name__}: {exc})")
        return []
    out = []
    for t in found:
        grid = Grid(cells=([t.header] if t.header else []) + t.rows, header_rows=1 if t.header else 0)
        out.append((grid, _Candidate(pymupdf.Rect(t.bbox), [], "whitespace", t.title, t.scale)))
    return out


def _resolve(whitespace: list[tuple[Grid, _Candidate]], others: list[tuple[Grid, _Candidate]]) -> list[tuple[Grid, _Candidate]]:
    """Other finders' readings win a region unless ``table_prefer`` finds the whitespace one better."""
    pool = list(others)
    for grid, cand in whitespace:
        rivals = [gc for gc in pool if max(_overlap(gc[1].bbox, cand.bbox), _iou(gc[1].bbox, cand.bbox)) > 0.3]
        if rivals:
            best = max(rivals, key=lambda gc: quality(gc[0]))
            if not prefer_whitespace(grid, best[0]):
                for rival in rivals:  # every reading of the region: a banded one scores lower (quality)
                    _take_band(rival, grid, cand)
                continue
            pool = [gc for gc in pool if all(gc is not r for r in rivals)]
        pool.append((grid, cand))
    return pool


def _mono(ctx: PageContext) -> list[tuple[Grid, _Candidate]]:
    """Tables typed in monospace between rules of ``=`` / ``-`` characters (``table_mono``), then
    printouts without such rules (``table_printout``) where no ruled one is."""
    found = find_mono_tables(ctx.text, ctx.words) if has_char_rules(ctx.text) else []
    if has_printout(ctx.text):
        found += [t for t in find_printout_tables(ctx.text, ctx.words) if not any(_overlap(t.bbox, u.bbox) > 0.3 for u in found)]
    return [(t.grid, _Candidate(t.bbox, [], "monospace", t.title)) for t in found]


def _take_band(kept: tuple[Grid, _Candidate], whitespace: Grid, cand: _Candidate) -> None:
    """Give the kept grid the whitespace reading's header band when it names the same columns more
    fully (``table_prefer.band_header``, ``with_band``), and stretch its box over the band."""
    grid, other = kept
    header = band_header(whitespace, grid)
    if header is None:
        return
    with_band(grid, header)
    other.bbox = pymupdf.Rect(other.bbox) | cand.bbox
    other.scale = other.scale or cand.scale
    other.title = other.title or cand.title


# -- elements --------------------------------------------------------------------------------------
def _element(ctx: PageContext, grid: Grid, cand: _Candidate, caption: str | None, words: list[tuple] | None = None) -> Element:
    """The TABLE element of ``grid``; ``words``: the page's words (``ctx.words`` unless given: a scan's OCR words)."""
    header, rows = grid.header, grid.body
    caption = caption or cand.title
    if cand.scale and cand.scale not in " ".join([caption or "", *header]).lower():
        caption = f"{caption} ({cand.scale})" if caption else f"({cand.scale})"
    markdown = to_markdown(header, rows)
    indents, gaps = label_positions(ctx.words if words is None else words, tuple(cand.bbox), rows)
    sections = row_sections(rows, indents, gaps)
    data = TableData(
        markdown=markdown, html=to_html(header, rows, caption), header=header, rows=rows,
        caption=caption, finder=cand.finder, records=row_records(header, rows, sections),
        sections=sections if any(sections) else [],
    )
    box = cand.bbox & ctx.page.rect
    attrs: dict[str, Any] = {
        "rows": len(rows), "cols": len(header or (rows[0] if rows else [])), "page_height": ctx.page.rect.height,
    }
    if cand.scale:
        attrs["scale"] = cand.scale
    return Element(
        doc_id=ctx.doc_id, page=ctx.page_no, order=0, kind=ElementKind.TABLE,
        text=f"{caption}\n\n{markdown}" if caption else markdown,
        bbox=(box.x0, box.y0, box.x1, box.y1), parser="pdfplumber" if cand.finder == "pdfplumber" else "pymupdf",
        table=data, attrs=attrs,
    )


def extract_tables(ctx: PageContext) -> list[Element]:
    """TABLE elements of one page; their boxes are added to ``ctx.claimed``. A page turned by
    ``/Rotate`` whose text reads upright as shown is read on an upright copy (``table_upright``)."""
    up = upright(ctx)
    if up is not None:
        up.use_layout = ctx.use_layout
        found = extract_tables(up)
        ctx.warnings += up.warnings
        for el in found:
            box = to_page(ctx, el.bbox)
            el.bbox = (box.x0, box.y0, box.x1, box.y1)
            ctx.claimed.append(box)
        return found
    sig = table_signals(ctx)
    mono = _mono(ctx)
    if not sig.hard and not ctx.use_layout and not mono and sig.rule_group < 4:
        return []
    words = ctx.words
    whitespace = _whitespace(ctx, words) if sig.whitespace or ctx.use_layout else []
    others = [(detect_header(g), c) for g, c in _candidates(ctx, sig, words, plumber=not whitespace)]
    kept: list[tuple[Grid, _Candidate]] = list(mono)  # typed tables first: their rules of characters say where they are
    for grid, cand in sorted(_resolve(whitespace, others), key=lambda gc: -quality(gc[0])):
        if form_widgets_in(ctx, cand.bbox) >= FORM_WIDGETS:
            continue  # a form's boxes around its fields: read as form fields and text, not as a table
        if not any(_overlap(c.bbox, cand.bbox) > 0.5 for _, c in kept):
            kept.append((grid, cand))
    kept.sort(key=lambda gc: (gc[1].bbox.y0, gc[1].bbox.x0))
    captions = assign_captions(ctx, [c.bbox for _, c in kept])
    out = []
    for (grid, cand), caption in zip(kept, captions):
        out.append(_element(ctx, grid, cand, caption))
        ctx.claimed.append(pymupdf.Rect(cand.bbox))
    return out
