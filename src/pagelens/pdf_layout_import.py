"""Keep ``import pymupdf`` from loading PyMuPDF's layout models until a page needs them.

PyMuPDF 2's ``__init__`` runs ``import pymupdf.layout`` (inside ``try/except ImportError``), and that
package builds three ONNX Runtime sessions on import: measured here about 1.2 CPU-seconds and 1.5-2 s
of wall clock in every process that imports pymupdf — the CLI parent and each parser process — even on
a corpus where the page tier sends no page to the model (the dev corpus: none of its 97 pages).

:func:`defer` puts a finder first on ``sys.meta_path`` that answers "not found" for ``pymupdf.layout``
and ``pymupdf4llm`` (which PyMuPDF imports at its end; it imports the layout package again and
onnxruntime, ~0.4 s) only while PyMuPDF's own ``__init__`` is still running, and in place of the layout function it
leaves a stand-in that imports the layout package (loading the models) on the first
``page.get_layout()`` — the only PyMuPDF call that reads that function, directly or through
``find_tables()``'s default ``use_layout``. So PyMuPDF behaves as before, only the models load when
first used (pagelens: on a page of the ``layout`` tier). Its ``pymupdf.to_markdown`` proxies say
pymupdf4llm is not available (pagelens uses neither); ``import pymupdf4llm`` works as usual.
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
            if fullname == "pymupdf4llm" and getattr(parent, "_get_layout", False) is None:
                parent._get_layout = _load_on_first_use  # the end of PyMuPDF's __init__: _get_layout exists
                if self._installed(fullname, path, target):
                    _pymupdf4llm_import_effects(parent)
            raise ModuleNotFoundError(f"{fullname} deferred by pagelens until a page needs it", name=fullname)
        return None


    def _installed(self, fullname: str, path: Any, target: Any) -> bool:
        for finder in sys.meta_path:
            if finder is not self and hasattr(finder, "find_spec") and finder.find_spec(fullname, path, target):
                return True
        return False


def _pymupdf4llm_import_effects(pymupdf: Any) -> None:
    """What importing pymupdf4llm 2.0 sets in MuPDF for the whole process (its helper modules do this at
    import): text extraction must stay the same as with PyMuPDF's own import of it (trailing spaces
    and character boxes depend on the quad corrections)."""
    pymupdf.TOOLS.unset_quad_corrections(True)
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)


def _load_on_first_use(*args: Any, **kwargs: Any) -> Any:
    """PyMuPDF's layout function until first called: then the real one (``pymupdf.layout.activate``)."""
    import pymupdf

    if pymupdf._get_layout is _load_on_first_use:
        pymupdf._get_layout = None  # activate() returns early while a callable is set
        import pymupdf.layout

        pymupdf.layout.activate()
    return pymupdf._get_layout(*args, **kwargs) if pymupdf._get_layout else None


def defer() -> None:
    """Install the finder once, unless pymupdf is imported already (then there is nothing to save).

    Called by the entry points of pagelens's own processes (the CLI's ``main``, a parser process, a Ray
    worker's first task), never on ``import pagelens``: a program that imports pagelens as a library
    keeps PyMuPDF's import as it is."""
    if "pymupdf" in sys.modules or any(isinstance(f, _DeferLayout) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _DeferLayout())


def layout_loaded() -> bool:
    """Whether PyMuPDF's layout models are loaded in this process."""
    return TARGET in sys.modules
