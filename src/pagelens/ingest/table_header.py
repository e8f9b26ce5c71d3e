"""The header band above a whitespace table: stacked column titles, periods, units, the scale note.

Statements print their column titles above the numbers, stacked over one to six short lines ("Three
Months Ended June 30," spanning two columns, then "2023  2022  % Change"; "Total Number / of Class A
Shares / Purchased / (in thousands)"). Each short piece (a segment) goes to the value column it sits
over, or to every column it spans; pieces left of the first value column name the label column. A
title line above the band ("Second Quarter Financial Results") and a scale note ("In millions, except
per share amounts", "($ in thousands)") are read too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pagelens.ingest.table_segments import Line, Segment, segment
from pagelens.ingest.table_values import is_year

SCALE = re.compile(r"\bin\s+(thousands|millions|billions)\b|\b(thousands|millions|billions)\s+of\b", re.I)
MAX_HEADER_LINES = 6
MAX_SEGMENT_WORDS = 8  # longer pieces are prose, not column titles
SPAN_SHARE = 0.4  # a piece covering this share of two or more columns spans them
PERIOD = re.compile(r"\b(ended|ending|as of|fiscal|months|weeks|quarter|year)\b", re.I)
# A piece that names one period by itself: a year ("2024", "June 29, 2024"), a fiscal year, a quarter.
DATED = re.compile(r"\b(?:19|20)\d\d\b|\bFY\s?'?\d{2}(?:\d\d)?\b|\bQ[1-4]\b", re.I)
UNITS = re.compile(r"^\(?\s*(?:unaudited|audited|in\s+(?:thousands|millions|billions)\b.*|except\b.*)\s*\)?$", re.I)
MONTH = re.compile(r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?$", re.I)
EDGE = 2.0  # pt: a header piece whose left, right edge or centre is this close to its column's is set over it


@dataclass(frozen=True)
class Column:
    x0: float
    x1: float

    @property
    def centre(self) -> float:
        return (self.x0 + self.x1) / 2


def _overlap(seg: Segment, col: Column) -> float:
    return max(0.0, min(seg.x1, col.x1) - max(seg.x0, col.x0))


def split_at_columns(line: Line, columns: list[Column]) -> Line:
    """The line with each piece that runs over several value columns cut at the gaps between them.

    A header row printed tight ("Mar. 29, 2025 Mar. 30, 2024 Mar. 29, 2025", one space between
    columns) reads as one piece. Its words are given to the columns by where the columns' cells
    start (left-aligned), end (right-aligned) or centre, and the piece is cut where the column
    changes, when every cut falls in a gap between columns (no column's values run through it), every
    part sits over its own column only, and each part names a period by itself (a date, a year,
    "FY24", "Q2") or lines up with its column's edge or centre ("% Change"). A title spanning a group
    of columns ("Year Ended December 31,") has parts that do neither, so it stays whole.
    """
    regrouped = right_aligned(line, columns)
    if regrouped is not None:
        return regrouped
    segments: list[Segment] = []
    for seg in line.segments:
        segments += _cut(seg, columns) if len(seg.words) > 1 and seg.x1 > columns[0].x0 else [seg]
    return line if len(segments) == len(line.segments) else Line(line.words, segments)


def right_aligned(line: Line, columns: list[Column]) -> Line | None:
    """The line's words over the value columns regrouped into one title per column, when each title
    ends where its column's right-aligned values end (None when the line is not printed that way).

    Program output (an R or Stata coefficient table) prints multi-word titles right-aligned over its
    numbers with one space between titles ("Estimate Std. Error z value Pr(>|z|)"): word gaps do
    not tell the titles apart, the column edges do. Each word goes to the first column whose right
    edge it does not pass; the line is read so when two or more columns get words, every group's
    last word ends at its column's right edge (within ``EDGE``) and no group reaches back over the
    previous column's values. Pieces over the label column stay as they are, and so do pieces wholly
    right of the last column. A line whose words run from over the label column into the first
    column's title ("(in millions) June 29, 2024", printed tight) is left to ``_cut``.
    """
    stop, last = columns[0].x0 + 1, columns[-1].x1 + EDGE
    groups: list[list[tuple]] = [[] for _ in columns]
    lead, tail = [], []
    for seg in line.segments:
        if seg.x1 <= stop:
            lead.append(seg)
        elif seg.x0 > last:
            tail.append(seg)
        else:
            for w in seg.words:
                j = next((k for k, c in enumerate(columns) if w[2] <= c.x1 + EDGE), None)
                if j is None:
                    return None  # a piece running past the last column
                groups[j].append(w)
    filled = [j for j, g in enumerate(groups) if g]
    if len(filled) < 2:
        return None
    for j in filled:
        ws = sorted(groups[j], key=lambda w: w[0])
        groups[j] = ws
        if abs(ws[-1][2] - columns[j].x1) > EDGE:
            return None
        if j > 0 and ws[0][0] < columns[j - 1].x1 - EDGE:
            return None  # reaches over the previous column's values: a title spanning columns
    if any(w[2] <= stop for w in groups[0]):
        return None  # words over the label column run into the first title: whose they are is unclear
    return Line(line.words, [*lead, *(segment(groups[j]) for j in filled), *tail])


def _cut(seg: Segment, columns: list[Column]) -> list[Segment]:
    if len(columns) < 2:
        return [seg]
    words = sorted(seg.words, key=lambda w: w[0])
    inner = list(zip(columns, columns[1:]))
    for bounds in (
        [b.x0 for _, b in inner],  # cells left-aligned
        [a.x1 for a, _ in inner],  # right-aligned
        [(a.centre + b.centre) / 2 for a, b in inner],  # centred
    ):
        parts: list[tuple[int, list[tuple]]] = []
        for w in words:
            j = sum(1 for x in bounds if (w[0] + w[2]) / 2 >= x)
            if parts and parts[-1][0] == j:
                parts[-1][1].append(w)
            else:
                parts.append((j, [w]))
        if len(parts) >= 2 and _valid(parts, columns):
            return [*_stub_split(parts[0][1], columns[0]), *(segment(ws) for _, ws in parts[1:])]
    return [seg]


def _stub_split(words: list[tuple], first: Column) -> list[Segment]:
    """The first column's part, less the label-column text printed tight before its date (the stub
    "(in millions) June 29, 2024" over the label column and the first value column)."""
    start = next((k for k, w in enumerate(words) if MONTH.match(w[4])), None)
    if start is None:
        start = next((k for k, w in enumerate(words) if DATED.search(w[4])), None)
    if not start or any(w[2] > first.x0 + 1 for w in words[:start]):
        return [segment(words)]
    return [segment(words[:start]), segment(words[start:])]


def _valid(parts: list[tuple[int, list[tuple]]], columns: list[Column]) -> bool:
    for (_, left), (_, right) in zip(parts, parts[1:]):
        a, b = left[-1][2], right[0][0]
        if any(c.x0 < b - 1 and c.x1 > a + 1 for c in columns):
            return False  # a column's values run through the cut
    pieces = [(j, segment(ws)) for j, ws in parts]
    for j, piece in pieces:
        if any(k != j and min(piece.x1, c.x1) - max(piece.x0, c.x0) > 1 for k, c in enumerate(columns)):
            return False  # the part reaches over another column
    return all(DATED.search(p.text) or _aligned(p, columns[j]) for j, p in pieces)


def _aligned(piece: Segment, col: Column) -> bool:
    centre = (piece.x0 + piece.x1) / 2
    return min(abs(piece.x0 - col.x0), abs(piece.x1 - col.x1), abs(centre - col.centre)) <= EDGE


def is_header_line(line: Line, columns: list[Column], left: float) -> bool:
    """Short pieces, one of them over the value columns, and no row of values (years are titles).

    ``left`` is where the row labels start: a piece running from there into the values is a title.
    """
    start = columns[0].x0 - 5
    edge = left + 0.3 * (columns[0].x0 - left)
    if any(s.x0 < edge and s.x1 > columns[0].x0 + 2 for s in line.segments):
        return False  # a piece running from the label column into the values: a title or prose
    if not any((s.x0 + s.x1) / 2 >= start or s.x1 > columns[0].x0 + 2 for s in line.segments):
        return False
    if any(len(s.text.split()) > MAX_SEGMENT_WORDS for s in line.segments if s.x1 > start):
        return False
    values = [s for s in line.values if s.kind == "num"]
    return not values or all(is_year(s.text) for s in values)


def is_year_line(line: Line) -> bool:
    """A line of two or more years and nothing else but a short lead ("Year ended December 31,")."""
    nums = [s for s in line.values if s.kind == "num"]
    return len(nums) >= 2 and all(is_year(s.text) for s in nums)


def assign(seg: Segment, columns: list[Column]) -> list[int]:
    """Indices (0 = the label column, 1.. = value columns) a header piece belongs to."""
    if seg.x1 <= columns[0].x0 + 1:
        return [0]
    spans = [j for j, c in enumerate(columns) if _overlap(seg, c) >= SPAN_SHARE * max(c.x1 - c.x0, 1.0)]
    if len(spans) >= 2:
        return [j + 1 for j in spans]
    overlaps = [(_overlap(seg, c), j) for j, c in enumerate(columns)]
    best, j = max(overlaps)
    if best > 0:
        return [j + 1]
    centre = (seg.x0 + seg.x1) / 2
    if centre < columns[0].x0:
        return [0]
    return [min(range(len(columns)), key=lambda k: abs(columns[k].centre - centre)) + 1]


def header_cells(band: list[Line], columns: list[Column]) -> list[str]:
    """One title per column (label column first), the band's pieces joined top to bottom.

    A period title ("Year Ended December 31,", "Three Months Ended June 30,") is narrower than the
    group of year columns it names: it goes to every column with a year under it, each year column
    taking the nearest period title of that line (two groups side by side stay apart).
    """
    parts: list[list[tuple[int, str]]] = [[] for _ in range(len(columns) + 1)]
    for k, line in enumerate(band):
        for seg in line.segments:
            for j in assign(seg, columns):
                parts[j].append((k, seg.text))
    for k, line in enumerate(band):
        periods = [s for s in line.segments if PERIOD.search(s.text) and s.x1 > columns[0].x0 - 5]
        if not periods:
            continue
        for j, col in enumerate(columns, start=1):
            if not any(kk > k and (is_year(t) or DATED.search(t)) for kk, t in parts[j]):
                continue
            near = min(periods, key=lambda s: max(s.x0 - col.centre, col.centre - s.x1, 0.0))
            if (k, near.text) not in parts[j]:
                parts[j].append((k, near.text))
    out = []
    for p in parts:
        seen: list[str] = []
        for _, text in sorted(p, key=lambda kt: kt[0]):
            if text not in seen:
                seen.append(text)
        out.append(" ".join(seen))
    return out


def scale_note(texts: list[str]) -> str | None:
    """ "in millions" (lower case) from the first text that states a scale; where one text states
    two ("shares in Thousands, $ in Millions"), the money scale."""
    for t in texts:
        found = list(SCALE.finditer(t))
        if found:
            money = [m for m in found if re.search(r"[$€£¥]|\bUSD\b|dollars", t[max(0, m.start() - 8):m.start()], re.I)]
            m = (money or found)[0]
            return f"in {(m.group(1) or m.group(2)).lower()}"
    return None


def is_title(line: Line) -> bool:
    """A short line that names a table ("Second Quarter 2023 Financial Highlights")."""
    text = line.text.strip()
    return 2 <= len(text) <= 100 and len(text.split()) <= 12 and not text.endswith((".", ",", ";", ":")) and \
        not text[:1].islower() and not line.values


def _stub_piece(line: Line, columns: list[Column]) -> tuple[float, float] | None:
    """The x-extent of a band line's pieces over the label column (None when it has none)."""
    pieces = [s for s in line.segments if s.x1 <= columns[0].x0 + 1]
    return (min(s.x0 for s in pieces), max(s.x1 for s in pieces)) if pieces else None


def stub_ends(stub: list[Line], band: list[Line], columns: list[Column]) -> list[Line]:
    """The lines of ``stub`` (just above the band's top line) that continue the label-column text
    of the band's top line: stacked tight (under half a line apart) and overlapping it in x."""
    keep: list[Line] = []
    below = band[0]
    for line in reversed(stub):
        piece = _stub_piece(below, columns)
        if piece is None or below.y0 - line.y1 > 0.5 * below.height or line.x1 < piece[0] or line.x0 > piece[1]:
            break
        keep.insert(0, line)
        below = line
    return keep


def stub_line(line: Line, bottom: Line, start: float, columns: list[Column]) -> bool:
    """A label-column line between the band and the first row that belongs to the band: a units
    note ("(in millions)", "(Unaudited)"), or the end of the stub text of the band's bottom line
    (centred, so not aligned with the row labels, which start at ``start``)."""
    if line.text.endswith(":"):
        return False  # a section title ("Amounts in millions:") heads the rows
    if SCALE.search(line.text) or UNITS.match(line.text):
        return True
    piece = _stub_piece(bottom, columns)
    return piece is not None and line.x0 > start + 4 and line.x0 < piece[1] and line.x1 > piece[0]
