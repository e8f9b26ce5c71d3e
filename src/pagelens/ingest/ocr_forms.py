"""Form fields on scanned pages, read from the rows of OCR words (``ocr_rows``).

A line of short labels ("1. Surname   2. Forenames") with a line of values set larger right under it (what was
typed or written in the boxes) pairs each value with the label it starts under; a label followed on its line
by a value set larger ("Permit issued no. 3068") is a field too. A page needs ``MIN_FIELDS`` of them. On such
a page, a line of labels with room under it and nothing read there (a box whose writing the whole-page read
garbled and dropped) has each label's column read again on its own, its box's rules whitened first
(``ocr_page._reader``).
"""


import re
from collections.abc import Callable
from dataclasses import dataclass

import pymupdf

from pagelens.ingest.ocr_rows import OcrRow, cells, text_height

MIN_FIELDS = 4  # form fields a page needs before any is read as one
VALUE_SIZE = 1.2  # values set (typed, written) at least this much taller than their labels
LABEL_WORDS = 6
INLINE_GAP = 1.0  # label heights between a label and the value after it on its line, at least
FIELD_SHARE = 0.3  # share of the page's lines the fields must be made of
REREAD_ROOM = 2.5  # label heights of room under a line of labels on a form for a value read again there
REREAD_REACH = 5.0  # label heights under the labels read again at most
MAX_REREAD = 4  # labels on a line read again at most
_LABEL = re.compile(r"^(?:\d{1,2}[.)]\s*)?[A-Z]")
_NUMBER = re.compile(r"^\d{1,2}[.)]\s*")


# -- form fields -----------------------------------------------------------------------------------
Reread = Callable[[pymupdf.Rect], str]


@dataclass
class OcrField:
    label: str
    value: str
    bbox: pymupdf.Rect
    rows: list[OcrRow]


def _label(text: str) -> bool:
    return bool(_LABEL.match(text)) and len(text.split()) <= LABEL_WORDS and sum(c.isalpha() for c in text) >= 2


def _cell_height(row: OcrRow, a: float, b: float) -> float:
    return text_height([w for w in row.words if a - 0.5 <= (w[0] + w[2]) / 2 <= b + 0.5])


def form_fields(rows: list[OcrRow], reread: Reread | None = None, right: float = 0.0) -> list[OcrField]:
    """Labels with the values set larger under them or after them on their line (module doc); [] unless
    the page holds ``MIN_FIELDS`` with distinct labels. On such a page, ``reread`` (the text the engine reads
    in a region of the page, PDF points) is asked for what is written under a line of labels that has
    room for a value below it but no line read there (a box whose writing the whole-page read lost);
    ``right``: the right edge of the page's text (the last label's box reaches there)."""
    out: list[OcrField] = []
    used: set[int] = set()
    for k, row in enumerate(rows):
        if row.index in used:
            continue
        cs = cells(row)
        if not cs or not all(_label(t) for _, _, t in cs):
            continue
        h = row.height
        below = next((r for r in rows[k + 1 :] if r.y0 > row.y1 - 0.3 * h), None)
        if (below is not None and below.index not in used and below.y0 - row.y1 < 1.5 * max(h, below.height)
                and below.height >= VALUE_SIZE * h and not (below.x1 <= cs[0][0] or below.x0 >= cs[-1][1] + 4 * h)):
            vals = cells(below)
            got: list[list[str]] = [[] for _ in cs]
            for a, _b, t in vals:
                starts = [j for j, (x0, _, _) in enumerate(cs) if x0 - 2 * h <= a]
                got[starts[-1] if starts else 0].append(t)
            for (a, b, t), v in zip(cs, got):
                box = pymupdf.Rect(a, row.y0, b, row.y1) | pymupdf.Rect(below.x0, below.y0, below.x1, below.y1) \
                    if v else pymupdf.Rect(a, row.y0, b, row.y1)
                out.append(OcrField(t, " ".join(v), box, [row, below]))
            used |= {row.index, below.index}
    for row in rows:
        if row.index in used:
            continue
        cs = [(sg.x0, sg.x1, sg.text) for sg in row.cut.segments]
        pairs: list[OcrField] = []
        j = 0
        while j < len(cs):
            a, b, t = cs[j]
            if not _label(t):
                break
            size = VALUE_SIZE * _cell_height(row, a, b)
            k = j + 1  # the value: the segments after the label set larger than it ("PJ." "Devlin")
            while k < len(cs) and _cell_height(row, cs[k][0], cs[k][1]) >= size:
                k += 1
            if k > j + 1 and cs[j + 1][0] - b >= INLINE_GAP * _cell_height(row, a, b):
                value = " ".join(c[2] for c in cs[j + 1 : k])
                pairs.append(OcrField(t, value, pymupdf.Rect(a, row.y0, cs[k - 1][1], row.y1), [row]))
                j = k
            elif j + 1 == len(cs) and pairs:
                pairs.append(OcrField(t, "", pymupdf.Rect(a, row.y0, b, row.y1), [row]))  # a blank field last on its line
                j += 1
            else:
                break
        if pairs and j == len(cs):
            out.extend(pairs)
            used.add(row.index)
    names = [name(f.label).lower() for f in out]
    if len({r.index for f in out for r in f.rows}) < FIELD_SHARE * len(rows):
        return []  # a few lines of a page of running text (an illustration's edge cutting lines short)
    if len(out) < MIN_FIELDS or len(set(names)) < 0.8 * len(names) or sum(bool(f.value) for f in out) < 2:
        return []
    if reread is not None:
        out += _reread_boxes(rows, used, reread, right)
    return out


def _reread_boxes(rows: list[OcrRow], used: set[int], reread: Reread, right: float) -> list[OcrField]:
    """Fields of label lines with an empty-looking space under them, read again region by region (each
    label's column, from under the label down to the next line): the whole-page read can lose a value
    written in a box (the box's rules and the writing read as one garbled line, dropped as unsure)."""
    out: list[OcrField] = []
    for k, row in enumerate(rows):
        cs = cells(row)
        if row.index in used or not cs or len(cs) > MAX_REREAD or not all(_label(t) for _, _, t in cs):
            continue
        h = row.height
        below = next((r for r in rows[k + 1 :] if r.y0 > row.y1 - 0.3 * h), None)
        bottom = min(below.y0, row.y1 + REREAD_REACH * h) if below is not None else row.y1 + REREAD_REACH * h
        if bottom - row.y1 < REREAD_ROOM * h:
            continue  # the next line right under the labels: nothing written between
        for j, (a, b, t) in enumerate(cs):
            x1 = cs[j + 1][0] - h if j + 1 < len(cs) else max(right, b)
            box = pymupdf.Rect(a - 0.5 * h, row.y1 + 0.1 * h, x1, bottom - 0.1 * h)
            text = " ".join(w for w in reread(box).split() if w.strip("|[]"))  # a box's side left over
            if text and len(text.split()) <= LABEL_WORDS * 2:
                out.append(OcrField(t, text, pymupdf.Rect(a, row.y0, x1, bottom), [row]))
    return out


def name(label: str) -> str:
    """A printed label without its item number and colon ("1. Surname:" → "Surname")."""
    return _NUMBER.sub("", label).rstrip(":").strip()
