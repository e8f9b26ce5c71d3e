"""Body text (placeholder: one element per text block)."""
import pymupdf

from pagelens.ingest.context import PageContext
from pagelens.models import Element, ElementKind


def extract_text(ctx: PageContext) -> list[Element]:
    out = []
    for b in ctx.text.get("blocks", []):
        if b.get("type") != 0:
            continue
        t = " ".join("".join(s["text"] for s in l["spans"]) for l in b["lines"]).strip()
        if t and not ctx.is_claimed(pymupdf.Rect(b["bbox"])):
            out.append(Element(doc_id=ctx.doc_id, page=ctx.page_no, order=0, kind=ElementKind.TEXT, text=t, bbox=tuple(b["bbox"])))
    return out
