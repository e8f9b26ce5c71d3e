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

from pagelens.ingest.table_segments import Line, Segment, is_year

SCALE = re.compile(r"\bin\s+(thousands|millions|billions)\b|\b(thousands|millions|billions)\s+of\b", re.I)
MAX_HEADER_LINES = 6
MAX_SEGMENT_WORDS = 8  # longer pieces are prose, not column titles
SPAN_SHARE = 0.4
PERIOD = re.compile(r"\b(ended|ending|as of|fiscal|months|weeks|quarter|year)\b", re.I)  # a piece covering this share of two or more columns spans them


@dataclass(frozen=True)
class Column:
    x0: float
    x1: float

    @property
    def centre(self) -> float:
        return (self.x0 + self.x1) / 2


def _overlap(seg: Segment, col: Column) -> float:
    return max(0.0, min(seg.x1, col.x1) - max(seg.x0, col.x0))


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
            if not any(kk > k and is_year(t) for kk, t in parts[j]):
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
    """ "in millions" (lower case) from the first text that states a scale."""
    for t in texts:
        m = SCALE.search(t)
        if m:
            return f"in {(m.group(1) or m.group(2)).lower()}"
    return None


def is_title(line: Line) -> bool:
    """A short line that names a table ("Second Quarter 2023 Financial Highlights")."""
    text = line.text.strip()
    return 2 <= len(text) <= 100 and len(text.split()) <= 12 and not text.endswith((".", ",", ";", ":")) and \
        not text[:1].islower() and not line.values
