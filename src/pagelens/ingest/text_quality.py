"""How usable a page's text layer is: unmapped glyphs, broken font encodings, dot leaders, and OCR layers
that spell words letter by letter or break them apart (``text_quality``). ``ocr_page.needs_ocr`` reads a
page again by OCR on these counts."""

from __future__ import annotations

import re

# Characters that say a glyph had no Unicode mapping: U+FFFD, private-use area, C0/C1 controls.
_BAD = re.compile(r"[\ufffd\ue000-\uf8ff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# A broken font encoding shows as accented Latin letters mixed, inside one word, with symbols that do
# not occur inside words (redp5110 page 3: "°ê£ë†£ûÜüéê"). Real accented words (Größe, Loïc,
# «été») do not mix the two; math (adam.pdf's "↵", "✓t−1") uses neither accented letters nor these.
_ACCENTED = re.compile(r"[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f]")
_ODD = re.compile(r"[\u00a2-\u00a9\u00ae\u00af\u00b1-\u00b6\u00b8-\u00b9\u00bc-\u00be\u00d7\u00f7\u0192"
                  r"\u02c6-\u02dd\u2020-\u2022\u2030-\u205e\u2200-\u22ff]")
_ALNUM_OR_OTHER = re.compile(r"[^\x00-\x7f\s]|[A-Za-z0-9]")
# Thresholds (fractions of the page's non-space characters).
GARBLED_FRACTION = 0.1
GARBLED_CHARS = 300
BAD_FRACTION = 0.25
MIN_ALNUM_FRACTION = 0.5
GARBLED_LINE_SHARE = 0.3  # a line is garbled when garbled words make up this share of it
# An OCR text layer that spells words letter by letter ("C r o w l e y M a r i t i m e Corp."): its words
# match no question and its word boxes make no columns. On a page that is one scanned image, a layer with
# this share of its letters in such runs is read again by our OCR (born-digital pages keep theirs: spaced
# headings, "S U M M A R Y", are a style there).
SPACED_FRACTION = 0.3
_SPACED_RUN = re.compile(r"(?<!\S)(?:[^\W\d_] ){2,}[^\W\d_](?!\S)")  # three or more single letters in a row
# A layer whose words are broken at a letter or two ("Tarn Valley W ater Board", "L eak ag e an d", "Black
# M oss"): its glyphs were placed one by one, narrower than the scan's letters, so gaps fall inside words.
# Such a layer shows as words of one or two letters that are not words: on the scans of the development
# corpora whose layers read well, at most 3% of the words; broken layers 9-14%. A scan (one image over the
# page) whose layer has FRAGMENT_FRACTION of its words (and FRAGMENT_MIN of them) such fragments is read
# again by our OCR.
FRAGMENT_FRACTION = 0.06
FRAGMENT_MIN = 6
_SHORT_WORDS = frozenset(
    "a i o an as at be by do go he if in is it me my no of on or so to up us we am ok oh ah mr dr st vs"
    " ie eg ii iv vi uk eu un de la le du en et il au ce ne se sa ou da di al el lo su ya y e zu im ob um"
    " er es da".split()
)


class TextQuality:
    """Counts over a page's text layer: ``total`` non-space characters, of which ``readable`` usable."""

    __slots__ = ("total", "bad", "garbled", "alnum_fraction", "spaced_fraction", "fragments", "words")

    def __init__(self, total: int, bad: int, garbled: int, alnum_fraction: float, spaced_fraction: float = 0.0,
                 fragments: int = 0, words: int = 0) -> None:
        self.total = total
        self.bad = bad
        self.garbled = garbled
        self.alnum_fraction = alnum_fraction
        self.spaced_fraction = spaced_fraction  # share of the letters spelt one by one ("C r o w l e y")
        self.fragments = fragments  # words of one or two letters that are no word ("W ater", "M oss")
        self.words = words

    @property
    def broken_words(self) -> bool:
        """Whether the layer breaks its words apart ("L eak ag e an d res erv o irs")."""
        return self.fragments >= FRAGMENT_MIN and self.fragments >= FRAGMENT_FRACTION * max(self.words, 1)

    @property
    def readable(self) -> int:
        return max(0, self.total - self.bad - self.garbled)

    @property
    def is_garbage(self) -> bool:
        n = max(self.total, 1)
        return (
            self.bad / n >= BAD_FRACTION
            or self.garbled / n >= GARBLED_FRACTION
            or self.garbled >= GARBLED_CHARS
            or self.alnum_fraction < MIN_ALNUM_FRACTION
        )

    def __repr__(self) -> str:
        return (f"TextQuality(total={self.total}, bad={self.bad}, garbled={self.garbled}, "
                f"alnum_fraction={self.alnum_fraction:.2f})")


def text_quality(text_dict: dict) -> TextQuality:
    """Measure a ``page.get_text("dict")`` result (the PageContext's ``text``)."""
    lines = [
        "".join(span["text"] for span in line["spans"])
        for block in text_dict.get("blocks", ())
        if block.get("type") == 0
        for line in block["lines"]
    ]
    text = "\n".join(lines)
    total = len(text) - text.count(" ") - text.count("\n")
    if total <= 0:
        return TextQuality(0, 0, 0, 0.0)
    bad = len(_BAD.findall(text))
    garbled = 0
    if _ODD.search(text) and len(_ACCENTED.findall(text)) >= 2:  # fast path: most pages stop here
        for line in lines:
            words = line.split()
            hit = sum(len(w) for w in words if _ODD.search(w) and len(_ACCENTED.findall(w)) >= 2)
            size = sum(len(w) for w in words)
            if hit and hit >= GARBLED_LINE_SHARE * size:
                garbled += size
    # Letters/digits among the characters that are not ASCII punctuation (dot leaders, rules).
    chars = _ALNUM_OR_OTHER.findall(text)
    alnum = sum(map(str.isalnum, chars))  # the same count, without a generator step per character
    alnum_fraction = alnum / len(chars) if chars else 0.0
    spaced = sum(len(m.group(0)) // 2 + 1 for m in _SPACED_RUN.finditer(text)) if " " in text else 0
    words = text.split()
    fragments = sum(1 for w in words if len(w) <= 2 and w.isalpha() and w.lower() not in _SHORT_WORDS)
    return TextQuality(total, bad, garbled, alnum_fraction, spaced / alnum if alnum else 0.0, fragments, len(words))
