"""The section a table row sits in: "Services › Net sales", not a second bare "Net sales".

Financial statements and segment notes group rows under section rows that print a label and no values
("Products", "Operating expenses:"); the same row label ("Net sales") then recurs under each section.
A row read without its section cannot be told from its namesakes, so records (``table_records``), the
row-group chunks (``index.chunking``) and the extractive answerer (``answer.candidates``) name a row by
its section path, which this module computes. Pure functions of cell texts (plus, at ingest, where each
row's label starts on the page), shared by ingest and the answerer; the table's markdown and HTML stay
as printed.

Rules:

* A section row: a short label with letters, every value cell empty (or a label ending ":"), that is
  not a unit note ("in millions") and not the first line of a wrapped label (the next label starts in
  lower case, or this one ends in "and", "of", ",").
* It applies to the rows after it until the next section row of the same level, a blank gap, or a
  row that closes it: "Total X" closes the open section named X (or the innermost one for a bare
  "Total") after itself; a "Total" that names no open section closes the innermost one before itself.
* A period section ("Year Ended December 31, 2021", "Three months ended March 31", "As of June 30, 2024",
  "Fiscal 2023") is closed by no "Total" row: a total sums the items of its period, never the periods, so
  "Total commercial", "Total consumer" and "Total" of each year's block all stay in that year (before,
  "Total commercial" ended the year and every consumer row below it lost its period).
* A section row right after another (before any row with values) nests under it when that one ends
  in ":", is printed in capitals, names a period or the new one is indented past it ("Assets › Current
  assets", "As of June 30, 2024 › Assets");
  otherwise, and after rows with values, it replaces the innermost section.
* Indentation, when known (x of the label's first character): a section whose first row is indented
  past it holds exactly the rows indented past it, so a top-level row after it ("Net income") carries
  none.
* A table where section rows are not a minority, or none is followed by a row with values, has no
  sections (a list of names, a table of text).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

SEP = " › "
MAX_SECTION_CHARS = 60  # a longer value-less first cell is a note, not a section title
INDENT_TOLERANCE = 2.0  # pt: labels this close start at the same indentation
MAX_SECTION_SHARE = 0.5  # more section rows than this share of the rows: not a sectioned table

_LETTER = re.compile(r"[A-Za-z]")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
_NOTE = re.compile(r"\b(in\s+(thousands|millions|billions)|except\b|unaudited|continued|see\s+accompanying|per\s+cent)\b|^\(.*\)$", re.I)
_OPEN_END = re.compile(r"(\b(and|or|of|for|the|to|in|on|at|by|from|with|a|an)|[,&/\-–])\s*$", re.I)
_TOTAL = re.compile(r"^\s*(grand\s+)?totals?\b[\s:,-]*", re.I)
_PERIOD = re.compile(r"(?<!\d)(19|20)\d\d(?!\d)|\b(years?|quarters?|months?|weeks?|periods?)\s+ended\b|\bas\s+of\b|"
                     r"\bfiscal\b|\b(q[1-4]|[1-4]q|h[12])\b", re.I)
"""A section row that names a period: a year, "... ended", "as of", "fiscal", a quarter or half."""
_STOP = frozenset("and or of for the to in on at by from with a an net total".split())


@dataclass
class _Open:
    name: str
    indent: float | None
    nested: bool | None = None  # its first row is indented past it (None: not seen yet)
    direct: bool = False  # a row with values has been read directly under it
    title: bool = False  # printed as a title of titles: ends in ":" or in capitals ("ASSETS")
    period: bool = False  # names a period ("Year Ended December 31, 2021"): no total closes it


def _heads(top: _Open, ind: float | None) -> bool:
    """A section row right after section row ``top`` nests under it: ``top`` is a title of titles or
    the new row is indented past it."""
    return top.title or top.period or bool(top.nested)


def _words(text: str) -> set[str]:
    out = set()
    for w in _WORD.findall(text.lower()):
        w = w.strip("'’")
        if w and w not in _STOP:
            out.add(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return out


def section_name(label: str) -> str:
    return " ".join(label.split()).rstrip(" :")


def _has_values(row: Sequence[str]) -> bool:
    return any(c.strip() for c in row[1:])


def is_section_row(row: Sequence[str], next_row: Sequence[str] | None = None) -> bool:
    """A section title: a short label, no values (or a label ending ':'), not a note or a wrapped line."""
    label = " ".join(row[0].split()) if row else ""
    if not label or not _LETTER.search(label) or len(label) > MAX_SECTION_CHARS or _NOTE.search(label):
        return False
    if _TOTAL.match(label):
        return False
    if _has_values(row) and not label.endswith(":"):
        return False
    if _OPEN_END.search(label):
        return False  # "Income before provision for" / "income taxes   123"
    nxt = " ".join(next_row[0].split()) if next_row else ""
    return not (nxt and nxt[0].islower())


def _closes(label: str, stack: list[_Open]) -> int | None:
    """Index in ``stack`` of the open section a "Total ..." row closes, or None when it names none."""
    rest = _words(_TOTAL.sub("", label, count=1))
    if not rest:
        return len(stack) - 1 if stack else None
    for k in range(len(stack) - 1, -1, -1):
        own = _words(stack[k].name)
        if own and (rest <= own or own <= rest):
            return k
    return None


def row_sections(rows: Sequence[Sequence[str]], indents: Sequence[float | None] | None = None,
                 gaps: Sequence[bool] | None = None) -> list[str]:
    """The section path ("A › B", "" for none) of each body row; ``indents[i]``: x of row ``i``'s label
    (None where unknown), ``gaps[i]``: a blank gap precedes row ``i``."""
    n = len(rows)
    flags = [is_section_row(r, rows[i + 1] if i + 1 < n else None) for i, r in enumerate(rows)]
    followed = any(flags[i] and i + 1 < n and _has_values(rows[i + 1]) for i in range(n))
    if not any(flags) or not followed or sum(flags) > MAX_SECTION_SHARE * n:
        return [""] * n
    out: list[str] = []
    stack: list[_Open] = []

    def path() -> str:
        return SEP.join(s.name for s in stack)

    for i, row in enumerate(rows):
        label = " ".join(row[0].split()) if row else ""
        ind = indents[i] if indents is not None and i < len(indents) else None
        if gaps is not None and i < len(gaps) and gaps[i]:
            stack.clear()
        if stack and stack[-1].nested is None:
            top = stack[-1]
            top.nested = ind is not None and top.indent is not None and ind > top.indent + INDENT_TOLERANCE
        total = bool(_TOTAL.match(label))
        if not total:  # a row back at a nesting section's indentation is outside it
            while (stack and stack[-1].nested and ind is not None and stack[-1].indent is not None
                   and ind <= stack[-1].indent + INDENT_TOLERANCE):
                stack.pop()
        if flags[i]:
            if stack and (stack[-1].direct or not _heads(stack[-1], ind)):
                stack.pop()  # a sibling of the innermost section, or a lone title row before this one
            out.append(path())
            stack.append(_Open(section_name(label), ind, title=label.endswith(":") or label.isupper(),
                               period=bool(_PERIOD.search(label))))
            continue
        if total and stack:
            k = _closes(label, stack)
            if k is not None and stack[k].period:
                k = k + 1 if k + 1 < len(stack) else None  # the sections inside the period, not the period
                if k is None:
                    out.append(path())
                    continue
            if k is None and stack[-1].period:
                out.append(path())  # a subtotal of the period's items ("Total commercial")
                continue
            if k is None:
                if not stack[-1].nested:
                    stack.pop()  # "Total segment income" after the last segment: outside it
                out.append(path())
                if stack and stack[-1].nested:
                    stack.pop()
                continue
            out.append(path())
            del stack[k:]
            continue
        out.append(path())
        if stack and _has_values(row):
            stack[-1].direct = True
    return out


def with_section(section: str, label: str) -> str:
    """``label`` named by its section ("Services › Net sales"); the label alone when it already
    holds the section's words ("Total operating expenses") or carries a section already."""
    if not section or SEP.strip() in label:
        return label
    last = section.split(SEP)[-1]
    if label and _words(last) and _words(last) <= _words(label):
        return label
    return f"{section}{SEP}{label}" if label else section
