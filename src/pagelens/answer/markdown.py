"""Markdown tables as the extractive answerer reads them from a table chunk's text: its lines, its cells
(an escaped pipe stays in its cell), its header (multi-line headers joined per column; a caption read as
the header, or header rows below the separator, put right)."""

from __future__ import annotations

import re

_PERIOD = re.compile(
    r"(?:FY|fiscal\s+|Q[1-4]\s*|[1-4]Q\s*|H[12]\s*)?'?(?:19|20)?\d\d(?:\s*[-–/]\s*(?:19|20)?\d\d)?|Q[1-4]|[1-4]Q",
    re.I,
)
"""A column header that names a period ("2009", "FY2018", "Q2 2023", "2Q23", "2017-18"): a row of
them over a table is its header band, not a row of values."""


def is_table_line(line: str) -> bool:
    s = line.strip()
    return s.startswith("|") and s.count("|") >= 2


def _is_separator(cells: list[str]) -> bool:
    return bool(cells) and all(re.fullmatch(r":?-{2,}:?", c.strip()) or not c.strip() for c in cells)


_CELL_SEP = re.compile(r"(?<!\\)\|")  # a pipe the table's writer escaped ("Pr(>\\|t\\|)") is a cell's own


def split_row(line: str) -> list[str]:
    """The cells of a markdown table line; an escaped pipe stays in its cell, unescaped ("Pr(>|t|)",
    a printout's p-value title, is one column, not three)."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [" ".join(c.replace("\\|", "|").split()) for c in _CELL_SEP.split(s)]


def parse_markdown_table(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """(header, body rows) of a markdown table; header is [] when the table has no separator line."""
    rows = [split_row(ln) for ln in lines if is_table_line(ln)]
    sep = next((i for i, r in enumerate(rows) if _is_separator(r)), None)
    if sep is None:
        return [], [r for r in rows if any(c for c in r)]
    header_rows = rows[:sep]
    width = max((len(r) for r in rows), default=0)
    header = [""] * width
    for hr in header_rows:  # multi-line headers are joined per column
        for i, c in enumerate(hr):
            if c and i < width and c not in header[i]:
                header[i] = f"{header[i]} {c}".strip()
    body = [r for r in rows[sep + 1 :] if any(c for c in r) and not _is_separator(r)]
    # A caption read as the header ("Table 2-2 Comparison ... | Col2 | Col3"): the first body row of
    # words, every cell filled, holds the column names.
    generic = sum(1 for h in header[1:] if not h or re.fullmatch(r"Col\d+", h))
    if len(body) > 1 and generic >= max(1, (width - 1) // 2) and all(body[0]) and len(body[0]) == width and \
            all(not any(ch.isdigit() for ch in c) or _PERIOD.fullmatch(c.strip()) for c in body[0]):
        header, body = body[0], body[1:]
    # Header rows the finder put below the separator ("concentration | (g) | ... | rate (mm/year)"):
    # leading rows without a digit, while later rows have digits, continue the header.
    while len(body) > 1 and not any(ch.isdigit() for c in body[0] for ch in c) and \
            any(ch.isdigit() for c in body[1] for ch in c):
        for i, c in enumerate(body[0]):
            if c and i < width:
                header[i] = f"{header[i]} {c}".strip()
        body = body[1:]
    return header, body
