"""Helpers for the answer-stage tests: chunks read from real PDFs with PyMuPDF, and a small Searcher
that ranks fixed chunks by embedding cosine (the retrieval contract, without an index)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from pagelens.models import Chunk, SearchHit


def _chunk(doc: Path, kind: str, text: str, page: int, bbox: tuple[float, float, float, float]) -> Chunk:
    doc_id = hashlib.sha256(doc.read_bytes()).hexdigest()
    cid = hashlib.sha256(f"{doc_id}:{kind}:{page}:{text}".encode()).hexdigest()[:32]
    return Chunk(id=cid, doc_id=doc_id, doc_name=doc.name, kind=kind, text=text, embed_text=text, pages=[page],
                 bboxes=[(page, bbox)])


def pdf_chunks(pdf: Path, pages: list[int], blocks_per_chunk: int = 4) -> list[Chunk]:
    """Text chunks (a few text blocks each, tables' areas excluded) and one ``table`` chunk per
    PyMuPDF table (caption + markdown) for the given 1-based pages."""
    import pymupdf

    out: list[Chunk] = []
    with pymupdf.open(pdf) as d:
        for pno in pages:
            page = d[pno - 1]
            tables = page.find_tables().tables
            areas = [pymupdf.Rect(t.bbox) for t in tables]
            blocks = [b for b in page.get_text("blocks") if b[6] == 0 and b[4].strip()
                      and not any(pymupdf.Rect(b[:4]).intersects(a) for a in areas)]
            for t, area in zip(tables, areas):
                caption = next((b[4] for b in blocks if b[4].lstrip().startswith("Table")
                                and abs(b[1] - area.y1) < 60 or abs(b[3] - area.y0) < 30 and b[4].lstrip().startswith("Table")), "")
                md = t.to_markdown().replace("**", "").replace("<br>", " ")
                out.append(_chunk(pdf, "table", f"{' '.join(caption.split())}\n{md}".strip(), pno, tuple(area)))
            for i in range(0, len(blocks), blocks_per_chunk):
                group = blocks[i : i + blocks_per_chunk]
                text = "\n".join(" ".join(b[4].split()) for b in group)
                box = (min(b[0] for b in group), min(b[1] for b in group), max(b[2] for b in group), max(b[3] for b in group))
                out.append(_chunk(pdf, "text", text, pno, box))
    return out


class ListSearcher:
    """Ranks a fixed list of chunks by cosine with the query (and extra queries); records calls."""

    def __init__(self, chunks: list[Chunk], embedder) -> None:
        self.chunks = chunks
        self.embedder = embedder
        self.vectors = embedder.embed([c.embed_text for c in chunks]) if chunks else np.zeros((0, 1))
        self.calls: list[dict] = []

    def search(self, query, *, k=None, mode="hybrid", doc_ids=None, extra_queries=None, rerank_query=None, rerank=True):
        self.calls.append({"query": query, "k": k, "doc_ids": doc_ids, "extra_queries": extra_queries,
                           "rerank_query": rerank_query, "rerank": rerank})
        queries = [query, *(extra_queries or [])]
        qv = self.embedder.embed(queries)
        scores = (self.vectors @ qv.T).max(axis=1) if len(self.chunks) else np.zeros(0)
        order = [i for i in np.argsort(-scores) if doc_ids is None or self.chunks[i].doc_id in doc_ids]
        return [SearchHit(rank=r + 1, score=float(scores[i]), chunk=self.chunks[i]) for r, i in enumerate(order[: k or 8])]


def hit(chunk: Chunk, rank: int = 1) -> SearchHit:
    return SearchHit(rank=rank, score=1.0 / rank, chunk=chunk)


@pytest.fixture(scope="session")
def minilm():
    """The real all-MiniLM-L6-v2 (bundled weights), loaded once for every answer-stage test module."""
    from pagelens.embed.sentence import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(threads=1)
