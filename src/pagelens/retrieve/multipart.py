"""Questions whose evidence spans several pages or documents (``retrieval.multipart``).

The question is split into its parts (``pagelens.retrieve.parts``: coordinated asks, ranges of
periods, clauses); each part is retrieved on its own — all channels, with its own document routing,
so "… in fiscal 2017" and "… in fiscal 2018" each reach their own filing — and the top k keeps each
part's best evidence (``pagelens.retrieve.coverage``), filled by the question's fused order. A
coordination whose conjuncts all name one document ("Row and Column Access Control", a title the
routing profiles hold) is that document's name, not two asks, and is not split.

A question that spans documents ("both papers", "compared with the other report", "that optimizer's
original paper") but names fewer than two gets the documents it implies: those the routing of its
parts names, else those of the best pages outside the named ones; each named or implied document
then has a place in the top k.

A question with one part and no such cue is left exactly as the retriever ranked it. Each hit a part
chose says so (``SearchHit.parts``), and every hit carries its rank in each part's ranking
(channels ``part1.rank``, ``part2.rank``, ...).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pagelens.retrieve.coverage import cover_parts, implied_documents, representative
from pagelens.retrieve.diversity import cover_documents, page_key
from pagelens.retrieve.parts import Decomposition, Part, decompose
from pagelens.retrieve.routing import COVER_STRENGTH, Routing

_COUNT = {"two": 2, "three": 3, "four": 4}
_COUNTED = re.compile(r"\b(two|three|four)\s+(?:\w+\s+)?(?:papers|reports|documents|filings|files|articles|studies)\b", re.I)

PartSearch = Callable[[str], tuple[list[Any], "Routing | None"]]
"""Retrieves one part: its candidates (deduplicated, merged per page) and its document routing."""


@dataclass
class PartRanking:
    part: Part
    ranking: list[Any]
    routing: Routing | None


def plan(question: str, routing: Routing | None) -> Decomposition:
    """The parts of ``question``; a coordination naming a single document is not split."""
    d = decompose(question)
    if d.multi and d.parts[0].kind == "coordination" and routing is not None and _one_name(d, routing):
        d.parts = [Part(d.question, d.question, "whole")]
    return d


def _one_name(d: Decomposition, routing: Routing) -> bool:
    """Every part's own words are in the identity (name, title) of one named document."""
    own = set().union(*(d.own_terms(i) for i in range(len(d.parts))))
    return any(own <= terms for terms in routing.identity.values()) if own else False


def wanted_documents(question: str) -> int:
    """How many documents a question that spans documents asks about ("the three reports"; else two)."""
    m = _COUNTED.search(question)
    return _COUNT[m.group(1).lower()] if m else 2


def apply(
    question: str, ordered: Sequence[Any], k: int, routing: Routing | None, search_part: PartSearch,
) -> list[Any]:
    """``ordered`` (the retriever's final order) arranged so that the top ``k`` covers every part and
    every document the question spans; unchanged for a one-part question that spans no documents."""
    d = plan(question, routing)
    if not d.multi and not d.spans_documents:
        return list(ordered)
    parts = [PartRanking(p, *search_part(p.text)) for p in d.parts] if d.multi else []
    out = list(ordered)
    keep: list[str] = []
    if d.spans_documents:
        named = routing.above(COVER_STRENGTH) if routing is not None else []
        want = max(wanted_documents(question), len(named))
        routed = [pr.routing.above(COVER_STRENGTH) for pr in parts if pr.routing is not None]
        implied = implied_documents(named, routed, [out, *(pr.ranking for pr in parts)], want)
        keep = [*named, *implied]
        if len(keep) >= 2:
            out = cover_documents(out, k, keep)
    if parts:
        _note_ranks(out, parts)
        naming = set().union(*routing.identity.values()) if routing is not None and routing.identity else set()
        question_docs = keep or _strongest(routing)
        reps = []
        for i, pr in enumerate(parts):
            own = d.own_terms(i)
            # A part that names its own document (a period, an issuer) is looked for in the documents
            # its routing names; the others in the question's (anywhere when it names none). Naming
            # words say which document, never which page: they do not pick the page.
            part_docs = pr.routing.above(COVER_STRENGTH) if pr.routing is not None else []
            docs = part_docs if own & naming else question_docs
            if not docs:
                # Nothing names a document: the part's evidence comes from a document the question's
                # own top k or the part's routing points to, not from one only its words happen to match
                # ("what is that person's job title?" alone matches any résumé).
                docs = list(dict.fromkeys([*(c.chunk.doc_id for c in out[:k]), *part_docs]))
            rep = representative(pr.ranking, own - naming, docs)
            if rep is not None:
                reps.append((pr.part.label, rep))
        out = cover_parts(out, k, reps, keep or (routing.covered if routing is not None else []))
    return out


def _strongest(routing: Routing | None) -> list[str]:
    """The documents the question names most strongly (ties kept)."""
    if routing is None or not routing.strength:
        return []
    top = max(routing.strength.values())
    return [d for d, s in routing.strength.items() if s >= top - 1e-9]


def _note_ranks(out: Sequence[Any], parts: Sequence[PartRanking]) -> None:
    """Each candidate's rank in each part's ranking (channels ``part1.rank``, ...: explanations, not
    retrieval channels), a part's candidates beyond ``out`` included."""
    for i, pr in enumerate(parts, 1):
        ranks = {page_key(c): r for r, c in enumerate(pr.ranking, 1)}
        for c in [*out, *pr.ranking]:
            r = ranks.get(page_key(c))
            if r is not None:
                c.channels[f"part{i}.rank"] = float(r)

