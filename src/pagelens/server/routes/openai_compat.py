"""OpenAI-compatible chat: any client of that protocol (Open WebUI, the openai SDK, curl) chats with
the documents. The last user message is the question, earlier user/assistant turns the history; the
response carries ``sources`` at top level (and in the final stream chunk)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from pagelens.server.deps import State
from pagelens.server.routes.query import QueryRequest, final_event, stream_events
from pagelens.server.state import ServerState

router = APIRouter(tags=["openai"])
MODEL_ID = "pagelens"


class ChatMessage(BaseModel):
    role: str
    content: str | list[dict[str, Any]] | None = None


class ChatRequest(BaseModel):
    model: str = MODEL_ID
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool = False
    # pagelens extras (ignored by clients that do not know them)
    doc_ids: list[str] | None = None
    k: int | None = Field(None, ge=1, le=50)


def _text(m: ChatMessage) -> str:
    if isinstance(m.content, str):
        return m.content
    return "".join(p.get("text", "") for p in (m.content or []) if p.get("type") == "text")


@router.get("/v1/models")
def models() -> dict[str, Any]:
    return {"object": "list", "data": [{"id": MODEL_ID, "object": "model", "created": 0, "owned_by": "pagelens"}]}


def _prepare(state: ServerState, body: ChatRequest) -> QueryRequest:
    turns = [m for m in body.messages if m.role in ("user", "assistant")]
    if not turns or turns[-1].role != "user" or not _text(turns[-1]).strip():
        raise HTTPException(422, "the last message must be a non-empty user message (the question)")
    conv = None
    earlier = turns[:-1]
    if earlier:  # history travels in the request: replay it into a fresh conversation
        conv = state.conversations.new_id()
        question = None
        for m in earlier:
            if m.role == "user":
                question = _text(m)
            elif question is not None:
                state.conversations.add(conv, {"question": question, "answer": _text(m), "sources": [], "citations": []})
                question = None
    return QueryRequest(question=_text(turns[-1]), conversation_id=conv, history=bool(earlier),
                        doc_ids=body.doc_ids, k=body.k)


@router.post("/v1/chat/completions", response_model=None)
async def chat(state: State, body: ChatRequest) -> dict[str, Any] | StreamingResponse:
    req = _prepare(state, body)
    cid = "chatcmpl-" + uuid.uuid4().hex[:24]
    created = int(time.time())
    if body.stream:
        return StreamingResponse(_sse(state, req, cid, created), media_type="text/event-stream")
    done = await final_event(state, req)
    state.conversations.delete(done["conversation_id"])
    text = done["answer"]
    return {
        "id": cid, "object": "chat.completion", "created": created, "model": MODEL_ID,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 0, "completion_tokens": len(text.split()), "total_tokens": len(text.split())},
        "sources": done["sources"], "citations": done["citations"],
    }


async def _sse(state: ServerState, req: QueryRequest, cid: str, created: int) -> AsyncIterator[str]:
    def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> str:
        data = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": MODEL_ID,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}
        return f"data: {json.dumps(data, ensure_ascii=False)}\n\n"

    yield chunk({"role": "assistant", "content": ""})
    try:
        async for event in stream_events(state, req):
            if event["type"] == "token":
                yield chunk({"content": event["text"]})
            elif event["type"] == "reset":  # streamed text cannot be withdrawn here: say so, then the fallback
                yield chunk({"content": f"\n\n[{event['reason']}]\n\n"})
            elif event["type"] == "done":
                state.conversations.delete(event["conversation_id"])
                yield chunk({}, "stop", sources=event["sources"], citations=event["citations"])
    except Exception as exc:  # noqa: BLE001 - the stream has started: report in-band, as OpenAI does
        yield f"data: {json.dumps({'error': {'message': ' '.join(str(exc).split()), 'type': 'server_error'}})}\n\n"
    yield "data: [DONE]\n\n"
