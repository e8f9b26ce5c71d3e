"""Cold-process latency of the CLI: a one-query `pagelens search` with no server, beside `ls`.

    .venv/bin/python bench/cli_latency.py [--pdfs ../shared/corpus/pdfs] [--runs 5]

Builds a home from the PDFs (one `pagelens ingest`, which also makes the ONNX export of the text
model if none is cached), then times whole processes, start to exit, one after the other:
- `pagelens search "<question>"` with the default runtime (ONNX query embedder, no torch import);
- the same with `PAGELENS_INDEX__EMBED_RUNTIME=torch` (torch + sentence-transformers, as before);
- `pagelens ls` (no model at all: the floor of a cold CLI process).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
QUESTIONS = [
    "What was the revenue growth in the second quarter?",
    "Which optimizer does the paper propose?",
    "How many parameters does BERT large have?",
]


def timed(args: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pagelens.cli.main", *args], capture_output=True, env=env)
    seconds = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"pagelens {' '.join(args[:4])} failed: {proc.stderr.decode()[-1500:]}")
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdfs", type=Path, default=REPO.parent / "shared" / "corpus" / "pdfs")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    pdfs = sorted(args.pdfs.glob("*.pdf"))
    if not pdfs:
        raise SystemExit(f"no PDFs in {args.pdfs}")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    with tempfile.TemporaryDirectory(prefix="pagelens-cli-") as home:
        base = ["--home", home, "-q"]
        ingest_s = timed([*base, "ingest", *map(str, pdfs)], env)
        cases = {
            "search (default: ONNX query model)": (env, "search"),
            "search (embed_runtime=torch)": ({**env, "PAGELENS_INDEX__EMBED_RUNTIME": "torch"}, "search"),
            "ls (no model)": (env, "ls"),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for i in range(args.runs):  # interleaved, so load changes on a shared machine hit every case alike
            for name, (case_env, cmd) in cases.items():
                extra = [QUESTIONS[i % len(QUESTIONS)], "-k", "5"] if cmd == "search" else []
                times[name].append(timed([*base, cmd, *extra], case_env))
    print(f"home: {len(pdfs)} PDFs ingested in {ingest_s:.1f} s; {args.runs} cold processes per case\n")
    print(f"{'case':38} {'median s':>9} {'min s':>7} {'max s':>7}")
    for name, ts in times.items():
        print(f"{name:38} {statistics.median(ts):9.2f} {min(ts):7.2f} {max(ts):7.2f}")


if __name__ == "__main__":
    main()
