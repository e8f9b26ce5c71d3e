"""Tables without rules: rows of values aligned in columns by whitespace alone.

Earnings releases, annual reports and filings print their statements this way: a row label (dot
leaders, a label wrapped over two lines, section titles such as "Operating activities:"), then values
right-aligned in columns, ``$`` apart, negatives in parentheses, a header band of periods above.

1. Lines with two or more value cells (``table_segments``) are *data lines*; runs of them close to each
   other whose values overlap in x form a block (prose lines of many words end a block).
2. Columns are the x-intervals of the blocks' value cells, merged where they overlap.
3. Rows: each data line is a row; a label-only line joins the row above when it sits closer than the
   row pitch or starts in lower case ("Earnings per" / "share"), joins the row below when it ends in a
   connector or the row below is its indented continuation ("Net cash provided by (used in)" /
   "operating activities"), otherwise it is a section row. A label with text under the columns
   ("FIFO Gross Margin Rate   Increased 35 basis points") is a row too.
4. The header band above (``table_header``) names the columns; a short line above it is the title.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field

import pymupdf

from pagelens.ingest.table_cells import Word
from pagelens.ingest.table_header import (
    MAX_HEADER_LINES,
    Column,
    header_cells,
    is_header_line,
    is_title,
    is_year_line,
    scale_note,
    split_at_columns,
    stub_ends,
    stub_line,
)
from pagelens.ingest.table_segments import Line, Segment, numeric_lines, page_lines
from pagelens.ingest.table_textcols import split_texts, text_cuts

MIN_DATA_ROWS = 3  # data lines a block needs (two when a band of years names the columns)
MAX_PROSE_WORDS = 12  # a line between data lines with more words is prose: it ends the block
INTRO_LINES = 3  # lines of a sentence ending in ":" above the table taken as its caption
TITLE_HEIGHT = 1.3  # a line this much taller than the rows is a title
WRAP_PITCH = 0.8  # a label-only line closer than this share of the row pitch continues the row above
MAX_STUB_LINES = 6  # label-column lines (the stub) a header band may hold between its header lines
_CONNECTOR = re.compile(r"(\b(?:and|or|of|for|by|in|on|to|from|the|with|net|less|before|after|per)|[(,&/-])$", re.I)


@dataclass
class _Row:
    label: str
    cells: list[str]
    lines: list[Line] = field(default_factory=list)
    data: bool = True
    label_x0: float = 0.0
    parts: list[Segment] = field(default_factory=list)  # the label's pieces, in reading order


@dataclass
class FoundTable:
    """A whitespace table: header (label column first; [] when the page prints none), body rows."""

    bbox: pymupdf.Rect
    header: list[str]
    rows: list[list[str]]
    title: str | None = None
    scale: str | None = None
    columns: list[Column] = field(default_factory=list)


def _is_data(line: Line) -> bool:
    """Two or more value cells, one a number, not only years, and no text between values (a table
    of contents: "1.1  Security fundamentals . . . 2")."""
    vals = line.values
    if len(vals) < 2 or line.hard_values < 1 or is_year_line(line):
        return False
    first, last = line.segments.index(vals[0]), line.segments.index(vals[-1])
    if any(not s.is_value for s in line.segments[first:last]):
        return False
    return not any(len(s.text.split()) > MAX_PROSE_WORDS for s in line.segments)


def _overlaps(a: Segment, b: Segment | Column) -> bool:
    return min(a.x1, b.x1) - max(a.x0, b.x0) > 0


def _blocks(lines: list[Line]) -> list[list[int]]:
    """Indices of data lines grouped into blocks (see the module doc)."""
    blocks: list[list[int]] = []
    for i, line in enumerate(lines):
        if not _is_data(line):
            continue
        if blocks:
            last = blocks[-1][-1]
            between = lines[last + 1 : i]
            h = max(line.height, lines[last].height)
            near = line.y0 - lines[last].y1 <= 4 * h and len(between) <= 3
            quiet = all(len(b.words) <= MAX_PROSE_WORDS for b in between)
            recent = [w for j in blocks[-1][-3:] for w in lines[j].values]  # the last rows: linear time
            aligned = any(_overlaps(v, w) for v in line.values for w in recent)
            if near and quiet and aligned:
                blocks[-1].append(i)
                continue
        blocks.append([i])
    return blocks


def _columns(lines: list[Line], idx: list[int]) -> list[Column]:
    """Value x-intervals merged where they overlap (a column filled in one row only is a column too)."""
    spans: list[list[float]] = []
    for x0, x1 in sorted((v.x0, v.x1) for i in idx for v in lines[i].values):
        if spans and x0 < spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], x1)
        else:
            spans.append([x0, x1])
    return [Column(a, b) for a, b in spans]


def _split_line(line: Line, columns: list[Column]) -> tuple[list[Segment], list[list[str]]]:
    """(label segments, texts per value column) of one line."""
    label: list[Segment] = []
    cells: list[list[str]] = [[] for _ in columns]
    for seg in line.segments:
        if seg.x1 <= columns[0].x0 + 1 and not (seg.is_value and seg.x1 > columns[0].x0 - 8):
            label.append(seg)
            continue
        scores = [min(seg.x1, c.x1) - max(seg.x0, c.x0) for c in columns]
        best = max(range(len(columns)), key=lambda j: scores[j])
        if scores[best] <= 0:
            centre = (seg.x0 + seg.x1) / 2
            best = min(range(len(columns)), key=lambda j: abs(columns[j].centre - centre))
        cells[best].append(seg.text)
    return label, cells


def _label_start(line: Line, columns: list[Column]) -> float:
    """Where the row label starts (the line's start when it has no label)."""
    label, _ = _split_line(line, columns)
    return label[0].x0 if label else line.x0


def _label_only(line: Line, columns: list[Column]) -> bool:
    return line.x1 <= columns[0].x0 + 1 and not line.values


def _text_row(line: Line, columns: list[Column]) -> bool:
    """A label, then text starting under a value column ("Increased 35 basis points")."""
    label, cells = _split_line(line, columns)
    if not label or not any(cells):
        return False
    starts = [s.x0 for s in line.segments if s.x1 > columns[0].x0 + 1]
    return all(any(c.x0 - 4 <= x <= c.x1 for c in columns) for x in starts)


def _rows(lines: list[Line], start: int, end: int, columns: list[Column], pitch: float) -> tuple[list[_Row], int]:
    """Rows of lines[start:end] and onwards while rows continue; returns (rows, index after the last)."""
    rows: list[_Row] = []
    pending: list[Line] = []  # label-only lines waiting for the row they belong to
    i = start
    while i < len(lines):
        line = lines[i]
        after = i >= end
        prev = rows[-1] if rows else None
        values_only = bool(line.values) and all(seg.is_value for seg in line.segments)  # a total without label
        if (i < end and (_is_data(line) or values_only)) or _text_row(line, columns):
            if after and prev is not None and line.y0 - prev.lines[-1].y1 > 1.5 * pitch:
                break
            label_segs, cells = _split_line(line, columns)
            label = " ".join(s.text for s in label_segs)
            x0 = label_segs[0].x0 if label_segs else line.x0
            parts = list(label_segs)
            nxt = next((lines[k] for k in range(i + 1, min(len(lines), i + 3)) if _is_data(lines[k])), None)
            same = nxt is not None and abs(_label_start(nxt, columns) - x0) <= 2  # more rows at this indent
            for p in pending:
                indented = x0 > p.x0 + 2 and not same  # "Net cash provided by" / "  operating activities"
                joins = _CONNECTOR.search(p.text) or not label or label[:1].islower() or indented
                if joins and not p.text.endswith(":"):
                    label = f"{p.text} {label}".strip()
                    x0 = p.x0
                    parts = [*p.segments, *parts]  # the label read as above: the joined line first
                else:
                    rows.append(_Row(p.text, [""] * len(columns), [p], data=False, label_x0=p.x0, parts=list(p.segments)))
            pending = []
            data = _is_data(line) or (values_only and line.hard_values > 0)
            rows.append(_Row(label, [" ".join(c) for c in cells], [line], data=data, label_x0=x0, parts=parts))
            i += 1
            continue
        if _label_only(line, columns) and prev is None and not after:
            pending.append(line)  # a section title or a label's first line above the first row
            i += 1
            continue
        if _label_only(line, columns) and prev is not None:
            gap = line.y1 - prev.lines[-1].y1
            if after and gap > 1.5 * pitch:
                break
            wraps = prev.data and not pending and (
                gap < WRAP_PITCH * pitch or line.text[:1].islower() or _CONNECTOR.search(prev.label)
            )
            if wraps and not prev.label.endswith(":"):
                prev.label = f"{prev.label} {line.text}".strip()
                prev.lines.append(line)
                prev.parts += line.segments
            elif not after:
                pending.append(line)
            else:
                break
            i += 1
            continue
        if i < end:
            i += 1  # a stray line inside the block (a footnote mark): skipped
            continue
        break
    return rows, i


def _band(lines: list[Line], first: int, columns: list[Column]) -> tuple[list[Line], list[Line], str | None]:
    """(section/wrapped label lines just above the first row, header band, title above them: a short
    line naming the table or the sentence introducing it).

    The band may hold lines with pieces over the label column only (the stub: "CONDENSED STATEMENTS
    OF OPERATIONS / - USD ($) / $ in Millions" stacked beside the period rows) between its header
    lines, and a units note or the stub's last line tight above the first row."""
    i = first - 1
    lead: list[Line] = []
    below = lines[first]
    while i >= 0 and len(lead) < 2 and _label_only(lines[i], columns) and below.y0 - lines[i].y1 <= 1.2 * below.height:
        lead.insert(0, lines[i])
        below = lines[i]
        i -= 1
    band: list[Line] = []
    stub: list[Line] = []  # label-column lines above the band's top line, kept once a header line is above them
    left = min(ln.x0 for ln in [*lead, lines[first]])
    while i >= 0 and len(band) < MAX_HEADER_LINES + MAX_STUB_LINES:
        line = split_at_columns(lines[i], columns)
        if below.y0 - line.y1 > (2.5 if not band else 1.2) * below.height:
            break
        if band and _label_only(line, columns) and len(stub) < MAX_STUB_LINES:
            stub.insert(0, line)
            below = line
            i -= 1
            continue
        if not is_header_line(line, columns, left) or line.height > TITLE_HEIGHT * lines[first].height:
            break  # not a column title, or a page title in a larger font
        band = [line, *stub, *band]
        stub = []
        below = line
        i -= 1
    if band:
        kept = stub_ends(stub, band, columns)  # the stub's first lines, tight above the band's top
        band = kept + band
        i += len(stub) - len(kept)  # the other waiting lines are above the table again
        below = band[0]
        while lead and stub_line(lead[0], band[-1], _label_start(lines[first], columns), columns):
            band.append(lead.pop(0))  # the stub's last line or a units note, not a section of the rows
    if not band and lead and not lead[0].text.endswith(":"):
        return lead, band, lead.pop(0).text  # a name over the rows, not a section of them
    if i < 0 or below.y0 - lines[i].y1 > 2.5 * below.height:
        return lead, band, None
    if is_title(lines[i]):
        stack = [lines[i]]  # a title over two lines ("NICS Firearm Background Checks" / "November - 2015")
        while i > 0 and len(stack) < INTRO_LINES and is_title(lines[i - 1]) and \
                stack[0].y0 - lines[i - 1].y1 <= 1.0 * stack[0].height:
            i -= 1
            stack.insert(0, lines[i])
        return lead, band, " ".join(ln.text for ln in stack)
    if lines[i].text.endswith(":"):  # "The following table presents ... ended December 31, 2022:"
        intro = [lines[i]]
        while i > 0 and len(intro) < INTRO_LINES and intro[0].y0 - lines[i - 1].y1 <= 0.8 * intro[0].height:
            i -= 1
            intro.insert(0, lines[i])
        return lead, band, " ".join(ln.text for ln in intro)
    return lead, band, None


def _table(lines: list[Line], block: list[int]) -> FoundTable | None:
    columns = _columns(lines, block)
    if len(columns) < 2:
        return None
    first, last = block[0], block[-1]
    baselines = [lines[b].y1 - lines[a].y1 for a, b in zip(block, block[1:]) if b == a + 1]
    pitch = statistics.median(baselines) if baselines else 1.6 * lines[first].height
    lead, band, title = _band(lines, first, columns)
    top = first - len(lead)
    rows, stop = _rows(lines, top, last + 1, columns, pitch)
    data = [r for r in rows if r.data]
    years = any(is_year_line(b) for b in band)
    if len(data) < (2 if years else MIN_DATA_ROWS):
        return None
    filled = sum(1 for r in data for c in r.cells if c)
    if filled < 0.4 * len(data) * len(columns):
        return None
    header = header_cells(band, columns) if band else []
    stop = columns[0].x0 + 1
    heads = [s for ln in band for s in ln.segments if s.x1 <= stop]
    cuts = text_cuts([r.parts for r in data], heads, stop, lines[first].height)
    if cuts:  # more than one column of text before the values
        header = [*split_texts(heads, cuts), *header[1:]]
    used = band + [ln for r in rows for ln in r.lines]
    bbox = pymupdf.Rect(
        min(ln.x0 for ln in used), min(ln.y0 for ln in used), max(ln.x1 for ln in used), max(ln.y1 for ln in used)
    )
    texts = [*header, *(ln.text for ln in band)] + ([title] if title else [])
    return FoundTable(
        bbox=bbox,
        header=header if any(header) else [],
        rows=[[*(split_texts(r.parts, cuts) if cuts else [r.label]), *r.cells] for r in rows],
        title=title,
        scale=scale_note(texts),
        columns=columns,
    )


def find_whitespace_tables(
    words: list[Word], clip: pymupdf.Rect | None = None, lines: list[Line] | None = None
) -> list[FoundTable]:
    """Whitespace-aligned tables among ``words`` (inside ``clip`` when given), top to bottom.
    ``lines``: ``page_lines(words)`` when the caller has it already (ignored with a clip)."""
    if clip is not None:
        words = [w for w in words if clip.contains(pymupdf.Point((w[0] + w[2]) / 2, (w[1] + w[3]) / 2))]
        lines = None
    if lines is None:
        lines = page_lines(words)
    out: list[FoundTable] = []
    for block in _blocks(lines):
        table = _table(lines, block)
        if table is not None and not any(abs(table.bbox & t.bbox) > 0.5 * abs(table.bbox) for t in out):
            out.append(table)
    return out


def aligned_rows(words: list[Word], lines: Callable[[], list[Line]] | None = None) -> int:
    """Data lines in the largest block of aligned value columns on the page (a cheap page signal).
    ``lines``: gives ``page_lines(words)`` when the caller keeps it (asked only past the pre-check)."""
    if numeric_lines(words) < 2:
        return 0
    return max((len(b) for b in _blocks(lines() if lines is not None else page_lines(words))), default=0)
