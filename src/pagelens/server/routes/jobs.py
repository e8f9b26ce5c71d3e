"""Ingest jobs: list, one, and a live stream of every change (WS /ws/jobs)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, HTTPException, WebSocket, WebSocketDisconnect

from pagelens.server.deps import State, websocket_key_ok

router = APIRouter(tags=["jobs"])
sockets = APIRouter(tags=["jobs"])


@router.get("/jobs")
def list_jobs(state: State) -> list[dict[str, Any]]:
    return [j.to_json() for j in state.jobs.list()]


@router.get("/jobs/{job_id}")
def get_job(state: State, job_id: str) -> dict[str, Any]:
    job = state.jobs.get(job_id)
    if job is None:
        raise HTTPException(404, f"no job {job_id!r} (finished jobs are kept for a while, see GET /jobs)")
    return job.to_json()


@sockets.websocket("/ws/jobs")
async def job_stream(ws: WebSocket) -> None:
    if not websocket_key_ok(ws):
        await ws.close(code=1008, reason="missing or wrong api_key")
        return
    await ws.accept()
    state = ws.app.state.pagelens
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1000)

    def push(job: dict[str, Any]) -> None:  # called from the job thread
        def put() -> None:
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(job)

        loop.call_soon_threadsafe(put)

    key = state.jobs.subscribe(push)
    try:
        for job in reversed(state.jobs.unfinished()):
            await ws.send_json({"type": "job", "job": job.to_json()})
        receiver = asyncio.create_task(_drain(ws))
        while not receiver.done():
            getter = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
            if getter in done:
                await ws.send_json({"type": "job", "job": getter.result()})
            else:
                getter.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        state.jobs.unsubscribe(key)


async def _drain(ws: WebSocket) -> None:
    """Read (and ignore) what the client sends until it goes away."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await ws.receive_text()
