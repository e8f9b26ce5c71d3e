"""Reading order (placeholder)."""
import pymupdf

from pagelens.models import Element


def reading_order(els: list[Element], page_rect: pymupdf.Rect) -> list[Element]:
    return sorted(els, key=lambda e: (e.bbox[1], e.bbox[0]) if e.bbox else (0, 0))


def link_captions(els: list[Element]) -> None:
    return None
