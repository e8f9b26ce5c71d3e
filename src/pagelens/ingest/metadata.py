"""Document metadata (info dictionary, outline), metadata elements, and per-page links/annotations.

Metadata becomes METADATA elements on page 1 ("Title: …", "Author: …", "Pages: N", "Contents: …")
so that questions about the document itself are retrievable like any other text.
"""

from __future__ import annotations

import re
from typing import Any

import pymupdf

from pagelens.ingest.context import PageContext
from pagelens.models import Document, Element, ElementKind, Provenance, TocEntry

_PDF_DATE = re.compile(r"^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+\-])?(\d{2})?'?(\d{2})?'?")
_FIELDS = ("title", "author", "subject", "keywords", "creator", "producer")
OUTLINE_ENTRIES_PER_ELEMENT = 40
"""Outline entries per "Contents:" element (long outlines are split so each stays chunk-sized)."""


def pdf_date(raw: str | None) -> str | None:
    """'D:20171211093519-06'00'' → '2017-12-11T09:35:19-06:00'; unparsable strings are kept as is."""
    if not raw:
        return None
    m = _PDF_DATE.match(raw.strip())
    if not m:
        return raw.strip() or None
    y, mo, d, h, mi, s, tz, tzh, tzm = m.groups()
    out = f"{y}-{mo or '01'}-{d or '01'}"
    if h:
        out += f"T{h}:{mi or '00'}:{s or '00'}"
        if tz in ("Z", "z"):
            out += "Z" if not tzh or tzh == "00" else ""
        elif tz in ("+", "-") and tzh:
            out += f"{tz}{tzh}:{tzm or '00'}"
    return out


def title_from_page(page: pymupdf.Page) -> str | None:
    """The largest-font horizontal text in the upper half of the page (lines of that size joined)."""
    lines: list[tuple[float, float, str]] = []  # (size, y0, text)
    for b in page.get_text("dict", flags=0)["blocks"]:
        for ln in b.get("lines", []):
            if abs(ln["dir"][1]) > 0.1:
                continue
            text = "".join(s["text"] for s in ln["spans"]).strip()
            if sum(c.isalpha() for c in text) < 3:
                continue
            lines.append((max(s["size"] for s in ln["spans"]), ln["bbox"][1], text))
    # Titles sit in the upper half; a big logo at the foot of a cover ("Redpaper") is not one.
    upper = [ln for ln in lines if ln[1] < page.rect.y0 + 0.5 * page.rect.height]
    lines = upper or lines
    if not lines:
        return None
    top = max(size for size, _y, _t in lines)
    chars: dict[float, int] = {}
    for size, _y, t in lines:
        chars[round(size, 1)] = chars.get(round(size, 1), 0) + len(t)
    body = max(chars, key=chars.__getitem__)
    if top < body * 1.15:
        return None  # nothing stands out from the body text (e.g. a page cut from the middle of a paper)
    parts = [t for size, _y, t in sorted((ln for ln in lines if ln[0] >= top - 0.5), key=lambda ln: ln[1])]
    return " ".join(parts)[:300] or None


def document_metadata(pdf: pymupdf.Document) -> dict[str, Any]:
    """Fields of ``Document`` read from the PDF: info dictionary, dates, outline, title fallback."""
    info = pdf.metadata or {}
    out: dict[str, Any] = {k: (str(info.get(k) or "").strip() or None) for k in _FIELDS}
    out["created"] = pdf_date(info.get("creationDate"))
    out["modified"] = pdf_date(info.get("modDate"))
    outline = []
    for entry in pdf.get_toc(simple=True):
        level, title, page = entry[0], str(entry[1]).strip(), int(entry[2])
        if title:
            outline.append(TocEntry(level=max(1, level), title=title, page=max(1, page)))
    out["outline"] = outline
    if not out["title"] and pdf.page_count:
        out["title"] = title_from_page(pdf.load_page(0))
    return out


def _meta_element(doc_id: str, text: str, **attrs: Any) -> Element:
    return Element(
        doc_id=doc_id, page=1, order=0, kind=ElementKind.METADATA, text=text, bbox=None,
        provenance=Provenance.METADATA, parser="metadata", attrs=attrs,
    )


def metadata_elements(pdf: pymupdf.Document, doc_id: str, doc: Document) -> list[Element]:
    """Page-1 METADATA elements: document facts, then the outline as text."""
    lines = [f"Document: {doc.name}"]
    for label, value in (
        ("Title", doc.title), ("Author", doc.author), ("Subject", doc.subject), ("Keywords", doc.keywords),
        ("Created", doc.created), ("Modified", doc.modified), ("Creator", doc.creator), ("Producer", doc.producer),
    ):
        if value:
            lines.append(f"{label}: {value}")
    lines.append(f"Pages: {pdf.page_count}")
    out = [_meta_element(doc_id, "\n".join(lines), field="info")]
    entries = doc.outline
    for start in range(0, len(entries), OUTLINE_ENTRIES_PER_ELEMENT):
        part = entries[start : start + OUTLINE_ENTRIES_PER_ELEMENT]
        text = "Contents: " + "; ".join(f"{e.title} (p.{e.page})" for e in part)
        out.append(_meta_element(doc_id, text, field="outline"))
    return out


Span = tuple[float, float, float, float, str, int]
"""(x0, y0, x1, y1, text, line number) of one span."""
Line = tuple[float, float, float, float, list[Span]]


def _line_index(ctx: PageContext) -> list[Line]:
    """Every text line on the page with its spans (spans of a line join without spaces)."""
    out: list[Line] = []
    n = 0
    for b in ctx.text.get("blocks", []):
        if b.get("type") != 0:
            continue
        for ln in b["lines"]:
            n += 1
            out.append((*ln["bbox"], [(*s["bbox"], s["text"], n) for s in ln["spans"] if s["text"]]))
    return out


def _text_under(rect: pymupdf.Rect, lines: list[Line]) -> str:
    """Text under ``rect``. A span only partly covered contributes the characters whose estimated
    centres (glyphs spread evenly over the span) fall inside; PyMuPDF's exact clip costs ~0.2 s."""
    rx0, ry0, rx1, ry1 = rect
    parts: list[str] = []
    last = -1
    for lx0, ly0, lx1, ly1, spans in lines:
        if ly1 <= ry0 or ly0 >= ry1 or lx1 <= rx0 or lx0 >= rx1:
            continue
        for x0, y0, x1, y1, t, line in spans:
            if x1 <= rx0 or x0 >= rx1 or min(y1, ry1) - max(y0, ry0) < 0.5 * (y1 - y0):
                continue
            if x0 < rx0 - 1 or x1 > rx1 + 1:
                w = (x1 - x0) / max(len(t), 1)
                t = "".join(c for i, c in enumerate(t) if rx0 <= x0 + (i + 0.5) * w <= rx1)
            parts.append(t if line == last or not parts else " " + t)
            last = line
    return " ".join("".join(parts).split())


def page_extras(ctx: PageContext) -> list[Element]:
    """LINK elements (external URIs and internal targets) and ANNOTATION elements (not widgets).

    Pieces of one link split over lines are merged; internal links without a letter in their text
    (footnote marks, "5.1" cross-references) and internal links inside tables/figures are skipped.
    """
    out: list[Element] = []
    links: list[Element] = []
    lines: list[Line] | None = None
    page_rect = ctx.page.rect
    for link in ctx.page.get_links():
        rect = pymupdf.Rect(link["from"]) & page_rect
        if rect.is_empty:
            continue
        if lines is None:
            lines = _line_index(ctx)
        text = _text_under(rect, lines)
        if not text:
            continue
        target: dict[str, Any] = {}
        if link.get("uri"):
            target["uri"] = link["uri"]
        if link.get("kind") in (pymupdf.LINK_GOTO, pymupdf.LINK_GOTOR, pymupdf.LINK_NAMED):
            if link.get("page", -1) >= 0:
                target["target_page"] = link["page"] + 1
            if link.get("file"):
                target["file"] = link["file"]
            if link.get("nameddest") or link.get("name"):
                target["dest"] = link.get("nameddest") or link.get("name")
        if "uri" not in target and (not any(c.isalpha() for c in text) or ctx.is_claimed(rect)):
            continue  # internal jumps labelled "3", "5.1": footnote marks and cross-references
        prev = links[-1] if links else None
        if prev is not None and prev.attrs == target:  # one citation broken over lines/spans
            prev.text = prev.text[:-1] + text if prev.text.endswith("-") else prev.text + " " + text
            prev.bbox = tuple(pymupdf.Rect(prev.bbox) | rect)
            continue
        links.append(
            Element(doc_id=ctx.doc_id, page=ctx.page_no, order=0, kind=ElementKind.LINK, text=text,
                    bbox=tuple(rect), parser="pymupdf", attrs=target)
        )
    out += links
    for annot in ctx.page.annots():
        kind = annot.type[1]
        if kind in ("Popup", "Link", "Widget"):
            continue
        content = (annot.info.get("content") or "").strip()
        rect = annot.rect & page_rect
        if rect.is_empty:
            continue
        under = ""
        if kind in ("Highlight", "Underline", "StrikeOut", "Squiggly"):
            under = " ".join(ctx.page.get_textbox(rect).split())
        text = f"{kind}: " + " — ".join(p for p in (content, under) if p)
        if not (content or under):
            continue
        out.append(
            Element(doc_id=ctx.doc_id, page=ctx.page_no, order=0, kind=ElementKind.ANNOTATION, text=text,
                    bbox=tuple(rect), parser="pymupdf",
                    attrs={"annot_type": kind, "author": annot.info.get("title") or None})
        )
    return out
