"""Where an ingest's CPU seconds go, part by part, now and before, and whether the output stayed the same.

    .venv/bin/python bench/ingest_parts.py [--pdfs ../shared/corpus/pdfs] [--baseline-src /tmp/main/src] [--ocr-off]

Each source tree runs `pagelens ingest PDFS` (the CLI's own entry point, default settings) in a fresh
process and data home, with the parent process's parts timed on the thread that runs them
(``time.thread_time``: CPU seconds, not wall; a part nested in another counts once, under its own
name): importing the CLI, loading the text model, chunking, BM25, the embedder's calls and its
forward passes on every thread, routing profiles, upserts, commits; CPU that no timed part ran on
(torch's OpenMP helper threads, scheduling, hashing, parse-result decoding) is "the rest"; the parser processes (and
the Tesseract runs they start) are one row, read from the parent's ``RUSAGE_CHILDREN``. ``--ocr-off``
adds a run with OCR off, so the parsers' row splits into parsing and OCR.

With ``--baseline-src`` the two runs are compared: every element of every document (all fields,
element ids included) must be equal, and every stored vector's cosine to the one before is printed
(minimum per named vector).
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

PARTS = [
    ("import", "parent: import CLI + app"),
    ("warm", "parent: torch + MiniLM load (overlaps parsing)"),
    ("chunks", "parent: chunking"),
    ("bm25", "parent: BM25 sparse vectors"),
    ("embed", "parent: embed calls (tokenizing, batching)"),
    ("forward", "parent: MiniLM forward passes (every thread)"),
    ("profile", "parent: routing profiles (their embed: above)"),
    ("upsert", "parent: vector upserts + optimize"),
    ("commit", "parent: catalog commits of parsed documents"),
    ("other", "parent: the rest (OpenMP helpers, scheduling, hashing)"),
    ("children", "parser processes (+ their Tesseract runs)"),
]


def worker(home: str, pdfs: list[str], ocr: str, dump: str) -> None:
    import functools
    import resource
    import threading
    import time
    from collections import Counter

    def cpu(who: int = resource.RUSAGE_SELF) -> float:
        r = resource.getrusage(who)
        return r.ru_utime + r.ru_stime

    acc: Counter[str] = Counter()
    local = threading.local()  # per thread: CPU seconds of timed calls nested in the running one

    def timed(owner: object, name: str, key: str) -> None:
        """Exclusive accounting: a timed call nested in another (a profile's embed, an upsert) counts
        under its own part only."""
        fn = getattr(owner, name)

        @functools.wraps(fn)
        def wrapper(*a: object, **k: object) -> object:
            outer = getattr(local, "nested", 0.0)
            local.nested = 0.0
            t = time.thread_time()
            try:
                return fn(*a, **k)
            finally:
                spent = time.thread_time() - t
                acc[key] += spent - local.nested
                local.nested = outer + spent

        setattr(owner, name, wrapper)

    t0 = time.perf_counter()
    from pagelens.cli.main import app as cli

    acc["import"] = cpu()
    from pagelens.embed import sentence, torch_bert
    from pagelens.index import bm25, indexer
    from pagelens.ingest import assemble
    from pagelens.vectors import edge

    timed(sentence.SentenceTransformerEmbedder, "warm", "warm")
    timed(sentence.SentenceTransformerEmbedder, "embed", "embed")
    timed(torch_bert.LeanBertEncoder, "_forward", "forward")  # on whichever thread runs the batch
    timed(indexer.Indexer, "chunks", "chunks")
    timed(bm25.SparseEncoder, "encode_document", "bm25")
    timed(indexer.Indexer, "index_profile", "profile")
    timed(edge.EdgeVectorStore, "upsert", "upsert")
    timed(edge.EdgeVectorStore, "optimize", "upsert")
    timed(assemble.DocumentAssembler, "commit", "commit")
    try:
        cli(["--home", home, "-q", "--ocr", ocr, "ingest", "--json", *pdfs], standalone_mode=False)
    except SystemExit:
        pass
    wall = time.perf_counter() - t0
    own, kids = cpu(), cpu(resource.RUSAGE_CHILDREN)
    acc["other"] = own - sum(acc.values())
    acc["children"] = kids
    if dump:
        _dump(home, dump)
    print(json.dumps({"wall": wall, "parent": own, "children": kids, "parts": dict(acc)}))


def _dump(home: str, path: str) -> None:
    """Every element (all fields) and every stored vector of every document, for the comparison."""
    import numpy as np

    from pagelens.app import Pagelens
    from pagelens.settings import Settings
    from pagelens.vectors import point_id
    from pagelens.vectors.edge import _uuid

    out: dict = {"elements": {}, "vectors": {}}
    with Pagelens(Settings(home=Path(home))) as app:
        collection = app.indexer.collection
        shard = app.store._shard(collection)
        for doc in sorted(app.catalog.documents(), key=lambda d: d.name):
            out["elements"][doc.name] = [e.model_dump(mode="json") for e in app.catalog.iter_elements(doc.doc_id)]
            ids = [point_id(c.id) for c in app.indexer.chunks(doc.doc_id)]
            for rec in shard.retrieve([_uuid(collection, i) for i in ids], False, True):
                vec = rec.vector if isinstance(rec.vector, dict) else {}
                for name, v in vec.items():
                    if isinstance(v, list) and v and isinstance(v[0], float):
                        out["vectors"][f"{doc.name}|{rec.id}|{name}"] = np.asarray(v, dtype=np.float32).tolist()
    Path(path).write_text(json.dumps(out))


def run(src: Path, pdfs: list[Path], ocr: str, dump: str = "") -> dict:
    with tempfile.TemporaryDirectory(prefix="pagelens-parts-") as home:
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(src)}
        proc = subprocess.run(
            [sys.executable, __file__, "--worker", "--home", home, "--ocr", ocr, "--dump", dump, *map(str, pdfs)],
            capture_output=True, text=True, env=env,
        )
        if proc.returncode != 0:
            raise SystemExit(f"{src}: {proc.stderr[-2000:]}")
        return json.loads(proc.stdout.strip().splitlines()[-1])


def compare(now: str, before: str) -> None:
    import numpy as np

    a, b = json.loads(Path(now).read_text()), json.loads(Path(before).read_text())
    n_now = sum(len(v) for v in a["elements"].values())
    n_before = sum(len(v) for v in b["elements"].values())
    same = a["elements"] == b["elements"]
    diff = [name for name in sorted(set(a["elements"]) | set(b["elements"]))
            if a["elements"].get(name) != b["elements"].get(name)]
    print(f"\nelements: now {n_now}, before {n_before}, identical: {same}" + (f" (differ: {diff})" if diff else ""))
    keys = sorted(set(a["vectors"]) & set(b["vectors"]))
    print(f"vectors: now {len(a['vectors'])}, before {len(b['vectors'])}, matched {len(keys)}")
    by_name: dict[str, list[float]] = {}
    for k in keys:
        x, y = np.asarray(a["vectors"][k]), np.asarray(b["vectors"][k])
        by_name.setdefault(k.rsplit("|", 1)[1], []).append(float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y))))
    for name, cos in sorted(by_name.items()):
        print(f"  {name:8} n={len(cos):4d}  cosine min {min(cos):.6f}  mean {sum(cos) / len(cos):.7f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfs", type=Path, default=REPO.parent / "shared" / "corpus" / "pdfs")
    ap.add_argument("--baseline-src", type=Path, help="Another pagelens source tree (e.g. `git archive main src`).")
    ap.add_argument("--ocr-off", action="store_true", help="Also run now with OCR off (splits the parsers' row).")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--home", help=argparse.SUPPRESS)
    ap.add_argument("--ocr", default="auto", help=argparse.SUPPRESS)
    ap.add_argument("--dump", default="", help=argparse.SUPPRESS)
    ap.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.home, args.paths, args.ocr, args.dump)
        return
    pdfs = sorted(args.pdfs.glob("*.pdf"))
    with tempfile.TemporaryDirectory(prefix="pagelens-parts-dump-") as tmp:
        runs = [("now", run(REPO / "src", pdfs, "auto", f"{tmp}/now.json"))]
        if args.baseline_src:
            runs.append(("before", run(args.baseline_src.resolve(), pdfs, "auto", f"{tmp}/before.json")))
        if args.ocr_off:
            runs.append(("now, OCR off", run(REPO / "src", pdfs, "off")))
        print(f"{len(pdfs)} PDFs; CPU seconds (user + system) per part; wall seconds last\n")
        print(f"{'part':50}" + "".join(f"{name:>14}" for name, _ in runs))
        for key, label in PARTS:
            print(f"{label:50}" + "".join(f"{r['parts'].get(key, 0.0):14.2f}" for _, r in runs))
        print(f"{'total CPU (parent + parser processes)':50}" + "".join(f"{r['parent'] + r['children']:14.2f}" for _, r in runs))
        print(f"{'wall seconds':50}" + "".join(f"{r['wall']:14.2f}" for _, r in runs))
        if args.baseline_src:
            compare(f"{tmp}/now.json", f"{tmp}/before.json")


if __name__ == "__main__":
    main()
