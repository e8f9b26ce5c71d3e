"""A faster ``pymupdf.table.make_chars``: the same character list for ``find_tables``, built without
a Rect, a Point and two Python-level transforms per character.

PyMuPDF's line-grid finder first turns every character of the page into a pdfplumber-style dict
(``make_chars``); on a dense page that loop is ~85 % of ``find_tables`` (measured on the dev corpus:
0.78 of 0.92 CPU-s). This module builds the identical list — same keys, same values, the
coordinates transformed by the same MuPDF C function (``util_transform_rect``), so every float is
bit-for-bit the one PyMuPDF computes — at a fraction of the cost.

It stands in only for the ``make_chars`` it was written against: :func:`fast_chars` checks the
source of the installed ``pymupdf.table.make_chars`` against :data:`MAKE_CHARS_SHA256` and leaves
PyMuPDF's own in place when they differ (another PyMuPDF version), so an upgrade can cost speed,
never a changed table. ``tests/test_table_chars.py`` compares both character lists on built pages.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import inspect
from collections.abc import Iterator
from typing import Any

MAKE_CHARS_SHA256 = "4631a69307e0bb81af65d4f865dc5b51947e51317ba02c01fb6a126b6b5e6f36"
"""SHA-256 of ``inspect.getsource(pymupdf.table.make_chars)`` (PyMuPDF 2.0) that :func:`make_chars` copies."""


def make_chars(page: Any, clip: Any = None) -> Any:
    """``pymupdf.table.make_chars``, the same result: fills the finder's CHARS, returns the TextPage."""
    import pymupdf
    from pymupdf import extra
    from pymupdf import table as ptable

    chars = ptable.CHARS._list()
    page_number = page.number + 1
    page_height = page.rect.height
    ctm = tuple(page.transformation_matrix)
    transform = extra.util_transform_rect
    to_pdf = pymupdf.sRGB_to_pdf
    bold_flag = pymupdf.TEXT_FONT_BOLD
    textpage = page.get_textpage(clip=clip, flags=ptable.FLAGS)
    blocks = page.get_text("rawdict", textpage=textpage)["blocks"]
    doctop_base = page_height * page.number
    append = chars.append
    for block in blocks:
        for line in block["lines"]:
            ldir = line["dir"]
            cos, sin = float(round(ldir[0], 4)), float(round(ldir[1], 4))
            head = (cos, float(-sin), sin, cos)
            upright = sin == 0
            for span in sorted(line["spans"], key=lambda s: s["bbox"][0]):
                fontname = span["font"]
                fontsize = span["size"]
                span_bold = bool(span["flags"] & bold_flag or span["char_flags"] & 8)
                color = to_pdf(span["color"])
                for char in sorted(span["chars"], key=lambda c: c["bbox"][0]):
                    x0, y0, x1, y1 = map(float, char["bbox"])
                    _, ty0, _, ty1 = transform((x0, y0, x1, y1), ctm)
                    ox, oy = map(float, char["origin"])
                    px, py, _, _ = transform((ox, oy, ox, oy), ctm)
                    height = y1 - y0
                    append({
                        "adv": x1 - x0 if upright else height,
                        "bottom": y1,
                        "doctop": y0 + doctop_base,
                        "fontname": fontname,
                        "height": height,
                        "matrix": (*head, px, py),
                        "ncs": "DeviceRGB",
                        "non_stroking_color": color,
                        "non_stroking_pattern": None,
                        "object_type": "char",
                        "page_number": page_number,
                        "size": fontsize if upright else height,
                        "stroking_color": color,
                        "stroking_pattern": None,
                        "bold": span_bold,
                        "text": char["c"],
                        "top": y0,
                        "upright": upright,
                        "width": x1 - x0,
                        "x0": x0,
                        "x1": x1,
                        "y0": ty0,
                        "y1": ty1,
                    })
    return textpage


@functools.cache
def _matches_installed() -> bool:
    from pymupdf import table as ptable

    try:
        source = inspect.getsource(ptable.make_chars)
    except (OSError, TypeError):
        return False
    return hashlib.sha256(source.encode()).hexdigest() == MAKE_CHARS_SHA256


@contextlib.contextmanager
def fast_chars() -> Iterator[bool]:
    """Within the block, ``find_tables`` builds its characters with :func:`make_chars` (yields True),
    unless the installed PyMuPDF's ``make_chars`` is not the one copied here (yields False)."""
    from pymupdf import table as ptable

    if not _matches_installed():
        yield False
        return
    original = ptable.make_chars
    ptable.make_chars = make_chars
    try:
        yield True
    finally:
        ptable.make_chars = original
