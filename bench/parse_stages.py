"""Where the parser processes' CPU goes, stage by stage, now and before (OCR off).

    .venv/bin/python bench/parse_stages.py [--pdfs ../shared/corpus/pdfs] [--baseline-src /tmp/main/src] [--repeat 2] [--runs 3]

Each source tree runs in a fresh process: one parser ``Worker`` (the code a parser process runs) takes
the same tasks the scheduler would give it — a ``prepare`` per document (metadata, running headers,
documents of up to two pages parsed inline) then ``pages`` tasks of ``pages_per_task`` — with OCR off,
and the stages are timed on the thread that runs them (``time.thread_time``, CPU seconds; a stage
nested in another counts once, under its own name). "the rest" is task CPU that no stage ran.
The start of a parser process (interpreter, imports, catalog) is measured apart: a pool of one
process started and stopped with no task, from ``RUSAGE_CHILDREN``.

The pages run ``--repeat`` times (the first round also warms MuPDF's caches); the table shows the
last round, as a steady parser process sees it.
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

# (module, attribute, label): patched module attributes are looked up at call time by their callers.
STAGES = [
    ("pagelens.ingest.worker", "Worker._open", "open PDF (read, hash, open)"),
    ("pagelens.ingest.furniture", "detect_furniture", "running headers/footers (prepare)"),
    ("pagelens.ingest.metadata", "document_metadata", "document metadata (prepare)"),
    ("pagelens.ingest.metadata", "metadata_elements", "metadata elements (prepare)"),
    ("pymupdf", "Document.load_page", "load page"),
    ("pagelens.ingest.context", "PageContext.build", "page text: get_text('dict')"),
    ("pymupdf", "Page.get_cdrawings", "drawings: get_cdrawings"),
    ("pagelens.ingest.context", "PageContext.words", "words: get_text('words')"),
    ("pagelens.ingest.ocr_page", "needs_ocr", "OCR decision"),
    ("pagelens.ingest.tables", "table_signals", "tables: cheap signals"),
    ("pagelens.ingest.tables", "page_tier", "tables: page tier"),
    ("pagelens.ingest.tables", "_whitespace", "tables: whitespace finder"),
    ("pagelens.ingest.tables", "_line_tables", "tables: find_tables (lines)"),
    ("pagelens.ingest.tables", "_plumber_tables", "tables: pdfplumber"),
    ("pagelens.ingest.tables", "_text_candidate", "tables: ruled text grids"),
    ("pagelens.ingest.tables", "_grid", "tables: cell text"),
    ("pagelens.ingest.tables", "assign_captions", "tables: captions"),
    ("pagelens.ingest.tables", "_element", "tables: render md/html/records"),
    ("pagelens.ingest.tables", "extract_tables", "tables: the rest"),
    ("pagelens.ingest.figures", "graphic_regions", "figures: regions (cluster drawings)"),
    ("pagelens.ingest.figures", "render_region", "figures: render pixmap"),
    ("pymupdf", "Pixmap.tobytes", "figures: PNG encode"),
    ("pagelens.store.images", "ImageStore.put", "figures: image store (hash, write)"),
    ("pagelens.ingest.figures", "extract_figures", "figures: the rest"),
    ("pagelens.ingest.forms", "extract_form_fields", "forms"),
    ("pagelens.ingest.text", "extract_text", "body text, headings, formulas"),
    ("pagelens.ingest.metadata", "page_extras", "links, annotations (page extras)"),
    ("pagelens.ingest.order", "reading_order", "reading order"),
    ("pagelens.ingest.order", "link_captions", "caption links"),
    ("pagelens.models", "Element.model_dump", "results: model_dump"),
    ("pagelens.ingest.worker", "Worker.emit", "results: JSON encode + write"),
]


def _patch(module: str, attr: str, key: str, acc: dict[str, float], local) -> None:  # noqa: ANN001
    import functools
    import importlib
    import time
    from functools import cached_property

    owner = importlib.import_module(module)
    *path, name = attr.split(".")
    for p in path:
        owner = getattr(owner, p)
    raw = owner.__dict__.get(name) if isinstance(owner, type) else None
    if raw is None and not hasattr(owner, name):
        return  # not in this source tree
    fn = raw.func if isinstance(raw, cached_property) else (raw.__func__ if isinstance(raw, classmethod) else getattr(owner, name))

    @functools.wraps(fn)
    def wrapper(*a, **k):  # noqa: ANN002, ANN003
        outer = getattr(local, "nested", 0.0)
        local.nested = 0.0
        t = time.thread_time()
        try:
            return fn(*a, **k)
        finally:
            spent = time.thread_time() - t
            acc[key] = acc.get(key, 0.0) + spent - local.nested
            local.nested = outer + spent

    if isinstance(raw, cached_property):
        prop = cached_property(wrapper)
        prop.__set_name__(owner, name)
        setattr(owner, name, prop)
    elif isinstance(raw, classmethod):
        setattr(owner, name, classmethod(wrapper))
    else:
        setattr(owner, name, wrapper)


def worker(pdfs: list[str], repeat: int) -> None:
    import io
    import threading
    import time

    from pagelens import pdf_layout_import

    pdf_layout_import.defer()
    from pagelens.ingest.assemble import page_ranges
    from pagelens.ingest.pdf import read_bytes, sha256
    from pagelens.ingest.worker import Worker
    from pagelens.settings import Settings

    acc: dict[str, float] = {}
    local = threading.local()
    for module, attr, label in STAGES:
        _patch(module, attr, label, acc, local)
    with tempfile.TemporaryDirectory(prefix="pagelens-stages-") as home:
        settings = Settings(home=Path(home)).with_overrides(**{"ingest.ocr": "off"})
        w = Worker(settings, io.StringIO())
        w.out = open(os.devnull, "w")  # noqa: SIM115
        tasks = []
        for p in pdfs:
            data = read_bytes(Path(p))
            doc_id = sha256(data)
            import pymupdf

            with pymupdf.open(stream=data) as d:
                n = d.page_count
            tasks.append({"kind": "prepare", "path": p, "doc_id": doc_id, "inline_pages": 2})
            if n > 2:
                for first, last in page_ranges(n, 2, settings.ingest.pages_per_task):
                    tasks.append({"kind": "pages", "path": p, "doc_id": doc_id, "first": first, "last": last, "furniture": []})
        for t in tasks:  # the running headers a pages task gets come from its prepare task
            if t["kind"] == "pages":
                t["furniture"] = _furniture(t["path"])
        for _round in range(repeat):
            acc.clear()
            t0 = time.thread_time()
            for i, t in enumerate(tasks):
                w.run({**t, "id": i})
            total = time.thread_time() - t0
        pages = sum(_pages(p) for p in pdfs)
        acc["the rest"] = total - sum(acc.values())
        print(json.dumps({"stages": acc, "total": total, "pages": pages, "start": _start_cost(settings)}))


def _pages(path: str) -> int:
    import pymupdf

    with pymupdf.open(path) as d:
        return d.page_count


def _furniture(path: str) -> list[str]:
    import pymupdf

    from pagelens.ingest.furniture import detect_furniture

    with pymupdf.open(path) as d:
        return sorted(detect_furniture(d))


def _start_cost(settings) -> float:  # noqa: ANN001
    """CPU seconds of starting one parser process (until ready) and stopping it, no task."""
    import resource

    from pagelens.ingest.executor import LocalProcessExecutor

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    ex = LocalProcessExecutor(settings, workers=1)
    child = ex._children[0]
    while not child.ready:
        ex.next_event(timeout=0.05)
        if child.proc.poll() is not None:
            break
    ex.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def run(src: Path, pdfs: list[Path], repeat: int) -> dict:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(src)}
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", "--repeat", str(repeat), *map(str, pdfs)],
        capture_output=True, text=True, env=env,
    )
    if proc.returncode != 0:
        raise SystemExit(f"{src}: {proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfs", type=Path, default=REPO.parent / "shared" / "corpus" / "pdfs")
    ap.add_argument("--baseline-src", type=Path, help="Another pagelens source tree (e.g. `git archive main src`).")
    ap.add_argument("--repeat", type=int, default=2, help="Rounds over the corpus; the last is shown.")
    ap.add_argument("--runs", type=int, default=1, help="Fresh processes per tree, alternating; the run with the least CPU is shown.")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.paths, max(1, args.repeat))
        return
    pdfs = sorted(args.pdfs.glob("*.pdf"))
    if not pdfs:
        raise SystemExit(f"no PDFs in {args.pdfs} (pass --pdfs)")
    trees = [("now", REPO / "src")] + ([("before", args.baseline_src.resolve())] if args.baseline_src else [])
    best: dict[str, dict] = {}
    for _ in range(max(1, args.runs)):  # alternating, so both trees see the same machine load
        for name, src in trees:
            r = run(src, pdfs, args.repeat)
            if name not in best or r["total"] < best[name]["total"]:
                best[name] = r
    runs = [(name, best[name]) for name, _ in trees]
    pages = runs[0][1]["pages"]
    print(f"{len(pdfs)} PDFs, {pages} pages, OCR off; CPU seconds per stage (one parser process, last of {args.repeat} rounds;"
          f" least of {args.runs} alternating runs per tree)\n")
    print(f"{'stage':44}" + "".join(f"{name:>10}{'ms/page':>9}" for name, _ in runs))
    labels = [label for _, _, label in STAGES] + ["the rest"]
    for label in labels:
        vals = [r["stages"].get(label, 0.0) for _, r in runs]
        if max(vals) < 0.0005:
            continue
        print(f"{label:44}" + "".join(f"{v:10.3f}{1000 * v / pages:9.1f}" for v in vals))
    print(f"{'all tasks':44}" + "".join(f"{r['total']:10.3f}{1000 * r['total'] / pages:9.1f}" for _, r in runs))
    print(f"{'start of one parser process (no task)':44}" + "".join(f"{r['start']:10.3f}{'':9}" for _, r in runs))


if __name__ == "__main__":
    main()
