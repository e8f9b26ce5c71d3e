"""Whether the in-process Tesseract engine can run here (libtesseract is an optional component)."""

from __future__ import annotations

import pytest

from pagelens.errors import ComponentUnavailable
from pagelens.ocr.tesseract_lib import load_library


def library_problem() -> str | None:
    """Why libtesseract cannot be loaded, or None when it can."""
    try:
        load_library()
    except ComponentUnavailable as exc:
        return str(exc)
    return None


NO_LIBRARY = library_problem()
requires_library = pytest.mark.skipif(NO_LIBRARY is not None, reason=f"libtesseract not loadable: {NO_LIBRARY}")
