"""Ingest throughput and memory, printed as a table.

    .venv/bin/python bench/ingest.py [--pdfs ../shared/corpus/pdfs] [--big 500] [--index]
    .venv/bin/python bench/ingest.py --only e2e,reference,many   # the cases named below

Whole-process cases (wall clock from process start to exit, model load included):
- e2e: `pagelens ingest PDFS` (all corpus PDFs, default settings: parser pool, OCR auto, index);
- e2e-1worker: the same with one parser process (ingest.workers=1), for the pool's effect;
- reference: the simplest pipeline on the same PDFs — PyMuPDF plain text, fixed 800-character chunks,
  the same MiniLM (sentence-transformers, same precision), vectors kept in memory;
- many: N generated documents (20 pages of text and a ruled table each) in one ingest, printing the
  RSS of the process and its parser processes after every 10 documents (must stay flat);
- filings: N long filing-like documents (--filing-pages, default 50-150 pages: prose, and every other
  page a borderless statement table with a year header band), the same RSS lines, and pages/s.

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


def rss_tree_mb(pid: int | None = None) -> tuple[float, float]:
    """(RSS of the process, RSS of it plus its child processes), MB, from /proc."""
    pid = pid or os.getpid()

    def rss(p: int) -> float:
        try:
            with open(f"/proc/{p}/statm", encoding="ascii") as fh:
                return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
        except (OSError, ValueError, IndexError):
            return 0.0

    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                    if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                        kids.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    own = rss(pid)
    return own, own + sum(rss(k) for k in kids)


def many_worker(paths: list[str], home: str) -> None:
    """One ingest of many documents; an RSS line after every 10 indexed documents."""
    from pagelens.app import Pagelens
    from pagelens.settings import Settings

    settings = Settings(home=Path(home)).with_overrides(**{"ingest.ocr": "off"})
    finished: set[str] = set()
    t = time.perf_counter()

    def progress(name: str, stage: str, done: int, total: int) -> None:
        if stage == "index" and done == total and name not in finished:
            finished.add(name)
            if len(finished) % 10 == 0:
                own, tree = rss_tree_mb()
                print(json.dumps({"docs": len(finished), "seconds": time.perf_counter() - t, "rss_mb": own,
                                  "tree_rss_mb": tree}), flush=True)

    with Pagelens(settings) as app:
        results = app.ingest([Path(p) for p in paths], progress=progress)
    print(json.dumps({"pages": sum(r.pages for r in results), "ocr_pages": 0, "seconds": time.perf_counter() - t,
                      "failed": [r.error for r in results if r.status == "failed"]}))


def reference_worker(paths: list[str]) -> None:
    """PyMuPDF plain text + fixed 800-character chunks + the same MiniLM, vectors in memory."""
    import numpy as np
    import pymupdf
    from sentence_transformers import SentenceTransformer

    from pagelens.embed.sentence import autocast, resolve_model_path, resolve_precision

    model = SentenceTransformer(resolve_model_path("all-MiniLM-L6-v2")[0], device="cpu")
    pages, chunks = 0, []
    for p in paths:
        with pymupdf.open(p) as doc:
            pages += doc.page_count
            text = "\n".join(page.get_text() for page in doc)
        chunks += [text[i : i + 800] for i in range(0, len(text), 800) if text[i : i + 800].strip()]
    with autocast(resolve_precision("auto")):
        vectors = model.encode(chunks, batch_size=16, normalize_embeddings=True, convert_to_numpy=True)
    assert np.asarray(vectors).shape[0] == len(chunks)
    print(json.dumps({"pages": pages, "ocr_pages": 0, "chunks": len(chunks), "failed": []}))


def run_process(cmd: list[str], env: dict[str, str] | None = None) -> dict:
    """Run a whole process; wall clock from start to exit and its peak RSS (ru_maxrss from wait4: its
    largest process, parser processes included)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env={**os.environ, "HF_HUB_OFFLINE": "1", **(env or {})})
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t
        out.seek(0)
        err.seek(0)
        text = out.read().decode()
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            raise SystemExit(f"{cmd[:4]} failed: {err.read().decode()[-2000:]}")
    if text.lstrip().startswith('{"documents"') or text.lstrip().startswith("{\n"):
        docs = json.loads(text)["documents"]
        res = {"pages": sum(d["pages"] for d in docs), "ocr_pages": sum(d["ocr_pages"] for d in docs),
               "failed": [d["error"] for d in docs if d["status"] == "failed"], "chunks": sum(d["chunks"] for d in docs)}
        steps: list[dict] = []
    else:
        lines = [json.loads(ln) for ln in text.splitlines() if ln.startswith("{")]
        res, steps = lines[-1], lines[:-1]
    res.update(seconds=seconds, peak_rss_mb=usage.ru_maxrss / 1024, steps=steps,
               cpu_seconds=usage.ru_utime + usage.ru_stime)
    return res


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
        res["cpu_seconds"] = usage.ru_utime + usage.ru_stime
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


def generate_doc(path: Path, pages: int, seed: int) -> Path:
    """A filing-like document: paragraphs and a ruled 6x4 table per page, distinct per seed."""
    import pymupdf

    doc = pymupdf.open()
    for i in range(pages):
        page = doc.new_page()
        page.insert_text((72, 150), f"Item {i + 1}. Results of company {seed}", fontsize=14)
        body = (f"Company {seed} reported segment revenue of {seed * 31 + i * 7} million in period {i}, "
                f"while operating costs in region {i % 6} stayed at {seed + i * 3} million. ") * 7
        page.insert_textbox(pymupdf.Rect(72, 170, 523, 400), body, fontsize=10)
        for r in range(6):
            for c in range(4):
                rect = pymupdf.Rect(72 + c * 110, 430 + r * 20, 182 + c * 110, 450 + r * 20)
                page.draw_rect(rect, color=(0, 0, 0), width=0.5)
                cell = ["Segment", "2024", "2023", "Change"][c] if r == 0 else f"{(seed + 1) * (r + c + i)}"
                page.insert_text((rect.x0 + 4, rect.y1 - 6), cell, fontsize=8)
    doc.save(path)
    return path


def generate_filing(path: Path, pages: int, seed: int) -> Path:
    """A long filing-like document: a cover, prose, and every other page a borderless statement table
    (whitespace-aligned columns, a year header band, `$`, parenthesised negatives, dot leaders)."""
    import pymupdf

    doc = pymupdf.open()
    doc.set_metadata({"title": f"Company {seed} annual report on Form 10-K", "author": f"Company {seed} Inc."})
    labels = ["Net revenues", "Cost of revenues", "Research and development", "Selling, general and administrative",
              "Interest expense", "Other income (expense), net", "Income before income taxes", "Provision for taxes",
              "Net income", "Capital expenditures", "Depreciation and amortization", "Free cash flow"]
    for i in range(pages):
        page = doc.new_page()
        page.insert_text((72, 60), f"COMPANY {seed} INC. - FORM 10-K - PART {1 + i // 20}", fontsize=8)
        page.insert_text((72, 90), f"Item {i % 15 + 1}. Management's discussion, section {i + 1}", fontsize=13)
        body = (f"In fiscal {2020 + i % 4} company {seed} reported net revenues of ${seed * 17 + i * 3}.{i % 10} million "
                f"in segment {i % 7}, while interest expense was ${(seed + i) % 9}.{seed % 10} million and the effective "
                f"tax rate stood at {10 + (seed + i) % 20}.{i % 10}%. Liquidity remained adequate for operations. ") * 4
        if i % 2 == 0:
            page.insert_textbox(pymupdf.Rect(72, 110, 523, 760), body * 2, fontsize=9.5)
        else:
            page.insert_textbox(pymupdf.Rect(72, 110, 523, 330), body, fontsize=9.5)
            page.insert_text((72, 355), f"Consolidated statement of operations (in millions), page {i + 1}", fontsize=10)
            for c, year in enumerate(("2024", "2023", "2022")):
                page.insert_text((330 + c * 75, 378), year, fontsize=9)
            for r, label in enumerate(labels):
                y = 398 + r * 16
                page.insert_text((72, y), f"{label} {'.' * (8 if r % 3 == 0 else 0)}", fontsize=9)
                for c in range(3):
                    v = (seed * 37 + r * 113 + c * 29 + i * 7) % 9000 / 10
                    cell = f"({v:,.1f})" if (r + c) % 5 == 4 else f"{'$ ' if r == 0 else ''}{v:,.1f}"
                    page.insert_text((330 + c * 75, y), cell, fontsize=9)
    doc.save(path)
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfs", type=Path, default=REPO.parent / "shared" / "corpus" / "pdfs")
    ap.add_argument("--big", type=int, default=500, help="Pages of the generated PDF (0 = skip).")
    ap.add_argument("--index", action="store_true", help="Also measure end-to-end ingest with embedding.")
    ap.add_argument("--only", help="Comma-separated cases: parse,ocr,scanned,index,big,e2e,e2e-1worker,reference,many,filings.")
    ap.add_argument("--baseline-src", type=Path,
                    help="Another pagelens source tree (e.g. `git archive main src`): adds its e2e and filings cases to the same run.")
    ap.add_argument("--many", type=int, default=40, help="Documents in the many-documents case.")
    ap.add_argument("--filings", type=int, default=40, help="Documents in the long-filings case.")
    ap.add_argument("--filing-pages", default="50-150", help="Page range of the long filings (min-max).")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--mode", default="pagelens", help=argparse.SUPPRESS)
    ap.add_argument("--home", help=argparse.SUPPRESS)
    ap.add_argument("--ocr", default="off", help=argparse.SUPPRESS)
    ap.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        if args.mode == "reference":
            reference_worker(args.paths)
        elif args.mode == "many":
            many_worker(args.paths, args.home)
        else:
            worker(args.paths, args.home, args.ocr, args.index)
        return
    only = set(args.only.split(",")) if args.only else {"parse", "ocr", "scanned", "index", "big", "e2e", "reference"}

    pdfs = sorted(args.pdfs.glob("*.pdf"))
    digital = [p for p in pdfs if has_text_layer(p)]
    scanned = [p for p in pdfs if p not in digital]
    rows = []

    def add(name: str, res: dict) -> None:
        rows.append((name, res["pages"], res["ocr_pages"], res["seconds"], res["pages"] / res["seconds"],
                     res["peak_rss_mb"], len(res["failed"]), res.get("cpu_seconds", 0.0)))

    if "e2e" in only:  # first: the table's headline, beside the reference on the same machine state
        with tempfile.TemporaryDirectory(prefix="pagelens-bench-") as home:
            add("pagelens ingest (e2e)", run_process(
                [sys.executable, "-m", "pagelens.cli.main", "--home", home, "-q", "ingest", "--json", *map(str, pdfs)]))
    if args.baseline_src and "e2e" in only:
        with tempfile.TemporaryDirectory(prefix="pagelens-bench-") as home:
            add("baseline src ingest (e2e)", run_process(
                [sys.executable, "-m", "pagelens.cli.main", "--home", home, "-q", "ingest", "--json", *map(str, pdfs)],
                env={"PYTHONPATH": str(args.baseline_src.resolve())}))
    if "reference" in only:
        add("reference: text+800ch+MiniLM", run_process(
            [sys.executable, __file__, "--worker", "--mode", "reference", *map(str, pdfs)]))
    if "e2e-1worker" in only:
        with tempfile.TemporaryDirectory(prefix="pagelens-bench-") as home:
            os.environ["PAGELENS_INGEST__WORKERS"] = "1"
            try:
                add("pagelens e2e, 1 parser", run_process(
                    [sys.executable, "-m", "pagelens.cli.main", "--home", home, "-q", "ingest", "--json", *map(str, pdfs)]))
            finally:
                del os.environ["PAGELENS_INGEST__WORKERS"]
    if "parse" in only:
        add("born-digital (parse)", run_case(digital, ocr="off"))
    if "ocr" in only:
        add("born-digital (+figure OCR)", run_case(digital, ocr="auto"))
    if scanned and "scanned" in only:
        add("scanned (OCR, auto)", run_case(scanned, ocr="auto"))
    if args.index and "index" in only:
        add("born-digital + index", run_case(digital, ocr="off", index=True))
        add("born-digital +OCR +index", run_case(digital, ocr="auto", index=True))
    if args.big and "big" in only:
        with tempfile.TemporaryDirectory() as tmp:
            for n in sorted({max(1, args.big // 5), args.big}):
                add(f"generated {n} pages", run_case([generate(Path(tmp) / f"gen{n}.pdf", n)], ocr="off"))
    steps: list[dict] = []
    if "many" in only:
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory(prefix="pagelens-bench-") as home:
            docs = [generate_doc(Path(tmp) / f"filing{i:03d}.pdf", 20, i) for i in range(args.many)]
            res = run_process([sys.executable, __file__, "--worker", "--mode", "many", "--home", home, *map(str, docs)])
            add(f"many: {args.many} docs x 20 pages", res)
            steps = res["steps"]

    if "filings" in only:
        lo, hi = (int(x) for x in args.filing_pages.split("-"))
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory(prefix="pagelens-bench-") as home:
            docs = [generate_filing(Path(tmp) / f"10k-{i:03d}.pdf", lo + (i * 37) % (hi - lo + 1), i)
                    for i in range(args.filings)]
            res = run_process([sys.executable, __file__, "--worker", "--mode", "many", "--home", home, *map(str, docs)])
            add(f"filings: {args.filings} x {lo}-{hi} pages", res)
            steps = steps + [dict(st, case="filings") for st in res["steps"]]
            if args.baseline_src:  # the same documents through the code before, right after
                with tempfile.TemporaryDirectory(prefix="pagelens-bench-") as home2:
                    res = run_process([sys.executable, __file__, "--worker", "--mode", "many", "--home", home2,
                                       *map(str, docs)], env={"PYTHONPATH": str(args.baseline_src.resolve())})
                add("filings, baseline src", res)
                steps = steps + [dict(st, case="baseline") for st in res["steps"]]

    # CPU s: user + system time of the process and every process it waited for (parsers included); on a
    # shared machine it moves less with the load than the wall clock does.
    print(f"{'case':30} {'pages':>6} {'ocr':>4} {'seconds':>8} {'CPU s':>7} {'pages/s':>8} {'s/page':>7} "
          f"{'peak RSS MB':>11} {'failed':>6}")
    for name, pages, ocr, secs, pps, rss, failed, cpu in rows:
        print(f"{name:30} {pages:6d} {ocr:4d} {secs:8.2f} {cpu:7.1f} {pps:8.1f} {secs / max(pages, 1):7.3f} "
              f"{rss:11.0f} {failed:6d}")
    if steps:
        print(f"\n{'case':8} {'documents':>9} {'seconds':>8} {'RSS MB':>7} {'with parsers MB':>15}")
        for st in steps:
            print(f"{st.get('case', 'many'):8} {st['docs']:9d} {st['seconds']:8.1f} {st['rss_mb']:7.0f} {st['tree_rss_mb']:15.0f}")


if __name__ == "__main__":
    main()
