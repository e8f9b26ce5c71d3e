"""Figure OCR on a worker thread, so Tesseract (a subprocess) uses the second core while the main
thread goes on parsing pages.

Pages wait in a short queue until their figures are read, then are written in page order; the queue
is bounded so memory stays flat in page count. Results are cached per (figure image, engine) in the
catalog by the main thread only (the worker never touches the catalog); each is committed at once, so
a crash later in the document keeps them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from pagelens.errors import PagelensError
from pagelens.ingest.ocr_page import apply_figure_text, figures_to_read, read_figure
from pagelens.models import Element
from pagelens.ocr.cache import engine_cache_id
from pagelens.store.catalog import CatalogStore
from pagelens.store.images import ImageStore

NAMESPACE = "ocr-figure"
MAX_PENDING_PAGES = 8


@dataclass
class _Pending:
    payload: object
    jobs: list[tuple[Element, str, Future[str] | str]] = field(default_factory=list)

    def ready(self) -> bool:
        return all(not isinstance(job, Future) or job.done() for _, _, job in self.jobs)


class FigureOcrQueue:
    """``add(elements, payload)`` per page in order; ``emit(payload)`` is called in the same order
    once that page's figures have their text."""

    def __init__(
        self,
        engine: object | None,
        catalog: CatalogStore,
        images: ImageStore,
        emit: Callable[[object], None],
        warn: Callable[[str], None],
        vector: bool = False,
    ) -> None:
        self.vector = vector
        self.engine = getattr(engine, "engine", engine)  # the raw engine: the cache is handled here
        self.cache_id = engine_cache_id(engine) if engine is not None else ""  # type: ignore[arg-type]
        self.catalog = catalog
        self.images = images
        self.emit = emit
        self.warn = warn
        self.queue: deque[_Pending] = deque()
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pagelens-figure-ocr") if engine else None

    def add(self, elements: list[Element], payload: object) -> None:
        item = _Pending(payload)
        if self.pool is not None:
            for e in figures_to_read(elements, vector=self.vector):
                key = f"{e.figure.image}|{self.cache_id}"  # type: ignore[union-attr]
                cached = self.catalog.cache_get(NAMESPACE, key)
                job: Future[str] | str
                if isinstance(cached, str):
                    job = cached
                else:
                    job = self.pool.submit(self._read, e.figure.image)  # type: ignore[union-attr]
                item.jobs.append((e, key, job))
        self.queue.append(item)
        self._drain(block=len(self.queue) > MAX_PENDING_PAGES)

    def finish(self) -> None:
        """Wait for every queued page and emit it."""
        while self.queue:
            self._drain(block=True)
        self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def _read(self, image_sha: str) -> str:
        return read_figure(self.engine, self.images.get(image_sha))

    def _drain(self, block: bool) -> None:
        while self.queue and (block or self.queue[0].ready()):
            item = self.queue.popleft()
            for e, key, job in item.jobs:
                if isinstance(job, str):
                    text = job
                else:
                    try:
                        text = job.result()
                    except (PagelensError, OSError, ValueError) as exc:
                        self.warn(f"page {e.page}: ocr: figure {e.figure.image[:12]}: {exc}")  # type: ignore[union-attr]
                        continue
                    self.catalog.cache_put(NAMESPACE, key, text)
                apply_figure_text(e, text)
            self.emit(item.payload)
            block = False
