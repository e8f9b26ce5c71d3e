"""What every page parser receives: the page, its text once extracted, and the shared services."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import pymupdf

from pagelens.ingest.claims import overlaps_claim
from pagelens.settings import IngestSettings

if TYPE_CHECKING:
    from pagelens.ocr.protocol import OcrEngine
    from pagelens.store.images import ImageStore

# Flags for get_text("dict"): keep ligatures/whitespace handling sane, keep images out of the dict
# (figures are found separately), dehyphenate line ends.
TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
    | pymupdf.TEXT_DEHYPHENATE
)

WORD_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
"""Flags of the page's word list: TEXT_FLAGS without dehyphenation."""


@dataclass
class PageContext:
    """One page being parsed.

    ``text`` is ``page.get_text("dict", flags=TEXT_FLAGS)``, computed once and shared by all parsers.
    ``claimed`` collects regions (tables, figures) whose text must not also appear as body text.
    """

    page: pymupdf.Page
    page_no: int  # 1-based
    doc_id: str
    file_name: str
    settings: IngestSettings
    images: "ImageStore"
    ocr: "OcrEngine | None" = None
    text: dict[str, Any] = field(default_factory=dict)
    furniture: set[str] = field(default_factory=set)
    claimed: list[pymupdf.Rect] = field(default_factory=list)
    use_layout: bool = False
    layout: list[tuple[pymupdf.Rect, str]] | None = None
    warnings: list[str] = field(default_factory=list)
    pdf_bytes: bytes | None = None  # the whole file, for parsers that reopen it (pdfplumber tables)

    textpage: Any = None  # the TextPage ``text`` was read from, reused for ``words``

    @classmethod
    def build(cls, page: pymupdf.Page, **kw: Any) -> "PageContext":
        ctx = cls(page=page, page_no=page.number + 1, **kw)
        ctx.textpage = page.get_textpage(flags=TEXT_FLAGS)
        ctx.text = page.get_text("dict", textpage=ctx.textpage, sort=False)
        return ctx

    @cached_property
    def drawings(self) -> list[dict[str, Any]]:
        """``page.get_cdrawings()`` once per page, shared by the table signals and the figure finder.

        Raw form: each path's ``rect`` and item points are plain tuples, not Rect/Point objects.
        """
        return self.page.get_cdrawings()

    @cached_property
    def words(self) -> list[tuple]:
        """``page.get_text("words")`` once per page (whitespace kept, clipped to the media box), shared by
        the table signals and the table finders.

        Read from the TextPage of ``text`` when there is one: its flags add only ``TEXT_DEHYPHENATE``,
        which MuPDF applies when it prints plain text, never to words (``tests/test_page_textpage.py``
        compares the two), so the page's text is laid out once, not twice."""
        if self.textpage is not None:
            return self.page.get_text("words", textpage=self.textpage)
        return self.page.get_text("words", flags=WORD_FLAGS)

    @cached_property
    def word_lines(self) -> list[Any]:
        """``table_segments.page_lines(self.words)``: the words in visual lines cut into segments, once
        per page for the whitespace-table signal and the whitespace-table finder (it only reads them)."""
        from pagelens.ingest.table_segments import page_lines

        return page_lines(self.words)

    def is_claimed(self, rect: "pymupdf.Rect | tuple[float, float, float, float]", min_overlap: float = 0.5) -> bool:
        """True when ``rect`` (a Rect or a 4-tuple) lies mostly inside a claimed region."""
        return overlaps_claim(rect, self.claimed, min_overlap)

    def layout_regions(self) -> list[tuple[pymupdf.Rect, str]]:
        """Regions from PyMuPDF's ONNX layout model (table, picture, formula, text, caption...).

        Runs the model at most once per page and only when ``use_layout`` is set.
        """
        if self.layout is None:
            self.layout = []
            if self.use_layout:
                from pagelens.ingest.layout_model import page_layout

                self.layout = page_layout(self.page)
        return self.layout
