"""Reading order of a page's elements and caption ↔ table/figure links.

Columns are found from the x-extent of the elements: a gutter is a vertical strip that no
column-width element crosses, with enough text on both sides. Elements that cross a gutter (titles,
wide tables and figures) are full-width: they cut the page into horizontal bands, and within a band
each column is read top to bottom, left column first. Page headers come first; footnotes, footers
and rotated margin text come last.
"""

from __future__ import annotations

import re

import pymupdf

from pagelens.models import BBox, Element, ElementKind

_LEADING = (ElementKind.METADATA, ElementKind.PAGE_HEADER)
_TRAILING = (ElementKind.FOOTNOTE, ElementKind.PAGE_FOOTER)
_TABLE_CAPTION = re.compile(r"^\s*(?:table|tab\.)\s*[\dIVXL]", re.IGNORECASE)
_FIGURE_CAPTION = re.compile(r"^\s*(?:figure|fig\.?|chart|plate|exhibit|scheme)\s*[\dIVXL]", re.IGNORECASE)

MIN_COLUMN_SHARE = 0.15
"""Each side of a gutter must hold text covering this fraction of the body's height."""

MAX_CROSSING_SHARE = 0.03
"""Column-width elements crossing a gutter may cover at most this fraction of the body's height."""

MAX_CAPTION_GAP = 150.0
"""Farthest a caption may sit from its table/figure, in points."""


def _gutters(body: list[Element], page_rect: pymupdf.Rect) -> list[float]:
    """x positions of column gutters (empty for single-column pages)."""
    w = page_rect.width
    narrow = [e.bbox for e in body if e.bbox and 30 < e.bbox[2] - e.bbox[0] < 0.5 * w]
    if len(narrow) < 4:
        return []
    ys = [b for e in body if (b := e.bbox)]
    height = max(b[3] for b in ys) - min(b[1] for b in ys) or 1.0
    lo, hi = page_rect.x0 + 0.2 * w, page_rect.x0 + 0.8 * w
    free: list[float] = []
    x = lo
    while x <= hi:
        # Tolerate a few small crossings (labels inside a figure, a stray fragment).
        crossing = sum(b[3] - b[1] for b in narrow if b[0] < x - 1 < b[2] - 2)
        if crossing <= MAX_CROSSING_SHARE * height:
            free.append(x)
        x += 2.0
    # Collapse runs of free positions into their midpoints.
    runs: list[list[float]] = []
    for x in free:
        if runs and x - runs[-1][-1] <= 2.0:
            runs[-1].append(x)
        else:
            runs.append([x])
    gutters = []
    for run in runs:
        g = (run[0] + run[-1]) / 2
        left = sum(b[3] - b[1] for b in narrow if b[2] <= g)
        right = sum(b[3] - b[1] for b in narrow if b[0] >= g)
        if left >= MIN_COLUMN_SHARE * height and right >= MIN_COLUMN_SHARE * height:
            gutters.append(g)
    return gutters


def _column(b: BBox, gutters: list[float]) -> int | None:
    """Column index of a box, or None when it crosses a gutter (full width)."""
    if any(b[0] < g - 2 and b[2] > g + 2 for g in gutters):
        return None
    return sum(1 for g in gutters if b[0] >= g - 2)


def _top_down(els: list[Element]) -> list[Element]:
    return sorted(els, key=lambda e: (round(e.bbox[1], 0), e.bbox[0]))  # type: ignore[index]


def reading_order(els: list[Element], page_rect: pymupdf.Rect) -> list[Element]:
    """The page's elements in reading order (columns are never interleaved)."""
    lead = [e for e in els if e.bbox is None or e.kind in _LEADING]
    tail = [e for e in els if e.bbox is not None and (e.kind in _TRAILING or e.attrs.get("rotated"))]
    taken = {id(e) for e in lead + tail}
    body = [e for e in els if id(e) not in taken]
    lead = [e for e in lead if e.bbox is None] + _top_down([e for e in lead if e.bbox is not None])
    gutters = _gutters(body, page_rect)
    tail_order = {ElementKind.FOOTNOTE: 0, ElementKind.PAGE_FOOTER: 2}
    tail = sorted(
        tail,
        key=lambda e: (tail_order.get(e.kind, 1), _column(e.bbox, gutters) or 0, round(e.bbox[1]), e.bbox[0]),  # type: ignore[arg-type,index]
    )
    if not gutters:
        return lead + _top_down(body) + tail
    spanning = _top_down([e for e in body if _column(e.bbox, gutters) is None])  # type: ignore[arg-type]
    columns = [e for e in body if _column(e.bbox, gutters) is not None]  # type: ignore[arg-type]
    out = list(lead)
    # Band i holds the column elements above spanning element i (the last band: below them all).
    cuts = [(e.bbox[1] + e.bbox[3]) / 2 for e in spanning]  # type: ignore[index]
    bands: list[list[Element]] = [[] for _ in range(len(spanning) + 1)]
    for e in columns:
        yc = (e.bbox[1] + e.bbox[3]) / 2  # type: ignore[index]
        bands[sum(1 for c in cuts if c < yc)].append(e)
    for i, band in enumerate(bands):
        for col in range(len(gutters) + 1):
            out += _top_down([e for e in band if _column(e.bbox, gutters) == col])  # type: ignore[arg-type]
        if i < len(spanning):
            out.append(spanning[i])
    return out + tail


def _gap(cap: BBox, target: BBox, prefer_above: bool) -> float | None:
    """Distance from a caption to a target, with a penalty for the unusual side; None if unrelated."""
    overlap = min(cap[2], target[2]) - max(cap[0], target[0])
    if overlap < 0.3 * min(cap[2] - cap[0], target[2] - target[0]):
        return None
    above = cap[3] <= target[1] + 5  # caption above the target
    below = cap[1] >= target[3] - 5
    if above:
        gap = target[1] - cap[3]
    elif below:
        gap = cap[1] - target[3]
    else:
        return None
    gap = max(gap, 0.0)
    if gap > MAX_CAPTION_GAP:
        return None
    return gap if above == prefer_above else gap * 2 + 20


def link_captions(els: list[Element]) -> None:
    """Attach "Table N" captions to the nearest table and "Figure N" captions to the nearest figure.

    Sets ``table.caption`` / ``figure.caption`` and ``attrs["caption_bbox"]`` on the target and
    ``attrs["caption_of"]`` (the target's bbox) on the caption, which stays its own element.
    """
    pairs: list[tuple[float, int, int]] = []
    for ci, cap in enumerate(els):
        if cap.kind != ElementKind.CAPTION or cap.bbox is None:
            continue
        if _TABLE_CAPTION.match(cap.text):
            kind, above = ElementKind.TABLE, True
        elif _FIGURE_CAPTION.match(cap.text):
            kind, above = ElementKind.FIGURE, False
        else:
            continue
        for ti, target in enumerate(els):
            if target.kind == kind and target.bbox is not None:
                gap = _gap(cap.bbox, target.bbox, above)
                if gap is not None:
                    pairs.append((gap, ci, ti))
    used_c: set[int] = set()
    used_t: set[int] = set()
    for _gap_pt, ci, ti in sorted(pairs):
        if ci in used_c or ti in used_t:
            continue
        used_c.add(ci)
        used_t.add(ti)
        cap, target = els[ci], els[ti]
        payload = target.table if target.kind == ElementKind.TABLE else target.figure
        if payload is not None and not payload.caption:
            payload.caption = cap.text
        target.attrs["caption_bbox"] = cap.bbox
        cap.attrs["caption_of"] = target.bbox
