"""Opening a file as a PDF, with every failure translated into one clear DocumentError."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from pagelens.errors import CorruptPdfError, EncryptedPdfError, NotAPdfError

if TYPE_CHECKING:  # imported where a PDF is opened: the ingest's parent process only hashes files
    import pymupdf


def read_bytes(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise NotAPdfError("is a directory", file=path) from None
    except PermissionError:
        raise NotAPdfError("permission denied", file=path) from None
    except OSError as exc:
        raise NotAPdfError(f"cannot read file ({exc.strerror or exc})", file=path) from None
    if not data:
        raise CorruptPdfError("empty file (0 bytes)", file=path)
    return data


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def open_pdf(path: Path, data: bytes) -> pymupdf.Document:
    """Open PDF bytes; raise NotAPdf/Encrypted/Corrupt errors naming the file."""
    import pymupdf

    head = data[:1024]
    if b"%PDF-" not in head:
        raise NotAPdfError("not a PDF (no %PDF- header)", file=path)
    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # pymupdf raises FileDataError / RuntimeError variants
        raise CorruptPdfError(f"cannot be opened as PDF ({_short(exc)})", file=path) from None
    if doc.needs_pass:
        doc.close()
        raise EncryptedPdfError("encrypted: a password is required", file=path)
    if doc.page_count == 0:
        doc.close()
        raise CorruptPdfError("the PDF has no pages (damaged or truncated)", file=path)
    if doc.is_repaired and not _has_eof(data):
        # MuPDF rebuilt a truncated file; keep what it recovered but say so upstream.
        doc.metadata  # noqa: B018  (touch to force the xref load)
    return doc


def was_repaired(doc: pymupdf.Document) -> bool:
    return bool(getattr(doc, "is_repaired", False))


def _has_eof(data: bytes) -> bool:
    return b"%%EOF" in data[-2048:]


def _short(exc: Exception) -> str:
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return msg[:160]
