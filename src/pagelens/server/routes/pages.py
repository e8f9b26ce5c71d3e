"""Page images (with highlighted boxes), page sizes, figure images."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import APIRouter, HTTPException, Response
from fastapi.responses import FileResponse

from pagelens.server.deps import State
from pagelens.server.render import parse_boxes

router = APIRouter(tags=["pages"])
_SHA = re.compile(r"^[0-9a-f]{64}$")
PNG = "image/png"


@router.get("/documents/{doc_id}/pages/{n}.png", response_class=Response, responses={200: {"content": {PNG: {}}}})
def page_png(state: State, doc_id: str, n: int, scale: float = 1.5, highlight: str | None = None) -> Response:
    d = state.catalog.resolve(doc_id)
    try:
        boxes = parse_boxes(highlight)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    png = state.pages.png(d.doc_id, Path(d.path), n, scale, boxes)
    return Response(png, media_type=PNG, headers={"Cache-Control": "private, max-age=3600"})


@router.get("/documents/{doc_id}/pages/{n}/size")
def page_size(state: State, doc_id: str, n: int) -> dict[str, float]:
    d = state.catalog.resolve(doc_id)
    w, h = state.pages.size(Path(d.path), n)
    return {"width": w, "height": h}


@router.get("/figures/{image_id}.png", response_class=FileResponse, responses={200: {"content": {PNG: {}}}})
def figure(state: State, image_id: str) -> FileResponse:
    if not _SHA.match(image_id) or not state.app.images.exists(image_id):
        raise HTTPException(404, f"no figure image {image_id[:80]!r}")
    return FileResponse(state.app.images.path(image_id), media_type=PNG)
