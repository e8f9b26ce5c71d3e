"""Ingest throughput and memory, printed as a table.

    .venv/bin/python bench/ingest.py [--pdfs ../shared/corpus/pdfs] [--big 500] [--index]

Each case runs in its own process (fresh data home) so peak RSS is per case:
- born-digital: every corpus PDF whose pages have a text layer, parsing only (no OCR, no embedding);
- scanned: pages without a text layer, with the default OCR engine;
- generated N-page PDFs (text, a table and a vector figure per page) at N/5 and N pages: peak RSS must
  stay flat in page count;
- with --index: end to end (parse + chunk + embed + upsert) on the born-digital corpus.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def worker(paths: list[str], home: str, ocr: str, index: bool) -> None:
    from pagelens.app import Pagelens
    from pagelens.settings import Settings

    settings = Settings(home=Path(home)).with_overrides(**{"ingest.ocr": ocr})
    t = time.perf_counter()
    with Pagelens(settings) as app:
        results = app.ingest([Path(p) for p in paths], index=index)
    seconds = time.perf_counter() - t
    out = {
        "pages": sum(r.pages for r in results),
        "ocr_pages": sum(r.ocr_pages for r in results),
        "failed": [r.error for r in results if r.status == "failed"],
        "seconds": seconds,
        "parse_seconds": sum(r.seconds for r in results),
    }
    print(json.dumps(out))


def run_case(paths: list[Path], ocr: str = "off", index: bool = False) -> dict:
    with tempfile.TemporaryDirectory(prefix="pagelens-bench-") as home:
        cmd = [sys.executable, __file__, "--worker", "--home", home, "--ocr", ocr, *(["--index"] if index else []),
               *map(str, paths)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "HF_HUB_OFFLINE": "1"})
        _, status, usage = os.wait4(proc.pid, 0)
        out = proc.stdout.read().decode()
        if status != 0:
            raise SystemExit(f"worker failed: {proc.stderr.read().decode()[-2000:]}")
        res = json.loads(out.strip().splitlines()[-1])
        res["peak_rss_mb"] = usage.ru_maxrss / 1024
        return res


def has_text_layer(path: Path) -> bool:
    """Born-digital: most pages carry a text layer (a scan has none)."""
    import pymupdf

    with pymupdf.open(path) as doc:
        return sum(len(p.get_text().strip()) > 25 for p in doc) * 2 > doc.page_count


def generate(path: Path, pages: int) -> Path:
    """A long report: per page two paragraphs, a ruled 4x5 table and a small vector chart."""
    import pymupdf

    doc = pymupdf.open()
    for i in range(pages):
        page = doc.new_page()
        page.insert_text((72, 60), f"Quarterly report, section {i // 10 + 1}", fontsize=16)
        body = (f"Page {i + 1}. The measured throughput of unit {i} was {i * 3.7:.1f} items per hour, "
                "while the reference line stayed flat. ") * 6
        page.insert_textbox(pymupdf.Rect(72, 80, 523, 300), body, fontsize=10)
        y0 = 320
        for r in range(5):
            for c in range(4):
                rect = pymupdf.Rect(72 + c * 110, y0 + r * 20, 182 + c * 110, y0 + (r + 1) * 20)
                page.draw_rect(rect, color=(0, 0, 0), width=0.5)
                page.insert_text((rect.x0 + 4, rect.y1 - 6), f"r{r}c{c}={r * c + i}", fontsize=8)
        page.insert_text((72, y0 + 118), f"Table {i + 1}: values of page {i + 1}", fontsize=9)
        for b in range(8):
            h = 20 + (b * 13 + i) % 60
            page.draw_rect(pymupdf.Rect(100 + b * 30, 620 - h, 120 + b * 30, 620), color=(0, 0, 0), fill=(0.4, 0.4, 0.8))
        page.draw_line((90, 620), (360, 620))
        page.insert_text((72, 645), f"Figure {i + 1}: bars of page {i + 1}", fontsize=9)
    doc.save(path)
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfs", type=Path, default=REPO.parent / "shared" / "corpus" / "pdfs")
    ap.add_argument("--big", type=int, default=500, help="Pages of the generated PDF (0 = skip).")
    ap.add_argument("--index", action="store_true", help="Also measure end-to-end ingest with embedding.")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--home", help=argparse.SUPPRESS)
    ap.add_argument("--ocr", default="off", help=argparse.SUPPRESS)
    ap.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.paths, args.home, args.ocr, args.index)
        return

    pdfs = sorted(args.pdfs.glob("*.pdf"))
    digital = [p for p in pdfs if has_text_layer(p)]
    scanned = [p for p in pdfs if p not in digital]
    rows = []

    def add(name: str, res: dict) -> None:
        rows.append((name, res["pages"], res["ocr_pages"], res["seconds"], res["pages"] / res["seconds"],
                     res["peak_rss_mb"], len(res["failed"])))

    add("born-digital (parse)", run_case(digital, ocr="off"))
    add("born-digital (+figure OCR)", run_case(digital, ocr="auto"))
    if scanned:
        add("scanned (OCR, auto)", run_case(scanned, ocr="auto"))
    if args.index:
        add("born-digital + index", run_case(digital, ocr="off", index=True))
        add("born-digital +OCR +index", run_case(digital, ocr="auto", index=True))
    if args.big:
        with tempfile.TemporaryDirectory() as tmp:
            for n in sorted({max(1, args.big // 5), args.big}):
                add(f"generated {n} pages", run_case([generate(Path(tmp) / f"gen{n}.pdf", n)], ocr="off"))

    print(f"{'case':26} {'pages':>6} {'ocr':>4} {'seconds':>8} {'pages/s':>8} {'s/page':>7} {'peak RSS MB':>11} {'failed':>6}")
    for name, pages, ocr, secs, pps, rss, failed in rows:
        print(f"{name:26} {pages:6d} {ocr:4d} {secs:8.2f} {pps:8.1f} {secs / max(pages, 1):7.3f} {rss:11.0f} {failed:6d}")


if __name__ == "__main__":
    main()
