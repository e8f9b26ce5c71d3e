"""Which OCR passes a figure gets, decided from cheap signals (issue 12).

Measured on the dev corpus (bench/ocr.py): 16 figures took 33 Tesseract passes — one upright pass each
plus two rotated passes (-90° for y-axis titles, -45° for slanted category labels) on the 9 that read
a few words. Only the chart passes added text (the -45° pass reads the land-use categories of
sp-figure-chart-and-map, which a question asks about); the others read nothing new:

- ``background_text``: a raster with a lot of text-layer text inside its region is cover art or a
  background behind the text (redp5110's covers: the upright pass read back the text layer verbatim).
  Skipped before any OCR.
- ``is_blank``: an image that is (almost) one colour holds no text. Skipped after decoding, before OCR.
- ``looks_like_chart``: rotated passes only when the upright pass read axis ticks (several lines that
  are numbers); screenshots, labelled photos and logos with a few words read nothing rotated.
- ``rotations``: the slanted (-45°) pass only when the upright pass read no word at all, only numbers
  (bench/ocr_account.py, dev corpus + realdocs, 6 charts): it read words on one chart, the land-use
  categories of sp-figure-chart-and-map, whose upright pass read nothing but ticks; on the 5 charts
  whose upright pass read words (axis titles, legends, map labels) it read nothing and cost 1.45 CPU-s
  (dev 0.45, realdocs 1.0, image prep included). The -90° pass (y-axis titles) read new words on 3 of
  the 6 and stays.
"""

from __future__ import annotations

import re
from typing import Any

from pagelens.models import Element
from pagelens.ocr.protocol import OcrLine

# A raster figure whose region holds this much text-layer text is a background: its words are there.
BACKGROUND_TEXT_CHARS = 200
# Blank: under this fraction of the pixels differs from the image's most common grey by INK_DELTA.
BLANK_INK_FRACTION = 0.002
INK_DELTA = 64
# A chart: at least this many of the upright lines are numbers (tick labels, scale values).
CHART_NUMBER_LINES = 3

# A word for ``rotations``: three letters in a row (not a tick, not OCR noise like "ee" or "|").
_WORD = re.compile(r"[^\W\d_]{3,}")
SLANTED = -45

_NUMBER_LINE = re.compile(r"^[-+−–(]?[$€£]?\d[\d.,]*\s*[%)kKmM]?$")


def background_text(e: Element) -> bool:
    """The figure's region already carries this much born-digital text (see the module doc)."""
    fig = e.figure
    return fig is not None and fig.source == "raster" and len((fig.inner_text or "").strip()) >= BACKGROUND_TEXT_CHARS


def is_blank(gray: Any) -> bool:
    """``gray`` is a PIL 'L' image; True when almost no pixel stands out from the background grey."""
    hist = gray.histogram()
    total = sum(hist) or 1
    bg = max(range(256), key=hist.__getitem__)
    ink = sum(n for v, n in enumerate(hist) if abs(v - bg) >= INK_DELTA)
    return ink / total < BLANK_INK_FRACTION


def looks_like_chart(lines: list[OcrLine]) -> bool:
    """Several lines that are bare numbers: the ticks of a value axis or a map's scale."""
    return sum(1 for ln in lines if _NUMBER_LINE.match(ln.text.strip())) >= CHART_NUMBER_LINES


def rotations(lines: list[OcrLine], angles: tuple[int, ...]) -> tuple[int, ...]:
    """The rotated passes a chart gets, given its upright lines: the slanted one only when the upright
    pass read no word — slanted category labels are what it could not read (see the module doc)."""
    if any(_WORD.search(ln.text) for ln in lines):
        return tuple(a for a in angles if a != SLANTED)
    return angles
