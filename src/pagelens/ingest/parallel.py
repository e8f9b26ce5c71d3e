"""Parsing many PDFs on a pool: the scheduler between the files and a :class:`ParseExecutor`.

Each file is hashed here (stored content needs no parsing, unless its parser is older or ``force``
asks: :func:`~pagelens.ingest.version.needs_parse`), then gets a ``prepare`` task; when
that returns, its pages are cut into ranges (:func:`page_ranges`) that any worker may take. Ranges of
documents already started go before new documents, and at most ``max_open`` documents are open at
once, so the pages held here waiting for their document's last range stay bounded. A document is
committed (one transaction, :class:`DocumentAssembler`) as soon as all its pages are in, and its
result is yielded at once — in completion order, not file order.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pagelens.errors import DocumentError
from pagelens.ingest.assemble import DocumentAssembler, page_ranges
from pagelens.ingest.executor import ParseExecutor, ParseTask, TaskEvent
from pagelens.ingest.pdf import read_bytes, sha256
from pagelens.ingest.version import needs_parse
from pagelens.models import IngestResult
from pagelens.store.catalog import Catalog

PageProgress = Callable[[str, int, int], None]
"""progress(file_name, pages_done, pages_total)."""

INLINE_PAGES = 2
"""A document of at most this many pages is parsed by its prepare task (one round trip, not two)."""


@dataclass
class _Open:
    index: int
    path: Path
    result: IngestResult
    started: float
    assembler: DocumentAssembler | None = None
    tasks: set[int] = field(default_factory=set)
    done_pages: dict[int, int] = field(default_factory=dict)
    failed: bool = False


class ParallelParser:
    """Iterate for one IngestResult per file (committed, reparsed, unchanged or failed), as each completes."""

    def __init__(
        self,
        files: list[Path],
        catalog: Catalog,
        executor: ParseExecutor,
        *,
        pages_per_task: int = 8,
        progress: PageProgress | None = None,
        warn: Callable[[str], None] | None = None,
        max_open: int | None = None,
        reparse_stale: bool = True,
        force: bool = False,
    ) -> None:
        self.files = deque(enumerate(files))
        self.catalog = catalog
        self.executor = executor
        self.pages_per_task = max(1, pages_per_task)
        self.progress = progress
        self.warn = warn or (lambda message: None)
        self.max_open = max_open or executor.slots + 1
        self.reparse_stale = reparse_stale  # parse stored content again when an older parser made it
        self.force = force  # parse stored content again regardless (ingest --reparse)
        self._open: dict[int, _Open] = {}  # by file index
        self._doc_of: dict[int, _Open] = {}  # by task id
        self._inflight: set[int] = set()
        self._ready: deque[ParseTask] = deque()  # page ranges of open documents
        self._next_id = 0
        self._out: deque[IngestResult] = deque()

    def __iter__(self) -> Iterator[IngestResult]:
        while True:
            self._dispatch()
            while self._out:
                yield self._out.popleft()
                self._dispatch()
            if not self._inflight and not self._ready and not self.files and not self._open:
                return
            event = self.executor.next_event(timeout=None)
            if event is not None:
                self._on_event(event)

    # -- scheduling -------------------------------------------------------------------------------
    def _dispatch(self) -> None:
        while len(self._inflight) < self.executor.slots:
            if self._ready:
                task = self._ready.popleft()
            else:
                task = self._next_document()
                if task is None:
                    return
            self._inflight.add(task.id)
            self.executor.submit(task)

    def _task(self, doc: _Open, kind: str, **kw: object) -> ParseTask:
        self._next_id += 1
        assert doc.result.doc_id is not None
        task = ParseTask(id=self._next_id, kind=kind, path=str(doc.path), doc_id=doc.result.doc_id, **kw)  # type: ignore[arg-type]
        doc.tasks.add(task.id)
        self._doc_of[task.id] = doc
        return task

    def _next_document(self) -> ParseTask | None:
        """The prepare task of the next file that needs parsing; files that need none finish here."""
        while self.files and len(self._open) < self.max_open:
            index, path = self.files.popleft()
            started = time.perf_counter()
            result = IngestResult(doc_id=None, name=path.name, path=str(path.resolve()), status="failed")
            try:
                result.doc_id = sha256(read_bytes(path))
            except DocumentError as exc:
                result.error = str(exc)
                self._out.append(result)
                continue
            existing = self.catalog.get_document(result.doc_id)
            if not needs_parse(existing, reparse_stale=self.reparse_stale, force=self.force):
                assert existing is not None
                result.pages = existing.pages
                result.elements = existing.element_counts
                result.ocr_pages = len(existing.ocr_pages)
                result.status = "unchanged"
                result.seconds = round(time.perf_counter() - started, 3)
                self._out.append(result)
                continue
            doc = _Open(index, path, result, started)
            self._open[index] = doc
            return self._task(doc, "prepare", inline_pages=INLINE_PAGES)
        return None

    # -- events -----------------------------------------------------------------------------------
    def _on_event(self, event: TaskEvent) -> None:
        if event.type == "warn":
            self.warn(event.data["message"])
            return
        doc = self._doc_of.get(event.task)
        if doc is None or event.task not in self._inflight:
            return
        if event.type == "progress":
            if doc.assembler is not None and self.progress:
                doc.done_pages[event.task] = event.data["done"]
                self.progress(doc.path.name, sum(doc.done_pages.values()), doc.assembler.doc.pages)
            return
        self._inflight.discard(event.task)
        del self._doc_of[event.task]
        doc.tasks.discard(event.task)
        if doc.failed:
            self._maybe_close(doc)
            return
        if event.type == "failed":
            self._fail(doc, event.data.get("error") or f"{doc.path.name}: parse failed")
            return
        data = event.data
        if doc.assembler is None:  # the prepare task
            doc.assembler = DocumentAssembler(data["document"], data["meta_elements"], doc.started)
            pages = doc.assembler.doc.pages
            if "pages" in data:
                doc.assembler.add(data["pages"])
            else:
                furniture = tuple(data.get("furniture") or ())
                for first, last in page_ranges(pages, self.executor.slots, self.pages_per_task):
                    self._ready.append(self._task(doc, "pages", first=first, last=last, furniture=furniture))
        else:
            doc.assembler.add(data["pages"])
            doc.done_pages[event.task] = len(data["pages"])
        if doc.assembler.complete and not doc.tasks:
            self._commit(doc)

    def _commit(self, doc: _Open) -> None:
        assert doc.assembler is not None
        if self.progress:
            self.progress(doc.path.name, doc.assembler.doc.pages, doc.assembler.doc.pages)
        try:
            doc.assembler.commit(self.catalog, doc.result, self.warn)
        except DocumentError as exc:
            doc.result.status = "failed"
            doc.result.error = str(exc)
        except Exception as exc:  # a bug or a store error fails this document, not the batch
            doc.result.status = "failed"
            doc.result.error = f"{doc.path.name}: parse: unexpected {type(exc).__name__}: {str(exc)[:200]}"
        doc.assembler = None
        self._finish(doc)

    def _fail(self, doc: _Open, error: str) -> None:
        doc.failed = True
        doc.assembler = None
        doc.result.status = "failed"
        doc.result.error = error
        self._ready = deque(t for t in self._ready if t.id not in doc.tasks)
        for t in doc.tasks - self._inflight:
            self._doc_of.pop(t, None)
        doc.tasks &= self._inflight  # still running: their results are dropped
        self._finish(doc, close=not doc.tasks)

    def _maybe_close(self, doc: _Open) -> None:
        if not doc.tasks:
            self._open.pop(doc.index, None)

    def _finish(self, doc: _Open, close: bool = True) -> None:
        doc.result.seconds = round(time.perf_counter() - doc.started, 3)
        self._out.append(doc.result)
        if close:
            self._open.pop(doc.index, None)
