"""Where the dev corpus's OCR CPU goes, call by call, and what a parser process costs to start (issue 12).

    .venv/bin/python bench/ocr_account.py [--pdfs ../shared/corpus/pdfs] [--pdfs-extra DIR ...]

1. Engine: CPU of the first ``TessBaseAPI`` (Init3: loads eng.traineddata) and of a second one (the
   figure-OCR thread takes its own while the page thread holds the first).
2. Every Tesseract call the ingest makes, found by parsing the corpus the way a parser process does
   (in-process engine, OCR on): scanned pages (PSM 3) and figure passes (PSM 11, upright and every
   rotated pass the chart rule allows; "skip" marks the ones ``figure_passes.rotations`` now leaves out),
   each with the CPU of preparing its image (page render + PNG; figure decode, blank test, resize,
   rotation, PNG) and of the read itself, the words read, and what the words add — for figures the
   share of the pass's words that are not already on the page (text layer or earlier passes).
3. Scanned-page resolution: each scanned page rendered at 300 (today) … 150 dpi, read, and compared
   with the 300 dpi words (word agreement = matched words / words at 300 dpi, difflib), with the
   median OCR line height (ascender to descender; x-height is about half of it).
4. A parser process's start, part by part (interpreter, imports, catalog, OCR engine), in fresh
   interpreters.

CPU = ``time.thread_time`` of the calling thread (Tesseract runs one OpenMP thread per call), best of
``--repeat``; on a shared machine the absolute numbers move, the shares much less.
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import math
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

_WORD = re.compile(r"[^\W_]{2,}")


def words_of(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


@dataclass
class Call:
    doc: str
    page: int
    what: str  # "page", "figure", "figure rot-90", …
    px: str
    prep: float
    read: float
    words: int
    inner: int = 0  # figures: characters of text-layer text inside the figure's region
    novel: str = ""  # figures: "new/read" words against the page and earlier passes
    new_words: list[str] = field(default_factory=list)


def best(fn, repeat: int):  # type: ignore[no-untyped-def]
    out, cpu = None, math.inf
    for _ in range(repeat):
        t = time.thread_time()
        out = fn()
        cpu = min(cpu, time.thread_time() - t)
    return out, cpu


def account(pdfs: list[Path], repeat: int) -> tuple[list[Call], float, float]:
    import pymupdf
    from PIL import Image

    from pagelens.ingest import figure_passes
    from pagelens.ingest import ocr_page as op
    from pagelens.ingest.context import PageContext
    from pagelens.ingest.pipeline import Ingestor
    from pagelens.models import ElementKind
    from pagelens.ocr.tesseract_lib import TesseractLibOcrEngine
    from pagelens.settings import IngestSettings
    from pagelens.store.catalog import Catalog
    from pagelens.store.images import ImageStore

    t = time.thread_time()
    engine = TesseractLibOcrEngine("eng")
    init1 = time.thread_time() - t
    t = time.thread_time()
    engine._release(engine._new_handle())
    init2 = time.thread_time() - t

    calls: list[Call] = []
    with tempfile.TemporaryDirectory(prefix="pagelens-bench-ocracct-") as home:
        images = ImageStore(Path(home) / "images")
        settings = IngestSettings(ocr="tesseract")
        ing = Ingestor(settings, Catalog(Path(home) / "c.sqlite3"), images, engine)
        for path in pdfs:
            pdf = pymupdf.open(path)
            for pno in range(pdf.page_count):
                page = pdf.load_page(pno)
                ctx = PageContext.build(page, doc_id="x", file_name=path.name, settings=settings, images=images,
                                        ocr=engine, furniture=set(), pdf_bytes=None)
                if op.needs_ocr(ctx):
                    def render() -> tuple[bytes, str]:
                        zoom = settings.ocr_dpi / 72.0
                        pixels = page.rect.width * zoom * page.rect.height * zoom
                        if pixels > settings.max_render_pixels:
                            zoom *= math.sqrt(settings.max_render_pixels / pixels)
                        pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY, alpha=False)
                        return op.page_png(pix), f"{pix.width}x{pix.height}"
                    (png, px), prep = best(render, repeat)
                    lines, cpu = best(lambda png=png: engine.recognize(png), repeat)
                    kept = [ln for ln in lines if op.keep_line(ln)]
                    calls.append(Call(path.name, pno + 1, "page", px, prep, cpu, sum(len(ln.text.split()) for ln in kept)))
                    continue
                els = ing._parse_page(pdf, pno, "x", path.name, set()).elements
                figs = op.figures_to_read(els, vector=settings.ocr_vector_figures)
                if not figs:
                    continue
                on_page = words_of(page.get_text()) | words_of(" ".join(e.text or "" for e in els if e.kind != ElementKind.FIGURE))
                for e in figs:
                    inner = len((e.figure.inner_text or "").strip())
                    for c in figure_calls(engine, images.get(e.figure.image), path.name, pno + 1, on_page, repeat, op,
                                          figure_passes, Image):
                        c.inner = inner
                        calls.append(c)
    return calls, init1, init2


def figure_calls(engine, png, doc, pno, on_page, repeat, op, figure_passes, Image) -> list[Call]:  # type: ignore[no-untyped-def]
    """The passes ``ocr_page.read_figure`` makes on one figure, each timed (the same steps, in order)."""
    from pagelens.ocr.cache import recognize

    def prepare():  # type: ignore[no-untyped-def]
        with Image.open(io.BytesIO(png)) as src:
            img = src.convert("L")
        if figure_passes.is_blank(img):
            return img, None
        scale = min(op.FIGURE_MAX_UPSCALE, op.FIGURE_TARGET_SIDE / max(img.size))
        scale = min(scale, math.sqrt(op.FIGURE_MAX_PIXELS / (img.width * img.height)))
        if scale >= 1.25:
            img = img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.LANCZOS)
        return img, op._png(img)

    (img, up_png), prep = best(prepare, repeat)
    if up_png is None:
        return [Call(doc, pno, "figure (blank)", f"{img.width}x{img.height}", prep, 0.0, 0)]
    raw, cpu = best(lambda: recognize(engine, up_png, sparse=True), repeat)
    lines = [ln for ln in raw if op.keep_line(ln)]
    got = words_of(" ".join(ln.text for ln in lines))
    new = sorted(got - on_page)
    out = [Call(doc, pno, "figure", f"{img.width}x{img.height}", prep, cpu, sum(len(ln.text.split()) for ln in lines),
                novel=f"{len(new)}/{len(got)}", new_words=new)]
    seen = {ln.text.lower() for ln in lines}
    known = on_page | got
    if 0 < out[0].words < op.FEW_WORDS and figure_passes.looks_like_chart(lines):
        run_now = figure_passes.rotations(lines, op.ROTATIONS)
        for angle in op.ROTATIONS:  # every pass the chart rule allows, marked when figure_passes skips it now
            def turn(angle: int = angle):  # type: ignore[no-untyped-def]
                turned = img.rotate(angle, expand=True, fillcolor=255, resample=Image.Resampling.BICUBIC)
                return turned.size, op._png(turned)
            (size, rot_png), prep = best(turn, repeat)
            raw, cpu = best(lambda rot_png=rot_png: recognize(engine, rot_png, sparse=True), repeat)
            kept = []
            for ln in raw:
                if ln.confidence >= op.ROTATED_MIN_CONFIDENCE and op._LETTERS3.search(ln.text) and ln.text.lower() not in seen:
                    seen.add(ln.text.lower())
                    kept.append(ln.text)
            got = words_of(" ".join(kept))
            new = sorted(got - known)
            known |= got
            out.append(Call(doc, pno, f"figure rot{angle}" + ("" if angle in run_now else " skip"), f"{size[0]}x{size[1]}", prep, cpu,
                            sum(len(t.split()) for t in kept), novel=f"{len(new)}/{len(got)}", new_words=new))
    return out


def resolutions(pages: list[tuple[Path, int]], dpis: list[int], repeat: int) -> list[tuple]:
    import pymupdf

    from pagelens.ingest.ocr_page import keep_line, page_png
    from pagelens.ocr.tesseract_lib import TesseractLibOcrEngine

    engine = TesseractLibOcrEngine("eng")
    rows = []
    for path, pno in pages:
        page = pymupdf.open(path).load_page(pno - 1)
        native = max((round(i["width"] / max(i["bbox"][2] - i["bbox"][0], 1) * 72) for i in page.get_image_info()), default=0)
        ref: list[str] | None = None
        for dpi in dpis:
            z = dpi / 72
            pix = page.get_pixmap(matrix=pymupdf.Matrix(z, z), colorspace=pymupdf.csGRAY, alpha=False)
            png = page_png(pix)
            lines, cpu = best(lambda png=png: engine.recognize(png), repeat)
            kept = [ln for ln in lines if keep_line(ln)]
            w = " ".join(ln.text for ln in kept).split()
            ref = w if ref is None else ref
            sm = difflib.SequenceMatcher(None, ref, w, autojunk=False)
            agree = sum(b.size for b in sm.get_matching_blocks()) / max(len(ref), 1)
            heights = [ln.bbox[3] - ln.bbox[1] for ln in kept if len(ln.text) > 20]
            rows.append((path.name, pno, native, dpi, f"{pix.width}x{pix.height}", cpu, len(w), agree,
                         statistics.median(heights) if heights else 0))
    return rows


START = r"""
import json, resource, sys, time
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime
out = {"interpreter": cpu()}
from pagelens import memory, pdf_layout_import
pdf_layout_import.defer(); memory.limit_arenas()
a = cpu(); import pymupdf; out["import pymupdf"] = cpu() - a
a = cpu(); from pagelens.settings import Settings; out["import settings (pydantic-settings)"] = cpu() - a
a = cpu(); from pagelens.ingest.pipeline import Ingestor; out["import the rest of the parser"] = cpu() - a
a = cpu()
from pagelens.ocr import create_ocr_engine
from pagelens.store.catalog import open_catalog
from pagelens.store.images import open_image_store
s = Settings(home=sys.argv[1]); cat = open_catalog(s); open_image_store(s)
out["settings + catalog + image store"] = cpu() - a
a = cpu(); create_ocr_engine(s.ingest, catalog=cat); out["OCR engine (Tesseract Init)"] = cpu() - a
out["total"] = cpu()
print(json.dumps(out))
"""


def process_start(runs: int) -> dict[str, float]:
    rows: list[dict[str, float]] = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="pagelens-bench-start-") as home:
            res = subprocess.run([sys.executable, "-c", START, home], capture_output=True, text=True, check=True,
                                 env={"PYTHONPATH": str(REPO / "src"), "PATH": "/usr/bin:/bin"})
            rows.append(json.loads(res.stdout.strip().splitlines()[-1]))
    return {k: statistics.median(r[k] for r in rows) for k in rows[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdfs", type=Path, default=REPO.parent / "shared" / "corpus" / "pdfs")
    ap.add_argument("--extra-page", action="append", default=[], metavar="PDF:PAGE",
                    help="another scanned page for the resolution table (e.g. a realdocs scan)")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--dpis", default="300,250,225,200,150")
    ap.add_argument("--calls-only", action="store_true", help="only the table of OCR calls (e.g. for another corpus)")
    args = ap.parse_args()
    pdfs = sorted(args.pdfs.glob("*.pdf"))
    if not pdfs:
        raise SystemExit(f"no PDFs in {args.pdfs} (pass --pdfs)")

    calls, init1, init2 = account(pdfs, args.repeat)
    print(f"\nOCR calls of the dev corpus ({len(pdfs)} PDFs), CPU-s of the calling thread, best of {args.repeat} "
          f"(shared 2-core machine)")
    print(f"{'document':36} {'page':>4} {'pass':21} {'px':>10} {'prep s':>6} {'read s':>6} {'words':>5} {'inner':>5} {'new/read':>8}  new words")
    for c in calls:
        print(f"{c.doc[:36]:36} {c.page:4d} {c.what:21} {c.px:>10} {c.prep:6.3f} {c.read:6.2f} {c.words:5d} {c.inner:5d} {c.novel:>8}  "
              f"{' '.join(c.new_words)[:60]}")
    groups: dict[str, list[Call]] = {}
    for c in calls:
        key = "scanned pages" if c.what == "page" else (
            ("figure rotated passes, skipped now" if c.what.endswith("skip") else "figure rotated passes")
            if "rot" in c.what else "figure upright passes")
        groups.setdefault(key, []).append(c)
    print(f"\n{'part':34} {'calls':>5} {'prep s':>7} {'read s':>7}")
    print(f"{'engine init (1st API / 2nd API)':34} {2:5d} {init1:7.3f} {init2:7.3f}")
    for key, cs in groups.items():
        print(f"{key:34} {len(cs):5d} {sum(c.prep for c in cs):7.2f} {sum(c.read for c in cs):7.2f}")
    print(f"{'all calls':34} {len(calls):5d} {sum(c.prep for c in calls):7.2f} {sum(c.read for c in calls):7.2f}")

    if args.calls_only:
        return
    pages = [(args.pdfs / c.doc, c.page) for c in calls if c.what == "page"]
    for spec in args.extra_page:
        name, _, pno = spec.rpartition(":")
        pages.append((Path(name), int(pno)))
    dpis = [int(d) for d in args.dpis.split(",")]
    print("\nScanned pages by render resolution (agreement = words matched in order / words at the first dpi)")
    print(f"{'document':36} {'page':>4} {'native':>6} {'dpi':>4} {'px':>10} {'read s':>6} {'words':>5} {'agree':>6} {'line px':>7}")
    for row in resolutions(pages, dpis, args.repeat):
        name, pno, native, dpi, px, cpu, n, agree, lh = row
        print(f"{name[:36]:36} {pno:4d} {native:6d} {dpi:4d} {px:>10} {cpu:6.2f} {n:5d} {agree:6.3f} {lh:7.0f}")

    print("\nA parser process's start (fresh interpreter, CPU-s from getrusage, median of 3)")
    for k, v in process_start(3).items():
        print(f"  {k:40} {v:6.3f}")


if __name__ == "__main__":
    main()
