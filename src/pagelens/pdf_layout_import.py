"""Keep ``import pymupdf`` from loading PyMuPDF's layout models until a page needs them.

PyMuPDF 2's ``__init__`` runs ``import pymupdf.layout`` (inside ``try/except ImportError``), and that
package builds three ONNX Runtime sessions on import: measured here about 1.2 CPU-seconds and 1.5-2 s
of wall clock in every process that imports pymupdf — the CLI parent and each parser process — even on
a corpus where the page tier sends no page to the model (the dev corpus: none of its 97 pages).

:func:`defer` puts a finder first on ``sys.meta_path`` that answers "not found" for ``pymupdf.layout``
and ``pymupdf4llm`` (which PyMuPDF imports at its end; it imports the layout package again and
onnxruntime, ~0.4 s) only while PyMuPDF's own ``__init__`` is still running. PyMuPDF then starts
without the layout function, exactly as when those packages are absent (its ``pymupdf.to_markdown``
proxies say pymupdf4llm is not available; pagelens uses neither). Any later ``import pymupdf.layout``
or ``import pymupdf4llm`` — ours in
:func:`pagelens.ingest.layout_model.page_layout`, or a user's — is untouched and activates the model as
usual. ``page.get_layout()`` is the only PyMuPDF call that reads the activated function, so text,
drawings and table extraction are the same either way.
"""

from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder
from typing import Any

TARGET = "pymupdf.layout"
DEFERRED = frozenset({TARGET, "pymupdf4llm"})


class _DeferLayout(MetaPathFinder):
    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname not in DEFERRED:
            return None
        parent = sys.modules.get("pymupdf")
        if parent is not None and getattr(getattr(parent, "__spec__", None), "_initializing", False):
            raise ModuleNotFoundError(f"{fullname} deferred by pagelens until a page needs it", name=fullname)
        return None


def defer() -> None:
    """Install the finder once, unless pymupdf is imported already (then there is nothing to save)."""
    if "pymupdf" in sys.modules or any(isinstance(f, _DeferLayout) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _DeferLayout())


def layout_loaded() -> bool:
    """Whether PyMuPDF's layout models are loaded in this process."""
    return TARGET in sys.modules
