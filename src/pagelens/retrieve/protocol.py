"""What the answer stage needs from retrieval."""

from __future__ import annotations

from typing import Literal, Protocol

from pagelens.models import SearchHit

Mode = Literal["hybrid", "dense", "sparse", "image"]


class Searcher(Protocol):
    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        mode: Mode = "hybrid",
        doc_ids: list[str] | None = None,
        extra_queries: list[str] | None = None,
        rerank_query: str | None = None,
        rerank: bool = True,
        timings: dict[str, float] | None = None,
    ) -> list[SearchHit]:
        """Ranked sources. ``extra_queries`` (HyDE passage, multi-query variants) are retrieved too and
        fused; ``rerank_query`` (default ``query``) is what the reranker scores against; ``rerank=False``
        keeps the fused order even when a reranker is configured. ``timings`` (optional for implementations;
        callers pass it only when asked for phase timings) receives milliseconds per retrieval phase:
        embed, search, fuse, rerank."""
        ...
