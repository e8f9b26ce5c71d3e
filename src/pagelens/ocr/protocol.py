"""The OCR contract: an engine turns a PNG image into words/lines with boxes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class OcrWord:
    """One recognised word of a line; bbox in the image's pixel coordinates, confidence 0..1."""

    text: str
    bbox: tuple[float, float, float, float]
    confidence: float = 1.0


@dataclass(frozen=True)
class OcrLine:
    """A block/line of recognised text; bbox in the image's pixel coordinates.

    ``words``: the line's words with their own boxes, left to right, where the engine gives them
    (Tesseract does; the columns of a scanned table or form are the gaps between them). Empty when not."""

    text: str
    bbox: tuple[float, float, float, float]
    confidence: float = 1.0
    block: int = 0
    words: tuple[OcrWord, ...] = ()


@runtime_checkable
class OcrEngine(Protocol):
    """Recognises text in an image. ``name`` identifies the engine in caches and reports."""

    name: str

    def recognize(self, png: bytes) -> list[OcrLine]:
        """Lines of text in reading order with pixel boxes."""
        ...
