"""A bounded memo in front of the query-side embedder.

One question is embedded by the retriever, again by the extractive answerer (with its candidate
sentences) and by the answer cache; candidate sentences of often-cited pages come back question after
question. Vectors are a pure function of the text, so a small LRU saves that repeated work — for the
server's read side only (ingest batches go to the facade's embedder, uncached).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import numpy as np


class CachedEmbedder:
    """``TextEmbedder`` that remembers the last ``size`` texts' vectors."""

    def __init__(self, inner: Any, size: int = 4096) -> None:
        self.inner = inner
        self.size = size
        self._memo: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    @property
    def max_tokens(self) -> int:
        return self.inner.max_tokens

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def embed(self, texts: list[str]) -> np.ndarray:
        out: list[np.ndarray | None] = []
        with self._lock:
            for t in texts:
                v = self._memo.get(t)
                if v is not None:
                    self._memo.move_to_end(t)
                out.append(v)
        missing = sorted({t for t, v in zip(texts, out) if v is None})
        if missing:
            fresh = dict(zip(missing, np.asarray(self.inner.embed(missing), dtype=np.float32)))
            with self._lock:
                for t, v in fresh.items():
                    self._memo[t] = v
                while len(self._memo) > self.size:
                    self._memo.popitem(last=False)
            out = [fresh[t] if v is None else v for t, v in zip(texts, out)]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack(out).astype(np.float32, copy=False)  # type: ignore[arg-type]
