"""Flat printed forms (no AcroForm widgets): their fields as FORM elements, label paired with value.

A form printed flat (filled in, then printed or flattened) has no field dictionary: its labels and
values are only text. Read as body text they run together into one paragraph ("Borrower: Kwame Asante
Department: Geology Project: ...", or a grid of boxes read row by row: "APPLICANT NAME PARCEL NUMBER
Marisol Etxeberria 117-204-09"), and a blank field reads as nothing at all. Two layouts are read here:

* **label: value lines**: short pieces of text of the form ``Label: value`` (one or two per line, a
  gap between them), at least ``MIN_FIELDS`` on the page, three of them in one column, and a large
  share of the page's pieces (a report's "Keywords: ..." or "Note: ..." line is no form). A label with
  nothing after its colon is a blank field, unless the text below it in its column is not a field (a
  heading over running text: "Description of what happened:");
* **boxes**: drawn rectangles (at least ``MIN_FIELDS``) each holding a short label line at its top and
  at most two value lines below it; a box with its label only is a blank field.

Each field becomes a FORM element (``field.field_type`` "printed", text ``label: value``, a blank one
``label: (empty)``), and its text is claimed so it does not also come back as body text.
"""

from __future__ import annotations

import re

import pymupdf

from pagelens.ingest.context import PageContext
from pagelens.models import Element, ElementKind, FormFieldData, Provenance

MIN_FIELDS = 4
"""Fields a page needs before its label/value pieces or label boxes are read as a form."""
MIN_SHARE = 0.45
"""Share of the page's text pieces the label: value pieces must make up."""
PIECE_GAP = 24.0
"""A gap (points) inside a text line that parts two pieces (two label: value pairs on a row)."""
MAX_BOXES = 300
"""A page drawing more boxes than this is not looked at for a form of boxes."""
DISTINCT_SHARE = 0.8
"""Share of a page's label: value pieces whose labels must be distinct (see ``_distinct``)."""
VALUE_REACH = 200.0
"""How far right of a "Label:" piece its value may start on the row."""
_PAIR = re.compile(r"^([A-Z][A-Za-z0-9 .&/#()'’-]{0,38}?)\s*:\s*(.*)$")
_MAX_LABEL_WORDS = 5
_NUMBERED = re.compile(r"\s(?:\d+[A-Za-z]?|[IVX]+|[A-Z])\.?$")
_MAX_VALUE_CHARS = 70


def _pieces(ctx: PageContext) -> list[tuple[pymupdf.Rect, str, float]]:
    """(box, text, font size) of each piece of the page's text lines, split at wide gaps; the size is -1
    for a piece set in a monospace font (code, a program's printout: never a form)."""
    out = []
    for b in ctx.text.get("blocks", []):
        if b.get("type") != 0:
            continue
        for ln in b["lines"]:
            group: list[dict] = []
            pieces: list[list[dict]] = []
            for s in ln["spans"]:
                if not s["text"].strip():
                    continue
                if group and s["bbox"][0] - group[-1]["bbox"][2] > PIECE_GAP:
                    pieces.append(group)
                    group = []
                group.append(s)
            if group:
                pieces.append(group)
            for p in pieces:
                text = " ".join("".join(s["text"] for s in p).split())
                if text:
                    box = pymupdf.Rect(p[0]["bbox"][0], min(s["bbox"][1] for s in p),
                                       max(s["bbox"][2] for s in p), max(s["bbox"][3] for s in p))
                    mono = any(s["flags"] & 8 or re.search(r"mono|courier|consol|code", s["font"], re.I) for s in p)
                    out.append((box, text, -1.0 if mono else max(s["size"] for s in p)))
    return out


def _pair(text: str) -> tuple[str, str] | None:
    m = _PAIR.match(text)
    if not m:
        return None
    label, value = m.group(1).strip(), m.group(2).strip()
    if (sum(c.isalpha() for c in label) < 2 or len(label.split()) > _MAX_LABEL_WORDS or len(value) > _MAX_VALUE_CHARS
            or re.search(r"\S:(\s|$)", value)  # another "label:" in the value: a printout's row, a plot's strip
            or _NUMBERED.search(label)):  # "Figure 2:", "Step 3:", "PEP 654:": a caption or an item, no field
        return None
    if value and value[-1] in ".!?" and len(value.split()) > 3:  # a sentence after a colon, not a value
        return None
    return label, value


def _element(ctx: PageContext, box: pymupdf.Rect, label: str, value: str) -> Element:
    return Element(
        doc_id=ctx.doc_id, page=ctx.page_no, order=0, kind=ElementKind.FORM,
        text=f"{label}: {value or '(empty)'}", bbox=tuple(box & ctx.page.rect),
        provenance=Provenance.TEXT_LAYER, parser="printed_form",
        field=FormFieldData(name=label, field_type="printed", label=label, value=value),
    )


def _distinct(labels: list[str]) -> bool:
    """A form asks each thing once: a label repeated down the page is a listing's key ("Package:",
    "Pin:"), a plot's strip labels, a list of authors' "E-mail:"."""
    keys = [lb.lower() for lb in labels]
    return len(set(keys)) >= MIN_FIELDS and len(set(keys)) >= DISTINCT_SHARE * len(keys)


def _below(box: pymupdf.Rect, pieces: list[tuple[pymupdf.Rect, str, float]]) -> tuple[pymupdf.Rect, str, float] | None:
    """The next piece under ``box`` in its column (starting there or indented under it)."""
    under = [p for p in pieces if p[0].y0 >= box.y1 - 1 and -3 < p[0].x0 - box.x0 < 60 and p[0].y0 - box.y1 < 2 * box.height]
    return min(under, key=lambda p: p[0].y0) if under else None


def _pair_fields(ctx: PageContext, pieces: list[tuple[pymupdf.Rect, str, float]]) -> list[Element]:
    pairs = [(p, pr) for p in pieces if p[2] > 0 and not ctx.is_claimed(p[0]) and (pr := _pair(p[1])) is not None]
    if len(pairs) < MIN_FIELDS or not _distinct([pr[0] for _, pr in pairs]):
        return []
    columns: dict[int, int] = {}
    for (box, _t, _s), _pr in pairs:
        columns[round(box.x0 / 3)] = columns.get(round(box.x0 / 3), 0) + 1
    if max(columns.values()) < 3:
        return []
    paired = {id(p) for p, _ in pairs}
    out = []
    for p, (label, value) in pairs:
        box = pymupdf.Rect(p[0])
        if not value:
            # "Label:" and its value printed apart on the row (a column of labels, a column of values).
            right = [q for q in pieces if id(q) not in paired and _same_row(q[0], box)
                     and 0 <= q[0].x0 - box.x1 < VALUE_REACH and not ctx.is_claimed(q[0])]
            if right:
                q = min(right, key=lambda q: q[0].x0)
                value, box = q[1], box | q[0]
                paired.add(id(q))
            else:
                nxt = _below(p[0], pieces)
                if nxt is not None and (id(nxt) not in paired or nxt[0].x0 - box.x0 > 3):
                    continue  # a heading over what follows (set under it, or indented), not a blank field
        out.append(_element(ctx, box, label, value))
    # The pieces read as fields (labels and the values beside them) must be much of the page.
    if len(out) < MIN_FIELDS or len(paired) < MIN_SHARE * len(pieces):
        return []
    return out


def _same_row(a: pymupdf.Rect, b: pymupdf.Rect) -> bool:
    return min(a.y1, b.y1) - max(a.y0, b.y0) > 0.5 * min(a.height, b.height)


def _boxes(ctx: PageContext) -> list[pymupdf.Rect]:
    page = ctx.page.rect
    out: list[pymupdf.Rect] = []
    for d in ctx.drawings:
        for item in d.get("items", []):
            if item[0] == "re":
                r = pymupdf.Rect(item[1])
            elif item[0] == "qu":
                r = pymupdf.Quad(item[1]).rect
                if not pymupdf.Quad(item[1]).is_rectangular:
                    continue
            else:
                continue
            if 40 <= r.width <= 0.9 * page.width and 14 <= r.height <= 90 and not any(max(abs(a - b) for a, b in zip(r, o)) < 1 for o in out):
                out.append(r)
    return out


def _box_fields(ctx: PageContext, pieces: list[tuple[pymupdf.Rect, str, float]]) -> list[Element]:
    found: list[tuple[pymupdf.Rect, str, str]] = []
    boxes = _boxes(ctx)
    if len(boxes) > MAX_BOXES:  # a chart's bars or a drawing's cells, not a form's boxes
        return []
    for r in boxes:
        if ctx.is_claimed(r):
            continue
        inside = sorted((p for p in pieces if r.contains(p[0].tl + (1, 1)) and r.contains(p[0].br - (1, 1))),
                        key=lambda p: (p[0].y0, p[0].x0))
        if not inside or len(inside) > 3 or any(p[2] < 0 for p in inside):
            continue
        (lbox, label, lsize), rest = inside[0], inside[1:]
        label = label.rstrip(":").strip()
        if (lbox.y0 - r.y0 > 0.4 * r.height or len(label.split()) > 6 or label.endswith(".") and len(label.split()) > 3
                or sum(c.isalpha() for c in label) < 2 or re.search(r"[=;{}<>\[\]]", label)
                or any(p[0].y0 < lbox.y1 - 1 for p in rest)):
            continue
        if rest and not (min(p[2] for p in rest) > lsize + 0.5 or label.upper() == label):
            continue  # a label is set smaller than its value, or in capitals
        found.append((r, label, " ".join(p[1] for p in rest)))
    if len(found) < MIN_FIELDS or sum(bool(v) for _, _, v in found) < 2 or not _distinct([lb for _, lb, _ in found]):
        return []
    return [_element(ctx, r, label, value) for r, label, value in found]


def extract_printed_fields(ctx: PageContext) -> list[Element]:
    """FORM elements of a flat printed form on the page (none on a page with AcroForm widgets, or one
    that is no form); their boxes are added to ``ctx.claimed``."""
    if any(True for _ in ctx.page.widgets()):
        return []
    pieces = _pieces(ctx)
    if len(pieces) < MIN_FIELDS:
        return []
    out = _box_fields(ctx, pieces)
    ctx.claimed.extend(pymupdf.Rect(e.bbox) for e in out)
    pairs = _pair_fields(ctx, pieces)
    ctx.claimed.extend(pymupdf.Rect(e.bbox) for e in pairs)
    return out + pairs
