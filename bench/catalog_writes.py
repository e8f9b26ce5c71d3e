"""What staging a document page by page costs against writing it in one long transaction.

    .venv/bin/python bench/catalog_writes.py [--pages 40,400] [--per-page 30]

The ingest pipeline used to hold one catalog write transaction for a whole document (every page's
elements written inside it); it now stages each page's elements in a short transaction and moves them
into place in one short transaction at the end (``Catalog.stage_elements`` / ``commit_staged``), so the
write lock is free between pages and OCR results commit as they are made. Both ways are run here on
the same synthetic elements, side by side, in one process (a fresh catalog each):

Columns: total seconds to write the document; the longest time the write lock was held in one go
(what another writer, e.g. a second parser process or an OCR cache write, may have to wait). For the
old way that column is a floor: in the pipeline the transaction stayed open while the pages parsed,
i.e. for the whole parse of the document (seconds to minutes), not just these writes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from pagelens.models import Document, Element, ElementKind  # noqa: E402
from pagelens.store.catalog import Catalog  # noqa: E402


def elements(doc_id: str, page: int, n: int) -> list[Element]:
    text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 6
    return [Element(id=f"{doc_id}:{page}:{i}", doc_id=doc_id, page=page, order=i, kind=ElementKind.TEXT,
                    text=f"{i} {text}", bbox=(50, 50 + i, 500, 60 + i)) for i in range(n)]


def one_transaction(cat: Catalog, doc: Document, pages: int, per_page: int) -> tuple[float, float]:
    t0 = time.perf_counter()
    with cat.transaction() as conn:
        cat.begin_document(conn, doc)
        for p in range(1, pages + 1):
            cat.add_elements(conn, elements(doc.doc_id, p, per_page))
    total = time.perf_counter() - t0
    return total, total


def staged(cat: Catalog, doc: Document, pages: int, per_page: int) -> tuple[float, float]:
    t0 = time.perf_counter()
    longest = 0.0
    for p in range(1, pages + 1):
        els = elements(doc.doc_id, p, per_page)
        t = time.perf_counter()
        cat.stage_elements(doc.doc_id, els)
        longest = max(longest, time.perf_counter() - t)
    t = time.perf_counter()
    with cat.transaction() as conn:
        cat.begin_document(conn, doc)
        cat.commit_staged(conn, doc.doc_id)
    longest = max(longest, time.perf_counter() - t)
    return time.perf_counter() - t0, longest


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", default="40,400")
    ap.add_argument("--per-page", type=int, default=30)
    args = ap.parse_args()
    print(f"{'pages':>6} {'elements':>9} | {'one txn s':>10} {'lock held s':>12} | {'staged s':>9} {'lock held s':>12}")
    for pages in (int(x) for x in args.pages.split(",")):
        row = []
        for fn in (one_transaction, staged):
            with tempfile.TemporaryDirectory() as tmp:
                cat = Catalog(Path(tmp) / "catalog.sqlite3")
                doc = Document(doc_id=f"d{pages}", name="x.pdf", path="/x.pdf", size=1, pages=pages)
                row.append(fn(cat, doc, pages, args.per_page))
                cat.close()
        (a_total, a_lock), (b_total, b_lock) = row
        print(f"{pages:>6} {pages * args.per_page:>9} | {a_total:>10.3f} {a_lock:>12.3f} | {b_total:>9.3f} {b_lock:>12.4f}")


if __name__ == "__main__":
    main()
