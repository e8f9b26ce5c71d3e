"""Scale-out numbers, as tables: one section per question, ``--only search,ingest,capacity``.

* ``search`` — p50/p95 of the searches the retriever makes (both channels in one batch call, hybrid RRF
  on the engine, hybrid with a document filter) at ``--points`` (default 200,000) synthetic chunks:
  384-d unit vectors clustered by document, BM25-weighted sparse vectors over a Zipfian vocabulary
  (``vectors/conformance.synthetic_points``) and a payload shaped like a real chunk's (~600 characters
  of text, name, kind, pages, boxes, section, element ids). The same points go through pagelens'
  adapters into the client engine (qdrant-client: ``--qdrant-url`` for a Qdrant server, else its
  in-process ``:memory:`` engine) and the embedded engine (qdrant-edge, optimized as after an ingest),
  side by side in one run.
* ``ingest`` — Ray workers beside the plain CLI: the hook imports ``bench/scale_ray.py`` and runs its
  ``main(argv)`` with the arguments after ``--``; without that file it says so.
* ``capacity`` — chunks per page, payload and sparse bytes per chunk, measured on a data home's
  catalog (``--home``; ``pagelens ingest`` the dev corpus into one first), and the RAM and disk a
  million pages take on Qdrant with and without scalar int8 quantization.

    .venv/bin/python bench/scale.py --only search --points 200000
    .venv/bin/python bench/scale.py --only capacity --home /tmp/devhome
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402

from pagelens.vectors import ChannelQuery, VectorSpec  # noqa: E402
from pagelens.vectors.conformance import synthetic_points, synthetic_queries  # noqa: E402

BENCH = Path(__file__).resolve().parent
SECTIONS = ("search", "ingest", "capacity")
DIM = 384
COLLECTION = "scale"
WORDS = ("revenue segment quarter margin turbine blade estuary heron ledger receivable liability "
         "deferred tax goodwill amortization figure table chart cohort median sample protocol").split()


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(xs: list[float], q: int) -> float:
    return statistics.quantiles(xs, n=100)[q - 1] if len(xs) > 1 else xs[0]


def table(headers: list[str], rows: list[list[Any]]) -> str:
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    numeric = [all(r[i].replace(",", "").replace(".", "").replace("%", "").isdigit() for r in cells[1:]) for i in range(len(headers))]
    line = lambda r: "| " + " | ".join(c.rjust(w) if numeric[i] else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))) + " |"  # noqa: E731
    return "\n".join([line(cells[0]), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, cells[1:])])


# -- search ---------------------------------------------------------------------------------------
def realistic(points: list[Any], rng: np.random.Generator) -> list[Any]:
    """Give synthetic points the payload a real chunk carries (indexer.chunk_payload's fields)."""
    for p in points:
        doc = p.payload["doc_id"]
        page = int(p.payload["page"]) + 1
        words = rng.choice(WORDS, size=90)
        p.payload.update(
            doc=f"{doc}.pdf", kind="table" if page % 7 == 0 else "text", text=" ".join(words)[:600],
            pages=[page], bboxes=[[page, [72.0, 90.0, 523.5, 410.25]]], section=f"Section {page % 9 + 1}",
            element_ids=[f"{doc}:p{page}:e{k}" for k in range(3)], image=None,
        )
    return points


def client_store(url: str | None) -> tuple[Any, str]:
    from qdrant_client import QdrantClient

    from pagelens.vectors.remote import QdrantServerStore

    if url:
        return QdrantServerStore(QdrantClient(url=url, check_compatibility=False), label=url), f"qdrant server {url}"
    return QdrantServerStore(QdrantClient(":memory:"), label=":memory:"), "qdrant-client :memory: (in-process)"


def search_section(args: argparse.Namespace) -> None:
    from pagelens.vectors.edge import EdgeVectorStore

    work = Path(tempfile.mkdtemp(prefix="pagelens-scale-"))
    client, client_label = client_store(args.qdrant_url)
    engines: list[tuple[str, Any]] = [
        (f"client engine: {client_label}", client),
        ("embedded engine: qdrant-edge", EdgeVectorStore(work / "qdrant")),
    ]
    spec = VectorSpec(dense={"dense": DIM}, sparse=["bm25"])
    rng = np.random.default_rng(7)
    load: dict[str, float] = {name: 0.0 for name, _ in engines}
    for name, store in engines:
        store.drop_collection(COLLECTION)
        store.ensure_collection(COLLECTION, spec)
    sample: list[np.ndarray] = []
    rss0 = rss_mb()
    for points, dense in synthetic_points(args.points, dim=DIM, batch=2000):
        realistic(points, rng)
        sample.append(dense[:: max(1, len(dense) // 50)])
        for name, store in engines:
            t = time.perf_counter()
            store.upsert(COLLECTION, points)
            load[name] += time.perf_counter() - t
    optimize: dict[str, float] = {}
    for name, store in engines:
        t = time.perf_counter()
        store.optimize(COLLECTION)
        optimize[name] = time.perf_counter() - t
    print(f"{args.points:,} points in each engine; process max RSS {rss_mb():,.0f} MB (+{rss_mb() - rss0:,.0f} MB)")

    queries = synthetic_queries(args.queries, np.concatenate(sample), terms=5)
    docs = [f"doc{i}" for i in range(0, args.points // 50, max(1, args.points // 500))][:3]
    cases: list[tuple[str, Callable[[Any, list[ChannelQuery]], Any]]] = [
        ("dense + sparse channels, 40 each (one batch call)", lambda s, ch: s.search_batch(COLLECTION, ch)),
        ("hybrid RRF on the engine, top 8", lambda s, ch: s.hybrid(COLLECTION, ch, 8)),
        ("hybrid RRF, filter: 3 documents", lambda s, ch: s.hybrid(COLLECTION, ch, 8, doc_ids=docs)),
    ]
    rows = []
    overlap: list[float] = []
    for case, run in cases:
        for name, store in engines:
            times = []
            for dense_q, sparse_q in queries:
                channels = [ChannelQuery("dense", dense_q, 40), ChannelQuery("bm25", sparse_q, 40)]
                t = time.perf_counter()
                run(store, channels)
                times.append((time.perf_counter() - t) * 1000)
            rows.append([case, name, f"{pct(times, 50):,.1f}", f"{pct(times, 95):,.1f}"])
    for dense_q, sparse_q in queries:  # do the engines agree (HNSW on edge vs the client's search)?
        channels = [ChannelQuery("dense", dense_q, 10)]
        a, b = (set(h.id for h in s.search_batch(COLLECTION, channels)[0]) for _, s in engines)
        overlap.append(len(a & b) / max(1, len(a)))
    print(table(["search", "engine", "p50 ms", "p95 ms"], rows))
    print()
    print(table(["engine", "upsert s", "optimize s"],
                [[n, f"{load[n]:,.1f}", f"{optimize[n]:,.1f}"] for n, _ in engines]))
    print(f"dense top-10 overlap between the engines: {statistics.mean(overlap):.3f} "
          f"({len(queries)} queries; edge searches its HNSW graph, the client engine here scans exactly)")
    for _, store in engines:
        store.close()


# -- ingest (the Ray bench plugs in here) ----------------------------------------------------------
SCALE_RAY = BENCH / "scale_ray.py"


def ingest_section(args: argparse.Namespace) -> None:
    """The hook for ``bench/scale_ray.py`` (Ray workers beside the plain CLI): its ``main(argv)``."""
    if not SCALE_RAY.is_file():
        print(f"ingest: {SCALE_RAY.relative_to(BENCH.parent)} is missing; this section runs its main(argv) "
              "(ingest rate with 1 and 2 Ray workers beside the plain CLI) once it exists")
        return
    spec = importlib.util.spec_from_file_location("scale_ray", SCALE_RAY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import inspect

    if inspect.signature(module.main).parameters:
        module.main(list(args.rest))
    else:  # a main() that parses sys.argv itself
        saved, sys.argv = sys.argv, [str(SCALE_RAY), *args.rest]
        try:
            module.main()
        finally:
            sys.argv = saved


# -- capacity ---------------------------------------------------------------------------------------
def capacity_section(args: argparse.Namespace) -> None:
    if args.home is None:
        print("capacity: pass --home, a data home holding an ingested corpus (e.g. the dev corpus)")
        return
    from pagelens.embed import create_text_embedder
    from pagelens.index.bm25 import SparseEncoder
    from pagelens.index.indexer import Indexer, chunk_payload
    from pagelens.settings import Settings
    from pagelens.store.catalog import SqliteCatalog
    from pagelens.store.images import ImageStore

    settings = Settings(home=args.home)
    catalog = SqliteCatalog(args.home / "catalog.sqlite3")
    sparse = SparseEncoder()
    embedder = create_text_embedder(settings.index)  # its tokenizer sizes the chunks, as at ingest
    indexer = Indexer(settings, None, embedder, sparse, catalog, ImageStore(args.home / "images"))
    docs = catalog.documents()
    pages = sum(d.pages for d in docs)
    payload_bytes, nnz, chunks = [], [], 0
    for d in docs:
        for c in indexer.chunks(d.doc_id):
            chunks += 1
            payload_bytes.append(len(json.dumps(chunk_payload(c)).encode()))
            nnz.append(len(sparse.encode_document(c.embed_text).indices))
    catalog.close()
    per_page = chunks / pages
    payload = statistics.mean(payload_bytes)
    terms = statistics.mean(nnz)
    print(table(["corpus", "documents", "pages", "chunks", "chunks/page", "payload B/chunk", "sparse terms/chunk"],
                [[args.home.name, len(docs), pages, chunks, f"{per_page:.2f}", f"{payload:,.0f}", f"{terms:.1f}"]]))
    print()
    dense_b, int8_b, sparse_b = DIM * 4, DIM, terms * 8  # float32; int8; u32 index + f32 weight
    hnsw_b = 16 * 2 * 4 * 1.5  # m=16 links per point on layer 0 (+ upper layers), u32 ids
    points = per_page * 1e6
    gb = lambda b: f"{b * points / 1e9:,.1f}"  # noqa: E731
    rows = [
        ["float32 dense in RAM, payload on disk", gb((dense_b + hnsw_b) * 1.5 + sparse_b * 1.5),
         gb(dense_b + hnsw_b + sparse_b * 1.5 + payload * 1.3)],
        ["scalar int8 in RAM, float32 on disk (rescoring)", gb((int8_b + hnsw_b) * 1.5 + sparse_b * 1.5),
         gb(dense_b + int8_b + hnsw_b + sparse_b * 1.5 + payload * 1.3)],
    ]
    print(f"per chunk: dense {dense_b} B float32 ({int8_b} B int8), sparse {sparse_b:.0f} B, "
          f"HNSW links ~{hnsw_b:.0f} B, payload {payload:,.0f} B; 1M pages = {points / 1e6:.2f}M points")
    print(table(["Qdrant layout, 1M pages", "RAM GB", "disk GB"], rows))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="search,capacity", help=f"sections, comma-separated: {','.join(SECTIONS)}")
    ap.add_argument("--points", type=int, default=200_000, help="search: points in each engine")
    ap.add_argument("--queries", type=int, default=20, help="search: queries per case")
    ap.add_argument("--qdrant-url", default=None, help="search: a Qdrant server instead of qdrant-client's :memory:")
    ap.add_argument("--home", type=Path, default=None, help="capacity: a data home with an ingested corpus")
    ap.add_argument("rest", nargs="*", help="ingest: arguments for bench/scale_ray.py (after --)")
    args = ap.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(only) - set(SECTIONS))
    if unknown:
        sys.exit(f"--only: unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    for name in only:
        print(f"\n## {name}\n")
        {"search": search_section, "ingest": ingest_section, "capacity": capacity_section}[name](args)


if __name__ == "__main__":
    main()
