"""Tables of text set off by a rule under every row, as browsers print HTML tables styled with row
separators only (``border-bottom`` on each cell): no vertical rules, no numbers, often no caption,
so neither the line-grid finder nor the page's table signals see them.

Each cell draws its own bottom border, so the rules are first joined end to end (``join_rules``);
``table_text.rule_group_boxes`` then finds the rules sharing their ends. The header row sits above
the first rule (``header_above``). ``rows_ruled`` accepts a text grid read between such rules only
when every row has a rule of its own: an algorithm box draws three rules around many lines.
"""

from __future__ import annotations

import pymupdf

from pagelens.ingest.context import PageContext
from pagelens.ingest.table_captions import figure_caption_near
from pagelens.ingest.table_cells import Grid

HEADER_GAP = 1.6  # line heights between the first rule and a header line above it
MAX_HEADER_WORDS = 12  # a line above the first rule with more words than this is prose
MAX_ROW_LINES = 4  # lines a cell of one row may wrap to


def join_rules(rules: list[tuple[float, float, float]], tol: float = 1.5) -> list[tuple[float, float, float]]:
    """Horizontal rules at one height (within half a point) that touch or overlap, joined into one."""
    out: list[tuple[float, float, float]] = []
    rows: list[list[tuple[float, float, float]]] = []
    for rule in sorted(rules):
        if rows and rule[0] - rows[-1][0][0] <= 0.5:
            rows[-1].append(rule)
        else:
            rows.append([rule])
    for row in rows:
        y = sum(r[0] for r in row) / len(row)
        spans: list[list[float]] = []
        for _, x0, x1 in sorted(row, key=lambda r: r[1]):
            if spans and x0 <= spans[-1][1] + tol:
                spans[-1][1] = max(spans[-1][1], x1)
            else:
                spans.append([x0, x1])
        out.extend((y, a, b) for a, b in spans)
    return out


def _across(box: pymupdf.Rect, rules: list[tuple[float, float, float]]) -> list[float]:
    return sorted(y for y, x0, x1 in rules if box.y0 - 2 <= y <= box.y1 + 2 and x0 <= box.x0 + 4 and x1 >= box.x1 - 4)


def text_between_rules(box: pymupdf.Rect, lines_text: list[tuple[pymupdf.Rect, str]],
                       rules: list[tuple[float, float, float]]) -> bool:
    """Cheap test before a grid is read: every band between two consecutive rules across the box
    holds one to ``MAX_ROW_LINES`` text lines (a row, its cells wrapped at most that often)."""
    ys = _across(box, rules)
    if len(ys) < 3:
        return False
    mids = sorted((r.y0 + r.y1) / 2 for r, t in lines_text if t.strip() and box.x0 - 2 <= r.x0 and r.x1 <= box.x1 + 2)
    for top, bottom in zip(ys, ys[1:]):
        if bottom - top < 4:
            continue  # a double rule
        n = sum(1 for m in mids if top < m < bottom)
        if not 1 <= n <= MAX_ROW_LINES * 3:  # lines of all the row's cells together
            return False
    return True


def header_above(box: pymupdf.Rect, lines_text: list[tuple[pymupdf.Rect, str]]) -> pymupdf.Rect:
    """The box grown over the header line right above its first rule (two words or more, inside
    the box's width, not prose)."""
    above = [
        (r, t) for r, t in lines_text
        if r.y1 <= box.y0 + 1 and box.y0 - r.y1 <= HEADER_GAP * r.height
        and r.x0 >= box.x0 - 2 and r.x1 <= box.x1 + 2 and t.strip()
    ]
    words = sum(len(t.split()) for _, t in above)
    if not above or words > MAX_HEADER_WORDS or (len(above) < 2 and len(above[0][1].split()) < 2):
        return box
    return pymupdf.Rect(box.x0, min(r.y0 for r, _ in above) - 1, box.x1, box.y1)


def rows_ruled(ctx: PageContext, box: pymupdf.Rect, grid: Grid, rules: list[tuple[float, float, float]]) -> bool:
    """A table of text whose rows are each set off by a rule across it (a web table printed with row
    separators only): three rows or more, two columns of words or more, most cells filled, and a rule
    between every two rows (an algorithm box draws three rules around many lines, a UML class box
    one rule between its name and its attribute lines)."""
    if len(grid.cells) < 3 or len(grid.cells[0]) < 2 or figure_caption_near(ctx, box):
        return False
    cells = [c for r in grid.cells for c in r]
    if sum(1 for c in cells if c) < 0.8 * len(cells):
        return False
    worded = sum(1 for j in range(len(grid.cells[0]))
                 if sum(1 for r in grid.cells if any(ch.isalpha() for ch in r[j])) >= 0.5 * len(grid.cells))
    if worded < 2 or len(grid.row_boxes) != len(grid.cells):
        return False
    ys = _across(box, rules)
    rows = grid.row_boxes
    return all(any(rows[i][3] - 1 <= y <= rows[i + 1][1] + 1 for y in ys) for i in range(len(rows) - 1))
