"""Tables in program output printed in monospace without rules of characters (R, Python, Stata printouts).

A statistics paper or manual prints the output of its commands as typed text::

    Fixed effects:
                Estimate Std. Error t value
    (Intercept)   251.41       6.82   36.84
    Days           10.47       1.55    6.77

No rules are drawn and none are typed (``table_mono`` reads the printouts between ``====`` rules), rows
may be few, and R separates a matrix's columns by a single space ("3900.329 3770.801 4029.857"), so the
page signals and the whitespace finder miss these or cut them wrongly, and the row label "Days" is not
connected with the title "Estimate". Here:

* a line is *monospace* when all its spans are set in a fixed-pitch font (the font's monospaced flag, or
  a name of the Courier / Mono / typewriter families: CMTT, LMMono, Inconsolata, ...);
* consecutive monospace lines without a blank line (or a line of other text) between them form a
  *block*; input lines (a prompt ``> ``, ``R> ``, ``+ ``, ``>>> ``, or code such as ``x <- f(1)``) cut
  it, and where the output is marked with knitr's ``## `` prefix, the lines without it are the input
  and the prefix is dropped;
* a line ending in ``:`` ("Fixed effects:", "Coefficients:") or naming a list element (``$api00``)
  starts a section and is its title; lines without numbers at the start of a section are its header,
  lines with numbers its body; a line without numbers after the body starts the next section (a wide
  matrix printed in two parts) and a ``key: value`` line ends it;
* columns are the character positions blank on every body line (right-aligned values one space apart
  are still two columns); leading columns of text are one label column unless the header titles each
  ("Groups Name"); each title word goes to the column it lies over, or to the next column to its right
  (a right-aligned title wider than its values).

The lines, their blocks and their kinds (input, title, header, values) are read by ``printout_lines``;
here they are cut into sections and read as tables.

The table's caption is the input line that printed it (``summary(fm1)``, without its prompt) and the
section title ("summary(fm1): Fixed effects"); the second part of a matrix printed in two parts keeps
the title of the first.

A section is a table when its body has two or more lines whose values are mostly numbers and there is
a header or each line has a label and two numbers, or a header whose titles end where the values of a
single line end (``svymean`` prints one row). Code listings have no such lines and stay text.
"""

from __future__ import annotations

import re
from typing import Any

import pymupdf

from pagelens.ingest.monospace import FIXED_PITCH, mono_font, mono_line
from pagelens.ingest.printout_lines import PROMPTS, STARS, Row, blocks, classify, is_prompt, mono_rows, numeric_token
from pagelens.ingest.table_cells import Grid, Word
from pagelens.ingest.table_mono import MonoTable, _columns

ROW_NUMBER = re.compile(r"^\d{1,4}$")  # a year or a row number as a row's label
MIN_MONO_LINES = 2  # monospace lines a page needs before blocks are formed (titles over one line of values)
ABOVE_GAP = 2.5  # line heights: titles this close above a block's first values may be its header
MAX_COMMAND = 100  # characters: a longer input line is no caption
MAX_HEADER = 3  # header lines a section may have
NUMERIC_COLUMN = 0.75  # share of a column's filled cells that are numbers in a column of values


def has_printout(text: dict[str, Any]) -> bool:
    """Cheap gate: does the page hold at least ``MIN_MONO_LINES`` monospace lines, one with a digit?"""
    n, digit = 0, False
    for b in text.get("blocks", ()):
        if b.get("type") != 0:
            continue
        for ln in b["lines"]:
            spans = ln["spans"]
            if not spans or not (spans[0]["flags"] & FIXED_PITCH or mono_font(spans[0]["font"])):
                continue
            if mono_line(ln):
                n += 1
                digit = digit or any(c.isdigit() for s in spans for c in s["text"])
                if n >= MIN_MONO_LINES and digit:
                    return True
    return False


def _sections(rows: list[Row], cause: Row | None = None) -> list[tuple[Row | None, list[Row], list[Row], Row | None]]:
    """(title, header lines, body lines, the input line that printed them) of each section of a block;
    ``cause``: the input line before the block."""
    out: list[tuple[Row | None, list[Row], list[Row], Row | None]] = []
    title: Row | None = None
    head: list[Row] = []
    body: list[Row] = []

    def close() -> None:
        if body:
            out.append((title, head, list(body), cause))

    for r in rows:
        if r.kind in ("code", "break"):
            close()
            title, head, body = None, [], []
            if r.command:
                cause = r
        elif r.kind == "title":
            close()
            title, head, body = r, [], []
        elif r.kind == "text":
            if body:  # titles after a body: the next part of a wide matrix, under the same title
                close()
                head, body = [], []
            head.append(r)
            if len(head) > MAX_HEADER:
                head = head[1:]
        else:
            body.append(r)
    close()
    return out


def _command(row: Row | None) -> str | None:
    """An input line as the command that printed a table: without its prompt, if short enough."""
    if row is None:
        return None
    toks = [w[4] for w in row.words]
    while toks and (toks[0] in PROMPTS or toks[0] in ("##", "#>") or is_prompt(toks[0])):
        toks = toks[1:]
    text = " ".join(toks)
    return text if 0 < len(text) <= MAX_COMMAND else None


def _place(words: list[Word], cols: list[tuple[float, float]]) -> list[list[Word]] | None:
    """Each title word to the column it lies over most, else to the next column right of it (a
    right-aligned title wider than the values under it); None when a word lies right of every column."""
    groups: list[list[Word]] = [[] for _ in cols]
    for w in words:
        best, over = None, 0.0
        for k, (a, b) in enumerate(cols):
            o = min(b, w[2]) - max(a, w[0])
            if o > over:
                best, over = k, o
        if best is None:
            best = next((k for k, (a, _) in enumerate(cols) if a >= w[2]), None)
            if best is None:
                return None
        groups[best].append(w)
    return groups


def _aligned(groups: list[list[Word]], cols: list[tuple[float, float]], lead: int, tol: float) -> bool:
    """Whether each value column's title words end where its values end, start where they start, or
    stay between its neighbours' values: a header line, not a caption running over the columns. The
    titles of the label columns may sit anywhere over them."""
    for k, (g, (a, b)) in enumerate(zip(groups, cols)):
        if not g or k < lead or abs(g[-1][2] - b) <= tol or abs(g[0][0] - a) <= tol:
            continue
        left = cols[k - 1][1] if k else float("-inf")
        right = cols[k + 1][0] if k + 1 < len(cols) else float("inf")
        if not (g[0][0] >= left - tol and g[-1][2] <= right + tol):
            return False
    return True


def _caption_like(r: Row, head: list[Row], cols: list[tuple[float, float]]) -> bool:
    """A first header line that starts at the printout's left edge and runs as one piece of words
    over two or more columns ("Analysis of Variance Table" over "npar Sum Sq Mean Sq")."""
    if len(head) < 2 or len(r.words) < 3 or r.words[0][0] > min(cols[0][0], *(h.words[0][0] for h in head)) + 0.5 * r.cw:
        return False
    one_piece = all(b[0] - a[2] < 1.5 * r.cw for a, b in zip(r.words, r.words[1:]))
    spans = sum(1 for a, b in cols if a < r.words[-1][2] and b > r.words[0][0])
    return one_piece and spans >= 2


def _header(head: list[Row], cols: list[tuple[float, float]], lead: int, tol: float) -> tuple[list[str] | None, Row | None]:
    """One title per column from the header lines (``_place``), and a first line that is no header
    (not ``_aligned``: "Analysis of Variance Table") as the caption; (None, None) when the header
    lines do not fit the columns."""
    titles = [""] * len(cols)
    caption = None
    for i, r in enumerate(head):
        groups = _place(r.words, cols)
        if groups is None or not _aligned(groups, cols, lead, tol) or (i == 0 and _caption_like(r, head, cols)):
            if i == 0 and len(head) > 1:
                caption = r
                continue
            return None, None
        for k, g in enumerate(groups):
            if g:
                titles[k] = f"{titles[k]} {' '.join(w[4] for w in g)}".strip()
    return titles, caption


def _table(title: Row | None, head: list[Row], body: list[Row]) -> MonoTable | None:
    cw = max(r.cw for r in body)
    tol = 0.4 * cw
    seg_rows = [[(w[0], w[2], w[4]) for w in r.words] for r in body]
    cols = _columns(seg_rows, tol)
    if len(cols) < 2:
        return None
    cells = []
    for row in seg_rows:
        cells.append(_assign(row, cols))
    numeric = [sum(1 for row in cells if row[k] and numeric_token(row[k])) for k in range(len(cols))]
    filled = [sum(1 for row in cells if row[k]) for k in range(len(cols))]
    is_num = [filled[k] > 0 and numeric[k] >= NUMERIC_COLUMN * filled[k] for k in range(len(cols))]
    lead = next((k for k, n in enumerate(is_num) if n), len(cols))
    if lead == len(cols):
        return None  # no column of numbers
    if lead == 0 and len(cols) >= 3 and all(ROW_NUMBER.match(row[0]) for row in cells):
        lead = 1  # years or row numbers before the values: the rows' labels
    titles, caption = _header(head, cols, lead, tol) if head else (None, None)
    if head and titles is None:
        return None
    if caption is not None:
        title = title or caption
        head = [r for r in head if r is not caption]
    # Leading text columns are one label column unless the header titles each of them.
    if lead > 1 and not (titles and all(titles[k] for k in range(lead))):
        cols = [(cols[0][0], cols[lead - 1][1]), *cols[lead:]]
        cells = [[" ".join(c for c in row[:lead] if c), *row[lead:]] for row in cells]
        if titles:
            titles = [" ".join(t for t in titles[:lead] if t), *titles[lead:]]
        is_num = [False, *is_num[lead:]]
        lead = 1
    values = [row[k] for row in cells for k in range(lead, len(cols)) if row[k] and not STARS.match(row[k])]
    if not values or sum(map(numeric_token, values)) < 0.6 * len(values):
        return None
    if any(not any(numeric_token(c) for c in row[lead:]) for row in cells):
        return None
    if sum(is_num) < 2 and title is None:
        return None  # one column of numbers under no section title: a list more than a table
    if len(body) < 2:
        # one line: only under titles that end where its values end (each value column titled)
        if not titles or sum(is_num) < 2:
            return None
        for k, (a, b) in enumerate(cols):
            if k < lead:
                continue
            ends = [w[2] for r in head for w in r.words if a - 20 * cw <= w[2] <= b + tol]
            if not titles[k] or not any(abs(e - b) <= tol for e in ends):
                return None
    elif not titles:
        # no header: each line a label and two numbers
        if lead != 1 or any(not row[0] or sum(numeric_token(c) for c in row[1:]) < 2 for row in cells):
            return None
    box = pymupdf.Rect(body[0].rect)
    for r in [*head, *body[1:], *([title] if title else [])]:
        box |= r.rect
    name = title.text.rstrip(":").strip() if title else None
    grid = Grid(cells=[titles, *cells], header_rows=1) if titles and any(titles) else Grid(cells=cells)
    return MonoTable(box, grid, name)


def _assign(row: list[tuple[float, float, str]], cols: list[tuple[float, float]]) -> list[str]:
    out = [""] * len(cols)
    for a, b, t in row:
        cx = (a + b) / 2
        j = next((k for k, (c0, c1) in enumerate(cols) if c0 - 0.5 <= cx <= c1 + 0.5), None)
        if j is None:
            j = min(range(len(cols)), key=lambda k: min(abs(cx - cols[k][0]), abs(cx - cols[k][1])))
        out[j] = f"{out[j]} {t}".strip()
    return out


HEADING_WORDS = 10


def _heading(lines: list[Row], j: int) -> bool:
    """A printout's heading: a line of words (``text``) that no values follow, the last of its block
    or followed by a break, a title or input: "Likelihood ratio test", "Analysis of Variance Table",
    "Linear hypothesis test (Theil's F test)". It names the test or object printed below it, which the
    command alone does not ("lrtest( fitsurRmat, fitsur )")."""
    r = lines[j]
    if r.kind != "text" or len(r.words) > HEADING_WORDS or any(numeric_token(w[4]) for w in r.words):
        return False  # (a count in it is a message: "convergence achieved after 18 iterations")
    nxt = lines[j + 1] if j + 1 < len(lines) else None
    return nxt is None or nxt.kind in ("break", "title", "code")


def find_printout_tables(text: dict[str, Any], words: list[Word]) -> list[MonoTable]:
    """The printout tables of a page (``text``: the page's text dict; ``words``: its words)."""
    rows, other = mono_rows(text, words)
    if len(rows) < 2:
        return []
    out = []
    above: Row | None = None  # the last line of the block before, when it is a line of titles
    cause: Row | None = None  # the last input line, while no other text came after it
    knitr = any(r.words[0][4] in ("##", "#>") for r in rows)
    prev: Row | None = None
    headings: list[Row] = []  # the printout's heading lines since the last input line ("Likelihood ratio test")
    for block in blocks(rows, other):
        if prev is not None and (block[0].rect.y0 - prev.rect.y1 > ABOVE_GAP * prev.rect.height or any(
                prev.rect.y1 < (o.y0 + o.y1) / 2 < block[0].rect.y0 for o in other)):
            cause = above = None  # prose or a wide gap between the blocks: no longer the same printout
            headings = []
        lines = classify(block, knitr)
        for j, r in enumerate(lines):
            if r.command:
                headings = []
            elif _heading(lines, j):
                headings.append(r)
        for i, (title, head, body, code) in enumerate(_sections(lines, cause) if len(block) >= 2 or above else []):
            t = None
            if i == 0 and not head and not title and above is not None and lines[0] is body[0]:
                t = _table(None, [above], body)  # titles one blank line above the values
            t = t or _table(title, head, body)
            if t is not None:
                cmd = _command(code)
                top = (head or body)[0].rect.y0 if not title else title.rect.y0
                named = next((h.text for h in reversed(headings) if h.rect.y1 <= top), None)
                t.title = ": ".join(x for x in (cmd, named, t.title) if x) or None
                out.append(t)
        above = lines[-1] if lines and lines[-1].kind == "text" else None
        cause = next((r for r in reversed(lines) if r.command), cause)
        prev = block[-1]
    return out
