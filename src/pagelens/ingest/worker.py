"""The parser process: runs parse tasks (see :mod:`pagelens.ingest.executor`) and reports events.

    python -m pagelens.ingest.worker FD

The first stdin line is ``{"settings": {...}}``; every further line is a task. Events are JSON lines
written to file descriptor FD only (never stdout, which a library may write to):

    {"type": "progress", "task": 7, "done": 3}
    {"type": "warn", "task": 7, "message": "..."}
    {"type": "done", "task": 7, "result": {...}, "rss_mb": 412.0}
    {"type": "failed", "task": 7, "error": "a.pdf: not a PDF (no %PDF- header)"}

A ``prepare`` task returns the document's page count, metadata, metadata elements and running
headers/footers (and, for a short document, its pages); a ``pages`` task returns the parsed pages of
its range in order. The process writes no document to the catalog — the parent commits each document
in one transaction once all its pages are in — only caches (OCR results), each in its own short
transaction.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

from pagelens.errors import DocumentError
from pagelens.settings import Settings


def rss_mb() -> float:
    """Resident memory of this process now (MB)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Worker:
    """Holds the parsing components of one process and runs tasks with them."""

    def __init__(self, settings: Settings, out: TextIO) -> None:
        from pagelens.ingest.pipeline import Ingestor
        from pagelens.ocr import create_ocr_engine
        from pagelens.store.catalog import open_catalog
        from pagelens.store.images import open_image_store

        self.out = out
        self.lock = threading.Lock()
        self.task_id = -1
        # The configured catalog and image store (SQLite under the home, or a shared PostgreSQL and folder).
        self.catalog = open_catalog(settings)
        self.ocr = create_ocr_engine(settings.ingest, warn=self.warn, catalog=self.catalog)
        self.ingestor = Ingestor(settings.ingest, self.catalog, open_image_store(settings), self.ocr, warn=self.warn)

    def emit(self, msg: dict[str, Any]) -> None:
        with self.lock:
            self.out.write(json.dumps(msg, default=str) + "\n")
            self.out.flush()

    def warn(self, message: str) -> None:
        self.emit({"type": "warn", "task": self.task_id, "message": message})

    def run(self, task: dict[str, Any]) -> None:
        self.task_id = int(task["id"])
        path = Path(task["path"])
        try:
            if task["kind"] == "prepare":
                result = self.prepare(path, task["doc_id"], int(task.get("inline_pages", 0)))
            else:
                result = self.pages(path, task["doc_id"], int(task["first"]), int(task["last"]), set(task["furniture"]))
        except DocumentError as exc:
            self.emit({"type": "failed", "task": self.task_id, "error": str(exc), "rss_mb": rss_mb()})
        except Exception as exc:  # a parser bug fails this document, not the process
            error = f"{path.name}: parse: unexpected {type(exc).__name__}: {str(exc)[:200]}"
            self.emit({"type": "failed", "task": self.task_id, "error": error, "rss_mb": _released_rss()})
        else:
            self.emit({"type": "done", "task": self.task_id, "result": result, "rss_mb": _released_rss()})

    def _open(self, path: Path, doc_id: str) -> Any:
        from pagelens.ingest.pdf import open_pdf, read_bytes, sha256

        data = read_bytes(path)
        if sha256(data) != doc_id:
            raise DocumentError("the file changed while it was being ingested; ingest it again", file=path, stage="parse")
        return open_pdf(path, data)

    def prepare(self, path: Path, doc_id: str, inline_pages: int) -> dict[str, Any]:
        from pagelens.ingest import furniture, metadata
        from pagelens.ingest.version import PARSER_VERSION
        from pagelens.models import Document

        pdf = self._open(path, doc_id)
        try:
            doc = Document(
                doc_id=doc_id, name=path.name, path=str(path.resolve()), size=path.stat().st_size,
                pages=pdf.page_count, parser_version=PARSER_VERSION, **metadata.document_metadata(pdf),
            )
            meta_elements = metadata.metadata_elements(pdf, doc_id, doc)
            running = furniture.detect_furniture(pdf)
            out: dict[str, Any] = {
                "document": doc.model_dump(mode="json"),
                "meta_elements": [e.model_dump(mode="json") for e in meta_elements],
                "furniture": sorted(running),
            }
            if pdf.page_count <= inline_pages:
                out["pages"] = self._parse_range(pdf, path, doc_id, 0, pdf.page_count, running)
            return out
        finally:
            pdf.close()

    def pages(self, path: Path, doc_id: str, first: int, last: int, running: set[str]) -> dict[str, Any]:
        pdf = self._open(path, doc_id)
        try:
            return {"pages": self._parse_range(pdf, path, doc_id, first, min(last, pdf.page_count), running)}
        finally:
            pdf.close()

    def _parse_range(self, pdf: Any, path: Path, doc_id: str, first: int, last: int, running: set[str]) -> list[dict[str, Any]]:
        """Pages first..last-1, each with its figures OCR'd (on a second thread, as in one-process ingest)."""
        from pagelens.ingest.figure_ocr import FigureOcrQueue

        ing = self.ingestor
        out: list[dict[str, Any]] = []
        last_report = [0.0]

        def collect(payload: object) -> None:
            pno, parsed = payload  # type: ignore[misc]
            out.append({
                "page": pno + 1, "ocr": parsed.ocr, "error": parsed.error, "warnings": parsed.warnings,
                "elements": [e.model_dump(mode="json") for e in parsed.elements],
            })
            now = time.monotonic()
            if now - last_report[0] >= 0.2 or pno + 1 == last:
                last_report[0] = now
                self.emit({"type": "progress", "task": self.task_id, "done": len(out)})

        engine = ing.ocr if ing.settings.ocr_figures else None
        queue = FigureOcrQueue(
            engine, self.catalog, ing.images, collect, warn=lambda m: self.warn(f"{path.name}: {m}"),
            vector=ing.settings.ocr_vector_figures,
        )
        try:
            for pno in range(first, last):
                parsed = ing._parse_page(pdf, pno, doc_id, path.name, running)
                queue.add(parsed.elements, (pno, parsed))
            queue.finish()
        finally:
            queue.close()
        return out


def _released_rss() -> float:
    """RSS after giving back what the task freed (MuPDF's store, glibc's free pages): what the
    executor compares with ``ingest.worker_max_rss_mb``."""
    from pagelens import memory

    memory.release()
    return rss_mb()


def main() -> None:
    from pagelens import memory, pdf_layout_import

    pdf_layout_import.defer()  # before the parser imports pymupdf: layout models load on first use
    memory.limit_arenas()  # before any thread starts (the figure-OCR thread, onnxruntime's pool)
    out = os.fdopen(int(sys.argv[1]), "w", encoding="utf-8")
    sys.stdout = sys.stderr  # print() from any library goes to the log, never to the event pipe
    init = json.loads(sys.stdin.readline())
    worker = Worker(Settings(**init["settings"]), out)
    worker.emit({"type": "ready"})
    try:
        for line in sys.stdin:
            if line.strip():
                worker.run(json.loads(line))
    finally:
        worker.catalog.close()


if __name__ == "__main__":
    main()
