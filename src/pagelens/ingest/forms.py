"""AcroForm fields: one FORM element per filled-in (or empty) field, with its label and value.

Values are read from the field dictionary, not from the appearance: a checkbox's on-state becomes
"checked"/"unchecked", a radio group becomes one element holding the selected option (a /V that
indexes the parent's /Opt array is resolved to the option text), choice fields list their options.
"""

from __future__ import annotations

import re

import pymupdf

from pagelens.ingest.context import PageContext
from pagelens.models import Element, ElementKind, FormFieldData, Provenance

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
_GENERIC_NAME = re.compile(r"^(?:text|field|check ?box|radio|combo ?box|list ?box|button|untitled)\s*\d*$", re.I)
LABEL_REACH = 60.0
"""How far (points) to the left of or above a widget printed text is taken as its label."""


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


def _nearby_label(ctx: PageContext, rect: pymupdf.Rect) -> str | None:
    """Printed text just left of the widget on its row, else just above it.

    Text drawn by widgets themselves (their values, in the text layer of some files) is ignored.
    """
    fields = [w.rect for w in ctx.page.widgets()]
    best: tuple[float, str] | None = None
    for b in ctx.text.get("blocks", []):
        if b.get("type") != 0:
            continue
        for ln in b["lines"]:
            spans = [s for s in ln["spans"] if not _inside(pymupdf.Rect(s["bbox"]), fields)]
            text = " ".join("".join(s["text"] for s in spans).split())
            if len(text) < 2 or not any(c.isalpha() for c in text):
                continue
            x0, y0 = spans[0]["bbox"][:2]
            x1, y1 = max(s["bbox"][2] for s in spans), max(s["bbox"][3] for s in spans)
            same_row = min(y1, rect.y1) - max(y0, rect.y0) > 0.5 * min(y1 - y0, rect.height)
            # Line boxes can reach under the widget (trailing blanks): judge by where they start.
            if same_row and x0 < rect.x0 - 5 and x1 <= rect.x0 + 0.5 * rect.width and rect.x0 - x1 < LABEL_REACH:
                dist = max(0.0, rect.x0 - x1)
            elif y1 <= rect.y0 + 2 and rect.y0 - y1 < LABEL_REACH / 3 and x0 < rect.x1 and x1 > rect.x0:
                dist = (rect.y0 - y1) * 2 + 5
            else:
                continue
            if best is None or dist < best[0]:
                best = (dist, text)
    return best[1].rstrip(":") if best else None


def _pretty(name: str) -> str:
    return " ".join(re.sub(r"[_.\-]+", " ", name).split())


def _label(ctx: PageContext, w: pymupdf.Widget) -> str:
    """Tooltip (/TU) if meaningful, else a descriptive field name, else printed text beside it."""
    tu = (w.field_label or "").strip()
    if tu and not _USELESS_LABEL.match(tu):
        return tu
    name = _pretty(w.field_name or "")
    if sum(c.isalpha() for c in name) >= 3 and not _GENERIC_NAME.match(name):
        return name
    return _nearby_label(ctx, w.rect) or name or "field"


def _element(ctx: PageContext, w: pymupdf.Widget, ftype: str, value: str, options: list[str], rect: pymupdf.Rect, **attrs: object) -> Element:
    name = w.field_name or ""
    label = _label(ctx, w)
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

    Text and choice field areas are added to ``ctx.claimed`` so their drawn values do not come
    back as body text.
    """
    pdf = ctx.page.parent
    out: list[Element] = []
    radios: dict[str, list[pymupdf.Widget]] = {}
    for w in ctx.page.widgets():
        ftype = _TYPES.get(w.field_type, "text")
        if ftype == "button":
            continue
        if ftype == "radio":
            radios.setdefault(w.field_name or str(w.xref), []).append(w)
            continue
        if ftype == "checkbox":
            on = w.on_state() or "Yes"
            raw = _value(pdf, w.xref)
            if raw is None and (parent := _parent(pdf, w.xref)) is not None:
                raw = _value(pdf, parent)
            state = raw if raw is not None else str(w.field_value or "")
            checked = state.lower() not in _OFF and (state == on or state.lower() in ("on", "yes", "true"))
            out.append(_element(ctx, w, ftype, "checked" if checked else "unchecked", [], w.rect, export_value=str(on)))
        elif ftype in ("combobox", "listbox"):
            value = w.field_value
            values = value if isinstance(value, list) else [value] if value else []
            opts = [c[1] if isinstance(c, (list, tuple)) else str(c) for c in (w.choice_values or [])]
            exports = [c[0] if isinstance(c, (list, tuple)) else str(c) for c in (w.choice_values or [])]
            shown = [opts[exports.index(v)] if v in exports else _resolve(str(v), opts) or "" for v in values]
            out.append(_element(ctx, w, ftype, ", ".join(s for s in shown if s), opts, w.rect))
        else:
            out.append(_element(ctx, w, ftype, str(w.field_value or "").strip(), [], w.rect))
    for widgets in radios.values():
        out.append(_radio_group(ctx, pdf, widgets))
    # Some files also draw field values into the page's text layer: keep them out of body text.
    ctx.claimed.extend(pymupdf.Rect(e.bbox) for e in out if e.field and e.field.field_type in ("text", "combobox", "listbox"))
    return out


def _radio_group(ctx: PageContext, pdf: pymupdf.Document, widgets: list[pymupdf.Widget]) -> Element:
    """One element per radio group: the selected option's text, all options listed."""
    first = widgets[0]
    owner = _parent(pdf, first.xref) or first.xref
    opt = _options(pdf, owner)
    states = [str(w.on_state() or "") for w in widgets]
    options = [_resolve(s, opt) or s for s in states]
    raw = _value(pdf, owner)
    if raw is None:  # no value on the group: look for a kid whose appearance state is on
        raw = next((s for w, s in zip(widgets, states) if pdf.xref_get_key(w.xref, "AS")[1].lstrip("/") == s), None)
    selected = "" if raw is None or raw.lower() == "off" else _resolve(raw, opt) or raw
    rect = pymupdf.Rect(first.rect)
    for w in widgets[1:]:
        rect |= w.rect
    return _element(ctx, first, "radio", selected, options, rect, raw_value=raw)
