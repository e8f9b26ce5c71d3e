"""The ingest coordinator: one owner for the whole unit of work of adding documents.

Parse → forget the vectors of replaced versions → index → invalidate the answer cache, and removal
(forget vectors, drop the catalog row). The CLI's `ingest`/`rm`, the server's background jobs and the
eval harness all call this object; the facade only builds it.

Components come from a provider (the facade) lazily, so a `--no-index` run never loads a model.

The catalog is the source of truth; the vector index follows it. Vector work a change owes (delete
the points of a replaced or removed version, upsert a parsed one) is recorded in the catalog in the
change's own transaction and replayed (``replay_pending``) at the start of every ingest, removal,
search and check until the engine confirms it, so a crash between the two stores never leaves stale
or missing vectors for long.
"""

from __future__ import annotations

import contextlib
import re
import queue
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pagelens.errors import PagelensError
from pagelens.faults import crash_point
from pagelens.memory import release as release_memory
from pagelens.ingest.executor import ParseExecutor, create_executor
from pagelens.index.profile import profile_collection
from pagelens.models import Document, IngestResult
from pagelens.store.catalog import INDEX_IDENTITY_NAMESPACE

if TYPE_CHECKING:
    from pagelens.app import Pagelens
    from pagelens.settings import Settings

Progress = Callable[[str, str, int, int], None]
"""progress(file_name, stage, done, total); stage is 'parse' or 'index'."""

INDEX_QUEUE_DOCS = 4
"""Committed documents waiting for the embedder; when full, the parsers wait (bounded memory)."""
EMBED_BACKLOG_DOCS = 2
"""Documents waiting at which the embedder takes every core while the parsers still run: on long
filings a page parses in ~0.01 CPU-s and its chunks embed in ~0.07, so the parsers would wait on the
full queue with their cores idle. Safe beside busy parsers because the plain-torch model runs batches
in parallel streams of one thread each (``torch_bert``), which never spin at an OpenMP barrier."""


class IngestCoordinator:
    """Adds and removes documents in one data home, keeping catalog, vectors and caches in step."""

    executor_factory: Callable[["Settings"], ParseExecutor] = staticmethod(create_executor)
    """Builds the executor of parse tasks for one ingest (local processes; tests and a cluster
    executor replace it)."""

    exclusive: bool = True
    """Whether this process is the catalog's only writer. Servers sharing a catalog set it False: then
    a replay leaves staged elements alone (another server's parse may own them) and does not index
    owed documents (another server's index thread may be on them); a recover job does, when idle."""

    def __init__(self, components: "Pagelens") -> None:
        self.c = components
        self.catalog = components.catalog
        self.settings = components.settings
        # One writer at a time in this process: a server's job and a CLI call never interleave.
        self.lock = threading.Lock()

    # -- adding -----------------------------------------------------------------------------------
    def ingest(
        self, paths: Iterable[Path | str], progress: Progress | None = None, index: bool = True,
        reparse: bool = False,
    ) -> list[IngestResult]:
        """Ingest files and folders (recursively, *.pdf); index what was ingested.

        Failures are returned as results with status 'failed'; nothing already stored is touched.
        Stored content is parsed again ('reparsed') when an older parser made it (``ingest.reparse_stale``)
        or ``reparse`` forces it; its elements are replaced in one transaction and its old vectors
        dropped (a pending delete, replayed like a removed version's) before it is indexed anew.
        """
        results: list[IngestResult] = []
        files = expand_paths(paths)
        with self.lock:
            # Every writer takes the home first (the vector store's owner lock), --no-index included;
            # then it settles what an earlier run left owed to the index.
            self.c.store  # noqa: B018
            self._replay_locked(upserts=index)
            if index and files and self._child_parsing_possible():
                self._ingest_with_child(files, progress, results, reparse)
            else:
                if files and self.settings.ingest.executor == "ray":
                    why = "--no-index" if not index else "an injected OCR engine or answer.enrich"
                    self.c.warn(f"--ray: parsing in this process instead ({why} keeps parsing here)")
                self._ingest_in_process(files, progress, index, results, reparse)
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

    def _ingest_with_child(
        self, files: list[Path], progress: Progress | None, results: list[IngestResult], reparse: bool = False
    ) -> None:
        """Parse on a pool of processes while this one loads the model and embeds what is committed.

        The main thread schedules parse tasks and commits each document once its pages are in; an
        index thread embeds committed documents as they come (a bounded queue between the two, so a
        slow embedder holds the parsers back instead of piling up documents in memory)."""
        from pagelens.ingest.parallel import ParallelParser

        self.c.indexer.ensure()  # opens the vector index first: a home owned by another process fails here
        on_page = (lambda name, done, total: progress(name, "parse", done, total)) if progress else None
        executor = self.executor_factory(self.settings)
        embedder = self.c.embedder
        indexer_embedder = self.c.indexer.embedder
        remote = getattr(executor, "text_embedder", None)  # an executor that can embed on its workers
        if remote is not None and self.c.injected("embedder") is None:
            self.c.indexer.embedder = remote(embedder) or indexer_embedder
        threads = getattr(embedder, "threads", None)
        todo: queue.Queue[IngestResult | None] = queue.Queue(maxsize=INDEX_QUEUE_DOCS)
        parsing = threading.Event()
        parsing.set()

        def index_loop() -> None:
            warm = getattr(embedder, "warm", None)
            with contextlib.suppress(Exception):  # the indexing step meets and reports the same error
                warm() if warm else self._warm_embedder()
            while (result := todo.get()) is not None:
                try:
                    if threads is not None:
                        # Every core embeds once parsing is over, or while parsed documents pile up
                        # (the parsers are about to wait on the full queue, their cores idle).
                        behind = todo.qsize() >= EMBED_BACKLOG_DOCS and getattr(embedder, "embeds_in_streams", False)
                        embedder.threads = threads if behind or not parsing.is_set() else 1
                    if result.replaced:
                        self.forget_vectors(result.replaced)
                    if result.status != "failed" and result.doc_id:  # (a re-parse's old points go first)
                        self._index(result, progress)
                except Exception as exc:  # one document's failure must not stop the others
                    result.status = "failed"
                    result.error = f"{result.name}: index: unexpected {type(exc).__name__}: {str(exc)[:200]}"
                release_memory()  # what this document's parse results and batches held goes back

        if threads is not None:
            # One torch thread while the parsers hold the cores: spinning OpenMP threads competing with
            # busy processes are far slower than one (NOTES.md).
            embedder.threads = 1
        indexer = threading.Thread(target=index_loop, name="pagelens-index", daemon=True)
        indexer.start()
        order = {str(p.resolve()): i for i, p in enumerate(files)}
        done: list[IngestResult] = []
        try:
            parser = ParallelParser(
                files, self.catalog, executor, pages_per_task=self.settings.ingest.pages_per_task,
                progress=on_page, warn=self.c.warn, reparse_stale=self.settings.ingest.reparse_stale, force=reparse,
            )
            for result in parser:
                done.append(result)
                todo.put(result)
        finally:
            parsing.clear()
            embeds_there = self.c.indexer.embedder is not indexer_embedder
            if not embeds_there:
                executor.close()  # the parser processes go now: the embedder gets every core
            todo.put(None)
            indexer.join()
            self.c.indexer.embedder = indexer_embedder
            if embeds_there:
                executor.close()  # its workers embedded until the last document was indexed
            if threads is not None:
                embedder.threads = threads
        results.extend(sorted(done, key=lambda r: order.get(r.path, len(order))))

    def _ingest_in_process(
        self, files: list[Path], progress: Progress | None, index: bool, results: list[IngestResult],
        reparse: bool = False,
    ) -> None:
        if index and files and not self.c.has_component("embedder"):
            # Load the text model on a second thread while the files parse (~3 s of imports and weights).
            threading.Thread(target=self._warm_embedder, name="pagelens-warm-embedder", daemon=True).start()
        # Parse everything first, then index: the model load overlaps the parsing, and a killed run
        # leaves parsed documents that the next run indexes (indexing is idempotent and resumable).
        for path in files:
            on_page = (lambda done, total, n=path.name: progress(n, "parse", done, total)) if progress else None
            result = self.c.ingestor.ingest_file(path, progress=on_page, index=index, reparse=reparse)
            if result.replaced:
                self.forget_vectors(result.replaced)
            if result.status == "reparsed" and result.doc_id:
                self.forget_vectors(result.doc_id)  # its old points, not the new parse's: at once, not after every file
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
        """Index one document; any failure fails that document only, never the batch."""
        indexer = self.c.indexer
        try:
            if self.catalog.has_vector_job(result.doc_id, "delete"):
                self.forget_vectors(result.doc_id)  # an old removal of this same content comes first
            if self._complete(result.doc_id):
                indexer.index_profile(result.doc_id)  # homes indexed before document routing lack it
                return  # (one that lost some or all of its points is indexed again: missing ones only)
            on_chunk = (lambda done, total: progress(result.name, "index", done, total)) if progress else None
            result.chunks = indexer.index_document(result.doc_id, progress=on_chunk, mark=marks is None)
            if marks is not None:
                marks.append((result.doc_id, result.chunks))
            if result.status == "unchanged":
                result.status = "indexed"
        except PagelensError as exc:
            result.status = "failed"
            result.error = f"{result.name}: index: {exc}"
        except Exception as exc:  # noqa: BLE001 - a bug or a library error on one document
            result.status = "failed"
            result.error = f"{result.name}: index: unexpected {type(exc).__name__}: {' '.join(str(exc).split())[:200]}"

    def _complete(self, doc_id: str) -> bool:
        """Whether the index holds every point the catalog recorded for the document."""
        collection = self.c.indexer.collection
        expected = self.catalog.indexed_chunks(doc_id, collection)
        return expected is not None and self.c.store.count(collection, doc_id) >= expected

    # -- pending vector work ----------------------------------------------------------------------
    def replay_pending(self, upserts: bool = True, blocking: bool = True, exclusive: bool | None = None) -> bool:
        """Do the vector work the catalog says is still owed (deletes, then upserts when
        ``upserts``); returns False when another job holds the coordinator and ``blocking`` is off
        (that job replays itself)."""
        if not self.lock.acquire(blocking=blocking):
            return False
        try:
            self._replay_locked(upserts, exclusive)
        finally:
            self.lock.release()
        return True

    def _replay_locked(self, upserts: bool, exclusive: bool | None = None) -> None:
        alone = self.exclusive if exclusive is None else exclusive
        # Elements a killed parse staged (no parse runs now: this process holds the coordinator and
        # the home, and parser processes are only started under both).
        if alone:
            self.catalog.discard_staged()
        jobs = self.catalog.vector_jobs()
        for doc_id, op in jobs:
            if op == "delete":
                self.forget_vectors(doc_id)
        if not upserts or not alone:
            return
        for doc_id, op in jobs:
            doc = self.catalog.get_document(doc_id) if op == "upsert" else None
            if doc is not None:
                result = IngestResult(doc_id=doc_id, name=doc.name, path=doc.path, status="unchanged")
                self._index(result, None)
                if result.status == "failed":
                    self.c.warn(f"pending indexing of {doc.name} not done yet: {result.error}")

    # -- removing ---------------------------------------------------------------------------------
    def forget_vectors(self, doc_id: str) -> bool:
        """Drop a document version's vectors and the cached answers that cited it.

        The catalog holds the pending delete (recorded with the change that caused it); it is
        cleared only once the engine has done it, so a failure here is retried at the next open.
        Returns whether the delete is confirmed."""
        crash_point(self.settings.fault_at, "forget")
        try:
            cache = self.c.answer_cache
            store = self.c.store
            # This home's current index and the ones it built under other settings (recorded by the
            # indexer): never collections of another home that shares a Qdrant server.
            built = set(self.catalog.cache_keys(INDEX_IDENTITY_NAMESPACE))
            present = set(index_collections(store, self.settings.index.collection_prefix))
            for collection in sorted({self.settings.index_name(), *(built & present)}):
                store.delete_doc(collection, doc_id)
                # and its routing profile: a stale one would route questions to a gone version
                store.delete_doc(profile_collection(collection), doc_id)
            if cache is not None:
                cache.invalidate_docs([doc_id])
        except PagelensError as exc:
            self.c.warn(f"could not remove the vectors of document {doc_id[:12]} yet (retried at the next open): {exc}")
            return False
        crash_point(self.settings.fault_at, "forget-confirm")
        self.catalog.confirm_delete(doc_id)
        return True

    def remove(self, ref: str) -> Document:
        """Remove a document: the catalog row goes at once (with its pending vector delete, in one
        transaction), the vectors right after; if that fails they go at the next open, and search
        never shows them meanwhile (hits are checked against the catalog)."""
        with self.lock:
            self.c.store  # noqa: B018  (the home's owner lock, before any write)
            self._replay_locked(upserts=False)  # deletes an earlier run left owed
            doc = self.catalog.resolve(ref)
            with self.catalog.transaction() as conn:
                self.catalog.delete_document(conn, doc.doc_id)
            self.forget_vectors(doc.doc_id)
            return doc

    def sync(self, folders: Iterable[Path | str], keep: Iterable[str | None] = ()) -> list[Document]:
        """Remove the documents whose files were under ``folders`` and are gone (folder sync).
        ``keep``: doc ids just ingested (a moved file keeps its document)."""
        roots = [Path(f).resolve() for f in folders if Path(f).is_dir()]
        kept = {k for k in keep if k}
        removed: list[Document] = []
        for doc in self.catalog.documents():
            path = Path(doc.path)
            if doc.doc_id in kept or path.exists() or not any(path.is_relative_to(r) for r in roots):
                continue
            removed.append(self.remove(doc.doc_id))
        return removed


def index_collections(store: Any, prefix: str) -> list[str]:
    """The index collections (``<prefix>_<12 hex>``, any index identity) the engine holds."""
    lister = getattr(store, "collections", None)
    if lister is None:
        return []
    pattern = re.compile(rf"^{re.escape(prefix)}_[0-9a-f]{{12}}$")
    return [name for name in lister() if pattern.match(name)]


def expand_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Files as given; folders expanded to their PDFs (recursively, sorted)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.is_file() and q.suffix.lower() == ".pdf"))
        else:
            out.append(p)
    return out
