"""The fused candidate list and its ordering for the top k: one candidate per chunk, repeated chunks
and a table's redundant row groups dropped, a page's turn limited, strong figures kept in view."""

from __future__ import annotations

from dataclasses import dataclass, field

from pagelens.models import Chunk, SearchHit

TABLE_KINDS = frozenset({"table", "table_rows"})


@dataclass
class Candidate:
    chunk: Chunk
    fused: float
    channels: dict[str, float] = field(default_factory=dict)
    rerank: float | None = None
    merged: list["Candidate"] = field(default_factory=list)
    fused_rank: int = 0  # 1-based place in the fused list (a merged chunk's rank)
    parts: list[str] = field(default_factory=list)  # the question's parts this one is the best evidence for

    def hit(self, rank: int) -> SearchHit:
        return SearchHit(
            rank=rank, score=self.rerank if self.rerank is not None else self.fused, chunk=self.chunk,
            channels=self.channels, rerank_score=self.rerank,
            merged=[m.hit(m.fused_rank) for m in self.merged], parts=list(self.parts),
        )



def dedupe(candidates: list[Candidate]) -> list[Candidate]:
    """Drop repeated chunks; of a whole table and its row groups keep whichever ranked first (two
    row groups of one table hold different rows and both stay)."""
    seen: set[str] = set()
    tables: dict[str, set[str]] = {}  # table element id -> kinds kept for it
    out = []
    for c in candidates:
        if c.chunk.id in seen:
            continue
        if c.chunk.kind in TABLE_KINDS:
            kept = set().union(*(tables.get(e, set()) for e in c.chunk.element_ids))
            if (c.chunk.kind == "table" and kept) or (c.chunk.kind == "table_rows" and "table" in kept):
                continue
            for e in c.chunk.element_ids:
                tables.setdefault(e, set()).add(c.chunk.kind)
        seen.add(c.chunk.id)
        out.append(c)
    return out


def arrange(candidates: list[Candidate], k: int, per_page: int, image_slots: int) -> list[Candidate]:
    """Order for the top ``k``: at most ``per_page`` chunks of one page before every other page had
    its turn (0 = no limit), and up to ``image_slots`` well-ranked figures kept in view."""
    ordered = candidates
    if per_page > 0:
        head: list[Candidate] = []
        later: list[Candidate] = []
        used: dict[tuple[str, int], int] = {}
        for c in ordered:
            keys = [(c.chunk.doc_id, p) for p in c.chunk.pages]
            if all(used.get(key, 0) >= per_page for key in keys):
                later.append(c)
                continue
            for key in keys:
                used[key] = used.get(key, 0) + 1
            head.append(c)
        ordered = head + later
    if image_slots > 0:
        ordered = keep_figures(ordered, k, image_slots)
    return ordered


FIGURE_DEPTH = 3
"""A figure may take a reserved slot only if it ranked within the first FIGURE_DEPTH * k ..."""
FIGURE_CHANNEL_TOP = 1
"""... and was among the first FIGURE_CHANNEL_TOP of a figure-only channel (caption or image)."""
FIGURE_CHANNELS = ("caption", "image")


def _strong_figure(c: Candidate) -> bool:
    if c.chunk.kind != "figure":
        return False
    ranks = [c.channels.get(f"{ch}_rank") for ch in FIGURE_CHANNELS]
    return any(r is not None and r <= FIGURE_CHANNEL_TOP for r in ranks)


def keep_figures(ordered: list[Candidate], k: int, slots: int) -> list[Candidate]:
    """Move up to ``slots`` strong figures (top of a figure channel) from just below the top ``k``
    into it, displacing the lowest non-figures (which stay right below the top ``k``)."""
    top = ordered[:k]
    have = sum(c.chunk.kind == "figure" for c in top)
    want = [c for c in ordered[k : FIGURE_DEPTH * k] if _strong_figure(c)][: max(0, slots - have)]
    others = [c for c in top if c.chunk.kind != "figure"]
    want = want[: len(others)]
    if not want:
        return ordered
    displaced = {id(c) for c in others[len(others) - len(want):]}
    chosen = {id(c) for c in want}
    top_ids = {id(c) for c in top}
    new_top = [c for c in ordered if id(c) in chosen or (id(c) in top_ids and id(c) not in displaced)]
    rest = [c for c in ordered if id(c) not in {id(x) for x in new_top}]
    return new_top + rest
