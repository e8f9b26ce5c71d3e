"""Tables typed in monospace text between rules of characters (``====`` / ``----`` lines).

Program output printed into a document (a statsmodels regression summary, an ASCII report) has no
drawn rules and often few numbers per row, so the page signals and the drawn-rule finders miss it and
its rows stay loose text lines. Here a *character rule* is a line of twenty or more ``=``, ``-``, ``_``
or ``~`` alone; a *block* is the run of text lines set in the rule's width around it, without a
vertical gap. ``=`` rules cut a block into sections; a ``-`` rule inside a section puts the lines
above it in the header. Columns are the runs of words left by the gaps of two or more character
widths, merged over the section's lines (in monospace a single space separates the words of one cell,
two or more separate cells); where titles printed one space apart would merge the body's columns, each
title goes to the column whose right edge it ends at (``_right_aligned``). A section of ``key: value
key: value`` pairs without a header becomes a two-column table of fields and values, one row per pair.
A single centred line right above the first rule (``OLS Regression Results``) is the caption of the
block's tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Iterator
from typing import Any

import pymupdf

from pagelens.ingest.table_cells import Grid, Word

RULE = re.compile(r"^\s*([=\-_~])\1{19,}\s*$")
_RUNS = ("=====", "-----", "_____", "~~~~~")  # any rule holds one of these
CELL_GAP = 1.5  # character widths: a wider gap between two words separates cells
MIN_BODY = 2  # body rows a section needs to be a table
WIDER = 0.15  # share of a rule's width that other lines of its block may reach beyond it


@dataclass
class MonoTable:
    bbox: pymupdf.Rect
    grid: Grid
    title: str | None


@dataclass
class _Line:
    rect: pymupdf.Rect
    text: str
    rule: str | None  # "=", "-" (any other rule character counts as "-") or None


def text_lines(text: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str]]:
    """(line, its text) for every line of a page's text dict that holds more than blanks."""
    for b in text.get("blocks", ()):
        if b.get("type") != 0:
            continue
        for ln in b["lines"]:
            t = "".join(s["text"] for s in ln["spans"])
            if t.strip():
                yield ln, t


def _page_lines(text: dict[str, Any]) -> list[_Line]:
    out = []
    for ln, t in text_lines(text):
        m = RULE.match(t)
        out.append(_Line(pymupdf.Rect(ln["bbox"]), t, ("=" if m.group(1) == "=" else "-") if m else None))
    out.sort(key=lambda ln: (ln.rect.y0, ln.rect.x0))
    return out


def has_char_rules(text: dict[str, Any]) -> bool:
    """Cheap gate: does the page print a rule of characters at all?"""
    for b in text.get("blocks", ()):
        if b.get("type") != 0:
            continue
        for ln in b["lines"]:
            if not any(run in s["text"] for s in ln["spans"] for run in _RUNS):
                continue  # (a substring test per span first: this runs on every page)
            if RULE.match("".join(s["text"] for s in ln["spans"])):
                return True
    return False


def _blocks(lines: list[_Line]) -> list[list[_Line]]:
    """Runs of lines within a rule's width, each holding at least one rule, without a vertical gap."""
    out: list[list[_Line]] = []
    used: set[int] = set()
    for i, ln in enumerate(lines):
        if ln.rule is None or i in used:
            continue
        x0, x1 = ln.rect.x0 - 2, ln.rect.x1 + 2
        h = ln.rect.height
        reach = x1 + WIDER * ln.rect.width  # rules of one block may differ by a few characters

        def inside(o: _Line) -> bool:
            return x0 <= o.rect.x0 < x1 and o.rect.x1 <= reach

        members = [i]
        for step in (-1, 1):
            j, edge = i + step, ln.rect
            while 0 <= j < len(lines):
                o = lines[j]
                gap = (edge.y0 - o.rect.y1) if step < 0 else (o.rect.y0 - edge.y1)
                if gap > 0.5 * h or j in used:
                    break
                if not inside(o):
                    if gap < -0.5 * h:  # a line beside the block (another column): skip it
                        j += step
                        continue
                    break
                members.append(j)
                edge = o.rect
                j += step
        members.sort()
        used.update(members)
        out.append([lines[k] for k in members])
    return out


def _segments(words: list[Word], cw: float) -> list[tuple[float, float, str]]:
    segs: list[list[Any]] = []
    for w in sorted(words, key=lambda w: w[0]):
        if segs and w[0] - segs[-1][1] < CELL_GAP * cw:
            segs[-1][1] = max(segs[-1][1], w[2])
            segs[-1][2] += " " + w[4]
        else:
            segs.append([w[0], w[2], w[4]])
    return [(a, b, t) for a, b, t in segs]


def _columns(rows: list[list[tuple[float, float, str]]], tol: float) -> list[tuple[float, float]]:
    spans = sorted((a, b) for row in rows for a, b, _ in row)
    cols: list[list[float]] = []
    for a, b in spans:
        if cols and a < cols[-1][1] + tol:
            cols[-1][1] = max(cols[-1][1], b)
        else:
            cols.append([a, b])
    return [(a, b) for a, b in cols]


def _cells(row: list[tuple[float, float, str]], cols: list[tuple[float, float]]) -> list[str]:
    out = [""] * len(cols)
    for a, b, t in row:
        cx = (a + b) / 2
        j = min(range(len(cols)), key=lambda k: 0 if cols[k][0] <= cx <= cols[k][1] else min(abs(cx - cols[k][0]), abs(cx - cols[k][1])))
        out[j] = f"{out[j]} {t}".strip()
    return out


def _right_aligned(words: list[Word], cols: list[tuple[float, float]], tol: float) -> list[str] | None:
    """A title line's words as one title per body column, when every title ends where its column's
    right-aligned values end ("Estimate Std. Error z value", one space between titles); the label
    column's title may start where the labels start instead. None when the line is not set so."""
    groups: list[list[Word]] = [[] for _ in cols]
    for w in sorted(words, key=lambda w: w[0]):
        j = next((k for k, c in enumerate(cols) if w[2] <= c[1] + tol), None)
        if j is None:
            return None
        groups[j].append(w)
    for j, g in enumerate(groups):
        if not g:
            continue
        if abs(g[-1][2] - cols[j][1]) > tol and not (j == 0 and abs(g[0][0] - cols[0][0]) <= tol):
            return None
        if j and g[0][0] < cols[j - 1][1] - tol:
            return None  # a title reaching back over the previous column's values
    return [" ".join(w[4] for w in g) for g in groups]


def _key_value(body: list[list[str]]) -> list[list[str]] | None:
    """``key: value   key: value`` rows as (key, value) rows, left pairs first; None if not such rows."""
    width = len(body[0])
    if width < 2 or width % 2:
        return None
    keys = [r[j] for r in body for j in range(0, width, 2) if r[j]]
    if not keys or sum(k.endswith(":") for k in keys) < 0.8 * len(keys):
        return None
    return [[r[j], r[j + 1]] for j in range(0, width, 2) for r in body if r[j] or r[j + 1]]


def _section(lines: list[_Line], words: list[Word], cw: float) -> tuple[pymupdf.Rect, Grid] | None:
    dash = [i for i, ln in enumerate(lines) if ln.rule == "-"]
    head_n = dash[0] if dash and 0 < dash[0] < len(lines) - 1 else 0
    content = [ln for ln in lines if ln.rule is None]
    if len(content) - head_n < MIN_BODY:
        return None
    rows, line_words = [], []
    for ln in content:
        box = ln.rect
        ws = [w for w in words if box.contains(pymupdf.Point((w[0] + w[2]) / 2, (w[1] + w[3]) / 2))]
        rows.append(_segments(ws, cw))
        line_words.append(ws)
    cols = _columns(rows, 0.5 * cw)
    heads: list[list[str]] | None = None
    if head_n:
        body_cols = _columns(rows[head_n:], 0.5 * cw)
        if len(body_cols) > len(cols):  # titles printed one space apart run over several columns
            split = [_right_aligned(ws, body_cols, 0.5 * cw) for ws in line_words[:head_n]]
            if all(h is not None for h in split):
                heads, cols = [h for h in split if h is not None], body_cols
    if len(cols) < 2:
        return None
    cells = [*(heads or []), *(_cells(r, cols) for r in rows[len(heads or []):])]
    header = cells[:head_n]
    body = cells[head_n:]
    if not header:
        pairs = _key_value(body)
        if pairs is not None:
            return _rect(lines), Grid(cells=pairs)
    if header:
        merged = [" ".join(r[j] for r in header if r[j]).strip() for j in range(len(cols))]
        return _rect(lines), Grid(cells=[merged] + body, header_rows=1)
    return _rect(lines), Grid(cells=body)


def _rect(lines: list[_Line]) -> pymupdf.Rect:
    r = pymupdf.Rect(lines[0].rect)
    for ln in lines[1:]:
        r |= ln.rect
    return r


def find_mono_tables(text: dict[str, Any], words: list[Word]) -> list[MonoTable]:
    """The character-ruled tables of a page (``text``: the page's text dict; ``words``: its words)."""
    out: list[MonoTable] = []
    for block in _blocks(_page_lines(text)):
        rules = [ln for ln in block if ln.rule]
        cw = max(ln.rect.width / max(len(ln.text.strip()), 1) for ln in rules)
        first = block.index(rules[0])
        title = None
        if first == 1 and len(block[0].text.split()) <= 8:
            title = " ".join(block[0].text.split())
            title_rect = block[0].rect
            block = block[1:]
        # Sections between "=" rules; each keeps the rules around it (and the first one the title) in
        # its box, so the rules and the title are claimed with the table and do not come back as text.
        sections: list[tuple[list[_Line], list[_Line]]] = [([], [])]  # (lines, rules around them)
        for ln in block:
            if ln.rule == "=":
                sections[-1][1].append(ln)
                sections.append(([], [ln]))
                continue
            sections[-1][0].append(ln)
        taken_title = False
        for sec, around in sections:
            while sec and sec[0].rule:
                around.append(sec[0])
                sec = sec[1:]
            if not sec:
                continue
            found = _section(sec, words, cw)
            if found is None:
                continue
            box = _rect(sec + around)
            if title and not taken_title:
                box |= title_rect
                taken_title = True
            out.append(MonoTable(box, found[1], title))
    return out
