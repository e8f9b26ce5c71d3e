"""The page tier (which pages pay for PyMuPDF 2.0's ONNX layout model) and the model itself.

Plain text extraction costs about 5 ms a page, the layout model about 0.4 s, so the tier is decided
from signals that cost about a millisecond (``table_signals``):

* ``text``: no table signals; text, figures and forms only.
* ``tables``: the cheap finders read what the page shows: a drawn grid (line finder), rules with
  common ends (booktabs, text-column finder) or value columns aligned by whitespace (whitespace
  finder: statements, earnings releases).
* ``layout``: table signals ("Table N" caption, rows of numbers) without structure the cheap finders
  read, on a page that is not mostly pictures (numbers inside pictures are chart labels, and the
  model's table boxes over a picture are read by no finder).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

import pymupdf

if TYPE_CHECKING:
    from pagelens.ingest.context import PageContext
    from pagelens.ingest.table_signals import TableSignals

PICTURE_PAGE = 0.5  # share of the page covered by raster images above which the model is not run


class PageTier(StrEnum):
    TEXT = "text"
    TABLES = "tables"
    LAYOUT = "layout"


def image_share(page: pymupdf.Page) -> float:
    """Share of the page area covered by raster images (overlaps counted once per image)."""
    area = abs(page.rect) or 1.0
    covered = 0.0
    for info in page.get_image_info():
        covered += abs(pymupdf.Rect(info["bbox"]) & page.rect)
    return min(1.0, covered / area)


def page_tier(ctx: PageContext, sig: TableSignals) -> PageTier:
    if not sig.hard:
        return PageTier.TEXT
    if not sig.needs_layout:
        return PageTier.TABLES
    if not sig.caption and image_share(ctx.page) >= PICTURE_PAGE:
        return PageTier.TABLES
    return PageTier.LAYOUT


def page_layout(page: pymupdf.Page) -> list[tuple[pymupdf.Rect, str]]:
    """[(rect, label)] with labels such as text, title, section-header, table, picture, caption,
    formula, footnote, page-header, page-footer, list-item."""
    import pymupdf.layout  # noqa: F401  (activates the model on first import)

    page.get_layout()
    info = getattr(page, "layout_information", None) or []
    return [(pymupdf.Rect(b[:4]), str(b[4])) for b in info]
