"""Rank fusion as small pure functions.

Reciprocal rank fusion (RRF): Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms
Condorcet and individual Rank Learning Methods", SIGIR 2009. A document's fused score is

    score(d) = Σ_channels  w_c / (k + rank_c(d))

with 1-based ranks; documents a channel did not return contribute nothing for that channel. The
paper's constant is k = 60: it damps the influence of the very top ranks so that one channel's
first place cannot outvote agreement between several channels.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

RRF_K = 60
"""The constant from Cormack et al. (2009)."""


@dataclass
class Fused:
    """One fused result: its id, RRF score and the 1-based rank it had in each channel."""

    id: str
    score: float
    ranks: dict[str, int] = field(default_factory=dict)

    @property
    def best_rank(self) -> int:
        return min(self.ranks.values()) if self.ranks else 0


def fuse(
    rankings: Mapping[str, Sequence[str]],
    k: int = RRF_K,
    weights: Mapping[str, float] | None = None,
) -> list[Fused]:
    """RRF over named rankings (best first), with per-channel ranks kept.

    An id repeated within one ranking counts at its first (best) position. Channels missing from
    ``weights`` get weight 1.0. Ties in score are broken by the best single-channel rank, then by
    the order channels are given in, then by the id, so the output is deterministic.
    """
    if k < 0:
        raise ValueError(f"RRF constant k must be >= 0, got {k}")
    weights = weights or {}
    out: dict[str, Fused] = {}
    first_seen: dict[str, tuple[int, int]] = {}
    for ci, (channel, ranking) in enumerate(rankings.items()):
        w = float(weights.get(channel, 1.0))
        for pos, doc in enumerate(ranking):
            item = out.get(doc)
            if item is None:
                item = out[doc] = Fused(doc, 0.0)
                first_seen[doc] = (pos, ci)
            if channel in item.ranks:
                continue
            rank = pos + 1
            item.ranks[channel] = rank
            item.score += w / (k + rank)
    return sorted(out.values(), key=lambda f: (-f.score, f.best_rank, first_seen[f.id][1], f.id))


def fuse_ranks(
    ranks: Mapping[str, Mapping[str, int]],
    k: int = RRF_K,
    weights: Mapping[str, float] | None = None,
) -> list[Fused]:
    """RRF over ``{channel: {id: 1-based rank}}`` — for rankings that were edited after the engine
    returned them (two ids may then share a rank). Same score, weights and order as :func:`fuse`."""
    if k < 0:
        raise ValueError(f"RRF constant k must be >= 0, got {k}")
    weights = weights or {}
    out: dict[str, Fused] = {}
    order: dict[str, tuple[int, int]] = {}
    for ci, (channel, ranked) in enumerate(ranks.items()):
        w = float(weights.get(channel, 1.0))
        for doc, rank in ranked.items():
            item = out.setdefault(doc, Fused(doc, 0.0))
            order.setdefault(doc, (ci, rank))
            item.ranks[channel] = rank
            item.score += w / (k + rank)
    return sorted(out.values(), key=lambda f: (-f.score, f.best_rank, order[f.id][0], f.id))


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[str]],
    k: int = RRF_K,
    weights: Mapping[str, float] | None = None,
) -> list[tuple[str, float]]:
    """``[(id, fused score), ...]`` best first; see :func:`fuse` for ties and weights."""
    return [(f.id, f.score) for f in fuse(rankings, k=k, weights=weights)]


def channel_ranks(rankings: Mapping[str, Sequence[str]]) -> dict[str, dict[str, int]]:
    """``{id: {channel: 1-based rank}}`` for every id any channel returned."""
    out: dict[str, dict[str, int]] = {}
    for channel, ranking in rankings.items():
        for pos, doc in enumerate(ranking):
            out.setdefault(doc, {}).setdefault(channel, pos + 1)
    return out


def scoped_ranks(
    over_all: Mapping[str, int], within: Mapping[str, int], in_scope: Callable[[str], bool]
) -> dict[str, int]:
    """One channel's ranks when some documents were searched once more on their own (document routing,
    ``pagelens.retrieve.routing``): an id of those documents (``in_scope``) takes its rank from the
    search within them and from nowhere else; every other id keeps its rank over all documents.

    The search within is asked without the words that named the documents; the search over all
    documents is asked with them, and there they pull up whatever repeats the document's identity (its
    metadata record, cover, title slide, running headers) above the page that answers. A document's
    name is credited once, by the routing prior given to all its chunks, not again by those chunks'
    places over all documents — so a chunk of a named document that the search within does not return
    has no place in that channel at all."""
    out = {doc: rank for doc, rank in over_all.items() if not in_scope(doc)}
    out.update(within)
    return out


def lent_ranks(
    within: Mapping[str, Mapping[str, int]], depth: int, channels: Sequence[str] = ("dense", "sparse"),
) -> dict[str, dict[str, int]]:
    """Places lent between ``channels`` searched within the named documents (``{channel: {id: rank}}``,
    the searches within of :func:`scoped_ranks`, each ``depth`` deep). A channel that returns nothing at
    all within them, where another of them does, cannot see those documents (BM25 with the question's
    English words over a Portuguese bill, over a scan without text). Fusion would count their chunks
    as last in it, worth nothing, so a named document that one channel alone can find loses to any page
    of another document that both channels found, the name notwithstanding. The blind channel does not
    know where they belong; they take the places just past its depth, in the other channel's order
    (``depth + rank``): never ahead of anything the channel did rank, yet not nowhere. (Lending the
    other channel's ranks as they are, as though both had agreed, lifts the named document past pages
    the blind channel ranked, and cost a page at rank 1 elsewhere.) A channel that finds any of the
    named documents has said something of the others and lends nothing. Returns ``{channel: {id:
    place}}`` to add to each blind channel."""
    seeing = [c for c in channels if within.get(c)]
    if not seeing:
        return {}
    return {c: {i: depth + r for i, r in within[seeing[0]].items()} for c in channels if c in within and not within[c]}
