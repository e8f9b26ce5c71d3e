"""Page evidence: which of the best-ranked pages holds what the question asks (a pure function).

Works on the retriever's candidates after page merging (``pagelens.retrieve.diversity``): one
candidate per page, its best chunk carrying the page's other pooled chunks in ``merged``.

Fusion ranks chunks; a page is credited with its best chunk only. Within one long document the first
pages are then often separated by a few thousandths of a fused score, decided by which single chunk
happened to rank a few places better in one channel, while the page that holds *all* the asked terms
(the row, its column header and the period; the setting, its default and the method) ranks second.
This step adds to each of the first ``depth`` pages a bonus for its coverage of the question's
terms, weighted by how rare each term is among those pages:

    w(t)        = log(1 + P / df(t))       df: how many of the P head pages hold t
    coverage(p) = Σ_{t ∈ q ∩ p} w(t) / Σ_{t ∈ q} w(t)
    bonus(p)    = weight / (rrf_k + 1) · coverage(p)        weight: retrieval.page_coverage (0.5)

A page's terms are those of its pooled chunks (the best one and the merged ones); the question's
terms are its BM25 terms without the words that named its documents (routing's identity terms,
except periods and other terms with digits — "2Q22", "2009" head a report's columns — and every
word of the file names: they say which document, never which page, and would lift the cover that
repeats them), and without "how much / how many". A term on every head page weighs least; a term
on one page most. The bonus is worth a fraction of one first place in one channel, so it reorders near ties and leaves
clear fusion wins alone. The question's own words only: nothing is fitted to a corpus.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pagelens.index.bm25 import tokenize

C = TypeVar("C", bound=Any)

COVERAGE_WEIGHT = 0.5
"""The bonus of a page holding every asked term, in first places of a weight-1 channel (the default
of ``retrieval.page_coverage``). Dev questions (70, one index, no filter), hit@1: 0 -> 0.87,
0.25 -> 0.87, 0.35 -> 0.90, 0.5 -> 0.93, 0.75 and 1.0 -> 0.91; hit@5 0.97 throughout."""
DEPTH = 10
"""Pages (after merging) whose coverage is compared."""
KEEP_PERIODS = True
"""Naming terms with a digit (periods) still count: within a report they head the columns."""
NOISE = frozenset({"much", "mani"})
"""Stemmed quantity words of "how much / how many": on no answering page as such."""


def page_terms(candidate: Any) -> set[str]:
    """The BM25 terms of a candidate's chunks. Each distinct whitespace-separated word is tokenized
    once (the tokenizer never joins across whitespace, so the set of terms is the same)."""
    words: set[str] = set()
    for c in (candidate.chunk, *(m.chunk for m in candidate.merged)):
        words.update(c.text.split())
    return set(tokenize(" ".join(words)))


def coverage(query_terms: set[str], pages: Sequence[set[str]]) -> list[float]:
    """Each page's IDF-weighted share of ``query_terms`` (IDF over ``pages`` themselves)."""
    n = len(pages)
    if not query_terms or not n:
        return [0.0] * n
    weights = {}
    for t in query_terms:
        df = sum(t in p for p in pages)
        weights[t] = math.log(1.0 + n / max(df, 1))
    total = sum(weights.values())
    return [sum(w for t, w in weights.items() if t in p) / total for p in pages]


def rescore(
    candidates: Sequence[C], query: str, rrf_k: int, *, skip: Iterable[str] = (),
    weight: float = COVERAGE_WEIGHT, depth: int = DEPTH,
) -> list[C]:
    """``candidates`` with the first ``depth`` reordered by fused score plus coverage bonus (stable:
    ties keep their order); the rest follow unchanged. ``skip``: the words that named the documents
    (routing): they do not count unless they hold a digit; the words of the head's file names never
    count (digits included: "2009" in "acme-2009.pdf"). Each head candidate records ``coverage``
    in its channels."""
    if weight <= 0 or len(candidates) < 2:
        return list(candidates)
    head, tail = list(candidates[:depth]), list(candidates[depth:])
    names = set().union(*(tokenize(Path(c.chunk.doc_name).stem) for c in head))
    skip = {t for t in skip if not (KEEP_PERIODS and any(ch.isdigit() for ch in t))}
    terms = set(tokenize(query)) - skip - names - NOISE
    cov = coverage(terms, [page_terms(c) for c in head])
    unit = weight / (rrf_k + 1)
    scored = []
    for i, (c, v) in enumerate(zip(head, cov, strict=True)):
        c.channels["coverage"] = round(v, 4)
        scored.append((c.fused + unit * v, -i, c))
    scored.sort(key=lambda s: (-s[0], -s[1]))
    return [c for _, _, c in scored] + tail
