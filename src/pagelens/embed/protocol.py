"""Embedding contracts: text embedders (dense) and image embedders (CLIP-style)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class TextEmbedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of size ``dim``."""

    name: str
    dim: int
    max_tokens: int  # the model truncates beyond this many tokens

    def embed(self, texts: list[str]) -> np.ndarray:
        """(len(texts), dim) float32, rows L2-normalised. Used for documents and queries alike."""
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens the model would see for ``text`` (used to size chunks)."""
        ...


@runtime_checkable
class ImageEmbedder(Protocol):
    """A joint image/text space (CLIP): figures are embedded as images, queries as text."""

    name: str
    dim: int

    def embed_images(self, pngs: list[bytes]) -> np.ndarray: ...

    def embed_texts(self, texts: list[str]) -> np.ndarray: ...
