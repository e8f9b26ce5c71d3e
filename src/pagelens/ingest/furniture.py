"""Running headers and footers: strings that repeat in the top or bottom band of many pages.

A cheap pre-pass over the whole document (``page.get_text("words")`` in PyMuPDF's blocks and lines,
no fonts), run before the pages are parsed; ``text.extract_text`` then marks band lines whose
normalized text is in the set as PAGE_HEADER / PAGE_FOOTER. Bare page numbers are recognised separately (``is_page_number``).

Books and annual reports alternate or mirror their running heads between even and odd pages (the
company name left on even pages and right on odd ones, the report title on one side only). A string
that appears on fewer than ``repeat_threshold`` pages still counts when it sits at the same place on
``MIN_SIDE_REPEATS`` successive pages of one side, the place measured from the page's outer edge
(``_slot``).
"""

from __future__ import annotations

import re

import pymupdf

BAND = 0.12
"""Fraction of the page height at the top and bottom searched for running headers/footers."""

MIN_REPEATS = 3
"""A string is furniture when it appears on this many pages (fewer for documents of 3–5 pages)."""

MIN_SIDE_REPEATS = 2
"""Successive pages of one side (even or odd) on which a string must sit at one place to be a running head."""

SLOT_TOLERANCE = 2.0
"""Points: two band lines are at the same place when their top edges and outer-edge offsets agree."""

_DIGITS = re.compile(r"\d+")
_SPACE = re.compile(r"\s+")
_PAGE_NUMBER = re.compile(  # roman numerals only in lower case: a lone "X" is a table tick
    r"^(?:[Pp]age\s+)?[-–—]?\s*(?:\d{1,4}|[ivxlcdm]{1,6}|[A-Z]{0,2}\d{1,3}\s?[-–.]\s?\d{1,4})\s*[-–—]?"
    r"(?:\s*(?:of|/)\s*\d{1,4})?$"
)


def normalize(text: str) -> str:
    """Digits → '#', lowercase, whitespace collapsed: 'Page 3  of 10' → 'page # of #'."""
    return _SPACE.sub(" ", _DIGITS.sub("#", text.lower())).strip()


def is_page_number(text: str) -> bool:
    """'12', 'xi', '7-45', 'Page 3 of 10', '- 4 -'."""
    t = text.strip()
    return 0 < len(t) <= 16 and bool(_PAGE_NUMBER.match(t))


def repeat_threshold(page_count: int) -> int | None:
    """Pages a string must appear on to count as furniture; None when the document is too short."""
    if page_count < 3:
        return None
    return min(MIN_REPEATS, max(2, (page_count + 1) // 2))


def _slot(page: pymupdf.Page, x0: float, y0: float, x1: float) -> tuple[float, float]:
    """(top edge, offset from the outer edge): odd pages (1, 3, ...) are right-hand pages, whose outer
    edge is the right one, so a head mirrored between the sides keeps its slot."""
    r = page.rect
    outer = r.x1 - x1 if page.number % 2 == 0 else x0 - r.x0
    return y0, outer


def _same_place(slots: dict[int, tuple[float, float]]) -> bool:
    """Whether ``MIN_SIDE_REPEATS`` successive pages of one side (p, p + 2, ...) hold the string at one
    slot. Successive: a table's header row at the top of pages 232 and 238 is not a running head."""
    for pno, (y, x) in slots.items():
        run, q = 1, pno + 2
        while q in slots and abs(slots[q][0] - y) < SLOT_TOLERANCE and abs(slots[q][1] - x) < SLOT_TOLERANCE:
            run, q = run + 1, q + 2
        if run >= MIN_SIDE_REPEATS:
            return True
    return False


def detect_furniture(pdf: pymupdf.Document) -> set[str]:
    """Normalized strings (see ``normalize``) that repeat in the top/bottom band across pages."""
    need = repeat_threshold(pdf.page_count)
    if need is None:
        return set()
    seen: dict[str, dict[int, tuple[float, float]]] = {}
    for page in pdf:
        h = page.rect.height
        top, bottom = page.rect.y0 + BAND * h, page.rect.y1 - BAND * h
        for text, (x0, y0, x1, _y1) in _band_lines(page, top, bottom):
            norm = normalize(text)
            if len(norm) >= 3 and not is_page_number(text):
                seen.setdefault(norm, {}).setdefault(page.number, _slot(page, x0, y0, x1))
    return {
        s for s, pages in seen.items()
        if len(pages) >= need
        or (len(pages) >= MIN_SIDE_REPEATS and any(c.isalpha() for c in s) and _same_place(pages))
    }


def _box(words: list[tuple]) -> tuple[float, float, float, float]:
    return min(w[0] for w in words), min(w[1] for w in words), max(w[2] for w in words), max(w[3] for w in words)


def _band_lines(page: pymupdf.Page, top: float, bottom: float) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Text and box of each line of the blocks (PyMuPDF's numbering) lying wholly in the top or bottom band."""
    blocks: dict[int, dict[int, list[tuple]]] = {}
    for w in page.get_text("words", flags=0):
        blocks.setdefault(w[5], {}).setdefault(w[6], []).append(w)
    out = []
    for lines in blocks.values():
        box = _box([w for words in lines.values() for w in words])
        if box[3] <= top or box[1] >= bottom:
            out.extend((" ".join(w[4] for w in words), _box(words)) for words in lines.values())
    return out
