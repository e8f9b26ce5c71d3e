"""Vector engine build and search latency on synthetic chunks, printed as a table.

    .venv/bin/python bench/retrieve.py [--sizes 10000,200000] [--queries 200] [--embed] [--qdrant-url URL]

Each size runs in its own process (fresh temporary home) so peak RSS is per size. Chunks: 384-d
unit vectors clustered by document (50 chunks each) and BM25-weighted sparse vectors over a 30k-term
Zipfian vocabulary (~120 terms each) (``pagelens.vectors.conformance.synthetic_points``). Queries: a
corpus vector plus noise (cosine ~0.7), and 2-5 Zipfian terms.

Columns: upsert and optimize (HNSW build) seconds; p50/p95 milliseconds for dense (top 40), sparse
(top 40), hybrid (both channels prefetched 40 deep, weighted RRF to 8 in the engine), ``batch`` (the
retriever's path: both channels in one ``search_batch`` call, fused in Python), hybrid filtered to
one document, and dense before optimize (scan); dense recall@10 against exact numpy search; the time
to add one 500-chunk document and optimize again; close + reopen + first query; peak RSS.
With ``--embed`` a real MiniLM (1 torch thread) encodes real corpus questions, and ``+embed`` is
query encoding (dense + BM25 terms) plus the hybrid search, per query.
Target (issue): hybrid incl. query embedding p50 <= 30 ms at 10k, <= 60 ms at 200k, on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
QUESTIONS = REPO.parent / "shared" / "corpus" / "questions.jsonl"
POOL, K, DIM = 40, 8, 384


def _ms(samples: list[float]) -> tuple[float, float]:
    arr = np.asarray(samples) * 1000.0
    return float(np.percentile(arr, 50)), float(np.percentile(arr, 95))


def _timed(fn, items) -> list[float]:  # type: ignore[no-untyped-def]
    for item in items[:5]:  # warm caches
        fn(item)
    out = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)
        out.append(time.perf_counter() - t0)
    return out


def _encoder(n: int):  # type: ignore[no-untyped-def]
    """Real query encoding: MiniLM on 1 thread + the BM25 tokenizer, over corpus questions."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from pagelens.embed.sentence import SentenceTransformerEmbedder
    from pagelens.index.bm25 import SparseEncoder

    texts = [json.loads(line)["question"] for line in QUESTIONS.read_text().splitlines() if line.strip()]
    texts = (texts * (n // len(texts) + 1))[:n]
    dense, sparse = SentenceTransformerEmbedder(threads=1), SparseEncoder()
    dense.embed(texts[:2])  # load the model outside the timings

    def encode(text: str) -> None:
        dense.embed([text])
        sparse.encode_query(text)

    return texts, encode


def run_one(size: int, n_queries: int, embed: bool, qdrant_url: str | None) -> dict[str, float]:
    from pagelens.vectors import ChannelQuery, VectorSpec
    from pagelens.vectors.conformance import synthetic_points, synthetic_queries

    tmp = tempfile.mkdtemp(prefix="pagelens-bench-")
    if qdrant_url:
        from qdrant_client import QdrantClient

        from pagelens.vectors.remote import QdrantServerStore

        store = QdrantServerStore(QdrantClient(url=qdrant_url), label=qdrant_url)
        reopen = None
    else:
        from pagelens.vectors.edge import EdgeVectorStore

        store = EdgeVectorStore(Path(tmp) / "qdrant")
        reopen = EdgeVectorStore
    name = f"bench_{size}"
    store.drop_collection(name)
    store.ensure_collection(name, VectorSpec(dense={"dense": DIM}, sparse=["bm25"]))

    res: dict[str, float] = {"size": size}
    upsert_s, queries, topk, qmat = 0.0, None, None, None
    for points, dense in synthetic_points(size, dim=DIM, seed=0):
        if queries is None:  # query sources come from the first batch (the data is i.i.d.)
            queries = synthetic_queries(n_queries, dense, seed=1)
            qmat = np.asarray([q for q, _ in queries], dtype=np.float32)
            topk = np.empty((n_queries, 0)), np.empty((n_queries, 0), dtype=object)
        sims = qmat @ dense.T  # running exact top-10 for recall
        ids = np.asarray([p.id for p in points], dtype=object)
        all_s = np.concatenate([topk[0], sims], axis=1)
        all_i = np.concatenate([topk[1], np.broadcast_to(ids, sims.shape)], axis=1)
        keep = np.argsort(-all_s, axis=1)[:, :10]
        topk = np.take_along_axis(all_s, keep, 1), np.take_along_axis(all_i, keep, 1)
        t0 = time.perf_counter()
        store.upsert(name, points)
        upsert_s += time.perf_counter() - t0
    assert queries is not None and topk is not None
    res["upsert_s"] = upsert_s

    def dense_q(q):  # type: ignore[no-untyped-def]
        return store.search_dense(name, "dense", q[0], POOL)

    def channels(q, weight: float = 1.0):  # type: ignore[no-untyped-def]
        return [ChannelQuery("dense", q[0], POOL), ChannelQuery("bm25", q[1], POOL, weight)]

    res["scan_dense_p50"], _ = _ms(_timed(dense_q, queries[:50]))
    t0 = time.perf_counter()
    store.optimize(name)
    res["optimize_s"] = time.perf_counter() - t0

    res["dense_p50"], res["dense_p95"] = _ms(_timed(dense_q, queries))
    sparse_fn = lambda q: store.search_sparse(name, "bm25", q[1], POOL)  # noqa: E731
    res["sparse_p50"], res["sparse_p95"] = _ms(_timed(sparse_fn, queries))
    hybrid_s = _timed(lambda q: store.hybrid(name, channels(q), K, rrf_k=60), queries)
    res["hybrid_p50"], res["hybrid_p95"] = _ms(hybrid_s)
    res["batch_p50"], res["batch_p95"] = _ms(_timed(lambda q: store.search_batch(name, channels(q)), queries))
    res["filtered_p50"], _ = _ms(_timed(lambda q: store.hybrid(name, channels(q), K, doc_ids=["doc7"]), queries))
    found = [{h.id for h in store.search_dense(name, "dense", q[0], 10)} for q in queries]
    res["recall10"] = float(np.mean([len(f & set(t)) / 10 for f, t in zip(found, topk[1])]))

    if embed:
        texts, encode = _encoder(len(queries))
        enc_s = _timed(encode, texts)
        res["encode_p50"], _ = _ms(enc_s)
        res["e2e_p50"], res["e2e_p95"] = _ms([a + b for a, b in zip(enc_s, hybrid_s)])

    extra, _ = next(synthetic_points(500, dim=DIM, seed=99, chunks_per_doc=500, batch=500))
    for p in extra:
        p.payload["doc_id"] = "new-doc"
    t0 = time.perf_counter()
    store.upsert(name, extra)
    store.optimize(name)
    res["add_doc_s"] = time.perf_counter() - t0
    res["after_add_dense_p50"], _ = _ms(_timed(dense_q, queries[:50]))

    if reopen is not None:
        store.close()
        t0 = time.perf_counter()
        store = reopen(Path(tmp) / "qdrant")
        store.search_dense(name, "dense", queries[0][0], POOL)
        res["reopen_s"] = time.perf_counter() - t0
    store.close()
    shutil.rmtree(tmp, ignore_errors=True)
    res["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return res


COLUMNS = [
    ("size", "{:>8.0f}"), ("upsert_s", "{:>8.1f}"), ("optimize_s", "{:>8.1f}"),
    ("scan_dense_p50", "{:>9.1f}"), ("dense_p50", "{:>7.1f}"), ("dense_p95", "{:>7.1f}"),
    ("sparse_p50", "{:>7.1f}"), ("sparse_p95", "{:>7.1f}"), ("hybrid_p50", "{:>7.1f}"),
    ("hybrid_p95", "{:>7.1f}"), ("batch_p50", "{:>7.1f}"), ("filtered_p50", "{:>7.1f}"),
    ("recall10", "{:>6.3f}"), ("encode_p50", "{:>7.1f}"), ("e2e_p50", "{:>7.1f}"), ("e2e_p95", "{:>7.1f}"),
    ("add_doc_s", "{:>7.2f}"), ("after_add_dense_p50", "{:>7.1f}"), ("reopen_s", "{:>7.2f}"),
    ("peak_rss_mb", "{:>7.0f}"),
]
HEADERS = {
    "upsert_s": "upsert s", "optimize_s": "optim s", "scan_dense_p50": "scan p50", "dense_p50": "dns p50",
    "dense_p95": "dns p95", "sparse_p50": "spr p50", "sparse_p95": "spr p95", "hybrid_p50": "hyb p50",
    "hybrid_p95": "hyb p95", "batch_p50": "bat p50", "filtered_p50": "flt p50", "recall10": "rec@10",
    "encode_p50": "enc p50", "e2e_p50": "+emb p50", "e2e_p95": "+emb p95", "add_doc_s": "+doc s",
    "after_add_dense_p50": "dns'p50", "reopen_s": "reopen", "peak_rss_mb": "RSS MB",
}


def print_table(rows: list[dict[str, float]]) -> None:
    cols = [(c, f) for c, f in COLUMNS if any(c in r for r in rows)]
    widths = [len(f.format(0)) for _, f in cols]
    print("  ".join(HEADERS.get(c, c).rjust(w) for (c, _), w in zip(cols, widths)))
    for r in rows:
        print("  ".join(f.format(r[c]) if c in r else "-".rjust(w) for (c, f), w in zip(cols, widths)))
    print("latencies in ms (p50/p95 over the queries); sizes in chunks")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000", help="comma-separated collection sizes (default 10000)")
    ap.add_argument("--queries", type=int, default=200, help="queries per measurement (default 200)")
    ap.add_argument("--embed", action="store_true", help="also time real MiniLM + BM25 query encoding")
    ap.add_argument("--qdrant-url", default=None, help="benchmark a Qdrant server instead of qdrant-edge")
    ap.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)  # worker mode
    args = ap.parse_args()
    if args.one is not None:
        print(json.dumps(run_one(args.one, args.queries, args.embed, args.qdrant_url)))
        return
    rows = []
    for size in [int(s) for s in args.sizes.split(",") if s.strip()]:
        cmd = [sys.executable, __file__, "--one", str(size), "--queries", str(args.queries)]
        cmd += ["--embed"] * args.embed + (["--qdrant-url", args.qdrant_url] if args.qdrant_url else [])
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            why = out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}"
            sys.exit(f"bench size {size} failed: {why}")
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(f"size {size}: done", file=sys.stderr)
    print_table(rows)


if __name__ == "__main__":
    main()
