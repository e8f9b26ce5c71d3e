"""Tesseract's cost in ingest, before (CLI process per image, every figure pass) and now (libtesseract
in-process, fewer figure passes), side by side in one run, plus what OCR text each keeps.

    .venv/bin/python bench/ocr.py [--pdfs ../shared/corpus/pdfs] [--baseline-ref main]

Every case parses the corpus in its own process (fresh home, parsing only: no embedding, no parser
pool) with the OCR engine wrapped to count calls:
- before: the source of --baseline-ref (`git archive REF src`) with the Tesseract CLI engine;
- now, CLI: this source (fewer figure passes) with the CLI engine;
- now, library: this source with the in-process engine (what `ocr_tesseract=auto` picks here);
- congruence: the baseline's passes (every image the old code OCRs), each image read by both engines;
  the in-process engine is loaded from this tree by file path.
Tesseract CPU s: the CLI's child processes (user+sys, from wait), or the calling thread's CPU time
around each in-process call. Case CPU s: the whole case process (parsing included, children included).
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import json
import os
import re
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_WORD = re.compile(r"[^\W\d_]{3,}")


# -- worker (runs under the source being measured) ------------------------------------------------
def _lib_engine_class() -> type:
    """TesseractLibOcrEngine from this tree, whatever ``pagelens`` the process imported."""
    spec = importlib.util.spec_from_file_location("bench_tesseract_lib", REPO / "src/pagelens/ocr/tesseract_lib.py")
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod.TesseractLibOcrEngine


class Recording:
    """Counts calls and CPU; with ``twin``, also reads every image with it and records both results."""

    def __init__(self, inner: object, twin: object | None = None) -> None:
        self.inner, self.twin = inner, twin
        self.name = "tesseract"
        self.cache_id = getattr(inner, "cache_id", "tesseract")
        self.supports_sparse = True
        self.calls: list[dict] = []
        self.thread_cpu = 0.0

    def recognize(self, png: bytes, *, sparse: bool = False) -> list:
        t = time.thread_time()
        lines = self.inner.recognize(png, sparse=sparse)  # type: ignore[attr-defined]
        self.thread_cpu += time.thread_time() - t
        call = {"sparse": sparse, "bytes": len(png), "words": sum(len(ln.text.split()) for ln in lines)}
        if self.twin is not None:
            other = self.twin.recognize(png, sparse=sparse)  # type: ignore[attr-defined]
            call["a"] = [[ln.text, list(ln.bbox), ln.confidence, ln.block] for ln in lines]
            call["b"] = [[ln.text, list(ln.bbox), ln.confidence, ln.block] for ln in other]
        self.calls.append(call)
        return lines


def worker(mode: str, home: str, paths: list[str]) -> None:
    import resource

    from pagelens.ingest.pipeline import Ingestor
    from pagelens.models import Provenance
    from pagelens.ocr.tesseract import TesseractOcrEngine
    from pagelens.settings import IngestSettings
    from pagelens.store.catalog import Catalog
    from pagelens.store.images import ImageStore

    if mode == "cli":
        engine = Recording(TesseractOcrEngine("eng"))
    elif mode == "library":
        engine = Recording(_lib_engine_class()("eng"))
    else:  # congruence: in-process first, the CLI on the same image
        engine = Recording(_lib_engine_class()("eng"), twin=TesseractOcrEngine("eng"))
    catalog = Catalog(Path(home) / "catalog.sqlite3")
    ing = Ingestor(IngestSettings(ocr="tesseract"), catalog, ImageStore(Path(home) / "images"), engine)  # type: ignore[arg-type]
    figures: dict[str, str] = {}
    pages: dict[str, str] = {}
    t = time.perf_counter()
    for p in paths:
        res = ing.ingest_file(Path(p), index=False)
        if res.doc_id is None:
            continue
        for e in catalog.elements(res.doc_id):
            if e.figure is not None and e.figure.source == "raster":
                figures[f"{Path(p).name} p{e.page} {e.figure.image[:8]}"] = e.figure.ocr_text or ""
            elif e.provenance == Provenance.OCR:
                key = f"{Path(p).name} p{e.page}"
                pages[key] = f"{pages.get(key, '')} {e.text}".strip()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({
        "seconds": time.perf_counter() - t, "calls": engine.calls, "figures": figures, "pages": pages,
        "tesseract_cpu": engine.thread_cpu if mode == "library" else children.ru_utime + children.ru_stime,
    }))


# -- driver ---------------------------------------------------------------------------------------
def run_case(mode: str, paths: list[Path], src: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="pagelens-bench-ocr-") as home:
        cmd = [sys.executable, __file__, "--worker", mode, "--home", home, *map(str, paths)]
        env = {**os.environ, "PYTHONPATH": str(src), "HF_HUB_OFFLINE": "1"}
        t = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        out, err = proc.communicate()
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise SystemExit(f"{mode} failed: {err.decode()[-2000:]}")
    res = json.loads(out.decode().strip().splitlines()[-1])
    res["wall"] = wall
    res["case_cpu"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return res


def baseline_tree(ref: str, into: Path) -> Path:
    data = subprocess.run(["git", "-C", str(REPO), "archive", ref, "src"], capture_output=True, check=True).stdout
    tar = into / "src.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as tf:
        tf.extractall(into, filter="data")
    return into / "src"


def words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdfs", type=Path, default=REPO.parent / "shared" / "corpus" / "pdfs")
    ap.add_argument("--baseline-ref", default="main", help="git ref whose src/ is the 'before' case")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--home", help=argparse.SUPPRESS)
    ap.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.home, args.paths)
        return

    import pymupdf

    pdfs = sorted(args.pdfs.glob("*.pdf"))
    if not pdfs:
        raise SystemExit(f"no PDFs in {args.pdfs} (pass --pdfs)")
    here = REPO / "src"
    with tempfile.TemporaryDirectory(prefix="pagelens-baseline-") as tmp:
        base = baseline_tree(args.baseline_ref, Path(tmp))
        cases = [
            (f"before ({args.baseline_ref}, CLI)", run_case("cli", pdfs, base)),
            ("now, CLI engine", run_case("cli", pdfs, here)),
            ("now, in-process engine", run_case("library", pdfs, here)),
        ]
        congruence = run_case("congruence", pdfs, base)

    print(f"\nTesseract on the dev corpus ({len(pdfs)} PDFs), parsing only, one process per case (shared machine)")
    print(f"{'case':30} {'page calls':>10} {'figure calls':>12} {'Tesseract CPU s':>15} {'case CPU s':>10} "
          f"{'case wall s':>11}")
    for name, res in cases:
        page_calls = sum(1 for c in res["calls"] if not c["sparse"])
        fig_calls = sum(1 for c in res["calls"] if c["sparse"])
        print(f"{name:30} {page_calls:10d} {fig_calls:12d} {res['tesseract_cpu']:15.2f} {res['case_cpu']:10.1f} "
              f"{res['wall']:11.1f}")

    print("\nSame image, in-process vs CLI (every image the baseline OCRs)")
    print(f"{'call':>4} {'mode':6} {'words lib':>9} {'words cli':>9} {'text sim':>8} {'identical lines+boxes+conf':>26}")
    same = 0
    for i, c in enumerate(congruence["calls"]):
        ta = " ".join(r[0] for r in c["a"])
        tb = " ".join(r[0] for r in c["b"])
        sim = difflib.SequenceMatcher(None, ta, tb, autojunk=False).ratio() if (ta or tb) else 1.0
        ident = c["a"] == c["b"]
        same += ident
        print(f"{i + 1:4d} {'sparse' if c['sparse'] else 'page':6} {len(ta.split()):9d} {len(tb.split()):9d} "
              f"{sim:8.3f} {'yes' if ident else 'NO':>26}")
    print(f"identical: {same}/{len(congruence['calls'])}")

    before, now = cases[0][1], cases[2][1]
    print("\nFigure OCR text, before vs now (words of 3+ letters; 'lost' = not read now; 'in text layer' = on the page anyway)")
    print(f"{'figure':52} {'before':>6} {'now':>5} {'lost':>5} {'lost, in text layer':>19} {'new':>4}")
    docs = {p.name: p for p in pdfs}
    totals = [0, 0, 0, 0, 0]
    for key in sorted(set(before["figures"]) | set(now["figures"])):
        wb, wn = words(before["figures"].get(key, "")), words(now["figures"].get(key, ""))
        if not wb and not wn:
            continue
        name, page = key.split(" ")[0], int(key.split(" ")[1][1:])
        with pymupdf.open(docs[name]) as doc:
            layer = words(doc[page - 1].get_text())
        lost = wb - wn
        row = [len(wb), len(wn), len(lost - layer), len(lost & layer), len(wn - wb)]
        totals = [a + b for a, b in zip(totals, row)]
        print(f"{key:52} {row[0]:6d} {row[1]:5d} {row[2]:5d} {row[3]:19d} {row[4]:4d}")
        if lost - layer:
            print(f"{'':52}   lost: {' '.join(sorted(lost - layer))[:90]}")
    print(f"{'total':52} {totals[0]:6d} {totals[1]:5d} {totals[2]:5d} {totals[3]:19d} {totals[4]:4d}")

    print("\nScanned/OCR'd pages, before vs now")
    for key in sorted(set(before["pages"]) | set(now["pages"])):
        a, b = before["pages"].get(key, ""), now["pages"].get(key, "")
        sim = difflib.SequenceMatcher(None, a.split(), b.split(), autojunk=False).ratio()
        print(f"{key:52} words {len(a.split()):4d} → {len(b.split()):4d}, word-sequence similarity {sim:.3f}")


if __name__ == "__main__":
    main()
