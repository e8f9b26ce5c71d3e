"""Tesseract parameters on the in-process engine (issue 12: which knobs cut CPU at the same words).

bench/ocr_knobs.py measured the candidates on the dev corpus; none that keeps the words saved CPU
beyond noise, so the defaults stay. These tests hold the parameter path itself: a parameter changes
what is read, an unknown one is a one-line error, and cached results never cross parameter sets.
"""

from __future__ import annotations

import pymupdf
import pytest

from pagelens.errors import PagelensError
from pagelens.ocr.tesseract_lib import TesseractLibOcrEngine

from ocr_support import requires_library

TOP = "Harbour cranes lifted forty containers"
INVERTED = "Quarterly revenue grew seventeen"

pytestmark = requires_library


def banner_png() -> bytes:
    """Black text on white, then a black banner with white text (a slide title bar, a table header)."""
    with pymupdf.open() as doc:
        page = doc.new_page(width=360, height=160)
        page.draw_rect(page.rect, color=None, fill=(1, 1, 1))
        page.insert_text((20, 40), TOP, fontname="helv", fontsize=14)
        page.draw_rect(pymupdf.Rect(15, 70, 345, 100), color=None, fill=(0, 0, 0))
        page.insert_text((20, 90), INVERTED, fontname="helv", fontsize=14, color=(1, 1, 1))
        return page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).tobytes("png")


def test_default_reads_white_on_black_text_and_the_invert_pass_is_what_reads_it() -> None:
    png = banner_png()
    default = [ln.text for ln in TesseractLibOcrEngine("eng").recognize(png)]
    no_invert = [ln.text for ln in TesseractLibOcrEngine("eng", variables={"tessedit_do_invert": "0"}).recognize(png)]
    assert TOP in default and INVERTED in default
    # The parameter reaches every API: without the inverted-text pass the banner is not read.
    assert TOP in no_invert
    assert not any("revenue" in t or "seventeen" in t for t in no_invert)


def test_an_unknown_parameter_is_one_line_naming_it() -> None:
    with pytest.raises(PagelensError) as err:
        TesseractLibOcrEngine("eng", variables={"tessedit_no_such_knob": "1"})
    msg = str(err.value)
    assert "tessedit_no_such_knob" in msg and "\n" not in msg


def test_cached_results_do_not_cross_parameter_sets() -> None:
    plain = TesseractLibOcrEngine("eng")
    again = TesseractLibOcrEngine("eng", variables={})
    tuned = TesseractLibOcrEngine("eng", variables={"tessedit_do_invert": "0"})
    assert plain.cache_id == again.cache_id  # no parameters: results cached before this change stay valid
    assert tuned.cache_id != plain.cache_id and "tessedit_do_invert=0" in tuned.cache_id
