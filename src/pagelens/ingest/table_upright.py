"""Tables on a page turned by ``/Rotate``, read the way the page is seen.

A landscape drawing or a sideways statement is often stored as a portrait page with ``/Rotate 90`` or
``270``: PyMuPDF gives its words and drawings in the unrotated page's coordinates, where every line of
text runs up or down the page. The table signals and finders read rows as horizontal lines, so such a
page showed no rows of numbers, no aligned columns and no table. When most of a turned page's text
reads left to right once the rotation is applied (``sideways``), the table stage runs on an upright
copy of that one page (``Page.remove_rotation`` on a one-page document: a millisecond or two), and the
tables' boxes are mapped back into the page's own coordinates, where its text elements live.
"""

from __future__ import annotations

from typing import Any

import pymupdf

from pagelens.ingest.context import PageContext

UPRIGHT_SHARE = 0.6  # of the page's characters on lines that read left to right once turned


def sideways(ctx: PageContext) -> bool:
    """The page is turned (``/Rotate``) and most of its text reads left to right as it is shown."""
    if ctx.page.rotation % 360 == 0:
        return False
    m = ctx.page.rotation_matrix
    shown = total = 0
    for block in ctx.text.get("blocks", ()):
        if block.get("type") != 0:
            continue
        for line in block["lines"]:
            n = sum(len(s["text"].strip()) for s in line["spans"])
            dx, dy = line["dir"]
            total += n
            if dx * m.a + dy * m.c > 0.9:  # the line's direction, turned as the page is shown
                shown += n
    return total > 0 and shown >= UPRIGHT_SHARE * total


def upright(ctx: PageContext) -> PageContext | None:
    """A context for an upright copy of a ``sideways`` page (once per page), None for other pages."""
    cached = ctx.__dict__.get("_upright", False)
    if cached is not False:
        return cached
    up: PageContext | None = None
    if sideways(ctx):
        copy = pymupdf.open()
        copy.insert_pdf(ctx.page.parent, from_page=ctx.page.number, to_page=ctx.page.number)
        copy[0].remove_rotation()
        data = copy.tobytes()
        page = pymupdf.open(stream=data, filetype="pdf")[0]
        up = PageContext.build(page, doc_id=ctx.doc_id, file_name=ctx.file_name, settings=ctx.settings,
                               images=ctx.images, ocr=ctx.ocr, pdf_bytes=data)
        up.page_no = ctx.page_no
    ctx.__dict__["_upright"] = up
    return up


def to_page(ctx: PageContext, rect: Any) -> pymupdf.Rect:
    """A box on the upright copy, in the turned page's own (unrotated) coordinates."""
    return pymupdf.Rect(rect) * ctx.page.derotation_matrix
