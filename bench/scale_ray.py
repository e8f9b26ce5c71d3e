"""Ingest rate of the plain CLI beside `pagelens ingest --ray` with 1 and 2 Ray workers, one run.

    .venv/bin/python bench/scale_ray.py [--dir PDFS] [--repeat 1]

Whole process, wall clock from start to exit: `pagelens ingest DIR --json` in a fresh data home each
time (default settings: OCR auto, MiniLM, qdrant-edge), so model load, and for Ray the start and stop
of a local Ray (``ingest.ray_num_cpus`` = workers), are included. The folder defaults to the dev
corpus (../shared/corpus/pdfs) when it is there. A last row times starting and stopping a local Ray
alone, the fixed cost the Ray rows carry. Prints one table; pages/s = pages / seconds.
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
CORPUS = REPO.parent / "shared" / "corpus" / "pdfs"
SHARED_CORPUS = Path("/work/shared/corpus/pdfs")

CASES = [
    ("pagelens ingest (local processes)", [], {}),
    ("pagelens ingest --ray, 1 worker", ["--ray"], {"PAGELENS_INGEST__RAY_NUM_CPUS": "1"}),
    ("pagelens ingest --ray, 2 workers", ["--ray"], {"PAGELENS_INGEST__RAY_NUM_CPUS": "2"}),
]


def clean_env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAGELENS_", "RAY_ADDRESS"))}
    return {**env, "HF_HUB_OFFLINE": "1", **extra}


def ingest(folder: Path, flags: list[str], env: dict[str, str]) -> dict:
    with tempfile.TemporaryDirectory(prefix="pagelens-scale-") as home:
        cmd = [sys.executable, "-m", "pagelens.cli.main", "--home", home, "--quiet", "ingest", "--json", str(folder), *flags]
        t = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=clean_env(env))
        seconds = time.perf_counter() - t
    if proc.returncode not in (0, 1) or not proc.stdout.strip():
        raise SystemExit(f"{' '.join(cmd[2:])} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    docs = json.loads(proc.stdout)["documents"]
    return {
        "docs": len(docs), "pages": sum(d["pages"] for d in docs), "ocr": sum(d["ocr_pages"] for d in docs),
        "chunks": sum(d["chunks"] for d in docs), "failed": sum(d["status"] == "failed" for d in docs),
        "seconds": seconds,
    }


def ray_start_stop(workers: int) -> float:
    code = f"import ray; ray.init(address='local', num_cpus={workers}, include_dashboard=False); ray.shutdown()"
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, env=clean_env({}))
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = SHARED_CORPUS if SHARED_CORPUS.is_dir() else CORPUS
    ap.add_argument("--dir", type=Path, default=default if default.is_dir() else None, help="folder of PDFs")
    ap.add_argument("--repeat", type=int, default=1, help="runs per case, round robin (the fastest is shown)")
    args = ap.parse_args()
    if args.dir is None or not args.dir.is_dir():
        raise SystemExit("no PDF folder: pass --dir PDFS")
    try:
        import ray  # noqa: F401
    except ImportError:
        raise SystemExit("Ray is not installed: pip install -e '.[ray]'") from None
    print(f"folder: {args.dir} ({len(list(args.dir.rglob('*.pdf')))} PDFs), {os.cpu_count()} cores", flush=True)
    header = f"{'case':38} {'docs':>5} {'pages':>6} {'ocr':>4} {'chunks':>7} {'failed':>6} {'seconds':>8} {'pages/s':>8}"
    runs: dict[str, list[dict]] = {name: [] for name, _, _ in CASES}
    for _ in range(max(1, args.repeat)):  # round robin: a load that drifts during the run hits every case
        for name, flags, env in CASES:
            runs[name].append(ingest(args.dir, flags, env))
            print(f"{name}: {runs[name][-1]['seconds']:.2f} s", file=sys.stderr, flush=True)
    rows = []
    for name, _, _ in CASES:
        best = min(runs[name], key=lambda r: r["seconds"])
        rows.append(f"{name:38} {best['docs']:>5} {best['pages']:>6} {best['ocr']:>4} {best['chunks']:>7} "
                    f"{best['failed']:>6} {best['seconds']:>8.2f} {best['pages'] / best['seconds']:>8.2f}")
    start = min(ray_start_stop(2) for _ in range(max(1, args.repeat)))
    rows.append(f"{'local Ray start + stop alone (2 CPUs)':38} {'':>5} {'':>6} {'':>4} {'':>7} {'':>6} {start:>8.2f} {'':>8}")
    print(header)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
