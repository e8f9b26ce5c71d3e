"""Amounts that OCR split at a separator, joined again: "26, 752,000.00" → "26,752,000.00".

Small print read from a low-resolution scan often comes back with a space after a thousands
separator or a decimal point ("25, 550,000.00", "12,849,426. 92"): two words where the page prints one
amount, which no question's "26,752,000" then matches and no table cell holds whole. Two words of a
line are joined when the first is a digit group that ends in the separator and the second continues
the amount in the form amounts take (three digits after a thousands separator, then more groups or a
decimal part; two digits after a decimal point that follows a thousands group), and they stand
closer than a character's width. Nothing else about the words changes.
"""

from __future__ import annotations

import dataclasses
import re

from pagelens.ocr.protocol import OcrLine, OcrWord

_LEFT_THOUSANDS = re.compile(r"^[(\-–$€£]?(\d{1,3})(,\d{3})*,$")
_RIGHT_THOUSANDS = re.compile(r"^\d{3}(?:,\d{3})*(?:[.,]\d+)[)%]?[,;.]?$|^\d{3}(?:,\d{3})+[)%]?[,;.]?$")
_LEFT_DECIMAL = re.compile(r"^[(\-–$€£]?\d{1,3}(,\d{3})+\.$")
_RIGHT_DECIMAL = re.compile(r"^\d{2}\b")


def _joins(a: OcrWord, b: OcrWord) -> bool:
    gap = b.bbox[0] - a.bbox[2]
    height = max(a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1], 1.0)
    if gap > 0.8 * height:
        return False
    return bool((_LEFT_THOUSANDS.match(a.text) and _RIGHT_THOUSANDS.match(b.text))
                or (_LEFT_DECIMAL.match(a.text) and _RIGHT_DECIMAL.match(b.text)))


def mend_line(line: OcrLine) -> OcrLine:
    """``line`` with each amount split in two words joined into one word (its text rebuilt)."""
    if len(line.words) < 2:
        return line
    words: list[OcrWord] = []
    changed = False
    for w in line.words:
        if words and _joins(words[-1], w):
            a = words[-1]
            box = (a.bbox[0], min(a.bbox[1], w.bbox[1]), w.bbox[2], max(a.bbox[3], w.bbox[3]))
            words[-1] = OcrWord(a.text + w.text, box, min(a.confidence, w.confidence))
            changed = True
        else:
            words.append(w)
    if not changed:
        return line
    return dataclasses.replace(line, text=" ".join(w.text for w in words), words=tuple(words))


def mend_amounts(lines: list[OcrLine]) -> list[OcrLine]:
    return [mend_line(ln) for ln in lines]
