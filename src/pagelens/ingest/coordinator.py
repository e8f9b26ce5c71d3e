"""The ingest coordinator: one owner for the whole unit of work of adding documents.

Parse → forget the vectors of replaced versions → index → invalidate the answer cache, and removal
(forget vectors, drop the catalog row). The CLI's `ingest`/`rm`, the server's background jobs and the
eval harness all call this object; the facade only builds it.

Components come from a provider (the facade) lazily, so a `--no-index` run never loads a model.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pagelens.errors import PagelensError
from pagelens.models import Document, IngestResult

if TYPE_CHECKING:
    from pagelens.app import Pagelens

Progress = Callable[[str, str, int, int], None]
"""progress(file_name, stage, done, total); stage is 'parse' or 'index'."""


class IngestCoordinator:
    """Adds and removes documents in one data home, keeping catalog, vectors and caches in step."""

    def __init__(self, components: "Pagelens") -> None:
        self.c = components
        self.catalog = components.catalog
        self.settings = components.settings
        # One writer at a time in this process: a server's job and a CLI call never interleave.
        self.lock = threading.Lock()

    # -- adding -----------------------------------------------------------------------------------
    def ingest(
        self, paths: Iterable[Path | str], progress: Progress | None = None, index: bool = True
    ) -> list[IngestResult]:
        """Ingest files and folders (recursively, *.pdf); index what was ingested.

        Failures are returned as results with status 'failed'; nothing already stored is touched.
        """
        results: list[IngestResult] = []
        files = expand_paths(paths)
        with self.lock:
            if index and files and self._child_parsing_possible():
                self._ingest_with_child(files, progress, results)
            else:
                self._ingest_in_process(files, progress, index, results)
            if any(r.chunks for r in results):
                cache = self.c.answer_cache
                if cache is not None:  # answers over "all documents" may change with a new one
                    cache.invalidate_unfiltered()
                # Once per run, not per document: cheap below ~20k chunks (exact scan segments), minutes
                # at 200k, and it keeps large collections searchable in ~1 ms instead of a ~30 ms scan.
                self.c.store.optimize(self.c.indexer.collection)
        return results

    def _child_parsing_possible(self) -> bool:
        # An injected OCR engine lives in this process; enrichment writes LLM answers to the catalog
        # while indexing, which the parser process's write transactions would make wait.
        return self.c.injected("ocr") is None and not self.settings.answer.enrich

    def _ingest_with_child(self, files: list[Path], progress: Progress | None, results: list[IngestResult]) -> None:
        """Parse in a child process while this one loads the model and embeds what is parsed."""
        from pagelens.ingest.worker import ChildParser

        self.c.indexer.ensure()  # opens the vector index first: a home owned by another process fails here
        on_page = (lambda name, done, total: progress(name, "parse", done, total)) if progress else None
        child = ChildParser(self.settings, files, on_page, self.c.warn)
        marks: list[tuple[str, int]] = []
        embedder = self.c.embedder
        threads = getattr(embedder, "threads", None)
        try:
            if threads is not None:
                # One torch thread while the child parses on the other core: two spinning OpenMP
                # threads competing with a busy process are far slower than one (NOTES.md).
                embedder.threads = 1
            self._warm_embedder()
            for result in child:
                if result.replaced:
                    self.forget_vectors(result.replaced)
                if result.status != "failed" and result.doc_id:
                    if threads is not None and not child.running:
                        embedder.threads = threads
                    self._index(result, progress, marks=marks)
                results.append(result)
        finally:
            child.close()
            if threads is not None:
                embedder.threads = threads
        for doc_id, chunks in marks:  # the child has committed: the catalog is writable again
            self.catalog.mark_indexed(doc_id, self.c.indexer.collection, chunks)

    def _ingest_in_process(
        self, files: list[Path], progress: Progress | None, index: bool, results: list[IngestResult]
    ) -> None:
        if index and files and not self.c.has_component("embedder"):
            # Load the text model on a second thread while the files parse (~3 s of imports and weights).
            threading.Thread(target=self._warm_embedder, name="pagelens-warm-embedder", daemon=True).start()
        # Parse everything first, then index: the model load overlaps the parsing, and a killed run
        # leaves parsed documents that the next run indexes (indexing is idempotent and resumable).
        for path in files:
            on_page = (lambda done, total, n=path.name: progress(n, "parse", done, total)) if progress else None
            result = self.c.ingestor.ingest_file(path, progress=on_page)
            if result.replaced:
                self.forget_vectors(result.replaced)
            results.append(result)
        if index:
            for result in results:
                if result.status != "failed" and result.doc_id:
                    self._index(result, progress)

    def _warm_embedder(self) -> None:
        # A failure here is reported by the indexing step, which meets the same error.
        with contextlib.suppress(PagelensError):
            self.c.embedder.embed(["warm up"])

    def _index(
        self, result: IngestResult, progress: Progress | None, marks: list[tuple[str, int]] | None = None
    ) -> None:
        indexer = self.c.indexer
        try:
            if self.catalog.is_indexed(result.doc_id, indexer.collection) and self.c.store.count(
                indexer.collection, result.doc_id
            ):
                indexer.index_profile(result.doc_id)  # homes indexed before document routing lack it
                return  # (a catalog that says "indexed" over a lost vector folder is re-indexed)
            on_chunk = (lambda done, total: progress(result.name, "index", done, total)) if progress else None
            result.chunks = indexer.index_document(result.doc_id, progress=on_chunk, mark=marks is None)
            if marks is not None:
                marks.append((result.doc_id, result.chunks))
            if result.status == "unchanged":
                result.status = "indexed"
        except PagelensError as exc:
            result.status = "failed"
            result.error = f"{result.name}: index: {exc}"

    # -- removing ---------------------------------------------------------------------------------
    def forget_vectors(self, doc_id: str) -> None:
        """Drop a document version's vectors and the cached answers that cited it."""
        try:
            self.c.indexer.remove_document(doc_id)
        except PagelensError as exc:
            self.c.warn(f"could not remove vectors of replaced document {doc_id[:12]}: {exc}")
        cache = self.c.answer_cache
        if cache is not None:
            cache.invalidate_docs([doc_id])

    def remove(self, ref: str) -> Document:
        with self.lock:
            doc = self.catalog.resolve(ref)
            self.forget_vectors(doc.doc_id)
            with self.catalog.transaction() as conn:
                self.catalog.delete_document(conn, doc.doc_id)
            return doc


def expand_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Files as given; folders expanded to their PDFs (recursively, sorted)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.is_file() and q.suffix.lower() == ".pdf"))
        else:
            out.append(p)
    return out
