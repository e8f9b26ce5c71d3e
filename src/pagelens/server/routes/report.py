"""The per-document extraction report (the same HTML as `pagelens report DOC --html FILE`)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from pagelens.export.report import render_report
from pagelens.server.deps import State

router = APIRouter(tags=["documents"])


@router.get("/documents/{doc_id}/report.html", response_class=HTMLResponse)
def report(state: State, doc_id: str) -> HTMLResponse:
    doc = state.catalog.resolve(doc_id)
    page = render_report(doc, state.catalog.iter_elements(doc.doc_id), state.app.images)
    name = doc.name.rsplit(".", 1)[0].encode("ascii", "replace").decode().replace('"', "_")
    return HTMLResponse(page, headers={
        "Content-Security-Policy": "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
        "Content-Disposition": f'inline; filename="{name}-report.html"',
    })
