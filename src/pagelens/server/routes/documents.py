"""Documents: upload (→ ingest jobs), list, detail with elements, delete, reprocess, report."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response, status
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from pagelens.errors import DocumentError
from pagelens.server.convert import document_metadata, document_summary, element_json
from pagelens.server.deps import State
from pagelens.server.state import ServerState

router = APIRouter(tags=["documents"])
MB = 1024 * 1024


@router.post("/documents", status_code=status.HTTP_202_ACCEPTED)
async def upload(request: Request, state: State) -> dict[str, Any]:
    """One or many PDFs (multipart field ``files``) → one ingest job per file. Every file is checked
    first (size, PDF header, password, page count); if any fails, none is stored."""
    limit = int(state.settings.server.max_upload_mb * MB)
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit + MB:  # multipart overhead allowance
        raise HTTPException(413, f"upload of {int(declared) / MB:.1f} MB is over the {state.settings.server.max_upload_mb:g} MB limit (server.max_upload_mb)")
    form = await request.form(max_files=100)
    uploads = [f for f in form.getlist("files") if isinstance(f, UploadFile)]
    if not uploads:
        raise HTTPException(422, "no files: send PDFs as multipart field 'files'")
    files: list[tuple[str, bytes]] = []
    total = 0
    for up in uploads:
        data = await up.read()
        total += len(data)
        name = up.filename or "upload.pdf"
        if total > limit:
            raise HTTPException(413, f"{name}: the upload is over the {state.settings.server.max_upload_mb:g} MB limit (server.max_upload_mb)")
        files.append((name, data))
    checked = await run_in_threadpool(_check_all, state, files)
    jobs = [state.submit_ingest(state.save_upload(name, data, sha)).to_json() for name, data, sha in checked]
    return {"jobs": jobs}


def _check_all(state: ServerState, files: list[tuple[str, bytes]]) -> list[tuple[str, bytes, str]]:
    from pathlib import Path

    from pagelens.ingest.pdf import open_pdf, sha256

    out = []
    for name, data in files:
        if not data:
            raise HTTPException(422, f"{name}: open: empty file (0 bytes)")
        try:
            with state.pages._lock:
                pdf = open_pdf(Path(name), data)
                pages = pdf.page_count
                pdf.close()
        except DocumentError as exc:
            raise HTTPException(422, str(exc)) from None
        if pages > state.settings.server.max_pages:
            raise HTTPException(
                422, f"{name}: {pages} pages is over the limit of {state.settings.server.max_pages} (server.max_pages)"
            )
        out.append((name, data, sha256(data)))
    return out


@router.get("/documents")
def list_documents(state: State, full: bool = False) -> list[dict[str, Any]]:
    docs = state.catalog.documents()
    if full:
        return [d.model_dump(mode="json", exclude={"outline"}) for d in docs]
    return [document_summary(d, state.is_indexed(d.doc_id)) for d in docs]


@router.get("/documents/{doc_id}")
def get_document(state: State, doc_id: str, page: int | None = None, full: bool = False) -> dict[str, Any]:
    d = state.catalog.resolve(doc_id)
    if page is not None and not 1 <= page <= d.pages:
        raise HTTPException(404, f"{d.name} has pages 1..{d.pages}, not {page}")
    els = state.catalog.elements(d.doc_id, page=page)
    if full:  # the CLI's `show --json` shape
        return {"document": d.model_dump(mode="json"), "elements": [e.model_dump(mode="json") for e in els]}
    return {
        **document_summary(d, state.is_indexed(d.doc_id)),
        "metadata": document_metadata(d),
        "toc": [t.model_dump() for t in d.outline],
        "elements": [element_json(e) for e in els],
    }


@router.delete("/documents/{doc_id}", status_code=204)
def delete_document(state: State, doc_id: str, full: bool = False) -> Response:
    d = state.app.remove(state.catalog.resolve(doc_id).doc_id)
    state.pages.forget(d.doc_id)
    if full:  # the CLI's `rm` wants to say what it removed
        return Response(d.model_dump_json(), status_code=200, media_type="application/json")
    return Response(status_code=204)


@router.post("/documents/{doc_id}/reprocess", status_code=status.HTTP_202_ACCEPTED)
def reprocess(state: State, doc_id: str) -> dict[str, Any]:
    """Parse the document again (its OCR and enrichment caches cleared first), in place: it stays
    listed and searchable on its old elements until the new parse commits, then they are swapped."""
    return {"job": state.submit_reprocess(doc_id).to_json()}
