"""Health, statistics, components, configuration, cache."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from pagelens.redact import mask_url
from pagelens.server.deps import State

public = APIRouter(tags=["system"])
router = APIRouter(tags=["system"])


@public.get("/health")
def health() -> dict[str, str]:
    from pagelens.server.app import VERSION

    return {"status": "ok", "version": VERSION}


@router.get("/stats")
def stats(state: State) -> dict[str, Any]:
    docs = state.catalog.documents()
    s = state.settings
    index = s.index_name()
    elements: dict[str, int] = {}
    for d in docs:
        for kind, n in d.element_counts.items():
            elements[kind] = elements.get(kind, 0) + n
    with state.catalog._lock:
        rows = state.catalog._conn.execute(
            "SELECT count(*), coalesce(sum(chunks), 0) FROM indexed WHERE index_name=?", (index,)
        ).fetchone()
    app = state.app
    channels = ["dense", "sparse", "caption"]
    if s.answer.enrich:
        channels.append("summary")
    if app.has_component("image_embedder") and app.image_embedder is not None:
        channels.append("image")
    return {
        "documents": len(docs),
        "pages": sum(d.pages for d in docs),
        "indexed_documents": int(rows[0]),
        "chunks": {"total": int(rows[1])},
        "elements": elements,
        "channels": channels,
        "models": {
            "embedder": s.index.embedder,
            "llm": s.answer.llm_model if s.answer.llm_base_url or s.answer.llm_preset else None,
            "reranker": s.retrieval.reranker or s.retrieval.rerank_model,
            "clip": s.index.clip_model,
        },
        "jobs": {"running": sum(j.state == "running" for j in state.jobs.list()),
                 "queued": sum(j.state == "queued" for j in state.jobs.list())},
    }


@router.get("/components")
def components(state: State) -> list[dict[str, Any]]:
    return [s.__dict__ for s in state.app.doctor()]


@router.get("/config")
def config(state: State) -> dict[str, Any]:
    s = state.settings
    return {
        "llm_base_url": mask_url(s.answer.llm_base_url) or None,
        "llm_model": s.answer.llm_model,
        "embedder": s.index.embedder,
        "api_key_required": s.server.api_key is not None,
        "max_upload_mb": s.server.max_upload_mb,
        "max_pages": s.server.max_pages,
    }


@router.post("/cache/clear")
def clear_cache(state: State) -> dict[str, int]:
    return {"cleared": state.clear_answer_cache()}
