"""RapidOCR adapter (extra: ``pip install 'pagelens[rapidocr]'``): PaddleOCR models on onnxruntime.

The package ships its models (Chinese + English), so it works offline; it tends to drop the spaces
between English words (see NOTES.md), which is why it comes last in 'auto'.
"""

from __future__ import annotations

from typing import Any

from pagelens.errors import ComponentUnavailable, PagelensError
from pagelens.ocr.lines import group_runs
from pagelens.ocr.protocol import OcrLine

INSTALL_HINT = "pip install 'pagelens[rapidocr]'"


class RapidOcrEngine:
    """``rapidocr_onnxruntime.RapidOCR``; ``languages`` only labels the cache (the models are fixed)."""

    name = "rapidocr"
    supports_sparse = False

    def __init__(self, languages: str = "eng") -> None:
        try:
            from rapidocr_onnxruntime import RapidOCR
        except ImportError as exc:
            raise ComponentUnavailable("rapidocr", f"cannot import rapidocr_onnxruntime ({exc})", INSTALL_HINT) from exc
        try:
            self._ocr: Any = RapidOCR()
        except Exception as exc:  # model files missing or onnxruntime refusing them
            raise ComponentUnavailable("rapidocr", f"cannot load its models: {exc}", INSTALL_HINT) from exc
        self.languages = languages
        self.cache_id = f"rapidocr {_version()} {languages}"

    def recognize(self, png: bytes, *, sparse: bool = False) -> list[OcrLine]:
        """``RapidOCR()(img)`` returns ``(result, elapse)``, result = [[box, text, score], ...] or None."""
        try:
            result, _elapse = self._ocr(png)
        except Exception as exc:  # translate the library's errors at the boundary
            raise PagelensError(f"rapidocr failed: {type(exc).__name__}: {exc}") from exc
        if not result:
            return []
        return group_runs((box, text, float(score)) for box, text, score in result)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rapidocr-onnxruntime")
    except PackageNotFoundError:
        return "?"
