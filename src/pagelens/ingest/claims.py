"""Is a box inside the regions claimed by tables and figures? The same answers as ``pymupdf.Rect``
arithmetic gave, without building Rects for the boxes that cannot overlap.

Body text asks this for every line (and every span of a line that touches a claim) of every page with
a table or a figure; building two Rects per (line, claim) pair and intersecting them in MuPDF was most
of the body-text stage. Here a pair whose boxes lie apart (by more than MuPDF's float32 rounding can
move an edge) is answered "no overlap" from plain floats; only the rest go through the exact Rect
intersection, so every answer is the one ``abs(Rect(box) & claim) / abs(Rect(box))`` gives.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

import pymupdf

_MIN_INF = float(pymupdf.FZ_MIN_INF_RECT)
_MAX_INF = float(pymupdf.FZ_MAX_INF_RECT)

Box = Sequence[float]


def _infinite(x0: float, y0: float, x1: float, y1: float) -> bool:
    return x0 == y0 == _MIN_INF and x1 == y1 == _MAX_INF


def area(x0: float, y0: float, x1: float, y1: float) -> float:
    """``abs(pymupdf.Rect(x0, y0, x1, y1))``: 0 for an empty or infinite box."""
    if x0 >= x1 or y0 >= y1 or _infinite(x0, y0, x1, y1):
        return 0.0
    return (x1 - x0) * (y1 - y0)


def _apart(x0: float, y0: float, x1: float, y1: float, c: Box) -> bool:
    """True when the boxes cannot intersect even after MuPDF rounds both to float32 (a relative
    2**-24 per coordinate; the slack is far above it for any page coordinate)."""
    cx0, cy0, cx1, cy1 = c
    slack = 1e-3 + 1e-6 * max(abs(x0), abs(y0), abs(x1), abs(y1), abs(cx0), abs(cy0), abs(cx1), abs(cy1))
    return x1 < cx0 - slack or cx1 < x0 - slack or y1 < cy0 - slack or cy1 < y0 - slack


def _within(x0: float, y0: float, x1: float, y1: float, c: Box) -> bool:
    """True when the box lies inside the claim even after MuPDF rounds the claim to float32."""
    cx0, cy0, cx1, cy1 = c
    slack = 1e-3 + 1e-6 * max(abs(x0), abs(y0), abs(x1), abs(y1), abs(cx0), abs(cy0), abs(cx1), abs(cy1))
    return cx0 + slack < x0 and x1 < cx1 - slack and cy0 + slack < y0 and y1 < cy1 - slack


def overlaps_claim(box: Box, claims: Sequence[pymupdf.Rect], min_overlap: float = 0.5) -> bool:
    """``any(abs(Rect(box) & c) / (abs(Rect(box)) or 1e-6) >= min_overlap for c in claims)``."""
    if not claims:
        return False
    x0, y0, x1, y1 = (float(v) for v in box)
    size = area(x0, y0, x1, y1) or 1e-6
    # A box MuPDF holds exactly (text boxes come from MuPDF as float32) inside a claim: the common
    # area is the box itself, the share exactly 1.
    whole = size > 1e-6 and min_overlap <= 1.0 and array("f", (x0, y0, x1, y1)).tolist() == [x0, y0, x1, y1]
    rect: pymupdf.Rect | None = None
    for c in claims:
        if min_overlap > 0 and _apart(x0, y0, x1, y1, c):
            continue  # no common area: 0 / size < min_overlap
        if whole and _within(x0, y0, x1, y1, c):
            return True
        if rect is None:
            rect = pymupdf.Rect(x0, y0, x1, y1)
        if abs(rect & c) / size >= min_overlap:
            return True
    return False


def touches_claim(box: Box, claims: Sequence[pymupdf.Rect]) -> bool:
    """``any(Rect(box).intersects(c) for c in claims)``, on plain floats."""
    x0, y0, x1, y1 = (float(v) for v in box)
    if x0 >= x1 or y0 >= y1 or _infinite(x0, y0, x1, y1):
        return False
    for c in claims:
        cx0, cy0, cx1, cy1 = c
        if cx0 >= cx1 or cy0 >= cy1 or _infinite(cx0, cy0, cx1, cy1):
            continue
        if x0 < cx1 and cx0 < x1 and y0 < cy1 and cy0 < y1:
            return True
    return False
