"""Exceptions raised by pagelens.

    PagelensError
    ├── ConfigError              bad or inconsistent settings
    ├── DocumentError            a file could not be ingested (carries file, page, stage)
    │   ├── NotAPdfError         not a PDF at all / unreadable file
    │   ├── EncryptedPdfError    needs a password
    │   ├── CorruptPdfError      damaged, truncated, or zero pages
    │   └── PageError            one page failed (the rest of the document is kept)
    ├── NotFoundError            unknown document / element
    ├── StoreError               catalog or image store problem
    │   └── HomeLockedError      another process owns the data home (its vector index or catalog lock)
    ├── IndexError_              vector index problem (named so as not to shadow the builtin)
    ├── ComponentUnavailable     an optional component (OCR engine, CLIP, reranker) cannot run
    └── LLMError                 the language model endpoint failed after retries and fallbacks

Every message is one line that names what failed: the file, the page and the stage where known.
Third-party exceptions are translated into these at the boundary where they occur.
"""

from __future__ import annotations

from pathlib import Path


class PagelensError(Exception):
    """Base of all pagelens errors."""


class ConfigError(PagelensError):
    pass


class DocumentError(PagelensError):
    """A document (or part of it) could not be processed."""

    def __init__(
        self, reason: str, *, file: str | Path | None = None, page: int | None = None, stage: str = "open"
    ) -> None:
        self.reason = reason
        self.file = str(file) if file is not None else None
        self.page = page
        self.stage = stage
        super().__init__(self._line())

    def _line(self) -> str:
        where = []
        if self.file:
            where.append(Path(self.file).name)
        if self.page is not None:
            where.append(f"page {self.page}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.stage}: {self.reason}" if prefix else f"{self.stage}: {self.reason}"


class NotAPdfError(DocumentError):
    pass


class EncryptedPdfError(DocumentError):
    pass


class CorruptPdfError(DocumentError):
    pass


class PageError(DocumentError):
    pass


class NotFoundError(PagelensError):
    pass


class StoreError(PagelensError):
    pass


class HomeLockedError(StoreError):
    pass


class IndexError_(PagelensError):
    pass


class ComponentUnavailable(PagelensError):
    """An optional component cannot run; the message says how to enable it."""

    def __init__(self, component: str, reason: str, fix: str | None = None) -> None:
        self.component = component
        self.reason = reason
        self.fix = fix
        msg = f"{component} unavailable: {reason}"
        if fix:
            msg += f" ({fix})"
        super().__init__(msg)


class LLMError(PagelensError):
    pass
