"""Page OCR tells the engine the render's true resolution (``ocr_page._read_page``).

MuPDF stamps a matrix render 96 dpi. Told that a 300 dpi render of a scanned form is 96 dpi, Tesseract
took the boxes drawn round handwritten values for glyphs and dropped or frayed the values inside them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest

from pagelens.ingest.context import PageContext
from pagelens.ingest.ocr_page import _read_page, ocr_page
from pagelens.settings import IngestSettings
from pagelens.store.images import ImageStore

pytestmark = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="tesseract binary not installed (apt-get install tesseract-ocr)"
)

INK = (0.10, 0.15, 0.55)


def scanned_form() -> pymupdf.Document:
    """A paper form with printed labels over boxes holding handwritten-looking values, scanned at 200 dpi,
    turned 1 degree, as an image-only page."""
    src = pymupdf.open()
    p = src.new_page(width=595, height=842)
    p.insert_text((60, 60), "APPLICATION FOR A FISHING PERMIT", fontsize=12, fontname="helv")

    def box(label: str, x: float, y: float, w: float, value: str) -> None:
        p.insert_text((x, y), label, fontsize=8, fontname="helv")
        p.draw_rect(pymupdf.Rect(x, y + 4, x + w, y + 26), color=(0, 0, 0), width=0.7)
        p.insert_text((x + 8, y + 20), value, fontsize=13, fontname="tiit", color=INK)

    box("1. Surname", 60, 130, 220, "DEVLIN")
    box("2. Forenames", 300, 130, 235, "Patrick Joseph")
    box("7. Boat number (if hiring)", 60, 315, 220, "B-17")
    box("8. Fee paid (EUR)", 300, 315, 235, "45")
    turned = pymupdf.open()
    page = turned.new_page(width=595, height=842)
    page.show_pdf_page(page.rect, src, 0, rotate=-1.0)
    png = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY).tobytes("png")
    out = pymupdf.open()
    out.new_page(width=595, height=842).insert_image(pymupdf.Rect(0, 0, 595, 842), stream=png)
    return out


@pytest.fixture(scope="module")
def engine():
    from pagelens.ocr import create_ocr_engine

    eng = create_ocr_engine(IngestSettings(ocr="tesseract"), lambda m: None)
    if eng is None:
        pytest.skip("no tesseract engine")
    return eng


def ctx_for(page: pymupdf.Page, tmp_path: Path, engine) -> PageContext:
    return PageContext.build(
        page, doc_id="d" * 64, file_name="form.pdf", settings=IngestSettings(ocr="tesseract"),
        images=ImageStore(tmp_path / "images"), ocr=engine,
    )


def test_the_render_handed_to_the_engine_says_its_resolution(engine, tmp_path: Path) -> None:
    page = scanned_form()[0]
    pix, _ = _read_page(ctx_for(page, tmp_path, engine), 300 / 72)
    assert (pix.xres, pix.yres) == (300, 300)


def test_values_in_the_boxes_of_a_scanned_form_are_read(engine, tmp_path: Path) -> None:
    page = scanned_form()[0]
    text = " ".join(e.text for e in ocr_page(ctx_for(page, tmp_path, engine)))
    for value in ("DEVLIN", "Patrick Joseph", "B-17", "45"):
        assert value in text, (value, text)
    assert "[" not in text and "|" not in text, text  # the boxes are not read as glyphs
