"""A scanned page whose automatic layout left most of its print unread is read again as one block
(``pagelens.ingest.ocr_block``), and amounts OCR split at a separator are joined (``ocr_numbers``).

The decision is tested with a fake engine over a real rendered page (its ink measured on the pixels);
the block mode itself with the real Tesseract, whose cache keeps the two reads apart."""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest

from pagelens.ingest import ocr_block
from pagelens.ingest.ocr_numbers import mend_line
from pagelens.ocr import CachedOcrEngine
from pagelens.ocr.protocol import OcrLine, OcrWord
from pagelens.store.catalog import Catalog

ROWS = [f"0{d}/04  TRSF E-BANKING DB  {d}{d},{d}50,000.00 DB  {d},{d}49,426.92" for d in range(1, 10)]


def _page_pixmap() -> pymupdf.Pixmap:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    for i, row in enumerate(ROWS):
        page.insert_text((20, 30 + 26 * i), row, fontsize=11)
    return page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY, alpha=False)


def _line(text: str, y: float, conf: float = 0.9, x0: float = 40.0) -> OcrLine:
    words, x = [], x0
    for w in text.split():
        words.append(OcrWord(w, (x, y, x + 11 * len(w), y + 22), conf))
        x += 11 * len(w) + 11
    return OcrLine(text, (x0, y, x, y + 22), conf, 0, tuple(words))


class FakeEngine:
    """Reads one row in page mode (as the automatic layout did on the statement), every row as a block."""

    name = "fake"
    supports_block = True

    def __init__(self) -> None:
        self.calls: list[bool] = []

    def recognize(self, png: bytes, *, block: bool = False) -> list[OcrLine]:
        self.calls.append(block)
        rows = ROWS if block else ROWS[:1]
        return [_line(r, 62 + 54 * i) for i, r in enumerate(rows)]


def test_a_page_read_in_part_is_read_again_as_one_block_and_cut_into_paragraphs() -> None:
    pix = _page_pixmap()
    engine = FakeEngine()
    first = engine.recognize(b"")
    assert ocr_block.missed_ink(pix, first) > ocr_block.MISSED_INK  # eight of nine rows' ink unread
    got = ocr_block.reread_as_block(engine, lambda: b"png", pix, first, first)
    assert engine.calls == [False, True]
    assert [ln.text for ln in got] == ROWS
    assert len({ln.block for ln in got}) == len(ROWS)  # a gap taller than a line between rows: paragraphs


def test_a_page_whose_ink_was_read_is_not_read_again() -> None:
    pix = _page_pixmap()
    engine = FakeEngine()
    # boxes over the whole page: nothing left unread
    whole = [OcrLine("x", (0, 0, pix.width, pix.height), 0.9, 0, ())]
    assert ocr_block.missed_ink(pix, whole) == 0.0
    assert ocr_block.reread_as_block(engine, lambda: b"png", pix, whole, whole) is whole
    assert engine.calls == []


def test_the_block_read_is_kept_only_when_it_reads_clearly_more() -> None:
    pix = _page_pixmap()

    class NoBetter(FakeEngine):
        def recognize(self, png: bytes, *, block: bool = False) -> list[OcrLine]:
            self.calls.append(block)
            return [_line(ROWS[0], 62, conf=0.9 if not block else 0.3)]  # unsure reads count for nothing

    engine = NoBetter()
    first = engine.recognize(b"")
    assert ocr_block.reread_as_block(engine, lambda: b"png", pix, first, first) is first
    assert engine.calls == [False, True]


def test_engines_without_a_block_mode_are_not_asked() -> None:
    pix = _page_pixmap()

    class Plain:
        name = "plain"

        def recognize(self, png: bytes) -> list[OcrLine]:
            raise AssertionError("not asked")

    first = [_line(ROWS[0], 62)]
    assert ocr_block.reread_as_block(Plain(), lambda: b"png", pix, first, first) is first


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract not installed (apt-get install tesseract-ocr)")
def test_tesseract_reads_a_block_and_the_cache_keeps_both_reads(tmp_path: Path) -> None:
    from pagelens.ocr.tesseract import TesseractOcrEngine

    png = _page_pixmap().tobytes("png")
    catalog = Catalog(tmp_path / "catalog.sqlite3")
    engine = CachedOcrEngine(TesseractOcrEngine(), catalog)
    block = engine.recognize(png, block=True)
    page = engine.recognize(png)
    text = " ".join(ln.text for ln in block)
    assert "TRSF" in text and "E-BANKING" in text
    assert engine.misses == 2  # two modes, two entries
    assert engine.recognize(png, block=True) == block and engine.hits == 1
    assert page  # the automatic layout reads this clean page too


def test_amounts_split_at_a_separator_are_joined() -> None:
    def line(*words: tuple[str, float, float]) -> OcrLine:
        ws = tuple(OcrWord(t, (x0, 0, x1, 10), 0.9) for t, x0, x1 in words)
        return OcrLine(" ".join(w.text for w in ws), (ws[0].bbox[0], 0, ws[-1].bbox[2], 10), 0.9, 0, ws)

    got = mend_line(line(("26,", 0, 20), ("752,000.00", 24, 90), ("DB", 100, 110), ("12,849,426.", 120, 190),
                         ("92", 193, 205)))
    assert got.text == "26,752,000.00 DB 12,849,426.92"
    assert [w.text for w in got.words] == ["26,752,000.00", "DB", "12,849,426.92"]
    assert got.words[0].bbox == (0, 0, 90, 10)
    # a list of numbers, or words far apart, stay as they are
    for kept in (line(("pages", 0, 30), ("1,", 34, 40), ("200", 44, 60)), line(("26,", 0, 20), ("752,000.00", 80, 140)),
                 line(("items", 0, 30), ("3,", 34, 40), ("100", 44, 60), ("and", 64, 80))):
        assert mend_line(kept) == kept
