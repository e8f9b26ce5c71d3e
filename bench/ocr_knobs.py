"""Where in-process Tesseract's CPU goes, and which parameters cut it at the same words (issue 12).

    .venv/bin/python bench/ocr_knobs.py [--pdfs ../shared/corpus/pdfs] [--rounds 1]

1. Capture: the dev corpus is parsed once (parsing only, the in-process engine) and every image handed
   to Tesseract is kept: whole scanned pages (PSM 3) and figure passes (PSM 11).
2. Threads: per call, the calling thread's CPU against the process's CPU and the wall clock — equal
   when the engine's per-call OpenMP limit holds (no worker threads spinning beside it).
3. Stages, per image: Otsu threshold (GetThresholdedImage), layout (AnalyseLayout), recognition
   (Recognize on a fresh image minus the layout it redoes).
4. Variants: each image read by every variant in turn (interleaved, so machine load hits all alike);
   CPU = the calling thread's; 'same lines' = identical text, boxes, confidences and blocks;
   'same words' = the identical word sequence; the differing words are listed.
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import difflib
import io
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

# name → (Tesseract parameters, crop blank margins to N px first or None)
VARIANTS: dict[str, tuple[dict[str, str], int | None]] = {
    "default (today)": ({}, None),
    "tessedit_do_invert=0": ({"tessedit_do_invert": "0"}, None),
    "invert_threshold=0.5": ({"invert_threshold": "0.5"}, None),
    "user_defined_dpi=300": ({"user_defined_dpi": "300"}, None),
    "textord_fast_pitch_test=1": ({"textord_fast_pitch_test": "1"}, None),
    "pitch test off": ({"textord_fast_pitch_test": "1", "textord_disable_pitch_test": "1"}, None),
    "find_tables=0": ({"textord_tabfind_find_tables": "0"}, None),
    "paragraph_text_based=0": ({"paragraph_text_based": "0"}, None),
    "fix_fuzzy_spaces=0": ({"tessedit_fix_fuzzy_spaces": "0"}, None),
    "doc_dict=0": ({"tessedit_enable_doc_dict": "0"}, None),
    "crop margins (48 px)": ({}, 48),
}


@dataclasses.dataclass
class Shot:
    where: str
    sparse: bool
    png: bytes


def capture(pdfs: list[Path]) -> list[Shot]:
    from pagelens.ingest.pipeline import Ingestor
    from pagelens.ocr.tesseract_lib import TesseractLibOcrEngine
    from pagelens.settings import IngestSettings
    from pagelens.store.catalog import Catalog
    from pagelens.store.images import ImageStore

    shots: list[Shot] = []
    current = [""]

    class Keep:
        name, supports_sparse = "tesseract", True

        def __init__(self) -> None:
            self.inner = TesseractLibOcrEngine("eng")
            self.cache_id = self.inner.cache_id

        def recognize(self, png: bytes, *, sparse: bool = False) -> list:
            shots.append(Shot(current[0], sparse, png))
            return self.inner.recognize(png, sparse=sparse)

    with tempfile.TemporaryDirectory(prefix="pagelens-bench-knobs-") as home:
        ing = Ingestor(IngestSettings(ocr="tesseract"), Catalog(Path(home) / "c.sqlite3"),
                       ImageStore(Path(home) / "images"), Keep())  # type: ignore[arg-type]
        for p in pdfs:
            current[0] = p.name
            ing.ingest_file(p, index=False)
    return shots


def cropped(png: bytes, pad: int) -> tuple[bytes, int, int]:
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(png)) as im:
        im.load()
        box = ImageOps.invert(im.point(lambda v: 255 if v > 250 else v)).getbbox() or (0, 0, im.width, im.height)
        x0, y0 = max(0, box[0] - pad), max(0, box[1] - pad)
        x1, y1 = min(im.width, box[2] + pad), min(im.height, box[3] + pad)
        buf = io.BytesIO()
        im.crop((x0, y0, x1, y1)).save(buf, format="PNG", compress_level=0, dpi=(96, 96))
    return buf.getvalue(), x0, y0


def read(engine: object, shot: Shot, crop: int | None) -> list:
    if crop is None:
        return engine.recognize(shot.png, sparse=shot.sparse)  # type: ignore[attr-defined]
    png, dx, dy = cropped(shot.png, crop)
    lines = engine.recognize(png, sparse=shot.sparse)  # type: ignore[attr-defined]
    return [dataclasses.replace(ln, bbox=(ln.bbox[0] + dx, ln.bbox[1] + dy, ln.bbox[2] + dx, ln.bbox[3] + dy))
            for ln in lines]


def stages(engine: object, shot: Shot) -> tuple[float, float, float]:
    """(threshold, layout, recognition) CPU-s of one image on the engine's first API."""
    lib = engine.lib  # type: ignore[attr-defined]
    t, lp, vp = lib.tess, lib.lept, ctypes.c_void_p
    t.TessBaseAPIAnalyseLayout.restype, t.TessBaseAPIAnalyseLayout.argtypes = vp, [vp]
    t.TessPageIteratorDelete.argtypes = [vp]
    t.TessBaseAPIGetThresholdedImage.restype, t.TessBaseAPIGetThresholdedImage.argtypes = vp, [vp]
    handle = engine._acquire()  # type: ignore[attr-defined]
    try:
        out = []
        for step in ("layout", "all"):
            pix = vp(lp.pixReadMem(shot.png, len(shot.png)))
            t.TessBaseAPISetImage2(handle, pix)
            t.TessBaseAPISetPageSegMode(handle, 11 if shot.sparse else 3)
            a = time.thread_time()
            binary = vp(t.TessBaseAPIGetThresholdedImage(handle))
            b = time.thread_time()
            if step == "layout":
                t.TessPageIteratorDelete(t.TessBaseAPIAnalyseLayout(handle))
            else:
                t.TessBaseAPIRecognize(handle, None)
            out += [b - a, time.thread_time() - b]
            lp.pixDestroy(ctypes.byref(binary))
            lp.pixDestroy(ctypes.byref(pix))
            t.TessBaseAPIClear(handle)
    finally:
        engine._release(handle)  # type: ignore[attr-defined]
    threshold, layout, _, layout_and_recognition = out
    return threshold, layout, layout_and_recognition - layout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdfs", type=Path, default=REPO.parent / "shared" / "corpus" / "pdfs")
    ap.add_argument("--rounds", type=int, default=1, help="read every image this many times per variant")
    args = ap.parse_args()
    pdfs = sorted(args.pdfs.glob("*.pdf"))
    if not pdfs:
        raise SystemExit(f"no PDFs in {args.pdfs} (pass --pdfs)")

    from pagelens.ocr.tesseract_lib import TesseractLibOcrEngine

    shots = capture(pdfs)
    n_pages = sum(not s.sparse for s in shots)
    n_figs = len(shots) - n_pages
    engines = {name: TesseractLibOcrEngine("eng", variables=v) for name, (v, _) in VARIANTS.items()}
    base = engines["default (today)"]

    print(f"\nTesseract {base.version} in-process, dev corpus ({len(pdfs)} PDFs): {n_pages} scanned pages, "
          f"{n_figs} figure passes (shared 2-core machine; CPU = the calling thread's)")
    print("\nPer call, default parameters: threads (thread CPU = process CPU = wall when no OpenMP workers run) "
          "and stages")
    print(f"{'image':44} {'px':>11} {'thread s':>8} {'proc s':>7} {'wall s':>7} {'Otsu s':>7} {'layout s':>8} "
          f"{'recog s':>7} {'words':>5}")
    for i, s in enumerate(shots):
        a, b, c = time.thread_time(), time.process_time(), time.perf_counter()
        lines = base.recognize(s.png, sparse=s.sparse)
        thr, proc, wall = time.thread_time() - a, time.process_time() - b, time.perf_counter() - c
        otsu, layout, recog = stages(base, s)
        w, h = int.from_bytes(s.png[16:20], "big"), int.from_bytes(s.png[20:24], "big")
        label = f"{i + 1:02d} {'fig ' if s.sparse else 'page'} {s.where[:34]}"
        print(f"{label:44} {f'{w}x{h}':>11} {thr:8.2f} {proc:7.2f} {wall:7.2f} {otsu:7.2f} {layout:8.2f} {recog:7.2f} "
              f"{sum(len(ln.text.split()) for ln in lines):5d}")

    cpu = {n: [0.0, 0.0] for n in engines}
    same_lines = {n: 0 for n in engines}
    same_words = {n: 0 for n in engines}
    diffs: dict[str, list[str]] = {n: [] for n in engines}
    for i, s in enumerate(shots):
        ref: list | None = None
        for _ in range(args.rounds):
            for name, eng in engines.items():
                t = time.thread_time()
                lines = read(eng, s, VARIANTS[name][1])
                cpu[name][s.sparse] += time.thread_time() - t
                got = [(ln.text, tuple(ln.bbox), ln.confidence, ln.block) for ln in lines]
                if ref is None:
                    ref = got
                if _ > 0:
                    continue
                wa, wb = " ".join(x[0] for x in ref).split(), " ".join(x[0] for x in got).split()
                same_lines[name] += got == ref
                same_words[name] += wa == wb
                if wa != wb:
                    d = [x for x in difflib.ndiff(wa, wb) if x[0] in "+-"]
                    diffs[name].append(f"{i + 1:02d}: {' '.join(d)[:100]}")
    r = args.rounds
    print(f"\nVariants, every image read by each in turn ({r} round{'s' if r > 1 else ''}; CPU-s per round)")
    print(f"{'variant':28} {'pages CPU s':>11} {'per page':>8} {'figs CPU s':>10} {'per pass':>8} "
          f"{'same lines':>10} {'same words':>10}")
    for name in engines:
        p, f = cpu[name][False] / r, cpu[name][True] / r
        print(f"{name:28} {p:11.2f} {p / max(n_pages, 1):8.2f} {f:10.2f} {f / max(n_figs, 1):8.3f} "
              f"{same_lines[name]:6d}/{len(shots):<3d} {same_words[name]:6d}/{len(shots):<3d}")
    for name, rows in diffs.items():
        for row in rows[:6]:
            print(f"  {name}: {row}")
        if len(rows) > 6:
            print(f"  {name}: … {len(rows) - 6} more images differ")


if __name__ == "__main__":
    main()
