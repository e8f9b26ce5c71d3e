"""Figure and page OCR hand the engine uncompressed PNGs (ingest/ocr_page._png, page_png): the same
pixels and header chunks, so the same words, without deflating an image the engine unpacks at once."""

from __future__ import annotations

import io
import shutil

import pytest
from PIL import Image, ImageDraw, ImageFont

from pagelens.ingest import ocr_page
from pagelens.settings import IngestSettings


def _figure() -> Image.Image:
    img = Image.new("L", (900, 300), 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=40)
    draw.text((30, 40), "Quarterly revenue 2023", fill=0, font=font)
    draw.text((30, 150), "North 1,204  South 987", fill=0, font=font)
    draw.line((20, 260, 880, 260), fill=0, width=3)
    return img


def test_uncompressed_png_holds_the_same_pixels() -> None:
    img = _figure()
    raw = ocr_page._png(img)
    squeezed = io.BytesIO()
    img.save(squeezed, format="PNG")
    assert raw.startswith(b"\x89PNG") and len(raw) > 3 * len(squeezed.getvalue())
    with Image.open(io.BytesIO(raw)) as back:
        assert back.mode == "L" and back.size == img.size and back.tobytes() == img.tobytes()


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract not installed (apt-get install tesseract-ocr)")
def test_the_engine_reads_the_same_lines_from_either_png() -> None:
    from pagelens.ocr import create_ocr_engine

    engine = create_ocr_engine(IngestSettings(ocr="tesseract"), lambda m: None)
    assert engine is not None
    img = _figure()
    squeezed = io.BytesIO()
    img.save(squeezed, format="PNG")
    plain = engine.recognize(squeezed.getvalue())
    raw = engine.recognize(ocr_page._png(img))
    assert [(ln.text, ln.bbox, ln.confidence) for ln in raw] == [(ln.text, ln.bbox, ln.confidence) for ln in plain]
    assert "revenue" in " ".join(ln.text for ln in raw).lower()


def _page_render() -> "pymupdf.Pixmap":
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 60), "Scanned page words", fontsize=18)
    page.insert_text((20, 120), "Second line, 42 items", fontsize=14)
    return page.get_pixmap(matrix=pymupdf.Matrix(300 / 72, 300 / 72), colorspace=pymupdf.csGRAY, alpha=False)


def test_page_png_has_mupdfs_header_chunks_and_pixels() -> None:
    pix = _page_render()
    ours, theirs = ocr_page.page_png(pix), pix.tobytes("png")
    # Signature, IHDR (size, depth, colour type) and pHYs (the resolution the engine reads) are byte-equal.
    assert ours[:33 + 21] == theirs[:33 + 21] and b"pHYs" in ours[33:54]
    with Image.open(io.BytesIO(ours)) as a, Image.open(io.BytesIO(theirs)) as b:
        assert a.tobytes() == b.tobytes() and a.info.get("dpi") == b.info.get("dpi")


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract not installed (apt-get install tesseract-ocr)")
def test_page_ocr_reads_the_same_lines_from_either_png() -> None:
    from pagelens.ocr import create_ocr_engine

    engine = create_ocr_engine(IngestSettings(ocr="tesseract"), lambda m: None)
    assert engine is not None
    pix = _page_render()
    ours, theirs = engine.recognize(ocr_page.page_png(pix)), engine.recognize(pix.tobytes("png"))
    assert [(ln.text, ln.bbox, ln.confidence, ln.block) for ln in ours] == [
        (ln.text, ln.bbox, ln.confidence, ln.block) for ln in theirs
    ]
    assert "Scanned" in " ".join(ln.text for ln in ours)
