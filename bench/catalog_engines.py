"""The two catalog engines side by side: the embedded SQLite file and a PostgreSQL server.

    .venv/bin/python bench/catalog_engines.py [--docs 20] [--pages 20] [--per-page 30] [--pg-url URL]

Without ``--pg-url`` a throwaway local server is started for the run (``initdb`` + ``pg_ctl`` on
127.0.0.1 with fsync off, as the tests do: tests/postgres_server.py), so the PostgreSQL numbers are a
loopback best case; a server across a network adds a round trip per statement.

Per engine, on the same synthetic elements: writing documents the way the ingest pipeline does (each
page staged in its own transaction, then one transaction per document), reading each document's
elements page by page (what the chunker does), and 1,000 cache reads (the OCR / LLM caches).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from pagelens.models import Document, Element, ElementKind  # noqa: E402
from pagelens.store.catalog import CatalogStore, SqliteCatalog  # noqa: E402


def elements(doc_id: str, page: int, n: int) -> list[Element]:
    text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 6
    return [Element(doc_id=doc_id, page=page, order=i, kind=ElementKind.TEXT,
                    text=f"{i} {text}", bbox=(50, 50 + i, 500, 60 + i)) for i in range(n)]


def run(cat: CatalogStore, docs: int, pages: int, per_page: int) -> dict[str, float]:
    ids = [f"{d:064x}" for d in range(docs)]
    commit_ms: list[float] = []
    t0 = time.perf_counter()
    for doc_id in ids:
        for p in range(1, pages + 1):
            cat.stage_elements(doc_id, elements(doc_id, p, per_page))
        t = time.perf_counter()
        with cat.transaction() as conn:
            cat.begin_document(conn, Document(doc_id=doc_id, name=f"{doc_id[:8]}.pdf", path=f"/d/{doc_id}.pdf",
                                              size=1, pages=pages))
            cat.commit_staged(conn, doc_id)
            cat.add_vector_job(conn, doc_id, "upsert")
        commit_ms.append((time.perf_counter() - t) * 1000)
    write_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    n = sum(1 for doc_id in ids for _ in cat.iter_elements(doc_id))
    read_s = time.perf_counter() - t0
    assert n == docs * pages * per_page
    for i in range(100):
        cat.cache_put("ocr", f"k{i}", {"text": "x" * 200})
    t0 = time.perf_counter()
    for i in range(1000):
        cat.cache_get("ocr", f"k{i % 100}")
    cache_s = time.perf_counter() - t0
    return {
        "pages/s written": docs * pages / write_s,
        "doc commit p50 ms": statistics.median(commit_ms),
        "elements/s read": n / read_s,
        "cache get µs": cache_s / 1000 * 1e6,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=20)
    ap.add_argument("--pages", type=int, default=20)
    ap.add_argument("--per-page", type=int, default=30)
    ap.add_argument("--pg-url", help="an empty PostgreSQL database (default: a throwaway local server)")
    args = ap.parse_args()

    from pagelens.store.catalog.postgres import PostgresCatalog

    server = None
    url = args.pg_url
    if url is None:
        from postgres_server import PostgresServer, find_bindir

        bindir = find_bindir()
        if bindir is None:
            sys.exit("no PostgreSQL binaries found: apt-get install postgresql, or pass --pg-url")
        server = PostgresServer(bindir).start()
        url = server.new_database()
    results: dict[str, dict[str, float]] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            lite = SqliteCatalog(Path(tmp) / "catalog.sqlite3")
            results["sqlite"] = run(lite, args.docs, args.pages, args.per_page)
            lite.close()
        pg = PostgresCatalog(url)
        results["postgresql"] = run(pg, args.docs, args.pages, args.per_page)
        pg.close()
    finally:
        if server is not None:
            server.stop()
    print(f"{args.docs} documents × {args.pages} pages × {args.per_page} elements\n")
    cols = list(results["sqlite"])
    print("| engine | " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for engine, row in results.items():
        print(f"| {engine} | " + " | ".join(f"{row[c]:,.1f}" for c in cols) + " |")


if __name__ == "__main__":
    main()
