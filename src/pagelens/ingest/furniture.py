"""Running headers and footers: strings that repeat in the top or bottom band of many pages.

A cheap pre-pass over the whole document (``page.get_text("blocks")``, no fonts), run before the
pages are parsed; ``text.extract_text`` then marks band lines whose normalized text is in the set
as PAGE_HEADER / PAGE_FOOTER. Bare page numbers are recognised separately (``is_page_number``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the ingest's parent process imports this module (``assemble``) and opens no PDF
    import pymupdf

BAND = 0.12
"""Fraction of the page height at the top and bottom searched for running headers/footers."""

MIN_REPEATS = 3
"""A string is furniture when it appears on this many pages (fewer for documents of 3–5 pages)."""

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


def detect_furniture(pdf: pymupdf.Document) -> set[str]:
    """Normalized strings (see ``normalize``) that repeat in the top/bottom band across pages.

    In a deck of landscape pages (slides), a top-band string met only on one run of consecutive pages
    that is less than half the deck is a slide's title repeated by overlays (beamer's \\pause, a
    PowerPoint build) or continued slides, not a running header: it stays the heading of its slides."""
    need = repeat_threshold(pdf.page_count)
    if need is None:
        return set()
    seen: dict[str, int] = {}
    where: dict[str, list[int]] = {}
    top_band: set[str] = set()
    landscape = sum(1 for page in pdf if page.rect.width > page.rect.height) * 2 > pdf.page_count
    for pno, page in enumerate(pdf):
        h = page.rect.height
        top, bottom = page.rect.y0 + BAND * h, page.rect.y1 - BAND * h
        on_page: set[str] = set()
        for x0, y0, x1, y1, text, _no, kind in page.get_text("blocks", flags=0):
            if kind != 0 or (y1 > top and y0 < bottom):
                continue
            for line in text.splitlines():
                norm = normalize(line)
                if len(norm) >= 3 and not is_page_number(line):
                    on_page.add(norm)
                    if y1 <= top:
                        top_band.add(norm)
        for s in on_page:
            seen[s] = seen.get(s, 0) + 1
            where.setdefault(s, []).append(pno)
    out = {s for s, n in seen.items() if n >= need}
    if landscape:
        out -= {s for s in out & top_band if _one_run(where[s]) and len(where[s]) * 2 < pdf.page_count}
    return out


def _one_run(pages: list[int]) -> bool:
    """Whether ``pages`` (ascending) are consecutive."""
    return pages[-1] - pages[0] + 1 == len(pages)



def mark_ocr_running(pages: list[list]) -> set[str]:
    """Running headers/footers of scanned pages, from their OCR blocks (``pages``: the elements of each OCR'd
    page of one document). A block that OCR found in the top/bottom band (``attrs["band"]``, set by
    ``ocr_page``) whose normalized text (see ``normalize``) recurs on ``repeat_threshold`` of those pages
    becomes PAGE_HEADER / PAGE_FOOTER, as on pages with a text layer (``detect_furniture`` sees no text on
    a scan): a scanned report's "Water Board - Annual Report 2003  Page 2" is the document's name on every
    page, not an answer of one. Returns the strings found."""
    from pagelens.models import ElementKind

    need = repeat_threshold(len(pages))
    if need is None:
        return set()
    seen: dict[str, int] = {}
    for els in pages:
        for s in {normalize(e.text) for e in els if e.attrs.get("band") and e.text}:
            if len(s) >= 3:
                seen[s] = seen.get(s, 0) + 1
    found = {s for s, n in seen.items() if n >= need}
    if found:
        for els in pages:
            for e in els:
                band = e.attrs.get("band")
                if band and e.kind in (ElementKind.TEXT, ElementKind.HEADING) and normalize(e.text) in found:
                    e.kind = ElementKind.PAGE_HEADER if band == "top" else ElementKind.PAGE_FOOTER
                    e.level = None
    return found
