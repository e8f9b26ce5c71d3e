"""Pagelens models → the JSON shapes of the HTTP API (documents, elements, sources, answers).

Relevance shown to people is on a 0–1 scale derived from the fused ranks: a hit's reciprocal-rank
fusion score divided by the best score any chunk could have had over the channels that returned
results (first place in each of them). The raw fused score travels beside it as ``score``.
"""

from __future__ import annotations

from typing import Any

from pagelens.models import Answer, Document, Element, SearchHit
from pagelens.settings import Settings


def relevance_scale(hits: list[SearchHit], settings: Settings) -> float:
    """The best fused score possible over the channels present in ``hits`` (first place in each)."""
    rs = settings.retrieval
    names = {n[: -len("_rank")] for h in hits for n in h.channels if n.endswith("_rank")}
    best = 0.0
    for name in names:
        base = name.split("#")[0]
        w = rs.weights.get(base, 1.0) * (rs.extra_query_weight if "#" in name else 1.0)
        best += w / (rs.rrf_k + 1)
    return best


def source_json(n: int, hit: SearchHit, scale: float, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    c = hit.chunk
    fused = float(hit.channels.get("fused", hit.score))
    ranks = {k[: -len("_rank")]: int(v) for k, v in hit.channels.items() if k.endswith("_rank")}
    out = {
        "n": n,
        "chunk_id": c.id,
        "doc_id": c.doc_id,
        "doc_name": c.doc_name,
        "page": c.page,
        "pages": c.pages,
        "kind": c.kind,
        "bbox": list(c.bboxes[0][1]) if c.bboxes else None,
        "bboxes": [[p, list(b)] for p, b in c.bboxes],
        "text": c.text,
        "html": None,
        "image_id": c.image,
        "caption": c.text if c.kind == "figure" else None,
        "section": c.section,
        "relevance": round(min(1.0, fused / scale), 4) if scale > 0 else 0.0,
        "score": round(fused, 6),
        "rerank_score": hit.rerank_score,
        "channels": ranks,
        "raw_channels": hit.channels,
        "element_ids": c.element_ids,
        "parts": hit.parts,
    }
    if extra:
        out.update(extra)
    return out


def sources_json(hits: list[SearchHit], settings: Settings, html: dict[str, str] | None = None) -> list[dict[str, Any]]:
    scale = relevance_scale(hits, settings)
    out = []
    for i, h in enumerate(hits, 1):
        s = source_json(i, h, scale)
        if html and h.chunk.element_ids:
            s["html"] = html.get(h.chunk.element_ids[0])
        out.append(s)
    return out


def citations_json(a: Answer) -> list[dict[str, Any]]:
    out = [{**c.model_dump(mode="json"), "n": c.n, "page": c.page, "valid": c.valid} for c in a.cited]
    out += [{"n": n, "page": None, "valid": False} for n in a.invalid_citations]
    return out


def phase_timings(a: Answer) -> dict[str, float]:
    t = dict(a.timings_ms)
    for name in ("rewrite", "embed", "search", "fuse", "rerank", "generate", "total"):
        t.setdefault(name, 0.0)
    return t


def element_json(e: Element) -> dict[str, Any]:
    fig = e.figure
    return {
        "element_id": e.id,
        "kind": e.kind.value,
        "page": e.page,
        "order": e.order,
        "bbox": list(e.bbox) if e.bbox else None,
        "text": e.text,
        "html": e.table.html if e.table else None,
        "markdown": e.table.markdown if e.table else None,
        "caption": (e.table.caption if e.table else fig.caption if fig else None),
        "image_id": fig.image if fig else None,
        "ocr_text": fig.ocr_text if fig else (e.text if e.provenance.value == "ocr" else None),
        "section": e.section,
        "level": e.level,
        "provenance": e.provenance.value,
    }


def document_summary(d: Document, indexed: bool) -> dict[str, Any]:
    return {
        "doc_id": d.doc_id,
        "name": d.name,
        "title": d.title,
        "pages": d.pages,
        "status": "indexed" if indexed else "parsed",
        "counts": d.element_counts,
        "ingested_at": d.ingested_at.isoformat() if d.ingested_at else None,
        "error": None,
        "version": d.version,
        "ocr_pages": d.ocr_pages,
        "failed_pages": {str(k): v for k, v in d.failed_pages.items()},
    }


def document_metadata(d: Document) -> dict[str, Any]:
    keep = ("author", "subject", "keywords", "creator", "producer", "created", "modified", "size", "version",
            "seconds", "title")
    return {k: getattr(d, k) for k in keep}
