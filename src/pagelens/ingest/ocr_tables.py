"""Tables and form fields on scanned pages, read from the OCR engine's word boxes.

``ocr_page`` otherwise makes one text element per OCR paragraph, so a scanned table comes out as one
run of words ("Donor Address Amount (£) Mrs. E. Throssell Upper Weald Farm 25.00 Mr. and ...") and a
scanned form's labels and the values written under them as loose lines. Here each OCR line's words
(``OcrLine.words``, in PDF points) lose what a scanner's speckle reads as words (``clean_words``: ":",
"©", "ae", "Se" between columns, a box's border read as "E" or "[2"); lines set side by side on one row
of the page are joined (the engine reads a table's value column, or a form's second box, as a block of
its own: ``ocr_rows``), and each row is cut into cells at wide gaps, as ``table_segments`` cuts a text
layer's lines.

* **tables**: the whitespace-table finder of born-digital pages (``table_whitespace``: rows of values in
  columns) runs over the rows; then rows of short text cells set apart by wide gaps (a list of names,
  addresses and amounts, which has one column of values only) are read as a table when consecutive rows
  line up in the same columns (``text_tables``): ``MIN_ROWS`` data rows under the header filling two
  columns or more, every column filled in ``MIN_COLUMN_CELLS`` rows, cells of at most ``MAX_CELL_WORDS``
  words and a median of ``MAX_MEDIAN_WORDS`` (running text in columns joins into rows of long cells).
* **form fields** (``form_fields``): a line of short labels ("1. Surname   2. Forenames") with a line of
  values set larger right under it (what was typed or written in the boxes) pairs each value with the
  label it starts under; a label followed on its line by a value set larger ("Permit issued no. 3068")
  is a field too. A page needs ``MIN_FIELDS`` of them. On such a page, a line of labels with room under it
  and nothing read there (a box whose writing the whole-page read garbled and dropped) has each label's
  column read again on its own, its box's rules whitened first (``ocr_page._reader``).

Both work on the lines kept by ``ocr_page.keep_line``; the lines they use are left out of the page's text
elements, as a born-digital page's claimed regions are.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pymupdf

from pagelens.ingest.context import PageContext
from pagelens.ingest.table_cells import Grid, Word, detect_header
from pagelens.ingest.table_header import is_title
from pagelens.ingest.table_segments import Line, line_of
from pagelens.ingest.table_values import is_value, value_kind
from pagelens.ingest.table_whitespace import FoundTable, find_whitespace_tables
from pagelens.models import Element, ElementKind, FormFieldData, Provenance
from pagelens.ocr.protocol import OcrLine

MIN_ROWS = 3  # rows under the header with two or more filled cells a text table needs
TITLE_GAP = 2.5  # line heights between a table and the line above that names it, at most
WRAP_PITCH = 0.8  # a line without a first cell closer than this share of the row pitch continues the row above
MIN_COLUMN_CELLS = 2  # cells a text table's column holds at least
VALUE_SHARE = 0.6  # share of a column's cells that are values, for a column of values
MAX_CELL_WORDS = 6  # a cell of more words is running text
MAX_MEDIAN_WORDS = 4  # median words per filled cell of a text table
COLUMN_GAP = 1.5  # a gap this many line heights wide parts two cells of a text table or a form line
ROW_GAP = 2.5  # line heights between two rows of one text table at most
MIN_FILL = 0.5  # share of a text table's cells that must be filled

NOISE_CONFIDENCE = 0.5  # a short word read with less confidence, alone between gaps, is speckle
NOISE_CHARS = 4
TALL = 1.8  # a one- or two-character word this much taller than the line is a rule or a box's border
SMALL = 0.5  # a word under this share of the line's height, read unsure, is a speck
SURE = 0.8  # a word without letters or digits read with less confidence is speckle or a rule

MIN_FIELDS = 4  # form fields a page needs before any is read as one
VALUE_SIZE = 1.2  # values set (typed, written) at least this much taller than their labels
LABEL_WORDS = 6
INLINE_GAP = 1.0  # label heights between a label and the value after it on its line, at least
FIELD_SHARE = 0.3  # share of the page's lines the fields must be made of
REREAD_ROOM = 2.5  # label heights of room under a line of labels on a form for a value read again there
REREAD_REACH = 5.0  # label heights under the labels read again at most
MAX_REREAD = 4  # labels on a line read again at most
_ALNUM = re.compile(r"[^\W_]")
_LABEL = re.compile(r"^(?:\d{1,2}[.)]\s*)?[A-Z]")
_NUMBER = re.compile(r"^\d{1,2}[.)]\s*")


@dataclass
class OcrRow:
    """A row of the page: one or more OCR lines side by side (``lines``, indices into the page's lines; ``index``
    the first), their words in PDF points (noise dropped), cut into segments."""

    index: int
    words: list[Word]
    confidences: list[float]
    cut: Line
    lines: tuple[int, ...] = ()  # every OCR line joined into this row

    @property
    def y0(self) -> float:
        return min(w[1] for w in self.words)

    @property
    def y1(self) -> float:
        return max(w[3] for w in self.words)

    @property
    def x0(self) -> float:
        return min(w[0] for w in self.words)

    @property
    def x1(self) -> float:
        return max(w[2] for w in self.words)

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


# -- tables ----------------------------------------------------------------------------------------
@dataclass
class OcrTable:
    found: FoundTable
    rows: list[OcrRow]  # the OCR lines it is made of


def _row_like(cs: list[tuple[float, float, str]]) -> bool:
    return len(cs) >= 2 and all(len(t.split()) <= MAX_CELL_WORDS for _, _, t in cs)


def _text_table(block: list[tuple[OcrRow, list[tuple[float, float, str]]]]) -> FoundTable | None:
    spans: list[list[float]] = []
    for x0, x1 in sorted((a, b) for _, cs in block if len(cs) >= 2 for a, b, _ in cs):
        if spans and x0 < spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], x1)
        else:
            spans.append([x0, x1])
    if len(spans) < 2:
        return None
    grid: list[list[str]] = []
    steps = [b[0].y0 - a[0].y0 for a, b in zip(block, block[1:])]
    pitch = statistics.median(steps) if steps else 0.0
    prev: OcrRow | None = None
    for r, cs in block:
        row = [""] * len(spans)
        for a, b, t in cs:
            scores = [min(b, s[1]) - max(a, s[0]) for s in spans]
            j = max(range(len(spans)), key=lambda j: scores[j])
            row[j] = f"{row[j]} {t}".strip()
        if grid and prev is not None and not row[0] and r.y0 - prev.y0 < WRAP_PITCH * pitch:
            # the cells of the row above wrapped onto a second line, set closer than rows are
            grid[-1] = [" ".join(t for t in (u, v) if t) for u, v in zip(grid[-1], row)]
        else:
            grid.append(row)
        prev = r
    if min(sum(bool(r[j]) for r in grid) for j in range(len(spans))) < MIN_COLUMN_CELLS:
        return None  # a column of one cell: the words do not line up in columns (a stray word, a line of text)
    filled = [c for r in grid for c in r if c]
    if len(filled) < MIN_FILL * len(grid) * len(spans):
        return None
    if statistics.median(len(c.split()) for c in filled) > MAX_MEDIAN_WORDS:
        return None
    g = detect_header(Grid(cells=grid))
    if g.header_rows and any(value_kind(c) is not None and _values_column([r[j] for r in g.body])
                             for j, c in enumerate(grid[0])):
        g.header_rows = 0  # a column of amounts is named by words, not by an amount: a list without a header
    if sum(1 for r in g.body if sum(bool(c) for c in r) >= 2) < MIN_ROWS:
        return None  # a table has rows of data under its header, several of them filling two columns
    last = grid[-1]
    texts = [j for j, c in enumerate(last) if c and not is_value(c)]
    if len(grid) > g.header_rows + 1 and not last[0] and len(texts) == 1 and texts[0] < len(last) - 1:
        last[0], last[texts[0]] = last[texts[0]], ""  # a closing row's label set under a later column ("Total")
    used = [r for r, _ in block]
    bbox = pymupdf.Rect(min(r.x0 for r in used), min(r.y0 for r in used), max(r.x1 for r in used), max(r.y1 for r in used))
    return FoundTable(bbox=bbox, header=g.header, rows=g.body)


def _values_column(cells: list[str]) -> bool:
    """Most of a column's filled cells are values (amounts, numbers, a nil dash)."""
    filled = [c for c in cells if c]
    return bool(filled) and sum(value_kind(c) is not None for c in filled) >= VALUE_SHARE * len(filled)


def text_tables(rows: list[OcrRow]) -> list[OcrTable]:
    """Runs of lines with two or more short cells apart by wide gaps, in the same columns (module doc)."""
    out: list[OcrTable] = []
    block: list[tuple[OcrRow, list[tuple[float, float, str]]]] = []
    pending: list[tuple[OcrRow, list[tuple[float, float, str]]]] = []

    def close() -> None:
        if len(block) >= MIN_ROWS:
            found = _text_table(block)
            if found is not None:
                found.title = _title(rows, block[0][0], found.bbox)
                out.append(OcrTable(found, [r for r, _ in block]))
        block.clear()
        pending.clear()

    for row in rows:
        cs = cells(row)
        if block:
            x0, x1 = min(r.x0 for r, _ in block), max(r.x1 for r, _ in block)
            if row.x1 <= x0 or row.x0 >= x1:
                continue  # another column of the page, beside the table
            last = (pending or block)[-1][0]
            if row.y0 - last.y1 > ROW_GAP * max(row.height, last.height):
                close()
        if _row_like(cs):
            block.extend(pending)
            pending.clear()
            block.append((row, cs))
        elif block and len(cs) == 1 and len(cs[0][2].split()) <= MAX_CELL_WORDS and not pending:
            pending.append((row, cs))  # a row with one cell filled, if more rows follow
        else:
            close()
    close()
    return out


def _title(rows: list[OcrRow], first: OcrRow, box: pymupdf.Rect) -> str | None:
    """The line right above a table that names it (``table_header.is_title``, within ``TITLE_GAP`` line
    heights), as the whitespace finder takes one on born-digital pages; the line stays text too."""
    above = [r for r in rows if r.y1 <= first.y0 + 0.3 * first.height and r.x1 > box.x0 and r.x0 < box.x1]
    if not above:
        return None
    line = max(above, key=lambda r: r.y1)
    if first.y0 - line.y1 > TITLE_GAP * first.height or len(cells(line)) != 1 or not is_title(line.cut):
        return None
    return line.cut.text


def find_tables(rows: list[OcrRow], numeric: bool = True, text: bool = True) -> list[OcrTable]:
    """Tables among a scanned page's OCR lines: whitespace tables of values (``numeric``), then text
    tables elsewhere (``text``)."""
    out: list[OcrTable] = []
    words = [w for r in rows for w in r.cut.words]
    found = []
    try:
        if numeric:
            found = find_whitespace_tables(words, lines=[r.cut for r in rows])
    except (ValueError, IndexError, ZeroDivisionError):
        found = []
    for t in found:
        inside = [r for r in rows if _centre_in(r, t.bbox)]
        if inside:
            out.append(OcrTable(t, inside))
    taken = {r.index for t in out for r in t.rows}
    for t in text_tables([r for r in rows if r.index not in taken]) if text else []:
        if not any(abs(t.found.bbox & u.found.bbox) > 0 for u in out):
            out.append(t)
    return out


def _centre_in(row: OcrRow, box: pymupdf.Rect) -> bool:
    cx, cy = (row.x0 + row.x1) / 2, (row.y0 + row.y1) / 2
    return box.x0 - 1 <= cx <= box.x1 + 1 and box.y0 - 1 <= cy <= box.y1 + 1


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


# -- elements --------------------------------------------------------------------------------------
def structured_elements(
    ctx: PageContext, lines: list[OcrLine], to_pdf: pymupdf.Matrix, reread: Reread | None = None
) -> dict[int, list[Element]]:
    """TABLE and FORM elements of a scanned page, keyed by the index (into ``lines``) of the first line
    each is made of; every line they use is a key (its list empty past the first), so that
    ``ocr_page.lines_to_elements`` leaves those lines out of the text and puts each element where its
    first line was read."""
    from pagelens.ingest.tables import _Candidate, _element

    rows = ocr_rows(lines, to_pdf)
    if not rows:
        return {}
    engine = ctx.ocr.name if ctx.ocr is not None else "ocr"
    clip = pymupdf.Rect(0, 0, ctx.page.cropbox.width, ctx.page.cropbox.height)
    words = [w for r in rows for w in r.words]
    out: dict[int, list[Element]] = {}

    def place(els: list[Element], used: list[OcrRow]) -> None:
        idx = sorted({i for r in used for i in r.lines})
        first = min(idx, key=lambda i: (lines[i].block, i))
        for i in idx:
            out.setdefault(i, [])
        out[first] += els

    tables = find_tables(rows, text=False)
    taken = {r.index for t in tables for r in t.rows}
    fields = form_fields([r for r in rows if r.index not in taken], reread, max(r.x1 for r in rows))
    taken |= {r.index for f in fields for r in f.rows}
    if ctx.settings.ocr_text_tables:
        tables += find_tables([r for r in rows if r.index not in taken], numeric=False)
    for t in tables:
        f = t.found
        grid = Grid(cells=([f.header] if f.header else []) + f.rows, header_rows=1 if f.header else 0)
        cand = _Candidate(pymupdf.Rect(f.bbox) & clip, [], "whitespace", f.title, f.scale)
        el = _element(ctx, grid, cand, None, words=words)
        el.provenance = Provenance.OCR
        el.parser = engine
        place([el], t.rows)
    for f in fields:
        box = f.bbox & clip
        if box.is_empty:
            continue
        label = f.label.rstrip(":").strip()
        el = Element(
            doc_id=ctx.doc_id, page=ctx.page_no, order=0, kind=ElementKind.FORM,
            text=f"{label}: {f.value or '(empty)'}", bbox=(box.x0, box.y0, box.x1, box.y1),
            provenance=Provenance.OCR, parser=engine,
            field=FormFieldData(name=name(label), field_type="printed", label=label, value=f.value),
        )
        place([el], f.rows)
    return out
