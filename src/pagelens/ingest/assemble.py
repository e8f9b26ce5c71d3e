"""Putting a document together from page ranges parsed anywhere, and committing it once.

Pages may arrive in any order (ranges parsed by different processes); the document-level passes —
table continuations, section paths, element ids and counts — run over them in page order, then the
document and all its elements are written in one catalog transaction (``store_document``), which also
drops the earlier version of the same file, or the stored elements of content parsed again. Nothing is visible before that transaction commits, so a crash at any
moment leaves the catalog as it was.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pagelens.errors import DocumentError
from pagelens.ingest import sections
from pagelens.ingest.furniture import mark_ocr_running
from pagelens.ingest.table_continuation import mark_continuations
from pagelens.models import Document, Element, ElementKind, IngestResult, element_id
from pagelens.store.catalog import Catalog


class DocumentAssembler:
    """Collects one document's parsed pages; :meth:`commit` writes it."""

    def __init__(self, document: dict[str, Any], meta_elements: list[dict[str, Any]], started: float) -> None:
        self.doc = Document.model_validate(document)
        self.meta_elements = [Element.model_validate(e) for e in meta_elements]
        self.started = started
        self._pages: dict[int, dict[str, Any]] = {}

    @property
    def complete(self) -> bool:
        return len(self._pages) >= self.doc.pages

    def add(self, pages: list[dict[str, Any]]) -> None:
        for page in pages:
            self._pages[int(page["page"])] = page

    def commit(self, catalog: Catalog, result: IngestResult, warn: Any) -> Document:
        """Run the document-level passes in page order and write everything in one transaction.
        Raises DocumentError when every page failed (nothing is written then)."""
        doc = self.doc
        name = doc.name
        tracker = sections.SectionTracker(doc.outline)
        counts: dict[str, int] = {}
        warned: dict[str, list[int]] = {}
        prev_tables: list[Element] = []
        pages: list[list[Element]] = []
        parsed = {pno: [Element.model_validate(e) for e in page["elements"]] for pno, page in self._pages.items()}
        scanned = [els for pno, els in sorted(parsed.items()) if self._pages[pno].get("ocr")]
        if len(scanned) >= 3:
            mark_ocr_running(scanned)  # a scan's running header: only OCR saw it (furniture.mark_ocr_running)
        for pno in range(1, doc.pages + 1):
            page = self._pages.get(pno) or {"elements": [], "error": "page missing from the parse results"}
            for w in page.get("warnings") or []:
                warned.setdefault(w, []).append(pno)
            if page.get("error"):
                doc.failed_pages[pno] = page["error"]
            if page.get("ocr"):
                doc.ocr_pages.append(pno)
            els = parsed.get(pno, [])
            if pno == 1:
                els = self.meta_elements + els
            cur_tables = [e for e in els if e.kind == ElementKind.TABLE]
            mark_continuations(prev_tables, cur_tables)
            prev_tables = cur_tables
            tracker.assign(els)
            finalize_page(els, counts)
            pages.append(els)
        self._pages.clear()
        for message, nums in warned.items():
            warn(f"{name}: {message} on {page_list(nums)}")
        if doc.failed_pages and len(doc.failed_pages) == doc.pages:
            first = next(iter(doc.failed_pages.values()))
            raise DocumentError(f"every page failed (first: {first})", file=name, stage="parse")
        doc.element_counts = counts
        doc.seconds = round(time.perf_counter() - self.started, 3)
        with catalog.transaction() as conn:
            status = store_document(catalog, conn, doc, lambda: [catalog.add_elements(conn, els) for els in pages], result)
            catalog.update_document(conn, doc)
        result.status = status  # once committed
        result.pages = doc.pages
        result.elements = counts
        result.ocr_pages = len(doc.ocr_pages)
        result.page_errors = [f"{name}: page {p}: {why}" for p, why in sorted(doc.failed_pages.items())]
        return doc


def store_document(
    catalog: Catalog, conn: Any, doc: Document, write_elements: Callable[[], object], result: IngestResult,
    index: bool = True,
) -> str:
    """Inside the document's transaction (under the write lock): write ``doc`` and, through
    ``write_elements``, its elements; record the vector work this owes. Returns the status the
    result gets once the transaction commits: 'indexed', or 'reparsed'.

    New content becomes the file's next version, and replaces the earlier version at the same path
    (whose pending vector delete ``delete_document`` records). Content already stored is re-parsed
    (a newer parser, or ``--reparse``): the same document, its stored elements swapped for the new
    ones in this one transaction, so a crash before it commits leaves the old parse whole and a rerun
    parses again. Its old points (chunks that may be gone) owe a delete, recorded here as for a
    removed version: replayed before its upsert, and confirming it owes the document its vectors anew
    (``confirm_delete``)."""
    stored = catalog.get_document(doc.doc_id)
    previous = None
    if stored is not None:
        doc.name, doc.path, doc.version = stored.name, stored.path, stored.version
    else:
        previous = catalog.latest_by_path(doc.path)
        doc.version = (previous.version + 1) if previous else 1
    catalog.begin_document(conn, doc)  # drops a re-parsed document's old elements and index marks
    write_elements()
    if stored is not None:
        catalog.add_vector_job(conn, doc.doc_id, "delete")
    if index:
        # The vectors this version is owed, recorded with it: replayed until the index confirms them.
        catalog.add_vector_job(conn, doc.doc_id, "upsert")
    if previous is not None and previous.doc_id != doc.doc_id:
        catalog.delete_document(conn, previous.doc_id)
        result.replaced = previous.doc_id
    return "reparsed" if stored is not None else "indexed"


def finalize_page(els: list[Element], counts: dict[str, int]) -> None:
    """Give a page's elements in reading order their order and id, and count them by kind."""
    for i, e in enumerate(els):
        e.order = i
        e.id = element_id(e.doc_id, e.page, i, e.kind)
        counts[e.kind.value] = counts.get(e.kind.value, 0) + 1


def page_list(pages: list[int]) -> str:
    """'page 3' / 'pages 1-4, 7'."""
    runs: list[list[int]] = []
    for p in pages:
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    text = ", ".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)
    return f"page {text}" if len(pages) == 1 else f"pages {text}"


def page_ranges(pages: int, workers: int, pages_per_task: int) -> list[tuple[int, int]]:
    """0-based [first, last) ranges: a document is spread over the workers, no range over
    ``pages_per_task`` pages (small tasks keep every worker busy and the merge memory small)."""
    if pages <= 0:
        return []
    size = max(1, min(pages_per_task, -(-pages // max(1, workers))))
    return [(a, min(a + size, pages)) for a in range(0, pages, size)]
