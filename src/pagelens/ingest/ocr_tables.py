"""Tables and form fields on scanned pages, read from the OCR engine's word boxes.

``ocr_page`` otherwise makes one text element per OCR paragraph, so a scanned table comes out as one
run of words ("Donor Address Amount (£) Mrs. E. Throssell Upper Weald Farm 25.00 Mr. and ...") and a
scanned form's labels and the values written under them as loose lines. The page's OCR words are made
into rows first (``ocr_rows``: speckle dropped, lines side by side joined, cells cut at wide gaps).

* **tables**: the whitespace-table finder of born-digital pages (``table_whitespace``: rows of values in
  columns) runs over the rows; then, with ``ingest.ocr_text_tables``, rows of short text cells set apart by
  wide gaps (a list of names, addresses and amounts, which has one column of values only) are read as a
  table when consecutive rows line up in the same columns (``text_tables``): ``MIN_ROWS`` data rows under
  the header filling two columns or more, every column filled in ``MIN_COLUMN_CELLS`` rows, cells of at
  most ``MAX_CELL_WORDS`` words and a median of ``MAX_MEDIAN_WORDS`` (running text in columns joins into
  rows of long cells).
* **form fields**: labels with the values set larger under or after them (``ocr_forms``).

Both work on the lines kept by ``ocr_page.keep_line``; the lines they use are left out of the page's text
elements, as a born-digital page's claimed regions are (``structured_elements``).
"""



import statistics
from dataclasses import dataclass

import pymupdf

from pagelens.ingest.context import PageContext
from pagelens.ingest.ocr_forms import Reread, form_fields, name
from pagelens.ingest.ocr_rows import OcrRow, cells, ocr_rows
from pagelens.ingest.table_cells import Grid, detect_header
from pagelens.ingest.table_header import is_title
from pagelens.ingest.table_values import is_value, value_kind
from pagelens.ingest.table_whitespace import FoundTable, find_whitespace_tables
from pagelens.models import Element, ElementKind, FormFieldData, Provenance
from pagelens.ocr.protocol import OcrLine

MIN_ROWS = 3  # rows under the header with two or more filled cells a text table needs
TITLE_GAP = 2.5  # line heights between a table and the line above that names it, at most
WRAP_PITCH = 0.8  # a line without a first cell closer than this share of the row pitch continues the row above
MIN_COLUMN_CELLS = 2  # cells a text table's column holds at least
VALUE_SHARE = 0.6  # share of a column's cells that are values, for a column of values
MAX_CELL_WORDS = 6  # a cell of more words is running text
MAX_MEDIAN_WORDS = 4  # median words per filled cell of a text table
ROW_GAP = 2.5  # line heights between two rows of one text table at most
MIN_FILL = 0.5  # share of a text table's cells that must be filled


# -- tables ----------------------------------------------------------------------------------------
@dataclass
class OcrTable:
    found: FoundTable
    rows: list[OcrRow]  # the OCR lines it is made of


def _row_like(cs: list[tuple[float, float, str]]) -> bool:
    return len(cs) >= 2 and all(len(t.split()) <= MAX_CELL_WORDS for _, _, t in cs)


def _text_table(block: list[tuple[OcrRow, list[tuple[float, float, str]]]]) -> FoundTable | None:
    spans: list[list[float]] = []
    for x0, x1 in sorted((a, b) for _, cs in block if len(cs) >= 2 for a, b, _ in cs):
        if spans and x0 < spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], x1)
        else:
            spans.append([x0, x1])
    if len(spans) < 2:
        return None
    grid: list[list[str]] = []
    steps = [b[0].y0 - a[0].y0 for a, b in zip(block, block[1:])]
    pitch = statistics.median(steps) if steps else 0.0
    prev: OcrRow | None = None
    for r, cs in block:
        row = [""] * len(spans)
        for a, b, t in cs:
            scores = [min(b, s[1]) - max(a, s[0]) for s in spans]
            j = max(range(len(spans)), key=lambda j: scores[j])
            row[j] = f"{row[j]} {t}".strip()
        if grid and prev is not None and not row[0] and r.y0 - prev.y0 < WRAP_PITCH * pitch:
            # the cells of the row above wrapped onto a second line, set closer than rows are
            grid[-1] = [" ".join(t for t in (u, v) if t) for u, v in zip(grid[-1], row)]
        else:
            grid.append(row)
        prev = r
    if min(sum(bool(r[j]) for r in grid) for j in range(len(spans))) < MIN_COLUMN_CELLS:
        return None  # a column of one cell: the words do not line up in columns (a stray word, a line of text)
    filled = [c for r in grid for c in r if c]
    if len(filled) < MIN_FILL * len(grid) * len(spans):
        return None
    if statistics.median(len(c.split()) for c in filled) > MAX_MEDIAN_WORDS:
        return None
    g = detect_header(Grid(cells=grid))
    if g.header_rows and any(value_kind(c) is not None and _values_column([r[j] for r in g.body])
                             for j, c in enumerate(grid[0])):
        g.header_rows = 0  # a column of amounts is named by words, not by an amount: a list without a header
    if sum(1 for r in g.body if sum(bool(c) for c in r) >= 2) < MIN_ROWS:
        return None  # a table has rows of data under its header, several of them filling two columns
    last = grid[-1]
    texts = [j for j, c in enumerate(last) if c and not is_value(c)]
    if len(grid) > g.header_rows + 1 and not last[0] and len(texts) == 1 and texts[0] < len(last) - 1:
        last[0], last[texts[0]] = last[texts[0]], ""  # a closing row's label set under a later column ("Total")
    used = [r for r, _ in block]
    bbox = pymupdf.Rect(min(r.x0 for r in used), min(r.y0 for r in used), max(r.x1 for r in used), max(r.y1 for r in used))
    return FoundTable(bbox=bbox, header=g.header, rows=g.body)


def _values_column(cells: list[str]) -> bool:
    """Most of a column's filled cells are values (amounts, numbers, a nil dash)."""
    filled = [c for c in cells if c]
    return bool(filled) and sum(value_kind(c) is not None for c in filled) >= VALUE_SHARE * len(filled)


def text_tables(rows: list[OcrRow]) -> list[OcrTable]:
    """Runs of lines with two or more short cells apart by wide gaps, in the same columns (module doc)."""
    out: list[OcrTable] = []
    block: list[tuple[OcrRow, list[tuple[float, float, str]]]] = []
    pending: list[tuple[OcrRow, list[tuple[float, float, str]]]] = []

    def close() -> None:
        if len(block) >= MIN_ROWS:
            found = _text_table(block)
            if found is not None:
                found.title = _title(rows, block[0][0], found.bbox)
                out.append(OcrTable(found, [r for r, _ in block]))
        block.clear()
        pending.clear()

    for row in rows:
        cs = cells(row)
        if block:
            x0, x1 = min(r.x0 for r, _ in block), max(r.x1 for r, _ in block)
            if row.x1 <= x0 or row.x0 >= x1:
                continue  # another column of the page, beside the table
            last = (pending or block)[-1][0]
            if row.y0 - last.y1 > ROW_GAP * max(row.height, last.height):
                close()
        if _row_like(cs):
            block.extend(pending)
            pending.clear()
            block.append((row, cs))
        elif block and len(cs) == 1 and len(cs[0][2].split()) <= MAX_CELL_WORDS and not pending:
            pending.append((row, cs))  # a row with one cell filled, if more rows follow
        else:
            close()
    close()
    return out


def _title(rows: list[OcrRow], first: OcrRow, box: pymupdf.Rect) -> str | None:
    """The line right above a table that names it (``table_header.is_title``, within ``TITLE_GAP`` line
    heights), as the whitespace finder takes one on born-digital pages; the line stays text too."""
    above = [r for r in rows if r.y1 <= first.y0 + 0.3 * first.height and r.x1 > box.x0 and r.x0 < box.x1]
    if not above:
        return None
    line = max(above, key=lambda r: r.y1)
    if first.y0 - line.y1 > TITLE_GAP * first.height or len(cells(line)) != 1 or not is_title(line.cut):
        return None
    return line.cut.text


def find_tables(rows: list[OcrRow], numeric: bool = True, text: bool = True) -> list[OcrTable]:
    """Tables among a scanned page's OCR lines: whitespace tables of values (``numeric``), then text
    tables elsewhere (``text``)."""
    out: list[OcrTable] = []
    words = [w for r in rows for w in r.cut.words]
    found = []
    try:
        if numeric:
            found = find_whitespace_tables(words, lines=[r.cut for r in rows])
    except (ValueError, IndexError, ZeroDivisionError):
        found = []
    for t in found:
        inside = [r for r in rows if _centre_in(r, t.bbox)]
        if inside:
            out.append(OcrTable(t, inside))
    taken = {r.index for t in out for r in t.rows}
    for t in text_tables([r for r in rows if r.index not in taken]) if text else []:
        if not any(abs(t.found.bbox & u.found.bbox) > 0 for u in out):
            out.append(t)
    return out


def _centre_in(row: OcrRow, box: pymupdf.Rect) -> bool:
    cx, cy = (row.x0 + row.x1) / 2, (row.y0 + row.y1) / 2
    return box.x0 - 1 <= cx <= box.x1 + 1 and box.y0 - 1 <= cy <= box.y1 + 1



# -- elements --------------------------------------------------------------------------------------
def structured_elements(
    ctx: PageContext, lines: list[OcrLine], to_pdf: pymupdf.Matrix, reread: Reread | None = None
) -> dict[int, list[Element]]:
    """TABLE and FORM elements of a scanned page, keyed by the index (into ``lines``) of the first line
    each is made of; every line they use is a key (its list empty past the first), so that
    ``ocr_page.lines_to_elements`` leaves those lines out of the text and puts each element where its
    first line was read."""
    from pagelens.ingest.tables import _Candidate, _element

    rows = ocr_rows(lines, to_pdf)
    if not rows:
        return {}
    engine = ctx.ocr.name if ctx.ocr is not None else "ocr"
    clip = pymupdf.Rect(0, 0, ctx.page.cropbox.width, ctx.page.cropbox.height)
    words = [w for r in rows for w in r.words]
    out: dict[int, list[Element]] = {}

    def place(els: list[Element], used: list[OcrRow]) -> None:
        idx = sorted({i for r in used for i in r.lines})
        first = min(idx, key=lambda i: (lines[i].block, i))
        for i in idx:
            out.setdefault(i, [])
        out[first] += els

    tables = find_tables(rows, text=False)
    taken = {r.index for t in tables for r in t.rows}
    fields = form_fields([r for r in rows if r.index not in taken], reread, max(r.x1 for r in rows))
    taken |= {r.index for f in fields for r in f.rows}
    if ctx.settings.ocr_text_tables:
        tables += find_tables([r for r in rows if r.index not in taken], numeric=False)
    for t in tables:
        f = t.found
        grid = Grid(cells=([f.header] if f.header else []) + f.rows, header_rows=1 if f.header else 0)
        cand = _Candidate(pymupdf.Rect(f.bbox) & clip, [], "whitespace", f.title, f.scale)
        el = _element(ctx, grid, cand, None, words=words)
        el.provenance = Provenance.OCR
        el.parser = engine
        place([el], t.rows)
    for f in fields:
        box = f.bbox & clip
        if box.is_empty:
            continue
        label = f.label.rstrip(":").strip()
        el = Element(
            doc_id=ctx.doc_id, page=ctx.page_no, order=0, kind=ElementKind.FORM,
            text=f"{label}: {f.value or '(empty)'}", bbox=(box.x0, box.y0, box.x1, box.y1),
            provenance=Provenance.OCR, parser=engine,
            field=FormFieldData(name=name(label), field_type="printed", label=label, value=f.value),
        )
        place([el], f.rows)
    return out
