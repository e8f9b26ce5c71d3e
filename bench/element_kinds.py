"""Tables and figures per document, this code beside another source tree, in one run.

    PYTHONPATH=src .venv/bin/python bench/element_kinds.py --before /work/main/src --pdfs ~/.cache/pagelens-realdocs/pdfs
    PYTHONPATH=src .venv/bin/python bench/element_kinds.py --before /work/main/src --pdfs /work/shared/corpus/pdfs --pages

Each tree parses every text page of every PDF in its own process, the way the pipeline does (tables,
figures, form fields, text; no OCR: scanned pages are skipped, their tables are OCR's business), and
counts TABLE and FIGURE elements. ``--pages`` lists the pages whose tables or figures differ. CPU
seconds of each parse are printed beside (a shared machine: compare them within one run only).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def worker(pdf_dir: str) -> None:
    import time

    import pymupdf

    from pagelens.ingest import furniture, ocr_page
    from pagelens.ingest.context import PageContext
    from pagelens.ingest.pipeline import Ingestor
    from pagelens.settings import Settings
    from pagelens.store.images import ImageStore

    out: dict[str, dict[str, list[str]]] = {}
    with tempfile.TemporaryDirectory(prefix="pagelens-kinds-") as home:
        s = Settings(home=Path(home)).with_overrides(**{"ingest.ocr": "off"})
        images = ImageStore(Path(home) / "img")
        ing = Ingestor(s.ingest, None, images)  # type: ignore[arg-type]  (_extract needs no catalog)
        t0 = time.process_time()
        for path in sorted(Path(pdf_dir).glob("*.pdf")):
            data = path.read_bytes()
            with pymupdf.open(stream=data, filetype="pdf") as pdf:
                running = furniture.detect_furniture(pdf)
                pages: dict[str, list[str]] = {}
                for pno in range(pdf.page_count):
                    ctx = PageContext.build(pdf[pno], doc_id="d", file_name=path.name, settings=s.ingest,
                                            images=images, ocr=None, furniture=running, pdf_bytes=data)
                    if ocr_page.needs_ocr(ctx):
                        continue
                    kinds = [e.kind.value for e in ing._extract(ctx).elements]
                    pages[str(pno + 1)] = [k for k in kinds if k in ("table", "figure")]
                out[path.name] = pages
        cpu = time.process_time() - t0
    print(json.dumps({"cpu": cpu, "docs": out}))


def run(src: Path, pdfs: Path) -> dict:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(src)}
    proc = subprocess.run([sys.executable, __file__, "--worker", str(pdfs)], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"{src}: {proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True, help="src folder of the code to compare with")
    ap.add_argument("--pdfs", type=Path, default=Path.home() / ".cache" / "pagelens-realdocs" / "pdfs")
    ap.add_argument("--pages", action="store_true", help="list the pages whose tables or figures differ")
    args = ap.parse_args()
    here = Path(__file__).resolve().parent.parent / "src"
    after = Path(os.environ.get("PYTHONPATH", str(here)).split(os.pathsep)[0])
    a, b = run(args.before, args.pdfs), run(after, args.pdfs)

    def count(doc: dict[str, list[str]], kind: str) -> int:
        return sum(v.count(kind) for v in doc.values())

    print(f"{'document':48} {'pages':>5} {'tables':>13} {'figures':>13}")
    totals = [0, 0, 0, 0]
    for name in sorted(a["docs"]):
        da, db = a["docs"][name], b["docs"].get(name, {})
        row = [count(da, "table"), count(db, "table"), count(da, "figure"), count(db, "figure")]
        totals = [t + r for t, r in zip(totals, row)]
        print(f"{name[:48]:48} {len(da):5d} {row[0]:5d} -> {row[1]:4d} {row[2]:5d} -> {row[3]:4d}")
        if args.pages:
            for p in da:
                if sorted(da[p]) != sorted(db.get(p, [])):
                    print(f"    p{p}: {da[p]} -> {db.get(p, [])}")
    print(f"{'all':48} {'':5} {totals[0]:5d} -> {totals[1]:4d} {totals[2]:5d} -> {totals[3]:4d}")
    print(f"parse CPU s: before {a['cpu']:.2f}, after {b['cpu']:.2f}")


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main()
