"""OCR results cached in the catalog, keyed by image bytes and engine identity.

Re-ingesting a changed PDF, or one whose pages render to the same images, reuses earlier OCR: the
key is sha256(PNG) + the engine's ``cache_id`` (engine, version, languages) + the segmentation mode.
Each line is stored with its words (text, box, confidence); a line stored before words were kept (four
fields) makes the entry stale, and the image is read again.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pagelens.ocr.protocol import OcrEngine, OcrLine, OcrWord

NAMESPACE = "ocr"


def engine_cache_id(engine: OcrEngine) -> str:
    """What distinguishes one engine configuration's output from another's."""
    return str(getattr(engine, "cache_id", engine.name))


def supports_sparse(engine: OcrEngine) -> bool:
    """Whether ``engine.recognize`` takes ``sparse=True`` (sparse-text mode for charts and maps)."""
    return bool(getattr(engine, "supports_sparse", False))


def supports_block(engine: OcrEngine) -> bool:
    """Whether ``engine.recognize`` takes ``block=True`` (the image read as one uniform block of text)."""
    return bool(getattr(engine, "supports_block", False))


def recognize(engine: OcrEngine, png: bytes, *, sparse: bool = False, block: bool = False) -> list[OcrLine]:
    """Call any engine, passing ``sparse`` / ``block`` only to engines that advertise them."""
    if sparse and supports_sparse(engine):
        return engine.recognize(png, sparse=True)  # type: ignore[call-arg]
    if block and supports_block(engine):
        return engine.recognize(png, block=True)  # type: ignore[call-arg]
    return engine.recognize(png)


class CachedOcrEngine:
    """Wraps an engine; looks results up in ``catalog`` before running it.

    Each result is committed as soon as it is made (the ingest pipeline holds no transaction while
    it parses), so a crash on page 499 of a scan keeps the OCR of pages 1-498 for the next run.
    """

    def __init__(self, engine: OcrEngine, catalog: Any) -> None:
        self.engine = engine
        self.catalog = catalog
        self.name = engine.name
        self.cache_id = engine_cache_id(engine)
        self.supports_sparse = supports_sparse(engine)
        self.supports_block = supports_block(engine)
        self.hits = 0
        self.misses = 0

    def key(self, png: bytes, sparse: bool = False, block: bool = False) -> str:
        mode = "sparse" if sparse and self.supports_sparse else "block" if block and self.supports_block else "page"
        return f"{hashlib.sha256(png).hexdigest()}|{self.cache_id}|{mode}"

    def recognize(self, png: bytes, *, sparse: bool = False, block: bool = False) -> list[OcrLine]:
        key = self.key(png, sparse, block)
        cached = self.catalog.cache_get(NAMESPACE, key)
        if cached is not None and all(len(row) == 5 for row in cached):
            self.hits += 1
            return [_decode(row) for row in cached]
        self.misses += 1
        lines = recognize(self.engine, png, sparse=sparse, block=block)
        self.catalog.cache_put(NAMESPACE, key, [_encode(ln) for ln in lines])
        return lines


def _encode(ln: OcrLine) -> list[Any]:
    return [ln.text, list(ln.bbox), ln.confidence, ln.block, [[w.text, list(w.bbox), w.confidence] for w in ln.words]]


def _box(b: list[Any]) -> tuple[float, float, float, float]:
    return (float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def _decode(row: list[Any]) -> OcrLine:
    text, bbox, conf, block, words = row
    kept = tuple(OcrWord(str(w[0]), _box(w[1]), float(w[2])) for w in words)
    return OcrLine(str(text), _box(bbox), float(conf), int(block), kept)
