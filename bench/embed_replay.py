"""The ingest's own embed calls replayed on two source trees' plain-torch MiniLM, one thread, side by side.

    .venv/bin/python bench/embed_account.py --pdfs ../shared/corpus/pdfs --save-calls /tmp/calls.json
    .venv/bin/python bench/embed_replay.py /tmp/calls.json --baseline-src /tmp/main/src [--reps 4]

Each call (the texts one `Indexer` round or routing profile handed the embedder) is embedded by each tree in
turn, ``--reps`` times; the table prints, per tree and precision, the sum over calls of each call's fastest CPU
time (the least disturbed by other processes on a shared machine), and the vectors' cosine to the baseline's.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent


def load_encoder(src: Path, name: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, src / "pagelens" / "embed" / "torch_bert.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from pagelens.embed.sentence import resolve_model_path

    return module.LeanBertEncoder.load(resolve_model_path("all-MiniLM-L6-v2")[0])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("calls", type=Path)
    ap.add_argument("--baseline-src", type=Path, required=True)
    ap.add_argument("--reps", type=int, default=4)
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    calls = json.loads(args.calls.read_text())
    trees = {"now": load_encoder(REPO / "src", "tb_now"), "baseline": load_encoder(args.baseline_src, "tb_base")}
    print(f"{len(calls)} calls, {sum(map(len, calls))} texts; CPU seconds, 1 thread, sum of per-call minimum over {args.reps}\n")
    print(f"{'precision':10}{'tree':10}{'CPU s':>8}{'cos min':>11}{'cos mean':>11}")
    for bf16 in (True, False):
        best = {k: [float("inf")] * len(calls) for k in trees}
        vecs: dict[str, list[np.ndarray]] = {k: [np.zeros(0)] * len(calls) for k in trees}
        for _ in range(args.reps):
            for j, texts in enumerate(calls):
                for name, enc in trees.items():
                    t = time.thread_time()
                    vecs[name][j] = enc.embed(texts, bf16=bf16)
                    best[name][j] = min(best[name][j], time.thread_time() - t)
        base = np.concatenate(vecs["baseline"])
        for name in trees:
            cos = np.sum(np.concatenate(vecs[name]) * base, axis=1)
            print(f"{'bf16' if bf16 else 'float32':10}{name:10}{sum(best[name]):8.2f}{cos.min():11.6f}{cos.mean():11.7f}")


if __name__ == "__main__":
    main()
