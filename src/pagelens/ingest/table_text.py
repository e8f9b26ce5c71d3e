"""A table finder from text alignment alone, for tables drawn with a few horizontal rules.

LaTeX ``booktabs`` tables (most papers) draw a top rule, a rule under the header and a bottom rule and
no vertical lines, so line-grid finders see nothing. Here the table box comes from a group of rules
sharing their left and right ends (or from a layout-model box), rows are the text lines inside it and
columns are the vertical gaps left by the rows that hold numbers. Pure Python over the page's words:
well under a millisecond per table.
"""

from __future__ import annotations

import re

import pymupdf

from pagelens.ingest.table_cells import Cell, Word, group_lines
from pagelens.ingest.table_values import is_numeric

CAPTION = re.compile(r"^\s*(?:Table|TABLE|Tab\.)\s*(?:[0-9]+|[IVXL]+\b)")


def rule_group_boxes(rules: list[tuple[float, float, float]], lines_text: list[tuple[pymupdf.Rect, str]]) -> list[pymupdf.Rect]:
    """Boxes spanned by three or more rules with the same ends (or a top and a bottom rule with
    shorter rules between), cut where a "Table N" caption sits between two consecutive rules (two
    tables stacked in one column)."""
    groups: dict[tuple[int, int], list[tuple[float, float, float]]] = {}
    for y, x0, x1 in rules:
        groups.setdefault((round(x0 / 4), round(x1 / 4)), []).append((y, x0, x1))
    boxes = []
    for members in groups.values():
        members.sort()
        run: list[tuple[float, float, float]] = []
        for rule in members:
            if run:
                gap = pymupdf.Rect(rule[1], run[-1][0], rule[2], rule[0])
                if any(CAPTION.match(t) and gap.intersects(r) for r, t in lines_text):
                    if len(run) >= 2:
                        boxes.append(_box(run))
                    run = []
            run.append(rule)
        if len(run) >= 3 or (len(run) == 2 and _rules_between(run, rules)):
            boxes.append(_box(run))
    return boxes


def _rules_between(run: list[tuple[float, float, float]], rules: list[tuple[float, float, float]]) -> bool:
    """A top and a bottom rule with shorter rules between them (booktabs ``cmidrule``s)."""
    (top, x0, x1), (bottom, _, _) = run[0], run[-1]
    return any(top + 2 < y < bottom - 2 and a >= x0 - 2 and b <= x1 + 2 for y, a, b in rules)


def _box(run: list[tuple[float, float, float]]) -> pymupdf.Rect:
    return pymupdf.Rect(min(r[1] for r in run), run[0][0] - 1, max(r[2] for r in run), run[-1][0] + 1)


def _column(w: Word, bounds: list[float]) -> int:
    cx = (w[0] + w[2]) / 2
    return max(0, min(len(bounds) - 2, sum(1 for b in bounds[1:-1] if cx >= b)))


def text_grid(
    box: pymupdf.Rect, words: list[Word], rule_ys: list[float] | None = None, gap: float = 4.0
) -> list[list[Cell]]:
    """Cell rectangles of the table in ``box``.

    Columns come from the gaps between the values of the rows holding numbers (all rows when fewer
    than two have numbers). Rows are text lines, except that a line is joined to the one above when
    it fills only columns the line above leaves empty and sits close under it (a value centred on two
    rows), or when it continues wrapped cells (first column empty, or in a table of text only some of
    the columns above, no numbers). Below the header (the lines above the last rule over the first
    row of numbers), a line without numbers whose words cross
    a column gap ("Top Leaderboard Systems (Dec 10th, 2018)") becomes one cell spanning the row.
    """
    ws = [w for w in words if box.contains(pymupdf.Point((w[0] + w[2]) / 2, (w[1] + w[3]) / 2))]
    lines = group_lines(ws, tolerance=0.45)  # whole-box lines: a little stricter than in a cell
    data = [line for line in lines if sum(1 for w in line if is_numeric(w[4])) >= 2]
    numeric_table = len(data) >= 2
    if not numeric_table:
        data = [line for line in lines if len(line) >= 2]
    segs: list[list[float]] = []
    for w in sorted((w for line in data for w in line), key=lambda w: w[0]):
        if segs and w[0] < segs[-1][1] + gap:
            segs[-1][1] = max(segs[-1][1], w[2])
        else:
            segs.append([w[0], w[2]])
    if len(segs) < 2:
        return []
    bounds = [box.x0] + [(segs[i][1] + segs[i + 1][0]) / 2 for i in range(len(segs) - 1)] + [box.x1]
    inner = sorted(y for y in (rule_ys or []) if box.y0 + 3 < y < box.y1 - 3)
    first_data_top = min(w[1] for w in data[0])
    above = [y for y in inner if y < first_data_top]
    header_end = above[-1] if above else first_data_top
    rows: list[list[Word]] = []
    for line in lines:
        if rows:
            prev = rows[-1]
            h = max(w[3] - w[1] for w in line)
            close = min(w[1] for w in line) - max(w[3] for w in prev) < 0.6 * h
            cols, pcols = {_column(w, bounds) for w in line}, {_column(w, bounds) for w in prev}
            numeric = any(is_numeric(w[4]) for w in line)
            wrapped = not numeric and min(w[1] for w in line) > header_end and (
                (0 not in cols and 0 in pcols) or (not numeric_table and cols < pcols)
            )
            if close and (not cols & pcols or wrapped):
                prev.extend(line)
                continue
        rows.append(list(line))
    out: list[list[Cell]] = []
    for i, line in enumerate(rows):
        top = box.y0 if i == 0 else (max(w[3] for w in rows[i - 1]) + min(w[1] for w in line)) / 2
        bottom = box.y1 if i == len(rows) - 1 else (max(w[3] for w in line) + min(w[1] for w in rows[i + 1])) / 2
        crossing = any(w[0] < b - 1 and w[2] > b + 1 for w in line for b in bounds[1:-1])
        spread = numeric_table and len({_column(w, bounds) for w in line}) >= 2
        if min(w[1] for w in line) > header_end and (crossing or spread) and sum(is_numeric(w[4]) for w in line) < 2:
            out.append([(box.x0, top, box.x1, bottom)] + [None] * (len(bounds) - 2))
        else:
            out.append([(bounds[j], top, bounds[j + 1], bottom) for j in range(len(bounds) - 1)])
    return out
