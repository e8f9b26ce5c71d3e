"""Spreading the top k: a page counts once, and every document a question names gets a place.

Both work on the retriever's fused candidates (anything with ``.chunk`` and a ``.merged`` list) and
keep their relative order otherwise; both are pure functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

C = TypeVar("C", bound=Any)


def page_key(candidate: Any) -> tuple[str, int]:
    return (candidate.chunk.doc_id, candidate.chunk.page)


def merge_pages(candidates: Sequence[C]) -> list[C]:
    """One candidate per page (its document and first page): the best-ranked chunk of a page stays in
    place and carries the page's later chunks in ``merged`` (in rank order), which leave the list."""
    kept: dict[tuple[str, int], C] = {}
    out: list[C] = []
    for c in candidates:
        key = page_key(c)
        best = kept.get(key)
        if best is None:
            kept[key] = c
            out.append(c)
        else:
            best.merged.append(c)
    return out


def cover_documents(ordered: Sequence[C], k: int, docs: Sequence[str]) -> list[C]:
    """Make sure each of ``docs`` has a candidate in the top ``k`` (when it has one at all): its best
    candidate below the top k moves up, displacing the lowest candidate of a document that has
    more than one place there."""
    out = list(ordered)
    for doc in docs:
        top = out[:k]
        if any(c.chunk.doc_id == doc for c in top):
            continue
        best = next((c for c in out[k:] if c.chunk.doc_id == doc), None)
        if best is None:
            continue
        counts: dict[str, int] = {}
        for c in top:
            counts[c.chunk.doc_id] = counts.get(c.chunk.doc_id, 0) + 1
        victim = next((c for c in reversed(top) if counts[c.chunk.doc_id] > 1), None)
        if victim is None:
            continue
        out.remove(best)
        at = out.index(victim)
        out.insert(at, best)  # takes the victim's place; the victim drops to k + 1
    return out
