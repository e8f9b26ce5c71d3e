"""Page OCR (placeholder)."""
from pagelens.ingest.context import PageContext
from pagelens.models import Element


def needs_ocr(ctx: PageContext) -> bool:
    return False


def ocr_page(ctx: PageContext) -> list[Element]:
    return []


def ocr_figures(ctx: PageContext, els: list[Element]) -> None:
    return None
