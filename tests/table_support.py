"""Tables of one page through the real extraction path (page context, page tier, every finder)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pagelens.ingest import tables
from pagelens.ingest.context import PageContext
from pagelens.models import Element
from pagelens.settings import IngestSettings
from pagelens.store.images import ImageStore


def page_tables(pdf: Path | bytes, tmp_path: Path, pno: int = 1, name: str = "grid.pdf") -> list[Element]:
    """The table elements of page ``pno`` (1-based) of a PDF file or of PDF bytes."""
    data = pdf if isinstance(pdf, bytes) else pdf.read_bytes()
    doc = pymupdf.open(stream=data, filetype="pdf")
    ctx = PageContext.build(doc[pno - 1], doc_id="d", file_name=name if isinstance(pdf, bytes) else pdf.name,
                            settings=IngestSettings(), images=ImageStore(tmp_path / "img"), pdf_bytes=data)
    ctx.use_layout = tables.is_hard_page(ctx)
    return tables.extract_tables(ctx)


def only_table(pdf: Path | bytes, tmp_path: Path, pno: int = 1, name: str = "grid.pdf") -> Element:
    """The one table element of the page; fails, listing what was found, when there is not exactly one."""
    els = page_tables(pdf, tmp_path, pno, name)
    assert len(els) == 1, [e.text[:80] for e in els]
    return els[0]
