"""What "reprocess" clears before a document is parsed again in place: its OCR results (whole pages
and figures) and its enrichment answers, so the new run computes them afresh. The answer cache
entries that used the document go when the re-parse drops its old vectors (IngestCoordinator.forget_vectors)."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

from pagelens.models import Document

OCR_NAMESPACES = ("ocr", "ocr-figure")
ENRICH_NAMESPACE = "enrich"


def clear_document_caches(app: Any, doc: Document) -> int:
    """Delete the cache rows keyed by this document's rendered OCR pages, figure images and chunk
    contents; returns how many keys were targeted."""
    prefixes = [e.figure.image for e in app.catalog.elements(doc.doc_id, kinds=["figure"]) if e.figure]
    prefixes += _ocr_page_hashes(Path(doc.path), doc.ocr_pages, app.settings.ingest)
    with app.catalog.transaction() as conn:
        for ns in OCR_NAMESPACES:
            for p in prefixes:
                conn.execute("DELETE FROM cache WHERE namespace=? AND key LIKE ?", (ns, p + "|%"))
    keys = _enrich_keys(app, doc)
    if keys:
        app.catalog.cache_delete(ENRICH_NAMESPACE, keys)
    return len(prefixes) + len(keys)


def _ocr_page_hashes(path: Path, pages: list[int], s: Any) -> list[str]:
    """sha256 of each OCR'd page as ``ingest.ocr_page`` renders it (the OCR cache key's first part)."""
    if not pages or not path.is_file():
        return []
    import pymupdf

    out = []
    with pymupdf.open(path) as pdf:
        for n in pages:
            if not 1 <= n <= pdf.page_count:
                continue
            page = pdf[n - 1]
            zoom = s.ocr_dpi / 72.0
            pixels = page.rect.width * zoom * page.rect.height * zoom
            if pixels > s.max_render_pixels:
                zoom *= math.sqrt(s.max_render_pixels / pixels)
            pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY, alpha=False)
            out.append(hashlib.sha256(pix.tobytes("png")).hexdigest())
    return out


def _enrich_keys(app: Any, doc: Document) -> list[str]:
    if not app.settings.answer.enrich or app.llm is None:
        return []
    from pagelens.answer.enrich import Enricher

    enricher = Enricher(app.llm, app.catalog, app.images)
    keys = []
    for chunk in app.indexer.chunks(doc.doc_id):
        keys.append(enricher._key("summary", chunk.text))
        if chunk.image and app.images.exists(chunk.image):
            # describe_figure keys by the PNG's sha256, which is the image store's id
            keys.append(enricher._key("figure", chunk.image + "\x1f" + chunk.text))
    return keys
