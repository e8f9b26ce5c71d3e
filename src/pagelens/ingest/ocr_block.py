"""A scanned page whose automatic layout analysis left most of its print unread, read again as one block.

Tesseract's automatic page segmentation (PSM 3) finds blocks of text before it reads them. On a dense
page of small print in columns (a bank statement scanned at 120 dpi: dates, descriptions and amounts an
inch apart) it finds few of them, and what it reads is a third of the page: the statement's amounts
came out as "26, 732,000.20" and most rows not at all. Read as one uniform block of text (PSM 6), the
same image gave 20 of its 23 amounts whole. On ordinary pages the automatic layout is the better read
(it keeps columns apart; one block once reduced a bordered table to its header), so the second read is
asked only where the first left most of the page's ink outside every word it read (``MISSED_INK``),
and it is kept only where it reads clearly more confident characters (``BETTER``): a general
measure of the read, not of any document. The block read's lines come as one paragraph; they are cut
into blocks where the gap to the next line is taller than a line (``split_blocks``), as the
automatic layout would have cut them.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Callable

import pymupdf

from pagelens.errors import PagelensError
from pagelens.ocr.cache import recognize, supports_block
from pagelens.ocr.protocol import OcrLine

DARK = 110  # gray level below which a pixel is ink
PAD = 3  # px around each line box that still counts as read (descenders, anti-aliasing)
MIN_INK = 0.002  # share of the page's pixels that must be ink before a page counts as printed
MISSED_INK = 0.5  # share of the ink outside every read line above which the page is read again
BETTER = 1.25  # the block read is kept when it reads this many times the confident characters
CONFIDENT = 0.6  # a word read at least this surely counts


def missed_ink(pix: pymupdf.Pixmap, lines: list[OcrLine]) -> float:
    """Share of the gray page image's ink pixels that lie outside every line box (0 on a blank page)."""
    import numpy as np

    if pix.n != 1 or pix.alpha:
        return 0.0
    arr = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, : pix.width]
    ink = arr < DARK
    total = int(ink.sum())
    if total < MIN_INK * pix.width * pix.height:
        return 0.0
    read = np.zeros_like(ink)
    for ln in lines:
        x0, y0, x1, y1 = (int(v) for v in ln.bbox)
        read[max(y0 - PAD, 0) : y1 + PAD, max(x0 - PAD, 0) : x1 + PAD] = True
    return float((ink & ~read).sum()) / total


def confident_chars(lines: list[OcrLine]) -> int:
    """Letters and digits of the words read at least ``CONFIDENT`` surely (of the line where no words)."""
    n = 0
    for ln in lines:
        words = ln.words or ()
        if words:
            n += sum(sum(ch.isalnum() for ch in w.text) for w in words if w.confidence >= CONFIDENT)
        elif ln.confidence >= CONFIDENT:
            n += sum(ch.isalnum() for ch in ln.text)
    return n


def split_blocks(lines: list[OcrLine]) -> list[OcrLine]:
    """The lines of one block read cut into paragraphs where a gap taller than the median line opens."""
    if not lines:
        return lines
    height = statistics.median(ln.bbox[3] - ln.bbox[1] for ln in lines)
    out, block = [], 0
    for i, ln in enumerate(lines):
        if i and ln.bbox[1] - lines[i - 1].bbox[3] > height:
            block += 1
        out.append(dataclasses.replace(ln, block=block))
    return out


def reread_as_block(engine, png: Callable[[], bytes], pix: pymupdf.Pixmap, lines: list[OcrLine], kept: list[OcrLine]
                    ) -> list[OcrLine]:
    """``lines`` (the automatic layout's read of the page image ``pix``, whose PNG ``png`` makes; ``kept``:
    those that count), or
    the page read as one block when the first read missed most of the ink and the block read is
    clearly better."""
    if not supports_block(engine) or missed_ink(pix, kept) <= MISSED_INK:
        return lines
    try:
        other = recognize(engine, png(), block=True)
    except PagelensError:
        return lines
    if confident_chars(other) >= BETTER * max(confident_chars(kept), 1):
        return split_blocks(other)
    return lines
