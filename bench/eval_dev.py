"""Retrieval (and optionally answer) quality on the dev corpus, per modality.

    .venv/bin/python bench/eval_dev.py                      # fresh temp home, both question sets
    .venv/bin/python bench/eval_dev.py --home /tmp/evalhome # reuse parsed PDFs between runs
    .venv/bin/python bench/eval_dev.py --set retrieval.per_page=0 --set index.chunk_tokens=160

A reused home keeps the catalog; changing a setting that shapes the index (chunking, embedder)
builds a new collection, so chunking variants are compared without parsing the PDFs again.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from pagelens.app import Pagelens  # noqa: E402
from pagelens.evaluate import run_eval  # noqa: E402
from pagelens.settings import Settings  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def _value(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, help="data home to use (and keep); default: a temp dir")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--questions", type=Path, nargs="*", help="default: questions.jsonl + questions-special.jsonl")
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--answers", action="store_true", help="also ask every question (slower)")
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.FIELD=VALUE")
    ap.add_argument("--misses", action="store_true", help="list the questions retrieval missed")
    ap.add_argument("--json", type=Path, help="write the full report as JSON")
    args = ap.parse_args()

    home = args.home or Path(tempfile.mkdtemp(prefix="pagelens-eval-"))
    overrides = dict(kv.split("=", 1) for kv in args.set)
    settings = Settings(home=home).with_overrides(**{k: _value(v) for k, v in overrides.items()})
    questions = args.questions or [args.corpus / "questions.jsonl", args.corpus / "questions-special.jsonl"]
    with Pagelens(settings) as app:
        report = run_eval(app, questions, args.corpus / "pdfs", k=args.k, answers=args.answers)
    print(report.table())
    if args.misses:
        for r in report.results:
            if r.scored and (r.rank is None or r.rank > args.k):
                print(f"MISS {r.id} [{r.modality}] top: {' '.join(r.top)}")
    if args.json:
        args.json.write_text(json.dumps(report.to_dict(), indent=1, default=str))


if __name__ == "__main__":
    main()
