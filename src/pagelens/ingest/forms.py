"""AcroForm fields: one FORM element per filled-in (or empty) field, with its label and value.

Values are read from the field dictionary, not from the appearance: a checkbox's on-state becomes
"checked"/"unchecked", a radio group becomes one element holding the selected option (a /V that
indexes the parent's /Opt array is resolved to the option text), choice fields list their options.
"""

from __future__ import annotations

import re

import pymupdf

from pagelens.ingest.context import PageContext
from pagelens.models import Element, ElementKind, FormFieldData, Provenance, form_filled_in

_TYPES = {
    pymupdf.PDF_WIDGET_TYPE_TEXT: "text",
    pymupdf.PDF_WIDGET_TYPE_CHECKBOX: "checkbox",
    pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON: "radio",
    pymupdf.PDF_WIDGET_TYPE_COMBOBOX: "combobox",
    pymupdf.PDF_WIDGET_TYPE_LISTBOX: "listbox",
    pymupdf.PDF_WIDGET_TYPE_SIGNATURE: "signature",
    pymupdf.PDF_WIDGET_TYPE_BUTTON: "button",
}
_OFF = {"", "off", "no", "false", "0"}
_USELESS_LABEL = re.compile(r"^\W*\[?\d*\]?\W*$")
_PDF_STRING = re.compile(r"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>|/[^\s/\[\]()<>]+")
_GENERIC_NAME = re.compile(
    r"^(?:text|field|check ?box|radio(?: ?button)?(?: ?(?:list|group))?|combo ?box|list ?box|drop ?down|button|untitled|group|choice)\s*\d*$", re.I)
LABEL_REACH = 60.0
"""How far (points) above a widget printed text is taken as its label (a third of this), and how near to
its left a label counts in full."""
LEFT_REACH = 260.0
"""How far to the left of a widget, on its row, printed text may end and still be its label (a column of
labels, then a column of fields): nearer is better, and no other widget may sit between."""
CAPTION_REACH = 20.0
"""How far right of a checkbox or radio button its printed caption may start."""
PIECE_GAP = 24.0
"""A gap (points) between spans of one text line that parts two pieces of text (two labels on a row)."""
_OPAQUE_STATE = re.compile(r"^(?:choice|option|opt|radio|button|value|item|yes|on|off)?\s*\d*$", re.I)


def _decode(token: str) -> str:
    """One PDF string token ((literal), <hex> or /Name) as text."""
    if token.startswith("/"):
        return token[1:]
    if token.startswith("<"):
        raw = bytes.fromhex("".join(token[1:-1].split()))
        if raw.startswith(b"\xfe\xff"):
            return raw[2:].decode("utf-16-be", errors="replace")
        return raw.decode("latin-1")
    body = token[1:-1]
    body = re.sub(r"\\([nrtbf()\\])", lambda m: {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f"}.get(m.group(1), m.group(1)), body)
    return re.sub(r"\\([0-7]{1,3})", lambda m: chr(int(m.group(1), 8)), body)


def _key(pdf: pymupdf.Document, xref: int, key: str) -> tuple[str, str]:
    kind, value = pdf.xref_get_key(xref, key)
    if kind == "xref":  # indirect object: read it
        ref = int(value.split()[0])
        return "object", pdf.xref_object(ref, compressed=True)
    return kind, value


def _options(pdf: pymupdf.Document, xref: int) -> list[str]:
    """Texts of an /Opt array ([(a)(b)] or [[(export)(shown)] ...]: the shown text is kept)."""
    kind, value = _key(pdf, xref, "Opt")
    if kind in ("null", "") or not value:
        return []
    value = value.strip()
    out: list[str] = []
    for pair in re.finditer(r"\[([^\[\]]*)\]|" + _PDF_STRING.pattern, value[1:-1] if value.startswith("[") else value):
        if pair.group(1) is not None:
            toks = _PDF_STRING.findall(pair.group(1))
            if toks:
                out.append(_decode(toks[-1]))
        else:
            out.append(_decode(pair.group(0)))
    return out


def _value(pdf: pymupdf.Document, xref: int) -> str | None:
    kind, value = _key(pdf, xref, "V")
    if kind in ("null", ""):
        return None
    if kind == "name":
        return value.lstrip("/")
    if kind == "string":
        return value
    toks = _PDF_STRING.findall(value)
    return _decode(toks[0]) if toks else value


def _parent(pdf: pymupdf.Document, xref: int) -> int | None:
    kind, value = pdf.xref_get_key(xref, "Parent")
    return int(value.split()[0]) if kind == "xref" else None


def _resolve(raw: str | None, options: list[str]) -> str | None:
    """A /V or on-state that indexes /Opt ("0", "1"...) → the option's text."""
    if raw is not None and raw.isdigit() and options and int(raw) < len(options):
        return options[int(raw)]
    return raw


def _inside(r: pymupdf.Rect, fields: list[pymupdf.Rect]) -> bool:
    return any(abs(r & f) >= 0.5 * (abs(r) or 1e-6) for f in fields)


def _printed_lines(ctx: PageContext) -> list[tuple[pymupdf.Rect, str, list[dict]]]:
    """The page's printed text lines (box, text, spans) outside every widget: text drawn by widgets
    themselves (their values, in the text layer of some files) is left out."""
    fields = [w.rect for w in ctx.page.widgets()]
    out: list[tuple[pymupdf.Rect, str, list[dict]]] = []
    for b in ctx.text.get("blocks", []):
        if b.get("type") != 0:
            continue
        for ln in b["lines"]:
            spans = [s for s in ln["spans"] if s["text"].strip() and not _inside(pymupdf.Rect(s["bbox"]), fields)]
            # A line can join pieces far apart on its row (a label and the next column's label): split at gaps.
            pieces: list[list[dict]] = []
            for s in spans:
                if pieces and s["bbox"][0] - pieces[-1][-1]["bbox"][2] > PIECE_GAP:
                    pieces.append([s])
                elif pieces:
                    pieces[-1].append(s)
                else:
                    pieces.append([s])
            for piece in pieces:
                text = " ".join("".join(s["text"] for s in piece).split())
                if len(text) < 2 or not any(c.isalpha() for c in text):
                    continue
                box = pymupdf.Rect(piece[0]["bbox"][:2], (max(s["bbox"][2] for s in piece), max(s["bbox"][3] for s in piece)))
                out.append((box, text, piece))
    return out


def _same_row(box: pymupdf.Rect, rect: pymupdf.Rect) -> bool:
    return min(box.y1, rect.y1) - max(box.y0, rect.y0) > 0.5 * min(box.height, rect.height)


def _between(fields: list[pymupdf.Rect], x0: float, x1: float, rect: pymupdf.Rect) -> bool:
    """Another widget (of ``fields``, the page's widget boxes) lies on ``rect``'s row between x0 and x1."""
    return any(_same_row(f, rect) and f.x0 >= x0 - 1 and f.x1 <= x1 + 1 and f != rect for f in fields)


def _nearby_label(ctx: PageContext, rect: pymupdf.Rect, lines: list | None = None,
                  skip: tuple[str, ...] = (), used: list[pymupdf.Rect] | None = None,
                  fields: list[pymupdf.Rect] | None = None) -> str | None:
    """Printed text left of the widget on its row (the nearest, with no other widget between), else
    just above it. ``skip``: texts that are not labels here (the captions of a radio group's buttons);
    ``used`` collects the label's box; ``fields``: the page's widget boxes (read from the page if None)."""
    fields = [w.rect for w in ctx.page.widgets()] if fields is None else fields
    best: tuple[float, str, pymupdf.Rect] | None = None
    for box, text, _spans in lines if lines is not None else _printed_lines(ctx):
        if text in skip:
            continue
        x0, y0, x1, y1 = box
        # Line boxes can reach under the widget (trailing blanks): judge by where they start.
        if (_same_row(box, rect) and x0 < rect.x0 - 5 and x1 <= rect.x0 + 0.5 * rect.width
                and rect.x0 - x1 < LEFT_REACH and not _between(fields, x1, rect.x0, rect)):
            dist = max(0.0, rect.x0 - x1)
            dist = dist if dist < LABEL_REACH else LABEL_REACH + (dist - LABEL_REACH) / 4  # far left still beats far above
        elif y1 <= rect.y0 + 2 and rect.y0 - y1 < LABEL_REACH / 3 and x0 < rect.x1 and x1 > rect.x0:
            dist = (rect.y0 - y1) * 2 + 5
        else:
            continue
        if best is None or dist < best[0]:
            best = (dist, text, box)
    if best is None:
        return None
    if used is not None:
        used.append(best[2])
    return best[1].rstrip(":").strip()


def _caption(rect: pymupdf.Rect, lines: list, used: list[pymupdf.Rect] | None = None) -> str | None:
    """The printed caption just right of a checkbox or radio button on its row ("[x] Married")."""
    best: tuple[float, str, pymupdf.Rect] | None = None
    for box, text, _spans in lines:
        gap = box.x0 - rect.x1
        if _same_row(box, rect) and -2 <= gap <= CAPTION_REACH and (best is None or gap < best[0]):
            best = (gap, text, box)
    if best is None:
        return None
    if used is not None:
        used.append(best[2])
    return best[1].rstrip(":").strip()


def _pretty(name: str) -> str:
    return " ".join(re.sub(r"[_.\-]+", " ", name).split())


def _named(w: pymupdf.Widget) -> str | None:
    """The widget's own name for itself: a meaningful tooltip (/TU), else a descriptive field name."""
    tu = (w.field_label or "").strip()
    if tu and not _USELESS_LABEL.match(tu):
        return tu
    name = _pretty(w.field_name or "")
    if sum(c.isalpha() for c in name) >= 3 and not _GENERIC_NAME.match(name):
        return name
    return None


def _label(ctx: PageContext, w: pymupdf.Widget, lines: list, ftype: str = "text", used: list | None = None,
           fields: list[pymupdf.Rect] | None = None) -> str:
    """Tooltip (/TU) if meaningful, else a descriptive field name, else printed text beside it: for a
    checkbox the caption to its right ("[x] Married"), else the label left of or above it."""
    own = _named(w)
    if own:
        return own
    printed = (_caption(w.rect, lines, used) if ftype == "checkbox" else None) or _nearby_label(ctx, w.rect, lines, used=used, fields=fields)
    return printed or _pretty(w.field_name or "") or "field"


def _element(ctx: PageContext, w: pymupdf.Widget, ftype: str, value: str, options: list[str], rect: pymupdf.Rect,
             label: str, **attrs: object) -> Element:
    name = w.field_name or ""
    shown = value or ("unchecked" if ftype == "checkbox" else "(empty)")
    # The field name often says more than the tooltip ("Emergency_Relationship" vs "RELATIONSHIP").
    pretty = _pretty(name)
    generic = not pretty or bool(_GENERIC_NAME.match(pretty))
    head = label if generic or pretty.lower() in label.lower() else f"{label} ({pretty})"
    text = f"{head}: {shown}"
    if options:
        text += f" [options: {', '.join(options)}]"
    return Element(
        doc_id=ctx.doc_id, page=ctx.page_no, order=0, kind=ElementKind.FORM, text=text,
        bbox=tuple(rect & ctx.page.rect) if not (rect & ctx.page.rect).is_empty else tuple(ctx.page.rect),
        provenance=Provenance.ACROFORM, parser="acroform",
        field=FormFieldData(name=name, field_type=ftype, label=label, value=value, options=options),
        attrs={k: v for k, v in attrs.items() if v is not None},
    )


def extract_form_fields(ctx: PageContext) -> list[Element]:
    """FORM elements for the page's widgets (push buttons skipped; radio groups merged).

    Field areas are added to ``ctx.claimed`` so their drawn values (and check marks) do not come
    back as body text.
    """
    pdf = ctx.page.parent
    out: list[Element] = []
    radios: dict[str, list[pymupdf.Widget]] = {}
    widgets = list(ctx.page.widgets())
    lines = _printed_lines(ctx) if widgets else []
    rects = [pymupdf.Rect(w.rect) for w in widgets]
    used: list[pymupdf.Rect] = []  # printed labels and captions that name a field
    labels: list[tuple[Element, list[pymupdf.Rect]]] = []  # each field's printed label
    for w in widgets:
        ftype = _TYPES.get(w.field_type, "text")
        if ftype == "button":
            continue
        if ftype == "radio":
            radios.setdefault(w.field_name or str(w.xref), []).append(w)
            continue
        mine: list[pymupdf.Rect] = []
        label = _label(ctx, w, lines, ftype, mine, rects)
        if ftype == "checkbox":
            on = w.on_state() or "Yes"
            raw = _value(pdf, w.xref)
            if raw is None and (parent := _parent(pdf, w.xref)) is not None:
                raw = _value(pdf, parent)
            state = raw if raw is not None else str(w.field_value or "")
            checked = state.lower() not in _OFF and (state == on or state.lower() in ("on", "yes", "true"))
            out.append(_element(ctx, w, ftype, "checked" if checked else "unchecked", [], w.rect, label, export_value=str(on)))
        elif ftype in ("combobox", "listbox"):
            value = w.field_value
            values = value if isinstance(value, list) else [value] if value else []
            opts = [c[1] if isinstance(c, (list, tuple)) else str(c) for c in (w.choice_values or [])]
            exports = [c[0] if isinstance(c, (list, tuple)) else str(c) for c in (w.choice_values or [])]
            shown = [opts[exports.index(v)] if v in exports else _resolve(str(v), opts) or "" for v in values]
            out.append(_element(ctx, w, ftype, ", ".join(s for s in shown if s), opts, w.rect, label))
        else:
            out.append(_element(ctx, w, ftype, str(w.field_value or "").strip(), [], w.rect, label))
        labels.append((out[-1], mine))
    for group in radios.values():
        mine = []
        out.append(_radio_group(ctx, pdf, group, lines, mine, rects))
        labels.append((out[-1], mine))
    # A printed label that names a field is said in the field's line: as body text it would only be a run
    # of labels without their values ("Member name Membership number Postcode ..."). A blank field's line
    # is kept only on a filled-in form (``index.chunking``): on an unfilled one its label stays body text.
    filled = form_filled_in([e.field for e in out if e.field is not None])
    for e, boxes in labels:
        if filled or (e.field is not None and (e.field.field_type == "checkbox" or e.field.value)):
            used.extend(boxes)
    # Some files also draw field values into the page's text layer: keep them out of body text.
    ctx.claimed.extend(pymupdf.Rect(e.bbox) for e in out
                       if e.field and e.field.field_type in ("text", "combobox", "listbox"))
    ctx.claimed.extend(pymupdf.Rect(w.rect) for w in widgets if _TYPES.get(w.field_type) in ("checkbox", "radio"))
    ctx.claimed.extend(used)
    return out


def _radio_group(ctx: PageContext, pdf: pymupdf.Document, widgets: list[pymupdf.Widget], lines: list,
                 used: list[pymupdf.Rect], fields: list[pymupdf.Rect]) -> Element:
    """One element per radio group: the selected option's text, all options listed. An on-state that
    says nothing ("Choice2", "1", "Yes" on every button) is named by the caption printed beside its
    button; the group is named by the text left of its first button (no caption of its own buttons)
    or above it."""
    first = widgets[0]
    owner = _parent(pdf, first.xref) or first.xref
    opt = _options(pdf, owner)
    states = [str(w.on_state() or "") for w in widgets]
    options = [_resolve(s, opt) or s for s in states]
    boxes: list[pymupdf.Rect] = []
    captions = [_caption(w.rect, lines, boxes) for w in widgets]
    opaque = len(set(options)) < len(options) or all(_OPAQUE_STATE.match(o) for o in options)
    if opaque and all(captions):
        options = [c or o for c, o in zip(captions, options)]
    raw = _value(pdf, owner)
    if raw is None:  # no value on the group: look for a kid whose appearance state is on
        raw = next((s for w, s in zip(widgets, states) if pdf.xref_get_key(w.xref, "AS")[1].lstrip("/") == s), None)
    selected = ""
    if raw is not None and raw.lower() != "off":
        on = [i for i, w in enumerate(widgets) if pdf.xref_get_key(w.xref, "AS")[1].lstrip("/") not in ("", "Off")]
        at = on[0] if states.count(raw) > 1 and len(on) == 1 else states.index(raw) if raw in states else None
        selected = options[at] if at is not None else _resolve(raw, opt) or raw
    rect = pymupdf.Rect(first.rect)
    for w in widgets[1:]:
        rect |= w.rect
    leftmost = min(widgets, key=lambda w: (round(w.rect.y0), w.rect.x0))
    own = _named(first)
    if own and own.lower() in {o.lower() for o in options}:
        own = None  # a group named after one of its options ("female") is not named by it
    label = own or _nearby_label(ctx, leftmost.rect, lines, skip=tuple(c for c in captions if c), used=boxes,
                                 fields=fields) or _pretty(first.field_name or "") or "field"
    used.extend(boxes)
    return _element(ctx, first, "radio", selected, options, rect, label, raw_value=raw)
