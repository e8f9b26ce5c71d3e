"""A top k that covers every part of a question and every document it spans (pure functions).

Works on the retriever's candidates (anything with ``.chunk``, ``.merged``, ``.fused``, ``.channels``
and ``.parts``), after page merging (``pagelens.retrieve.diversity``): one candidate per page.

* :func:`representative` picks a part's best evidence in its own ranking: the best-ranked page among
  the first ``REP_DEPTH`` that holds one of the part's own words (a page that ranks well for the
  words all parts share — a cover, a contents page — is evidence for none of them); for a part told
  apart only by the document it names (a period), its best page in that document.
* :func:`cover_parts` puts each part's representative into the top k, at the place its score in its
  own part's ranking earns there, and fills the rest of the top k in the question's fused order
  (a document that must stay covered keeps its place). Everything else keeps the fused order.
* :func:`implied_documents` finds the documents a question spans without naming them: those the
  routing of its parts names, then those of the best-ranked pages outside the named documents.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from pagelens.index.bm25 import tokenize
from pagelens.retrieve.diversity import page_key

C = TypeVar("C", bound=Any)

REP_DEPTH = 10
"""How deep in a part's own ranking its best evidence is looked for."""
IMPLIED_DEPTH = 10
"""How deep in a ranking a page of an unnamed document may be to count as the document implied."""


def _terms(candidate: Any) -> set[str]:
    chunks = [candidate.chunk, *(m.chunk for m in candidate.merged)]
    return set().union(*(tokenize(c.text) for c in chunks))


def representative(
    ranking: Sequence[C], own_terms: set[str], docs: Sequence[str] = (), depth: int = REP_DEPTH,
) -> C | None:
    """The best-ranked of the first ``depth`` candidates of ``docs`` (any document when empty) holding
    one of ``own_terms``; for a part without words of its own but its documents' names (a period:
    "fiscal 2017" beside "fiscal 2018"), which its ``docs`` then tell apart, the best-ranked of them.
    None: no candidate qualifies."""
    head = [c for c in ranking[:depth] if not docs or c.chunk.doc_id in docs]
    if own_terms:
        return next((c for c in head if _terms(c) & own_terms), None)
    return head[0] if head else None


def cover_parts(
    ordered: Sequence[C], k: int, reps: Sequence[tuple[str, C]], keep_docs: Sequence[str] = (),
) -> list[C]:
    """``ordered`` with each representative (``(part label, candidate of that part's ranking)``) in
    the top ``k``; ``keep_docs``: documents that keep a place in the top k when they had one.

    A representative whose page is in ``ordered`` is that candidate (its channels from the
    question's own retrieval); one from beyond it joins as the part's candidate. Each records the
    labels of the parts it represents in ``parts`` and scores the better of its fused score and its
    part's. The top k: the representatives, filled by ``ordered`` (the question's fused order), each
    representative placed before the first filler it outscores; the rest follows in order."""
    by_key = {page_key(c): c for c in ordered}
    chosen: list[C] = []
    for label, rep in reps:
        c = by_key.setdefault(page_key(rep), rep)
        if label not in c.parts:
            c.parts.append(label)
        c.fused = max(c.fused, rep.fused)
        if all(c is not x for x in chosen):
            chosen.append(c)
    if not chosen:
        return list(ordered)
    chosen = sorted(chosen, key=lambda c: -c.fused)[:k]
    rest = [c for c in ordered if all(c is not x for x in chosen)]
    fill = _fill(rest, k - len(chosen), keep_docs, chosen)
    top = list(fill)
    for c in chosen:
        at = next((i for i, x in enumerate(top) if not x.parts and x.fused < c.fused), len(top))
        top.insert(at, c)
    return top + [c for c in rest if all(c is not x for x in fill)]


def _fill(rest: Sequence[C], n: int, keep_docs: Sequence[str], chosen: Sequence[C]) -> list[C]:
    """The first ``n`` of ``rest``; each of ``keep_docs`` that had a place among the first
    ``n + len(chosen)`` keeps one (here or among ``chosen``), taking the place of the lowest filler
    of a document that has another place."""
    fill = list(rest[:n])
    before = rest[: n + len(chosen)]
    for doc in keep_docs:
        if any(c.chunk.doc_id == doc for c in [*chosen, *fill]):
            continue
        best = next((c for c in before if c.chunk.doc_id == doc), None)
        if best is None:
            continue
        docs = [c.chunk.doc_id for c in [*chosen, *fill]]
        victim = next((c for c in reversed(fill) if docs.count(c.chunk.doc_id) > 1), None)
        if victim is not None:
            fill[fill.index(victim)] = best
    order = {id(c): i for i, c in enumerate(rest)}
    return sorted(fill, key=lambda c: order[id(c)])


def implied_documents(
    named: Sequence[str], routed: Sequence[Sequence[str]], rankings: Sequence[Sequence[Any]], want: int,
    depth: int = IMPLIED_DEPTH,
) -> list[str]:
    """Documents beyond ``named`` up to ``want`` in all: first those the parts' routings name
    (``routed``: per part, its documents strongest first), then the document of the best-ranked
    page outside the documents so far in each ranking (``rankings``: the question's, then each part's),
    the best-ranked first."""
    have = list(named)
    for docs in routed:
        for d in docs:
            if len(have) >= want:
                return have[len(named):]
            if d not in have:
                have.append(d)
    best: dict[str, int] = {}
    for ranking in rankings:
        for pos, c in enumerate(ranking[:depth]):
            d = c.chunk.doc_id
            if d not in have:
                best[d] = min(best.get(d, pos), pos)
    for d, _ in sorted(best.items(), key=lambda kv: kv[1]):
        if len(have) >= want:
            break
        have.append(d)
    return have[len(named):]
