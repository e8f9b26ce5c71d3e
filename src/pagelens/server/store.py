"""The vector store as the server holds it: opened on first use, and ``optimize`` deferred.

qdrant-edge's ``optimize()`` (building HNSW graphs once a collection outgrows plain segments, ~20k
chunks) holds the GIL for its whole run: measured here, 48 s for 25,000 384-d points, during which no
other thread of the process ran — no search, no event loop. The coordinator asks for it after each
ingest run, which is right for `pagelens ingest` but would freeze a server. So the server remembers
the request and optimizes when it stops; until then new points are searched by exact scan (~1 ms per
10k chunks, see PLAIN_SEGMENT_KB in vectors/edge.py).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger("pagelens.server")


class ServerStore:
    """Delegates every call to the real store except ``optimize``, which is deferred to ``close``."""

    def __init__(self, open_store: Callable[[], Any]) -> None:
        self._open = open_store
        self._inner: Any = None
        self._lock = threading.Lock()
        self.pending: set[str] = set()

    @property
    def inner(self) -> Any:
        if self._inner is None:
            with self._lock:
                if self._inner is None:
                    self._inner = self._open()
        return self._inner

    def optimize(self, name: str) -> bool:
        self.pending.add(name)
        return False

    def close(self, optimize: bool = True) -> None:
        if self._inner is None:
            return
        try:
            if optimize:
                for name in sorted(self.pending):
                    log.info("optimizing vector index %s before stopping", name)
                    self._inner.optimize(name)
                self.pending.clear()
        finally:
            self._inner.close()
            self._inner = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
