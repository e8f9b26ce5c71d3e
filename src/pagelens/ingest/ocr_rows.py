"""Rows of a scanned page read from the OCR engine's word boxes (``ocr_tables`` and ``ocr_forms`` read them).

Each OCR line's words (``OcrLine.words``, in PDF points) lose what a scanner's speckle reads as words
(``clean_words``: ":", "©", "ae", "Se" between columns, a box's border read as "E" or "[2"); lines set side by
side on one row of the page are joined (the engine reads a table's value column, or a form's second box, as a
block of its own: ``ocr_rows``), and each row is cut into cells at wide gaps (``cells``), as ``table_segments``
cuts a text layer's lines.
"""


import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import pymupdf

from pagelens.ingest.table_cells import Word
from pagelens.ingest.table_segments import Line, line_of
from pagelens.ocr.protocol import OcrLine

COLUMN_GAP = 1.5  # a gap this many line heights wide parts two cells of a text table or a form line
NOISE_CONFIDENCE = 0.5  # a short word read with less confidence, alone between gaps, is speckle
NOISE_CHARS = 4
TALL = 1.8  # a one- or two-character word this much taller than the line is a rule or a box's border
SMALL = 0.5  # a word under this share of the line's height, read unsure, is a speck
SURE = 0.8  # a word without letters or digits read with less confidence is speckle or a rule
_ALNUM = re.compile(r"[^\W_]")


@dataclass
class OcrRow:
    """A row of the page: one or more OCR lines side by side (``lines``, indices into the page's lines; ``index``
    the first), their words in PDF points (noise dropped), cut into segments."""

    index: int
    words: list[Word]
    confidences: list[float]
    cut: Line
    lines: tuple[int, ...] = ()  # every OCR line joined into this row

    # The row's box is its cut line's (``line_of`` keeps the same words).
    @property
    def y0(self) -> float:
        return self.cut.y0

    @property
    def y1(self) -> float:
        return self.cut.y1

    @property
    def x0(self) -> float:
        return self.cut.x0

    @property
    def x1(self) -> float:
        return self.cut.x1

    @property
    def height(self) -> float:
        return text_height(self.words)


def text_height(words: Sequence[Word]) -> float:
    """Median height of the words with two or more letters/digits (a '|' or a speck says nothing of the size)."""
    hs = [w[3] - w[1] for w in words if len(_ALNUM.findall(w[4])) >= 2] or [w[3] - w[1] for w in words]
    return max(statistics.median(hs), 1.0) if hs else 1.0


def clean_words(words: list[Word], confidences: list[float]) -> tuple[list[Word], list[float]]:
    """``words`` (one OCR line, left to right) without what speckle and box borders read as words: no
    letter or digit read unsure (":", "©") or far taller than the line ("|"), a one- or two-character word
    far taller than the line (a border: "E", "[2") or far smaller and unsure (a speck: "3"), and a short
    word read unsure alone between wide gaps ("Saat", "ae", "on" between two columns)."""
    words, confidences = _unframed(words, confidences)
    if not words:
        return [], []
    h = text_height(words)
    gap = max(3.5, 0.5 * h)
    keep: list[int] = []
    for i, (w, c) in enumerate(zip(words, confidences)):
        alnum = len(_ALNUM.findall(w[4]))
        height = w[3] - w[1]
        if alnum == 0 and (c < SURE or height > TALL * h):
            continue  # a sure sign ("(£)", "%", a nil cell's dash) stays
        if alnum <= 2 and (height > TALL * h or (height < SMALL * h and c < NOISE_CONFIDENCE)):
            continue
        keep.append(i)
    out: list[int] = []
    for k, i in enumerate(keep):
        w, c = words[i], confidences[i]
        if len(w[4]) <= NOISE_CHARS and c < NOISE_CONFIDENCE:
            left = words[keep[k - 1]][2] if k > 0 else None
            right = words[keep[k + 1]][0] if k + 1 < len(keep) else None
            if (left is None or w[0] - left > gap) and (right is None or right - w[2] > gap) and len(keep) > 1:
                continue
        out.append(i)
    return [words[i] for i in out], [confidences[i] for i in out]


def _unframed(words: list[Word], confidences: list[float]) -> tuple[list[Word], list[float]]:
    """Words without the strokes of boxes and rules read as characters: a word of only '|', '[', ']' is
    dropped, and a bracket without its partner is cut off a word's end ("9]", "[2")."""
    out: list[Word] = []
    confs: list[float] = []
    for w, c in zip(words, confidences):
        text = w[4]
        if not text.strip("|[]"):
            continue
        if "[" not in text:
            text = text.rstrip("]")
        if "]" not in text:
            text = text.lstrip("[")
        text = text.strip("|")
        out.append((*w[:4], text, *w[5:]) if text != w[4] else w)
        confs.append(c)
    return out, confs


def ocr_rows(lines: list[OcrLine], to_pdf: pymupdf.Matrix) -> list[OcrRow]:
    """The lines' words in PDF points, cleaned, lines set side by side on one row of the page joined
    (the engine reads a table's columns, or a form's boxes, as blocks of their own), each row cut into
    segments; top to bottom. Lines without word boxes are left out."""
    pieces: list[tuple[int, list[Word], list[float]]] = []
    for i, ln in enumerate(lines):
        words: list[Word] = []
        confs: list[float] = []
        for k, w in enumerate(ln.words):
            r = pymupdf.Rect(w.bbox) * to_pdf
            words.append((r.x0, r.y0, r.x1, r.y1, w.text, ln.block, i, k))
            confs.append(w.confidence)
        words, confs = clean_words(words, confs)
        if words:
            pieces.append((i, words, confs))
    groups: list[list[tuple[int, list[Word], list[float]]]] = []
    for piece in sorted(pieces, key=lambda p: (_ext(p[1])[1] + _ext(p[1])[3]) / 2):
        best, score = None, 0.0
        for g in groups[-8:]:
            ov = min(_same_row(_ext(piece[1]), _ext(q[1])) for q in g)
            if ov > score and not any(_x_overlap(_ext(piece[1]), _ext(q[1])) for q in g):
                best, score = g, ov
        if best is not None:
            best.append(piece)
        else:
            groups.append([piece])
    out: list[OcrRow] = []
    for g in groups:
        words = sorted((w for p in g for w in p[1]), key=lambda w: w[0])
        confs = [c for p in sorted(g, key=lambda p: _ext(p[1])[0]) for c in p[2]]
        cut = line_of(words)
        if cut is not None:
            out.append(OcrRow(min(p[0] for p in g), words, confs, cut, tuple(sorted(p[0] for p in g))))
    out.sort(key=lambda r: (r.y0, r.x0))
    return out


def _ext(words: list[Word]) -> tuple[float, float, float, float]:
    return (min(w[0] for w in words), min(w[1] for w in words), max(w[2] for w in words), max(w[3] for w in words))


def _same_row(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Vertical overlap of two boxes as a share of the lower one's height; 0 under half of it."""
    share = (min(a[3], b[3]) - max(a[1], b[1])) / max(min(a[3] - a[1], b[3] - b[1]), 1.0)
    return share if share >= 0.5 else 0.0


def _x_overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0


def cells(row: OcrRow) -> list[tuple[float, float, str]]:
    """(x0, x1, text) of the row's cells: its segments joined where the gap between them is under
    ``COLUMN_GAP`` line heights."""
    h = row.height
    out: list[list] = []
    for s in row.cut.segments:
        if out and s.x0 - out[-1][1] < COLUMN_GAP * h:
            out[-1][1] = s.x1
            out[-1][2] = f"{out[-1][2]} {s.text}"
        else:
            out.append([s.x0, s.x1, s.text])
    return [(a, b, t) for a, b, t in out]
