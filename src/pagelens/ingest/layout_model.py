"""PyMuPDF 2.0's ONNX layout model, loaded lazily (importing ``pymupdf.layout`` activates it)."""

from __future__ import annotations

import pymupdf


def page_layout(page: pymupdf.Page) -> list[tuple[pymupdf.Rect, str]]:
    """[(rect, label)] with labels such as text, title, section-header, table, picture, caption,
    formula, footnote, page-header, page-footer, list-item."""
    import pymupdf.layout  # noqa: F401  (activates the model on first import)

    page.get_layout()
    info = getattr(page, "layout_information", None) or []
    return [(pymupdf.Rect(b[:4]), str(b[4])) for b in info]
