"""OCR engines behind one small contract (``protocol.OcrEngine``) and the factory that picks one.

    create_ocr_engine(settings, warn, catalog)  → engine or None (OCR off / nothing installed)
    ocr_status(settings)                        → (engine, available, reason) rows for `pagelens doctor`

Engines: Tesseract (default; in-process through libtesseract, else the Debian/Homebrew binary), EasyOCR
and RapidOCR (pip extras). A missing engine never stops ingestion: the factory warns once and pages
without a text layer are skipped.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

from pagelens.errors import ComponentUnavailable
from pagelens.ocr.cache import CachedOcrEngine
from pagelens.ocr.protocol import OcrEngine, OcrLine
from pagelens.settings import IngestSettings

__all__ = [
    "AUTO_ORDER", "CachedOcrEngine", "OcrEngine", "OcrLine", "build_engine", "build_tesseract", "create_ocr_engine",
    "ocr_status",
]

AUTO_ORDER = ("tesseract", "easyocr", "rapidocr")
"""Engines 'auto' tries, best English accuracy per second first (NOTES.md: CER 0.001 / 0.011 / 0.13)."""

WarnFn = Callable[[str], None]


def build_engine(name: str, settings: IngestSettings) -> OcrEngine:
    """Construct one engine by name; raises ComponentUnavailable with the install command."""
    if name == "tesseract":
        return build_tesseract(settings)
    if name == "easyocr":
        from pagelens.ocr.easyocr import EasyOcrEngine

        return EasyOcrEngine(settings.ocr_languages)
    if name == "rapidocr":
        from pagelens.ocr.rapidocr import RapidOcrEngine

        return RapidOcrEngine(settings.ocr_languages)
    raise ComponentUnavailable("ocr", f"unknown OCR engine {name!r}", f"choose one of {', '.join(AUTO_ORDER)}")


def build_tesseract(settings: IngestSettings) -> OcrEngine:
    """Tesseract in-process (libtesseract) or as a CLI process per image, as ``ocr_tesseract`` says.

    'auto' falls back to the CLI when the library cannot be loaded; a missing language is reported
    as such, not hidden by the fallback."""
    from pagelens.ocr.tesseract import TesseractOcrEngine

    mode = settings.ocr_tesseract
    if mode != "cli":
        from pagelens.ocr.tesseract_lib import TesseractLibOcrEngine, load_library

        try:
            load_library()
        except ComponentUnavailable:
            if mode == "library":
                raise
        else:
            return TesseractLibOcrEngine(settings.ocr_languages)
    return TesseractOcrEngine(settings.ocr_languages)


def create_ocr_engine(
    settings: IngestSettings, warn: WarnFn | None = None, catalog: Any = None
) -> OcrEngine | None:
    """The engine ``settings.ocr`` asks for, or None with one warning when it cannot run.

    'off' → None silently. 'auto' → the first of AUTO_ORDER that loads. With ``catalog``, the engine
    is wrapped in a CachedOcrEngine so re-ingests reuse earlier results.
    """
    choice = settings.ocr
    if choice == "off":
        return None
    names = AUTO_ORDER if choice == "auto" else (choice,)
    problems: list[str] = []
    engine: OcrEngine | None = None
    for name in names:
        try:
            engine = build_engine(name, settings)
            break
        except ComponentUnavailable as exc:
            problems.append(str(exc))
    if engine is None:
        if warn is not None:
            what = "no OCR engine available" if choice == "auto" else f"OCR engine {choice!r} unavailable"
            warn(f"{what}: {'; '.join(problems)}; pages without a text layer will not be read")
        return None
    return CachedOcrEngine(engine, catalog) if catalog is not None else engine


def ocr_status(settings: IngestSettings) -> list[tuple[str, bool, str]]:
    """(engine, available, reason) for each engine, cheap enough for `pagelens doctor`.

    Tesseract is checked fully (binary, version, language data); the pip extras are only checked for
    being importable, because loading their models takes seconds.
    """
    rows: list[tuple[str, bool, str]] = []
    try:
        t = build_tesseract(settings)
        if getattr(t, "mode", "cli") == "library":
            where = f"in-process via {t.location}"  # type: ignore[attr-defined]
        else:
            where = f"CLI at {t.cmd}"  # type: ignore[attr-defined]
            if settings.ocr_tesseract == "auto":
                where += f" ({_library_problem()})"
        rows.append(("tesseract", True, f"tesseract {t.version} {where}, languages {t.languages}"))  # type: ignore[attr-defined]
    except ComponentUnavailable as exc:
        rows.append(("tesseract", False, str(exc)))
    extras = {
        "easyocr": ("easyocr", "pip install 'pagelens[easyocr]'"),
        "rapidocr": ("rapidocr_onnxruntime", "pip install 'pagelens[rapidocr]'"),
    }
    for name, (module, hint) in extras.items():
        if importlib.util.find_spec(module) is not None:
            rows.append((name, True, f"{module} importable (models load at first use)"))
        else:
            rows.append((name, False, f"{module} not installed ({hint})"))
    return rows


def _library_problem() -> str:
    """Why 'auto' runs the Tesseract CLI: the library did not load."""
    from pagelens.ocr.tesseract_lib import load_library

    try:
        load_library()
    except ComponentUnavailable as exc:
        return f"libtesseract not used: {exc}"
    return "libtesseract loads"
