"""Tables split over pages: a table at the top of a page continuing one at the bottom of the last."""

from __future__ import annotations

from pagelens.ingest.table_render import to_html, to_markdown
from pagelens.models import Element


def _x_similar(a: Element, b: Element, tol: float = 25.0) -> bool:
    assert a.bbox is not None and b.bbox is not None
    return abs(a.bbox[0] - b.bbox[0]) <= tol and abs(a.bbox[2] - b.bbox[2]) <= tol


def _restate(el: Element, header: list[str], rows: list[list[str]]) -> None:
    t = el.table
    assert t is not None
    t.header, t.rows = header, rows
    t.markdown = to_markdown(header, rows)
    t.html = to_html(header, rows, t.caption)
    el.text = f"{t.caption}\n\n{t.markdown}" if t.caption else t.markdown


def mark_continuations(prev: list[Element], cur: list[Element]) -> None:
    """Link a table at the top of a page to one at the bottom of the previous page.

    Conditions: the previous table ends in the lower 40% of its page and this one starts in the upper
    35%, both have the same number of columns and about the same left and right edges, and this one
    brings no caption of its own (or one that says "continued"). When its first row is not the
    previous header repeated, that row is data: it moves into the rows and the table takes the
    previous table's header, so row chunks of both parts carry the column names.
    """
    if not prev or not cur:
        return
    last = max(prev, key=lambda e: e.bbox[3] if e.bbox else 0)
    first = min(cur, key=lambda e: e.bbox[1] if e.bbox else 1e9)
    lt, ft = last.table, first.table
    if lt is None or ft is None or last.bbox is None or first.bbox is None:
        return
    lh = float(last.attrs.get("page_height", 0) or 0)
    fh = float(first.attrs.get("page_height", 0) or 0)
    if not lh or not fh or last.bbox[3] < 0.6 * lh or first.bbox[1] > 0.35 * fh:
        return
    if last.attrs.get("cols") != first.attrs.get("cols") or not _x_similar(last, first):
        return
    if ft.caption and "continued" not in ft.caption.lower() and ft.caption != lt.caption:
        return
    ft.continued_from_page = last.page
    lt.continues_on_page = first.page
    if ft.header != lt.header and lt.header:
        _restate(first, list(lt.header), ([ft.header] if any(ft.header) else []) + ft.rows)
