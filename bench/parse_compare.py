"""Do two source trees parse the same PDFs into the same elements? (every field of every element)

    .venv/bin/python bench/parse_compare.py --baseline-src /tmp/main/src [--pdfs DIR] [--filings 20 --filing-pages 30-60] [--ocr off]

Each tree runs in a fresh process: one parser ``Worker`` parses every page of every PDF (the code a
parser process runs; figure PNGs go to a scratch image store, so a figure's image id is the hash of
its PNG bytes), and every element is dumped with all its fields. The dumps must be equal; the first
differences are printed. ``--filings N`` adds N synthetic filings (``bench/ingest.py``'s generator),
the long-report case whose pages are mostly tables. CPU seconds of each parse are printed beside.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def worker(out: str, ocr: str, pdfs: list[str]) -> None:
    import io
    import time

    from pagelens import pdf_layout_import

    pdf_layout_import.defer()
    from pagelens.ingest.pdf import read_bytes, sha256
    from pagelens.ingest.worker import Worker
    from pagelens.settings import Settings

    dump: dict[str, list] = {}
    with tempfile.TemporaryDirectory(prefix="pagelens-compare-") as home:
        w = Worker(Settings(home=Path(home)).with_overrides(**{"ingest.ocr": ocr}), io.StringIO())
        w.out = open(os.devnull, "w")  # noqa: SIM115
        t0 = time.process_time()
        for p in pdfs:
            path = Path(p)
            result = w.prepare(path, sha256(read_bytes(path)), 10**9)
            dump[path.name] = [result["meta_elements"], result["furniture"], result["pages"]]
        cpu = time.process_time() - t0
    Path(out).write_text(json.dumps(dump, sort_keys=True))
    print(json.dumps({"cpu": cpu}))


def run(src: Path, out: str, ocr: str, pdfs: list[Path]) -> float:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(src)}
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", "--out", out, "--ocr", ocr, *map(str, pdfs)],
        capture_output=True, text=True, env=env,
    )
    if proc.returncode != 0:
        raise SystemExit(f"{src}: {proc.stderr[-3000:]}")
    return float(json.loads(proc.stdout.strip().splitlines()[-1])["cpu"])


def differences(a: object, b: object, where: str = "", limit: int = 5) -> list[str]:
    out: list[str] = []
    if type(a) is not type(b):
        return [f"{where}: {a!r:.120} != {b!r:.120}"]
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):  # type: ignore[arg-type]
            out += differences(a.get(k), b.get(k), f"{where}.{k}", limit - len(out))  # type: ignore[union-attr]
            if len(out) >= limit:
                break
    elif isinstance(a, list):
        if len(a) != len(b):  # type: ignore[arg-type]
            out.append(f"{where}: {len(a)} items != {len(b)}")  # type: ignore[arg-type]
        for i, (x, y) in enumerate(zip(a, b)):  # type: ignore[call-overload]
            out += differences(x, y, f"{where}[{i}]", limit - len(out))
            if len(out) >= limit:
                break
    elif a != b or repr(a) != repr(b):
        out.append(f"{where}: {a!r:.120} != {b!r:.120}")
    return out[:limit]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline-src", type=Path, required=False)
    ap.add_argument("--pdfs", type=Path, help="A folder of PDFs (e.g. the dev corpus).")
    ap.add_argument("--filings", type=int, default=0, help="Also this many synthetic filings.")
    ap.add_argument("--filing-pages", default="30-60")
    ap.add_argument("--ocr", default="off")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.out, args.ocr, args.paths)
        return
    if args.baseline_src is None:
        raise SystemExit("--baseline-src is required")
    with tempfile.TemporaryDirectory(prefix="pagelens-compare-") as tmp:
        pdfs = sorted(args.pdfs.glob("*.pdf")) if args.pdfs else []
        if args.filings:
            sys.path.insert(0, str(REPO / "bench"))
            from ingest import generate_filing  # type: ignore[import-not-found]

            lo, hi = (int(x) for x in args.filing_pages.split("-"))
            pdfs += [generate_filing(Path(tmp) / f"10k-{i:03d}.pdf", lo + (i * 37) % (hi - lo + 1), i) for i in range(args.filings)]
        if not pdfs:
            raise SystemExit("no PDFs: pass --pdfs and/or --filings")
        now = run(REPO / "src", f"{tmp}/now.json", args.ocr, pdfs)
        before = run(args.baseline_src.resolve(), f"{tmp}/before.json", args.ocr, pdfs)
        a = json.loads(Path(f"{tmp}/now.json").read_text())
        b = json.loads(Path(f"{tmp}/before.json").read_text())
        pages = sum(len(v[2]) for v in a.values())
        elements = sum(len(p["elements"]) for v in a.values() for p in v[2])
        tables = sum(1 for v in a.values() for p in v[2] for e in p["elements"] if e["kind"] == "table")
        print(f"{len(pdfs)} PDFs, {pages} pages, {elements} elements ({tables} tables), OCR {args.ocr}")
        print(f"parse CPU seconds: now {now:.2f}, before {before:.2f}")
        diff = [name for name in sorted(set(a) | set(b)) if a.get(name) != b.get(name)]
        print(f"identical: {not diff}")
        for name in diff[:5]:
            for line in differences(a.get(name), b.get(name), name):
                print("  " + line)
        if diff:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
