"""The extraction report: time to build it and its size, printed as a table.

    .venv/bin/python bench/report.py [--pdfs DIR] [--pages 50 200]

Cases: the bundled sample, generated N-page PDFs (text, a table and a vector figure per page, from
bench/ingest.py), and every PDF in --pdfs when given. Each is parsed into a fresh home (no OCR, no
embedding); the report is then built three times from the catalog and the median is printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))


def measure(pdf: Path) -> dict:
    from pagelens.app import Pagelens
    from pagelens.export.report import document_report
    from pagelens.settings import Settings

    with tempfile.TemporaryDirectory() as home:
        with Pagelens(Settings(home=Path(home)).with_overrides(**{"ingest.ocr": "off"})) as app:
            (res,) = app.ingest([pdf], index=False)
            if res.status == "failed":
                return {"name": pdf.name, "error": res.error}
            times, page = [], ""
            for _ in range(3):
                t = time.perf_counter()
                _, page = document_report(app, res.doc_id)
                times.append(time.perf_counter() - t)
            return {
                "name": pdf.name, "pages": res.pages, "elements": sum(res.elements.values()),
                "tables": res.elements.get("table", 0), "figures": res.elements.get("figure", 0),
                "ms": statistics.median(times) * 1000, "kib": len(page.encode()) / 1024,
            }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdfs", type=Path, help="also measure every PDF in this folder")
    ap.add_argument("--pages", type=int, nargs="*", default=[50, 200], help="generated PDF sizes")
    args = ap.parse_args()
    from ingest import generate  # bench/ingest.py

    cases = [REPO / "samples" / "otsl-2305.03393v1-p9.pdf"]
    tmp = Path(tempfile.mkdtemp(prefix="pagelens-bench-report-"))
    cases += [generate(tmp / f"generated-{n}.pdf", n) for n in args.pages]
    if args.pdfs:
        cases += sorted(args.pdfs.glob("*.pdf"))
    print(f"{'document':34} {'pages':>5} {'elements':>8} {'tables':>6} {'figures':>7} {'build ms':>9} {'KiB':>8}")
    for pdf in cases:
        r = measure(pdf)
        if "error" in r:
            print(f"{r['name'][:34]:34} failed: {r['error']}")
            continue
        print(f"{r['name'][:34]:34} {r['pages']:5d} {r['elements']:8d} {r['tables']:6d} {r['figures']:7d} "
              f"{r['ms']:9.1f} {r['kib']:8.1f}")


if __name__ == "__main__":
    main()
