"""Answers: POST /query (whole answer), WS /ws/query (phases, sources, tokens, citations, done), and
the conversations that carry history between questions."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from fastapi import APIRouter, HTTPException, Response, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field, ValidationError

from pagelens.errors import PagelensError
from pagelens.models import Answer
from pagelens.server.convert import citations_json, phase_timings, sources_json
from pagelens.server.deps import State, websocket_key_ok
from pagelens.server.routes.search import table_html
from pagelens.server.state import ServerState

router = APIRouter(tags=["answers"])
IO_BOUND = "_io_bound"  # internal marker event, never sent
sockets = APIRouter(tags=["answers"])


class QueryRequest(BaseModel):
    question: str = Field(min_length=1, max_length=8000)
    conversation_id: str | None = Field(None, max_length=100)
    history: bool = True
    hyde: bool = False
    multi_query: bool | int = False
    rerank: bool = True
    doc_ids: list[str] | None = None
    k: int | None = Field(None, ge=1, le=50)


def answer_events(state: ServerState, req: QueryRequest) -> Iterator[dict[str, Any]]:
    """The API's events for one question (see API.md); the last is ``done`` with the whole answer."""
    conv = req.conversation_id or state.conversations.new_id()
    history = state.conversations.history(conv) if req.history else []
    t0 = time.perf_counter()
    n_variants = int(req.multi_query) if not isinstance(req.multi_query, bool) else (2 if req.multi_query else 0)
    answer: Answer | None = None
    stream = state.answerer.stream(
        req.question, history=history or None, doc_ids=state.resolve_docs(req.doc_ids), hyde=req.hyde,
        multi_query=n_variants, rerank=req.rerank, k=req.k, phase_timings=True,
    )
    sources: list[dict[str, Any]] = []
    remote_llm = state.app.llm is not None
    for event in stream:
        kind = event["type"]
        if kind == "phase" and event.get("phase") == "generate" and remote_llm:
            yield {"type": IO_BOUND}  # retrieval is done; the LLM's answer is network time
        elif kind == "timing":
            yield {"type": "phase", "name": event["phase"], "duration_ms": event["duration_ms"]}
        elif kind == "sources":
            sources = sources_json(event["sources"], state.settings, table_html(state, event["sources"]))
            yield {"type": "sources", "sources": sources}
        elif kind == "token":
            yield {"type": "token", "text": event["text"]}
        elif kind == "reset":  # the LLM ran out of time mid-answer: drop its tokens, the extractive answer follows
            yield {"type": "reset", "reason": event["reason"]}
        elif kind == "done":
            answer = event["answer"]
    assert answer is not None
    citations = citations_json(answer)
    yield {"type": "citations", "citations": citations}
    state.conversations.add(conv, {"question": req.question, "answer": answer.answer, "sources": sources,
                                   "citations": citations})
    yield {
        "type": "done", "answer": answer.answer, "total_ms": round((time.perf_counter() - t0) * 1000, 2),
        "cached": answer.cached, "conversation_id": conv, "model": _model(answer), "timings": phase_timings(answer),
        "notes": _notes(answer), "abstained": answer.abstained, "sources": sources, "citations": citations,
        "_answer": answer,
    }


def _model(a: Answer) -> str | None:
    return None if a.model == "extractive" else a.model


def _notes(a: Answer) -> list[str]:
    notes = list(getattr(a, "notes", None) or [])
    if a.model == "extractive":
        notes.append("no LLM configured: the answer is extracted from the sources")
    if a.invalid_citations:
        notes.append(f"the answer cites sources that do not exist: {a.invalid_citations}")
    if a.cached:
        notes.append("answered from the semantic cache")
    return notes


def io_bound(event: dict[str, Any]) -> bool:
    return event["type"] == IO_BOUND


def stream_events(state: ServerState, req: QueryRequest) -> AsyncIterator[dict[str, Any]]:
    """:func:`answer_events` stepped in the thread pool within a query slot (held until the LLM phase)."""
    return state.gate.iterate(answer_events(state, req), release=io_bound)


async def final_event(state: ServerState, req: QueryRequest) -> dict[str, Any]:
    """The ``done`` event of :func:`answer_events` (the others are dropped)."""
    done: dict[str, Any] = {}
    async for event in stream_events(state, req):
        if event["type"] == "done":
            done = event
    return done


@router.post("/query")
async def query(state: State, body: QueryRequest, raw: bool = False) -> dict[str, Any]:
    done = await final_event(state, body)
    answer: Answer = done.pop("_answer")
    out = {
        "answer": done["answer"], "sources": done["sources"], "citations": done["citations"],
        "timings": {**done["timings"], "total": done["total_ms"]}, "model": done["model"], "cached": done["cached"],
        "conversation_id": done["conversation_id"], "notes": done["notes"], "abstained": done["abstained"],
    }
    if raw:  # the CLI through a server rebuilds its own output from the Answer model
        out["raw"] = answer.model_dump(mode="json")
    return out


@sockets.websocket("/ws/query")
async def query_stream(ws: WebSocket) -> None:
    if not websocket_key_ok(ws):
        await ws.close(code=1008, reason="missing or wrong api_key")
        return
    await ws.accept()
    state: ServerState = ws.app.state.pagelens
    try:
        while True:
            data = await ws.receive_json()
            try:
                req = QueryRequest.model_validate(data)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"]) or "body"
                await ws.send_json({"type": "error", "message": f"{where}: {first['msg']}"})
                continue
            try:
                async for event in stream_events(state, req):
                    if event["type"] == "done":
                        event = {k: v for k, v in event.items() if k not in ("_answer", "sources", "citations")}
                    await ws.send_json(event)
            except PagelensError as exc:
                await ws.send_json({"type": "error", "message": " ".join(str(exc).split())})
            except Exception as exc:  # noqa: BLE001 - one line to the client, the socket stays usable
                await ws.send_json({"type": "error", "message": f"internal error: {type(exc).__name__}: {exc}"})
    except (WebSocketDisconnect, RuntimeError):
        return
    except ValueError:  # not JSON
        await ws.send_json({"type": "error", "message": "send JSON objects like POST /query's body"})
        await ws.close(code=1003)


@router.get("/conversations/{conversation_id}")
def get_conversation(state: State, conversation_id: str) -> dict[str, Any]:
    turns = state.conversations.get(conversation_id)
    if turns is None:
        raise HTTPException(404, f"no conversation {conversation_id!r}")
    return {"conversation_id": conversation_id, "turns": turns}


@router.delete("/conversations/{conversation_id}", status_code=204)
def delete_conversation(state: State, conversation_id: str) -> Response:
    if not state.conversations.delete(conversation_id):
        raise HTTPException(404, f"no conversation {conversation_id!r}")
    return Response(status_code=204)
