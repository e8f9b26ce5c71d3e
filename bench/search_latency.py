"""Hybrid search latency through ``Retriever.search`` at N chunks (default 10,000).

The collection holds the dev corpus' real chunk texts (BM25), repeated under different doc ids until
N points, with random unit vectors for ``dense``/``caption`` (the engine's cost does not depend on
what the vectors mean); queries are the dev questions, embedded by the real model on every call.

    .venv/bin/python bench/search_latency.py --home /tmp/evalhome   # a home that has the dev corpus
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402

from pagelens.embed import create_text_embedder  # noqa: E402
from pagelens.evaluate import load_questions  # noqa: E402
from pagelens.index.bm25 import SparseEncoder  # noqa: E402
from pagelens.index.indexer import Indexer, chunk_payload  # noqa: E402
from pagelens.retrieve.retriever import Retriever  # noqa: E402
from pagelens.settings import Settings  # noqa: E402
from pagelens.store.catalog import Catalog  # noqa: E402
from pagelens.store.images import ImageStore  # noqa: E402
from pagelens.vectors import PointRecord, point_id  # noqa: E402
from pagelens.vectors.edge import EdgeVectorStore  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True, help="data home whose catalog holds parsed PDFs")
    ap.add_argument("-n", type=int, default=10_000, help="points in the collection")
    ap.add_argument("--rounds", type=int, default=3, help="passes over the questions")
    args = ap.parse_args()

    src = Catalog(args.home / "catalog.sqlite3")
    work = Path(tempfile.mkdtemp(prefix="pagelens-lat-"))
    settings = Settings(home=work)
    embedder = create_text_embedder(settings.index)
    sparse = SparseEncoder()
    store = EdgeVectorStore(work / "qdrant")
    indexer = Indexer(settings, store, embedder, sparse, src, ImageStore(args.home / "images"))
    indexer.ensure()
    chunks = [c for d in src.documents() for c in indexer.chunks(d.doc_id)]
    rng = np.random.default_rng(0)
    points, copy = [], 0
    while len(points) < args.n:
        for c in chunks:
            if len(points) >= args.n:
                break
            c = c.model_copy(update={"id": f"{c.id}-{copy}", "doc_id": f"{c.doc_id[:56]}{copy:08d}"})
            v = rng.normal(size=embedder.dim).astype(np.float32)
            v /= np.linalg.norm(v)
            p = PointRecord(id=point_id(c.id), payload=chunk_payload(c))
            p.dense["caption" if c.kind == "figure" else "dense"] = v.tolist()
            p.sparse["bm25"] = sparse.encode_document(c.embed_text)
            points.append(p)
        copy += 1
    t0 = time.perf_counter()
    store.upsert(indexer.collection, points)
    store.optimize(indexer.collection)
    print(f"{len(points)} points upserted and optimized in {time.perf_counter() - t0:.1f} s")

    retriever = Retriever(settings, store, embedder, sparse)
    questions = [q.question for q in load_questions([CORPUS / "questions.jsonl", CORPUS / "questions-special.jsonl"])]
    retriever.search("warm up")
    total, embed = [], []
    for _ in range(args.rounds):
        for q in questions:
            t = time.perf_counter()
            embedder.embed([q])
            embed.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            retriever.search(q, k=5)
            total.append((time.perf_counter() - t) * 1000)

    def pct(xs: list[float], q: int) -> float:
        return statistics.quantiles(xs, n=100)[q - 1]

    print(f"search p50 {pct(total, 50):.1f} ms, p95 {pct(total, 95):.1f} ms (n={len(total)}); "
          f"query embedding alone p50 {pct(embed, 50):.1f} ms")
    store.close()


if __name__ == "__main__":
    main()
