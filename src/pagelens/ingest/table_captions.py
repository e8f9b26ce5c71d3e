"""Which caption belongs to which table ("Table N" first, else the nearest of another word: "Figure 13"),
and whether a box sits under a figure caption."""

from __future__ import annotations

import re

import pymupdf

from pagelens.ingest.context import PageContext
from pagelens.ingest.table_text import CAPTION

_FIGURE = re.compile(r"^\s*(?:Figure|FIGURE|Fig\.)\s*[0-9]")
# Any other caption word a table may be captioned with ("Figure 13: ..." over a table, as papers do).
_OTHER = re.compile(r"^\s*(?:Figure|FIGURE|Fig\.|FIG\.|Exhibit|EXHIBIT|Chart|CHART|Scheme|Plate|Listing)\s*"
                    r"(?:[0-9]+|[IVXL]+\b)(?:\.[0-9]+)*[a-z]?(\s*[:.|\u2014\u2013])?")
OTHER_CAPTION_WORDS = 40
"""A caption of another word without punctuation after its number ("Figure 13 Speedup ...") is taken
only when its block is this short (a paragraph that opens "Figure 13 shows ..." is prose)."""


def _caption_blocks(ctx: PageContext, pattern: re.Pattern[str] = CAPTION) -> list[tuple[pymupdf.Rect, str]]:
    out = []
    for block in ctx.text.get("blocks", ()):
        if block.get("type") != 0 or not block["lines"]:
            continue
        text = " ".join("".join(s["text"] for s in ln["spans"]) for ln in block["lines"]).strip()
        m = pattern.match(text)
        if m and (pattern is CAPTION or m.group(1) or len(text.split()) <= OTHER_CAPTION_WORDS):
            out.append((pymupdf.Rect(block["bbox"]), " ".join(text.split())))
    return out


def caption_near(ctx: PageContext, bbox: pymupdf.Rect) -> str | None:
    """The "Table N..." block right above or below ``bbox``, if any (the nearer one)."""
    found = [(gap, t) for side in ("above", "below") for gap, t in [_side_caption(ctx, bbox, side)] if t]
    return min(found)[1] if found else None


def _side_caption(
    ctx: PageContext, bbox: pymupdf.Rect, side: str, blocks: list[tuple[pymupdf.Rect, str]] | None = None
) -> tuple[float, str | None]:
    best: tuple[float, str | None] = (1e9, None)
    for r, text in blocks if blocks is not None else _caption_blocks(ctx):
        if min(r.x1, bbox.x1) - max(r.x0, bbox.x0) <= 0:
            continue
        gap = r.y0 - bbox.y1 if side == "below" else bbox.y0 - r.y1
        if -2 <= gap <= 40 and gap < best[0]:
            best = (gap, text)
    return best


def assign_captions(ctx: PageContext, boxes: list[pymupdf.Rect]) -> list[str | None]:
    """Captions for the tables of a page, all taken from the same side (above or below), whichever
    side gives more tables one: a caption between two stacked tables belongs to one of them."""
    blocks = _caption_blocks(ctx)
    sides = {side: [_side_caption(ctx, b, side, blocks)[1] for b in boxes] for side in ("below", "above")}
    below, above = sides["below"], sides["above"]
    main, other = (below, above) if sum(map(bool, below)) >= sum(map(bool, above)) else (above, below)
    used = {c for c in main if c}
    found = [m or (o if o not in used else None) for m, o in zip(main, other)]
    if all(found):
        return found
    # A table no "Table N" caption sits by takes the nearest caption of another word ("Figure 13"),
    # one no other table took.
    others = _caption_blocks(ctx, _OTHER)
    for i, box in enumerate(boxes):
        if found[i] is None and others:
            near = sorted((_side_caption(ctx, box, side, others) for side in ("below", "above")), key=lambda g: g[0])
            pick = next((t for _, t in near if t and t not in found), None)
            found[i] = pick
    return found


def figure_caption_near(ctx: PageContext, bbox: pymupdf.Rect) -> bool:
    """A "Figure N" caption right under or over the box: framed boxes of a diagram, not a table."""
    for block in ctx.text.get("blocks", ()):
        if block.get("type") != 0 or not block["lines"]:
            continue
        r = pymupdf.Rect(block["bbox"])
        gap = r.y0 - bbox.y1 if r.y0 >= bbox.y1 - 2 else bbox.y0 - r.y1
        if -2 <= gap <= 25 and min(r.x1, bbox.x1) > max(r.x0, bbox.x0):
            text = "".join(s["text"] for s in block["lines"][0]["spans"])
            if _FIGURE.match(text):
                return True
    return False
