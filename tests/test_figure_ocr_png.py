"""Figure OCR hands the engine an uncompressed PNG (ingest/ocr_page._png): the same pixels, so the
same words, without deflating an upscaled image the engine unpacks at once."""

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
