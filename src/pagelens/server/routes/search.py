"""Search without an LLM: ranked chunks with per-channel ranks (the chunk-lookup screen)."""

from __future__ import annotations

import time
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from pagelens.server.convert import sources_json
from pagelens.server.deps import State
from pagelens.server.state import ServerState

router = APIRouter(tags=["search"])


class SearchRequest(BaseModel):
    query: str = Field(min_length=1, max_length=4000)
    k: int = Field(10, ge=1, le=100)
    mode: Literal["hybrid", "dense", "sparse", "image"] = "hybrid"
    doc_ids: list[str] | None = None


@router.post("/search")
async def search(state: State, body: SearchRequest) -> dict[str, Any]:
    return await state.gate.run(run_search, state, body)


def run_search(state: ServerState, body: SearchRequest) -> dict[str, Any]:
    t0 = time.perf_counter()
    timings: dict[str, float] = {}
    hits = state.retriever.search(
        body.query, k=body.k, mode=body.mode, doc_ids=state.resolve_docs(body.doc_ids), timings=timings,
    )
    sources = sources_json(hits, state.settings, table_html(state, hits))
    return {"hits": sources, "timings": {**timings, "total_ms": round((time.perf_counter() - t0) * 1000, 2)}}


def table_html(state: ServerState, hits: list[Any]) -> dict[str, str]:
    """element id → HTML of the table elements behind table hits."""
    out: dict[str, str] = {}
    for h in hits:
        c = h.chunk
        if c.kind not in ("table", "table_rows") or not c.element_ids:
            continue
        for e in state.catalog.elements(c.doc_id, page=c.page, kinds=["table"]):
            if e.id in c.element_ids and e.table is not None:
                out[e.id] = e.table.html
    return out
