"""Which reading of a table region to keep when the whitespace finder and another finder both read it.

Another finder's grid is kept unless it shows the defects a statement read as a grid of boxes shows
(value columns without a header while the page prints one, a row label cut over several untitled
columns, ``$`` alone in a cell, two values in one cell, a wrapped label left on a row of its own, a row
of dates in the body, two columns' dates in one header cell) and the whitespace reading has fewer, with
at least ``KEEP_VALUES`` of the other's values and as many titled columns of text before the values.
"""

from __future__ import annotations

import re

from pagelens.ingest.table_cells import Grid
from pagelens.ingest.table_header import DATED
from pagelens.ingest.table_values import is_currency, is_period, is_value, is_year, value_kind

KEEP_VALUES = 0.8
FULL_DATE = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+(?:19|20)\d\d\b", re.I)
PROSE_CHARS = 100


def _value(cell: str) -> bool:
    return bool(cell) and value_kind(cell) is not None


def _numbers_in(cell: str) -> int:
    """Numbers in a cell made mostly of numbers ("8,585 46,059 $"), 0 for prose that cites some."""
    tokens = cell.split()
    nums = sum(1 for t in tokens if value_kind(t) == "num")
    return nums if nums >= 2 and nums * 2 >= len(tokens) else 0


def _two_titles(cell: str) -> bool:
    """Two full dates, or nothing but two or more years, in one header cell."""
    tokens = cell.split()
    return len(FULL_DATE.findall(cell)) >= 2 or (len(tokens) >= 2 and all(is_year(t) for t in tokens))


def values(grid: Grid) -> int:
    """Value cells (numbers, dashes) in the body; a cell holding two numbers counts twice."""
    return sum(1 if _value(c) else _numbers_in(c) for row in grid.body for c in row if c)


def defects(grid: Grid) -> int:
    body = grid.body
    if not body:
        return 0
    width = max(len(r) for r in grid.cells)
    rows = [r + [""] * (width - len(r)) for r in body]
    header = grid.header + [""] * (width - len(grid.header))
    value_cols = [j for j in range(width) if sum(_value(r[j]) for r in rows) >= max(1, len(rows) // 2)]
    found = 0
    if any(not header[j].strip() for j in value_cols):
        found += 1  # a column of values named by nothing ("Col3")
    text_lead = _text_lead(rows, width)
    if text_lead >= 2 and not _named_text_columns(header, rows, text_lead):
        found += 1  # the row label cut over several columns
    if any(is_currency(c) for r in rows for c in r):
        found += 1
    if any(c and not _value(c) and _numbers_in(c) for r in rows for c in r):
        found += 1
    if any(sum(1 for c in r if c) == 1 and max(len(c) for c in r) > PROSE_CHARS for r in rows):
        found += 1  # a paragraph (a footnote) read as a row
    if any(a[0] and not any(a[1:]) and not b[0] and any(b[1:]) for a, b in zip(rows, rows[1:])):
        found += 1  # a label on one row, its values on the next
    if any(_two_titles(h) for h in header):
        found += 1  # two columns' dates in one header cell ("Ended July 1, 2023 June 29, 2024")
    if len(value_cols) >= 2 and any(all(DATED.search(r[j]) and not _value(r[j]) for j in value_cols) for r in rows):
        found += 1  # a row of dates over the value columns: the header band read as a body row
    return found


def _text_lead(rows: list[list[str]], width: int) -> int:
    """Columns of words (no digit in any cell) before the first column with a value or a digit."""
    lead = 0
    for j in range(width):
        if any(_value(r[j]) or any(ch.isdigit() for ch in r[j]) for r in rows) or not any(r[j] for r in rows):
            break
        lead += 1
    return lead


def text_columns(grid: Grid) -> int:
    """Columns of text before the values that the header titles one by one (1 when there is one, or
    when they are a row label cut in pieces)."""
    if not grid.body:
        return 1
    width = max(len(r) for r in grid.cells)
    rows = [r + [""] * (width - len(r)) for r in grid.body]
    header = grid.header + [""] * (width - len(grid.header))
    lead = _text_lead(rows, width)
    return lead if lead >= 2 and _named_text_columns(header, rows, lead) else 1


def _named_text_columns(header: list[str], rows: list[list[str]], lead: int) -> bool:
    """The ``lead`` columns of text before the values are columns of their own ("Segment |
    Description | 2023"), not a row label cut in pieces: each has its own title and is filled on most rows."""
    titles = [_words(h).lower() for h in header[:lead]]
    if not all(titles) or len(set(titles)) < lead:
        return False
    return all(2 * sum(1 for r in rows if r[j].strip()) > len(rows) for j in range(lead))


def _words(text: str) -> str:
    return " ".join(text.split())


def band_header(whitespace: Grid, other: Grid) -> list[str] | None:
    """The whitespace reading's header for ``other`` when it names the same columns more fully: the
    header band above a ruled grid ("Three Months Ended" over the grid's date row) that the grid's
    box leaves out. Same width, the same row labels mostly, every value column named, each of the
    other's names kept inside the new one, and at least one name longer. None otherwise."""
    head, mine = whitespace.header, other.header
    width = max(len(r) for r in other.cells) if other.cells else 0
    if not head or len(head) != width or (mine and len(mine) != width):
        return None
    mine = mine or [""] * width
    if not all(h.strip() for h in head[1:]):
        return None
    if any(_words(m) not in _words(h) for m, h in zip(mine, head) if m):
        return None
    if not any(_words(m) != _words(h) for m, h in zip(mine, head)):
        return None
    labels = {_words(r[0]) for r in other.body if r and r[0]}
    shared = labels & {_words(r[0]) for r in whitespace.body if r and r[0]}
    if len(shared) < max(2, len(labels) // 2):
        return None
    return [_words(h) for h in head]


def echoes_band(row: list[str], header: list[str]) -> bool:
    """A body row that repeats the header band: some cell filled, each filled cell's words among its
    column's title's words, and no amount but periods ("| 2023 | 2022" read by the grid under the band
    "Year Ended December 31, 2023 | ..." that another finder supplied). A row of data is never one."""
    filled = [(j, c) for j, c in enumerate(row) if c.strip()]
    if not filled or len(row) > len(header):
        return False
    if any(is_value(c) and not is_period(c) for _, c in filled):
        return False
    return all(set(c.lower().split()) <= set(header[j].lower().split()) for j, c in filled)


def with_band(grid: Grid, header: list[str]) -> None:
    """Make ``header`` the grid's one header row, and drop the leading body rows that only repeat it
    (``echoes_band``): the band's own line, read by the grid as its first row, is printed once."""
    grid.cells[: grid.header_rows] = [header]
    grid.header_rows = 1
    while len(grid.cells) > 2 and echoes_band(grid.cells[1], header):
        del grid.cells[1]


def prefer_whitespace(whitespace: Grid, other: Grid) -> bool:
    """True when the whitespace reading should replace ``other``: fewer defects, most of its values,
    and as many titled columns of text (a grid that reads "Segment | Description" apart is not replaced
    by a reading that joins them into one label)."""
    return (
        defects(whitespace) < defects(other)
        and values(whitespace) >= KEEP_VALUES * values(other)
        and text_columns(whitespace) >= text_columns(other)
    )
