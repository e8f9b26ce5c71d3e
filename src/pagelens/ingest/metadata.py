"""Document metadata (placeholder)."""
from typing import Any

import pymupdf

from pagelens.ingest.context import PageContext
from pagelens.models import Document, Element


def document_metadata(pdf: pymupdf.Document) -> dict[str, Any]:
    return {}


def metadata_elements(pdf: pymupdf.Document, doc_id: str, doc: Document) -> list[Element]:
    return []


def page_extras(ctx: PageContext) -> list[Element]:
    return []
