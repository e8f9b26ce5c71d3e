"""A deterministic, dependency-free text embedder for tests of other components.

``HashingEmbedder`` is the feature-hashing trick (Weinberger et al. 2009, "Feature Hashing for Large
Scale Multitask Learning"): every lowercased word lands in one of ``dim`` buckets with a sign, both
taken from a stable hash, and the bag is L2-normalised. Texts that share words have positive cosine
similarity, so retrieval tests can assert real rankings without loading a model.
"""

from __future__ import annotations

import hashlib
import re

import numpy as np

_WORD = re.compile(r"\w+")
_EMPTY_TOKEN = "\x00empty"  # where texts without words land, so every row can be normalised


def _bucket(token: str, dim: int) -> tuple[int, float]:
    digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dim, (1.0 if (value >> 63) & 1 else -1.0)


class HashingEmbedder:
    """Bag-of-words hashing embedder: same text, same vector, on every machine and Python run."""

    def __init__(self, dim: int = 64, max_tokens: int = 512) -> None:
        if dim < 2:
            raise ValueError(f"HashingEmbedder dim must be at least 2, got {dim}")
        self.dim = dim
        self.max_tokens = max_tokens
        self.name = f"hashing-{dim}"

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            tokens = _WORD.findall(text.lower()) or [_EMPTY_TOKEN]
            for token in tokens:
                index, sign = _bucket(token, self.dim)
                out[row, index] += sign
            norm = float(np.linalg.norm(out[row]))
            if norm == 0.0:  # every word cancelled out: fall back to the empty-text direction
                index, sign = _bucket(_EMPTY_TOKEN, self.dim)
                out[row, index], norm = sign, 1.0
            out[row] /= norm
        return out

    def count_tokens(self, text: str) -> int:
        return len(text.split())
