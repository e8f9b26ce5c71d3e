"""Scans whose own OCR layer breaks words apart are read again, and a scan's running header, seen only by
OCR, is furniture (``ocr_page.needs_ocr`` / ``TextQuality.broken_words``, ``furniture.mark_ocr_running``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest

from pagelens.ingest.context import PageContext
from pagelens.ingest.furniture import mark_ocr_running
from pagelens.ingest.ocr_page import needs_ocr, ocr_page, text_quality
from pagelens.models import ElementKind
from pagelens.settings import IngestSettings
from pagelens.store.images import ImageStore

from pdf_support import scanned

requires_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="tesseract binary not installed (apt-get install tesseract-ocr)"
)

BODY = [
    "Active leakage control continued through the year.",
    "Leakage was reduced to eleven per cent of water put into supply,",
    "against a target agreed with the regulator. Hollins Reservoir,",
    "the largest of the three impounding reservoirs, was inspected by",
    "divers in May and found sound. Stock at Black Moss Reservoir was",
    "low in September, and water was transferred from Hollins.",
]


def ctx_for(page: pymupdf.Page, tmp_path: Path, ocr=None) -> PageContext:
    return PageContext.build(
        page, doc_id="d" * 64, file_name="scan.pdf", settings=IngestSettings(ocr="tesseract"),
        images=ImageStore(tmp_path / "images"), ocr=ocr,
    )


def scan_with_glyph_layer(shrink: float) -> pymupdf.Document:
    """One scanned page (an image of BODY) under an invisible layer that places each glyph at its own
    x-position in a font ``shrink`` times the printed size, as some scanners' OCR writes it."""
    src = pymupdf.open()
    page = src.new_page(width=595, height=842)
    for i, line in enumerate(BODY):
        page.insert_text((60, 120 + 18 * i), line, fontsize=11, fontname="tiro")
    png = page.get_pixmap(dpi=200).tobytes("png")
    out = pymupdf.open()
    new = out.new_page(width=595, height=842)
    new.insert_image(new.rect, stream=png)
    for block in page.get_text("rawdict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                for ch in span["chars"]:
                    if not ch["c"].isspace():
                        new.insert_text((ch["bbox"][0], ch["origin"][1]), ch["c"], fontsize=span["size"] * shrink,
                                        fontname="helv", render_mode=3)
    return out


def test_a_scan_whose_layer_breaks_words_apart_is_read_again(tmp_path: Path) -> None:
    broken = scan_with_glyph_layer(0.8)
    q = text_quality(ctx_for(broken[0], tmp_path).text)
    assert q.broken_words and q.spaced_fraction < 0.3  # not letter by letter: only some words broken
    assert needs_ocr(ctx_for(broken[0], tmp_path))
    # Glyphs the printed size keep their words together: that layer is used as it is.
    whole = scan_with_glyph_layer(1.0)
    assert not text_quality(ctx_for(whole[0], tmp_path).text).broken_words
    assert not needs_ocr(ctx_for(whole[0], tmp_path))


def test_short_words_and_initials_are_no_fragments(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    text = "It is up to us to go on as we do, or so Mr J. R. Smith of the UK said in an ad hoc way to me."
    for i in range(12):
        page.insert_text((60, 100 + 16 * i), text, fontsize=10)
    assert not text_quality(ctx_for(page, tmp_path).text).broken_words


def scanned_report(pages: int = 3) -> pymupdf.Document:
    """A report scanned without a text layer: its title only on page 1, a running header on every page."""
    src = pymupdf.open()
    for n in range(1, pages + 1):
        page = src.new_page(width=595, height=842)
        page.insert_text((60, 40), f"Tarn Valley Water Board - Annual Report 2003      Page {n}", fontsize=9)
        y = 100
        if n == 1:
            page.insert_text((120, 110), "TARN VALLEY WATER BOARD", fontsize=20, fontname="hebo")
            y = 170
        for i, line in enumerate(BODY):
            page.insert_text((60, y + 18 * i), line if n == 1 else f"{line} ({n})", fontsize=11, fontname="tiro")
    return scanned(src)


@requires_tesseract
def test_a_scans_running_header_seen_only_by_ocr_is_a_page_header(tmp_path: Path) -> None:
    from pagelens.ocr import create_ocr_engine

    engine = create_ocr_engine(IngestSettings(ocr="tesseract"), lambda m: None)
    doc = scanned_report()
    pages = [ocr_page(ctx_for(page, tmp_path, engine)) for page in doc]
    heads = [[e for e in els if "Annual Report" in e.text] for els in pages]
    assert all(len(h) == 1 and h[0].attrs.get("band") == "top" for h in heads)
    found = mark_ocr_running(pages)
    assert found and all(h[0].kind == ElementKind.PAGE_HEADER for h in heads)
    # The title and the body stay what they were.
    kinds = {e.kind for els in pages for e in els if "Annual Report" not in e.text}
    assert ElementKind.PAGE_HEADER not in kinds and ElementKind.TEXT in kinds


@requires_tesseract
def test_two_scanned_pages_are_too_few_for_a_running_header(tmp_path: Path) -> None:
    from pagelens.ocr import create_ocr_engine

    engine = create_ocr_engine(IngestSettings(ocr="tesseract"), lambda m: None)
    pages = [ocr_page(ctx_for(page, tmp_path, engine)) for page in scanned_report(2)]
    assert not mark_ocr_running(pages)


@requires_tesseract
def test_ingest_stores_a_scanned_reports_running_header_as_page_header(tmp_path: Path) -> None:
    from pagelens.ingest.pipeline import Ingestor
    from pagelens.ocr import create_ocr_engine
    from pagelens.store.catalog import Catalog

    settings = IngestSettings(ocr="tesseract")
    engine = create_ocr_engine(settings, lambda m: None)
    scanned_report().save(tmp_path / "report.pdf")
    catalog = Catalog(tmp_path / "c.db")
    result = Ingestor(settings, catalog, ImageStore(tmp_path / "img"), engine).ingest_file(tmp_path / "report.pdf")
    els = catalog.elements(result.doc_id)
    heads = [e for e in els if "Annual Report" in e.text]
    assert len(heads) == 3 and all(e.kind == ElementKind.PAGE_HEADER for e in heads)
    assert any(e.kind == ElementKind.TEXT and "Hollins" in e.text for e in els)
