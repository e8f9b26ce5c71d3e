"""From a table's cell rectangles to clean text rows: word assignment, row splitting, header, junk test.

The finders (PyMuPDF line grids, MuPDF's grid-in-box, pdfplumber) only give cell rectangles; the text
of each cell is read here from the page's words (``page.get_text("words")``) by word centre, which
keeps decimal points with their digits ("60.5") and costs one word list per page instead of one text
extraction per cell.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pagelens.ingest.table_render import clean_cell
from pagelens.ingest.table_values import (
    is_amount,
    is_caption_label,
    is_currency,
    is_numeric,
    is_period,
    is_value,
    is_year,
    printed_unlike,
)

Word = tuple  # (x0, y0, x1, y1, text, block, line, word_no) as page.get_text("words") gives them
Cell = tuple[float, float, float, float] | None  # None: covered by a merged cell to its left/above

@dataclass
class Grid:
    """Cell texts of one table, first row possibly the header, plus what the header detection found."""

    cells: list[list[str]]
    header_rows: int = 0
    row_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)

    @property
    def header(self) -> list[str]:
        if not self.header_rows:
            return []
        top = self.cells[: self.header_rows]
        return [" ".join(t for t in (r[j] for r in top) if t).strip() for j in range(len(top[0]))]

    @property
    def body(self) -> list[list[str]]:
        return self.cells[self.header_rows :]


def _centre_in(w: Word, box: tuple[float, float, float, float]) -> bool:
    cx, cy = (w[0] + w[2]) / 2, (w[1] + w[3]) / 2
    return box[0] <= cx < box[2] and box[1] <= cy < box[3]


def group_lines(words: list[Word], tolerance: float = 0.5) -> list[list[Word]]:
    """Group words into visual lines, top to bottom, each sorted left to right: a word joins the line
    above when its vertical centre is within ``tolerance`` × its height of that line's mean centre."""
    out: list[list[Word]] = []
    for w in sorted(words, key=lambda w: ((w[1] + w[3]) / 2, w[0])):
        cy, h = (w[1] + w[3]) / 2, max(w[3] - w[1], 1.0)
        if out:
            last = out[-1]
            ly = sum((v[1] + v[3]) / 2 for v in last) / len(last)
            if abs(cy - ly) < tolerance * h:
                last.append(w)
                continue
        out.append([w])
    return [sorted(line, key=lambda w: w[0]) for line in out]


def _text(words: list[Word]) -> str:
    return "\n".join(" ".join(w[4] for w in line) for line in group_lines(words))


def _row_bands(per_cell: list[list[Word]]) -> list[tuple[float, float]] | None:
    """Text bands of a row that holds several table rows, or None when it is one row.

    A row is several rows when at least half of its non-empty cells (and at least two) hold the same
    number k > 1 of short lines, mostly numbers; a wrapped description (long lines), a two-line
    header (labels) or a single multi-line cell does not split its row.
    """
    lines = [group_lines(ws) for ws in per_cell if ws]
    multi = [len(ls) for ls in lines if len(ls) > 1]
    if not multi:
        return None
    k = max(set(multi), key=multi.count)
    ref = [ls for ls in lines if len(ls) == k]
    if len(ref) < max(2, len(lines) / 2):
        return None
    if sum(len(line) for ls in ref for line in ls) / (k * len(ref)) > 3:
        return None  # prose wrapped over several lines
    if sum(1 for ls in ref if all(is_numeric(" ".join(w[4] for w in line)) for line in ls)) < len(ref) / 2:
        return None  # stacked labels (a two-line header), not stacked values
    bands = [(min(w[1] for ls in ref for w in ls[i]), max(w[3] for ls in ref for w in ls[i])) for i in range(k)]
    if any(bands[i][1] > bands[i + 1][0] + 1 for i in range(k - 1)):
        return None  # lines of different cells do not line up
    return bands


def _split_row(per_cell: list[list[Word]]) -> list[list[list[Word]]]:
    bands = _row_bands(per_cell)
    if bands is None:
        return [per_cell]
    out: list[list[list[Word]]] = [[[] for _ in per_cell] for _ in bands]
    for j, ws in enumerate(per_cell):
        for w in ws:
            cy = (w[1] + w[3]) / 2
            inside = [i for i, (a, b) in enumerate(bands) if a - 1 <= cy <= b + 1]
            # A value centred between bands spans them (a merged cell): it belongs to each.
            targets = inside[:1] or [i for i, (a, b) in enumerate(bands) if w[1] < b and w[3] > a]
            if not targets:
                targets = [min(range(len(bands)), key=lambda i: abs(cy - sum(bands[i]) / 2))]
            for i in targets:
                out[i][j].append(w)
    return out


def _segments(words: list[Word], gap: float = 3.0) -> list[tuple[float, float]]:
    segs: list[list[float]] = []
    for w in sorted(words, key=lambda w: w[0]):
        if segs and w[0] < segs[-1][1] + gap:
            segs[-1][1] = max(segs[-1][1], w[2])
        else:
            segs.append([w[0], w[2]])
    return [(a, b) for a, b in segs]


def _split_columns(rows: list[list[list[Word]]]) -> list[list[list[Word]]]:
    """Split a column whose numeric cells hold several x-aligned values ("88.4 86.7" under QNLI, MRPC).

    Segments come from the words of the numeric cells only (headers spanning a group would join
    them); a column is split when at least two rows are numeric and most of them fill two or more
    segments. Every word of the column then goes to the segment under its centre (or the nearest).
    """
    width = max((len(r) for r in rows), default=0)
    j = 0
    while j < width:
        numeric = [r[j] for r in rows if j < len(r) and r[j] and is_numeric(" ".join(w[4] for w in r[j]))]
        segs = _segments([w for ws in numeric for w in ws]) if len(numeric) >= 2 else []
        multi = sum(1 for ws in numeric if len(_segments(ws)) >= 2)
        if len(segs) < 2 or multi < 0.6 * len(numeric):
            j += 1
            continue
        for r in rows:
            if j >= len(r):
                continue
            parts: list[list[Word]] = [[] for _ in segs]
            for w in r[j]:
                cx = (w[0] + w[2]) / 2
                parts[min(range(len(segs)), key=lambda i: 0 if segs[i][0] <= cx <= segs[i][1] else min(
                    abs(cx - segs[i][0]), abs(cx - segs[i][1])))].append(w)
            r[j : j + 1] = parts
        width += len(segs) - 1
        j += len(segs)
    return rows


def _band_index(words: list[Word]) -> Callable[[float, float], list[Word]]:
    """``band(y0, y1)``: the words whose vertical centre is in [y0, y1), in their order in ``words``
    (a superset test for ``_centre_in``: one bisection per row instead of a pass over the page)."""
    keyed = sorted(((w[1] + w[3]) / 2, i) for i, w in enumerate(words))
    centres = [cy for cy, _ in keyed]
    if any(cy != cy for cy in centres):  # NaN: no order to bisect in
        return lambda y0, y1: words
    order = [i for _, i in keyed]

    def band(y0: float, y1: float) -> list[Word]:
        hit = sorted(order[bisect_left(centres, y0):bisect_left(centres, y1)])
        return [words[i] for i in hit]

    return band


def grid_from_rows(rows: Sequence[Sequence[Cell]], words: list[Word]) -> Grid:
    """Read cell texts; split rows that hold several table rows and columns that hold several columns.

    Line-grid finders merge rows when a table draws a rule only every few rows (the NICS report draws
    one every five states) and grid finders merge columns without space between them.
    """
    word_rows: list[list[list[Word]]] = []
    boxes: list[tuple[float, float, float, float]] = []
    in_band = _band_index(words)
    for row in rows:
        real = [c for c in row if c is not None]
        if not real:
            continue
        rbox = (min(c[0] for c in real), min(c[1] for c in real), max(c[2] for c in real), max(c[3] for c in real))
        rwords = [w for w in in_band(rbox[1], rbox[3]) if _centre_in(w, rbox)]
        per_cell = [[w for w in rwords if _centre_in(w, c)] if c is not None else [] for c in row]
        for sub in _split_row(per_cell):
            word_rows.append(sub)
            ws = [w for cell in sub for w in cell]
            boxes.append((rbox[0], min((w[1] for w in ws), default=rbox[1]), rbox[2], max((w[3] for w in ws), default=rbox[3])))
    word_rows = _split_columns(word_rows)
    cells = [[clean_cell(_text(ws)) if ws else "" for ws in r] for r in word_rows]
    return Grid(cells=cells, row_boxes=boxes)


def drop_empty(grid: Grid) -> Grid:
    """Remove rows and columns with no text at all."""
    keep_rows = [i for i, r in enumerate(grid.cells) if any(r)]
    cells = [grid.cells[i] for i in keep_rows]
    boxes = [grid.row_boxes[i] for i in keep_rows] if grid.row_boxes else []
    if not cells:
        return Grid(cells=[], row_boxes=[])
    width = max(len(r) for r in cells)
    cells = [r + [""] * (width - len(r)) for r in cells]
    cols = [j for j in range(width) if any(r[j] for r in cells)]
    return Grid(cells=[[r[j] for j in cols] for r in cells], row_boxes=boxes)


def reads_as_data(row: Sequence[str]) -> bool:
    """A row of values, not of column titles: most of its filled cells are amounts, or it is a label
    followed by amounts only, not all of them years ("Cash | $ 1,204"; "Item | 2023" is a header).

    A currency sign in a cell of its own ("Cash | $ | 1,204") counts for neither side: statements
    set it apart from the first row's values, and a row of signs alone may sit under the titles.
    """
    filled = [c for c in row if c and not is_currency(c)]
    if not filled:
        return False
    values = [c for c in filled if is_value(c)]
    if len(values) > len(filled) / 2:
        return True
    label, rest = filled[0], filled[1:]
    return label == row[0] and bool(rest) and values == rest and not all(is_year(c) for c in rest)


def _label_column(body: Sequence[Sequence[str]]) -> bool:
    """The first column holds row labels: most of its filled body cells are text, not amounts."""
    col = [r[0] for r in body if r and r[0]]
    return bool(col) and sum(1 for c in col if is_amount(c)) <= len(col) / 2


def _amount_column(body: Sequence[Sequence[str]], j: int) -> bool:
    """Column ``j`` of the body holds amounts, and not only years down the rows (a column of years
    is data: a period over it titles nothing)."""
    col = [r[j] for r in body if j < len(r) and r[j] and not is_currency(r[j])]
    amounts = [c for c in col if is_amount(c)]
    return len(amounts) > len(col) / 2 and any(is_value(c) and not is_period(c) for c in amounts)


def reads_as_periods(row: Sequence[str], body: Sequence[Sequence[str]], first: bool = False) -> bool:
    """Column titles that are periods, over the rows ``body`` ("| 2023 | 2022", "Item | 2023 | 2022",
    "(in millions) | FY2023 | FY2022", "Three months ended June 30, | 2023 | 2022").

    Every number of the row is a period, no two alike, each over a body column of amounts; the label
    cell is empty or a caption (``is_caption_label``). Beside a row label ("Revenue | 2023 | 2022",
    "Units shipped | 2023 | 2022") the years may be that row's amounts: in the table's ``first`` row
    they title the columns where each is printed unlike its column's amounts (``printed_unlike``:
    "2023" over "1,204" and "31,999", or over "2.46"), as a statement's first row names its periods;
    never beside a section title ("Operating activities:", which heads the rows under it). Years are
    data where they are the row labels ("2019 | Launch of X") or a column of years runs down the body.
    """
    numbers = [(j, c) for j, c in enumerate(row) if c and is_value(c)]
    if not numbers or not all(is_period(c) for _, c in numbers):
        return False
    if len({" ".join(c.split()).lower() for _, c in numbers}) < len(numbers):
        return False
    if _label_column(body) and row[0] and (is_value(row[0]) or not is_caption_label(row[0])):
        columns = [[r[j] for r in body if j < len(r)] for j, _ in numbers]
        section = row[0].rstrip().endswith(":")
        if not first or section or is_value(row[0]) or not all(
            printed_unlike(c, col) for (_, c), col in zip(numbers, columns)
        ):
            return False
    return all(_amount_column(body, j) for j, _ in numbers)


def detect_header(grid: Grid) -> Grid:
    """Mark the leading header rows.

    The first row is the header unless it reads like data (``reads_as_data``: mostly amounts, or a
    label and its amounts, "$ 1,234" and "$ (56)" included) and not as periods over amounts
    (``reads_as_periods``: "| 2023 | 2022"). Following rows (two at most) join the header while they
    are periods ("2023 | 2022" under "Three months ended June 30,"), or hold no amounts and either
    leave the first column empty (the "EM F1 EM F1" line under "System | Dev | Test") or sit under a
    row of group titles with gaps ("Hyperparams" over "#L #H #A"). A header cell left empty beside a filled one (a spanning group title such as "Dev"
    over two columns) is filled from the left so each column name is complete.
    """
    cells = grid.cells
    if len(cells) < 2:
        return grid
    if not any(cells[0]) or (reads_as_data(cells[0]) and not reads_as_periods(cells[0], cells[1:], first=True)):
        return grid
    n = 1
    while n < min(len(cells) - 1, 3):
        row = cells[n]
        if any(row[1:]) and reads_as_periods(row, cells[n + 1 :]):
            n += 1
            continue
        if not any(row) or any(is_value(c) for c in row if c) or not any(row[1:]):
            break  # empty, data, or a section title alone in the first column
        numeric_body = any(is_value(c) for r in cells[n + 1 :] for c in r if c)
        if row[0] and (all(cells[n - 1]) or not numeric_body):
            break  # a label in the first column under a full row, or in a table of text: data
        n += 1
    if n > 1:
        for r in range(n - 1):
            for j in range(1, len(cells[r])):
                if not cells[r][j] and cells[r][j - 1] and cells[n - 1][j]:
                    cells[r][j] = cells[r][j - 1]
    grid.header_rows = n
    return grid


def junk_reason(grid: Grid) -> str | None:
    """Why these cells are not a table (None when they are one)."""
    cells = grid.cells
    if len(cells) < 2:
        return "fewer than 2 rows"
    width = max(len(r) for r in cells)
    if width < 2:
        return "one column"
    flat = [c for r in cells for c in r]
    filled = [c for c in flat if c]
    if len(filled) < 0.35 * len(flat):
        return f"mostly empty ({len(filled)}/{len(flat)} cells filled)"
    words = sorted(len(c.split()) for c in filled)
    if words[len(words) // 2] > 12:
        return "cells are paragraphs"
    return None
