"""Giving memory back between documents in long-lived ingest processes.

Two things hold on to memory that Python has already freed, so resident memory climbs with every
document of a long ingest even when nothing leaks:

* MuPDF's resource store (fonts, images, display lists) is sized for a whole document and kept after
  it is closed: :func:`release` empties it (``pymupdf.TOOLS.store_shrink(100)``).
* glibc's allocator keeps freed pages in per-thread arenas (the parent's embedder thread, one reader
  thread per parser process, the figure-OCR thread): :func:`limit_arenas` caps their number
  (``mallopt(M_ARENA_MAX)``, the same as ``MALLOC_ARENA_MAX``) and :func:`release` returns free
  pages to the system (``malloc_trim(0)``). Both are no-ops where glibc is not the allocator.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache
from typing import Any

M_ARENA_MAX = -8  # glibc's mallopt parameter number
ARENAS = 2
"""Arenas per ingest process: one for the main thread, one shared by the others."""


@cache
def _libc() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Cap glibc's malloc arenas for threads started from now on; False where not possible."""
    libc = _libc()
    return bool(libc and libc.mallopt(M_ARENA_MAX, int(arenas)))


def release() -> None:
    """Return memory freed by the last document to the system (MuPDF's store, glibc's free pages)."""
    mupdf = sys.modules.get("pymupdf")
    if mupdf is not None:
        try:
            mupdf.TOOLS.store_shrink(100)
        except Exception:  # noqa: BLE001 - a cache trim must never fail an ingest
            pass
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
