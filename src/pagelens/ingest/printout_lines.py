"""A page's monospace lines read as a program printout's lines (``table_printout`` makes tables of them).

* ``mono_rows``: the page's monospace visual lines, each a ``Row`` of its words and its character width;
* ``blocks``: runs of them without a blank line (or a line of other text) between them;
* ``classify``: each line's kind: an input line (a prompt ``> ``, ``R> ``, ``>>> ``, Jupyter's ``[6]:``, or
  code such as ``x <- f(1)``), a rule (``----``), a section title ("Fixed effects:"), a line of words (a
  header) or a line of values (a label and mostly numbers, ``numeric_token``); on a page of knitr output
  (lines marked ``## ``) the prefix is dropped and the lines without it are the input.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any

import pymupdf

from pagelens.ingest.monospace import mono_line
from pagelens.ingest.table_cells import Word
from pagelens.ingest.table_mono import text_lines

NUMBER = re.compile(
    r"^[-+\u2212]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?%?\*{0,3}$|^\([-+\u2212]?[\d.,]+\)$"
    r"|^< ?[-+]?[\d.]+(?:[eE][-+]?\d+)?$|^<?NA>?$|^NaN$|^-?Inf$"
)
JUPYTER = re.compile(r"^(?:In)?\[\d*\]:$")  # a notebook cell's prompt: "[6]:", "In[6]:"
STARS = re.compile(r"^(?:\*{1,3}|\.|\.\.\.)$")  # significance marks; pandas' "..." for columns left out
PROMPTS = {">", "R>", "+", ">>>", "...", "$", "In", "In[", "julia>", "sage:", "."}
CODE_TOKENS = {"<-", "<<-", "->", "=", "==", "{", "}", "%>%", "|>", ":=", "+=", "def", "function", "import", "return"}
CALL = re.compile(r"^[A-Za-z_.][\w.]*(?:\$\w+)?\(.*\)[;,]?$")  # a whole line that is one call: f(x, y)
BLOCK_GAP = 0.8  # line heights: a wider vertical gap (a blank line) ends a block
VALUES_ROW = 0.75  # share of numbers among a body line's tokens after its label


@dataclass
class Row:
    """A monospace visual line of the page: its box, its words, its character width and its kind (``classify``)."""

    rect: pymupdf.Rect
    words: list[Word]
    cw: float  # character width
    kind: str = ""  # "code", "title", "break", "text" (no numbers), "body" (numbers)
    command: bool = False  # an input line that starts a command (after a prompt, or knitr's input)

    @property
    def text(self) -> str:
        return " ".join(w[4] for w in self.words)


def mono_rows(text: dict[str, Any], words: list[Word]) -> tuple[list[Row], list[pymupdf.Rect]]:
    """The page's monospace visual lines (top to bottom) and the boxes of its other lines."""
    mono: list[tuple[pymupdf.Rect, float]] = []
    other: list[pymupdf.Rect] = []
    for ln, t in text_lines(text):
        r = pymupdf.Rect(ln["bbox"])
        if mono_line(ln):
            mono.append((r, r.width / max(len(t), 1)))
        else:
            other.append(r)
    mono.sort(key=lambda m: (m[0].y0, m[0].x0))
    rows: list[list[Any]] = []  # [rect, [char widths]]
    for r, cw in mono:
        if rows:
            last = rows[-1][0]
            if abs((r.y0 + r.y1) / 2 - (last.y0 + last.y1) / 2) < 0.5 * min(r.height, last.height):
                rows[-1][0] = last | r
                rows[-1][1].append(cw)
                continue
        rows.append([pymupdf.Rect(r), [cw]])
    by_y = sorted(words, key=lambda w: (w[1] + w[3]) / 2)
    mids = [(w[1] + w[3]) / 2 for w in by_y]
    out = []
    for r, cws in rows:
        near = by_y[bisect_left(mids, r.y0):bisect_right(mids, r.y1)]
        ws = sorted((w for w in near if r.x0 - 1 <= (w[0] + w[2]) / 2 <= r.x1 + 1), key=lambda w: w[0])
        if ws:
            out.append(Row(r, ws, sorted(cws)[len(cws) // 2]))
    return out, other


def blocks(rows: list[Row], other: list[pymupdf.Rect]) -> list[list[Row]]:
    """Runs of monospace lines without a blank line or a line of other text between them."""
    out: list[list[Row]] = []
    for row in rows:
        if out:
            prev = out[-1][-1]
            gap = row.rect.y0 - prev.rect.y1
            x0, x1 = min(prev.rect.x0, row.rect.x0), max(prev.rect.x1, row.rect.x1)
            between = any(prev.rect.y1 - 1 < (o.y0 + o.y1) / 2 < row.rect.y0 + 1 and o.x1 > x0 and o.x0 < x1 for o in other)
            if gap <= BLOCK_GAP * prev.rect.height and not between:
                out[-1].append(row)
                continue
        out.append([row])
    return out


def numeric_token(t: str) -> bool:
    return bool(NUMBER.match(t))


def _values_row(toks: list[str]) -> bool:
    """Whether a line reads as a label and values: after its leading words, mostly numbers (a title
    line with numbers in it, "Point Forecast Lo 80 Hi 80", is not)."""
    k = next((i for i, t in enumerate(toks) if numeric_token(t)), None)
    if k is None:
        return False
    rest = [t for t in toks[k:] if not STARS.match(t) and t != "<"]
    if sum(map(numeric_token, rest)) >= VALUES_ROW * len(rest):
        return True
    # a row number, then text columns, then the numbers ("1 Subject (Intercept) <NA> 612.1 24.74")
    last = max(i for i, t in enumerate(rest) if not numeric_token(t))
    return len(rest) - 1 - last >= 2


def is_prompt(tok: str) -> bool:
    """Whether a line's first word is an input prompt: ``>``, ``R>``, ``>>>``, Jupyter's ``[6]:``."""
    return tok in (">", "R>", ">>>", "In") or tok.startswith(("R>", ">>>")) or bool(JUPYTER.match(tok))


def _is_code(row: Row) -> bool:
    toks = [w[4] for w in row.words]
    if toks[0] in PROMPTS or is_prompt(toks[0]):
        return True
    if any(t in CODE_TOKENS or t.endswith(("<-", "{")) or "<-" in t for t in toks):
        return True
    txt = row.text
    return bool(CALL.match(txt)) or (txt.endswith(("{", "(", ",")) and not numeric_token(toks[-1]))


def classify(block: list[Row], knitr: bool) -> list[Row]:
    """Mark each line's kind; on a page of knitr output (``knitr``: lines marked ``##``), drop the
    prefix, and the lines without it are the input."""
    out = []
    left = min(r.rect.x0 for r in block)
    for r in block:
        ws = r.words
        if knitr:
            if ws[0][4] not in ("##", "#>"):
                r.kind = "code"
                # an indented input line continues a command, so does a line of closing brackets
                r.command = r.rect.x0 <= left + 0.5 * r.cw and any(c.isalpha() for c in r.text)
                out.append(r)
                continue
            ws = ws[1:]
            if not ws:
                continue
            r = Row(pymupdf.Rect(ws[0][0], r.rect.y0, r.rect.x1, r.rect.y1), ws, r.cw)
        if len(ws) > 1 and ws[-1][4] == "\\":  # pandas: the frame goes on below
            ws = ws[:-1]
            r = Row(pymupdf.Rect(r.rect.x0, r.rect.y0, ws[-1][2], r.rect.y1), ws, r.cw)
        toks = [w[4] for w in ws]
        if not knitr and _is_code(r):
            r.kind = "code"
            r.command = is_prompt(toks[0])
        elif knitr and any(t in CODE_TOKENS for t in toks):
            r.kind = "code"
        elif all(set(t) <= set("-=_~") for t in toks):
            r.kind = "break"
        elif (toks[-1].endswith(":") or (len(toks) == 1 and toks[0].startswith(("$", "[[")))) and not any(map(numeric_token, toks)):
            r.kind = "title"
        elif any(t.endswith((":", "=")) for t in toks):
            r.kind = "break"  # "Number of obs: 180, groups: Subject, 18", "Ratios="
        elif _values_row(toks):
            r.kind = "body"
        else:
            r.kind = "text"
        out.append(r)
    return out
