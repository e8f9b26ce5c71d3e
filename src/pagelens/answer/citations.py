"""Inline citations: parse ``[N]``, ``[N, p.X]``, ``[N,M]``, ``[N; p.X]`` and check them against the
numbered sources.

A citation whose number is not among the sources is invented: it is listed in
``Answer.invalid_citations`` and kept as a ``Citation`` with ``valid=False``. A citation naming a page
its source is not on is also marked ``valid=False`` (and points at the source's real page).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pagelens.models import Citation, SearchHit

# One bracket group holding numbers and page references, separated by commas or semicolons.
_GROUP = re.compile(
    r"\[\s*(?:source\s*)?(\d{1,3}(?:\s*[,;]\s*(?:(?:pp?\.?|pages?)\s*\d+(?:\s*[-–]\s*\d+)?|(?:source\s*)?\d{1,3}))*)\s*\]",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"(?P<page>(?:pp?\.?|pages?)\s*(?P<p>\d+))|(?P<n>\d+)", re.IGNORECASE)


def parse_citations(text: str) -> list[tuple[int, int | None]]:
    """(source number, page or None) for each citation in order of appearance, duplicates removed.

    ``[2, p.5]`` → (2, 5); ``[1,3]`` → (1, None), (3, None); ``[1, p.2; 3]`` → (1, 2), (3, None)."""
    out: list[tuple[int, int | None]] = []
    for group in _GROUP.finditer(text):
        entries: list[list[int | None]] = []
        for tok in re.split(r"[,;]", group.group(1)):
            m = _TOKEN.search(tok)
            if m is None:
                continue
            if m.group("page"):
                if entries and entries[-1][1] is None:
                    entries[-1][1] = int(m.group("p"))
                elif entries:
                    entries.append([entries[-1][0], int(m.group("p"))])
            else:
                entries.append([int(m.group("n")), None])
        for n, page in entries:
            item = (int(n), page)  # type: ignore[arg-type]
            if item not in out:
                out.append(item)
    return out


def resolve_citations(text: str, hits: Sequence[SearchHit]) -> tuple[list[Citation], list[int]]:
    """Citations for ``text`` against ``hits`` (source N is ``hits[N-1]``) and the invented numbers."""
    cited: list[Citation] = []
    invalid: list[int] = []
    seen: set[tuple[int, int]] = set()
    for n, page in parse_citations(text):
        if not 1 <= n <= len(hits):
            if n not in invalid:
                invalid.append(n)
            cited.append(Citation(n=n, doc="", doc_id="", page=page or 0, valid=False))
            continue
        chunk = hits[n - 1].chunk
        valid = page is None or page in chunk.pages
        real_page = page if valid and page is not None else chunk.page
        if (n, real_page) in seen:
            continue
        seen.add((n, real_page))
        boxes = [b for b in chunk.bboxes if b[0] == real_page] or list(chunk.bboxes)
        cited.append(Citation(n=n, doc=chunk.doc_name, doc_id=chunk.doc_id, page=real_page, bboxes=boxes, valid=valid))
    return cited, invalid


def format_citation(n: int, page: int) -> str:
    return f"[{n}, p.{page}]"
