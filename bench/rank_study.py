"""Rank-1 study on one index over ALL dev PDFs, no document filter (the held-out setting).

    .venv/bin/python bench/rank_study.py --home /tmp/evalhome            # a home (ingested if new)
    .venv/bin/python bench/rank_study.py --home /tmp/evalhome --misses   # list the rank-1 misses
    .venv/bin/python bench/rank_study.py --home H --variant "no-route:retrieval.route=false"

Questions: all three dev files (questions, special, reports). The PDFs are split in two halves by a
seeded shuffle of their file names (``--seed``): weights and thresholds are chosen on the questions of
the ``tune`` half and checked on the ``check`` half; both are printed. A cross-document question
belongs to the tune half only when all of its PDFs do.

For every variant (settings overrides on the same index) it prints per modality and per half
hit@1 / hit@5 / MRR (scored as ``pagelens eval`` does), search p50 / p95 (wall, and CPU time of this
process, which a shared machine disturbs less), text-model calls per search, and the rank-1 misses by
cause: ``wrong-doc`` (the first source is from a document the question is not about), ``wrong-page``
(right document, another page) split into ``table/prose`` when one of the first source and the gold
page's best chunk is a table (or row records) and the other is not.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from pagelens.app import Pagelens  # noqa: E402
from pagelens.evaluate import UNANSWERABLE, Question, hit_rank, load_questions  # noqa: E402
from pagelens.retrieve.retriever import Retriever  # noqa: E402
from pagelens.settings import Settings  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
FILES = ("questions.jsonl", "questions-special.jsonl", "questions-reports.jsonl")
TABLE_KINDS = {"table", "table_rows"}


def split_pdfs(pdfs: list[str], seed: int) -> tuple[set[str], set[str]]:
    """(tune, check): a seeded shuffle of the file names, cut in half."""
    names = sorted(pdfs)
    random.Random(seed).shuffle(names)
    half = len(names) // 2
    return set(names[:half]), set(names[half:])


def _value(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_variant(spec: str) -> tuple[str, dict[str, object]]:
    name, _, rest = spec.partition(":")
    overrides = {}
    for kv in filter(None, rest.split(",")):
        key, _, val = kv.partition("=")
        overrides[key.strip()] = _value(val.strip())
    return name, overrides


def miss_cause(q: Question, hits) -> str:
    top = hits[0] if hits else None
    if top is None:
        return "no-result"
    if top.chunk.doc_name not in q.pdfs:
        return "wrong-doc"
    gold = set(q.gold)
    gold_kind = None
    for h in hits:
        for c in h.all_chunks():
            if any((c.doc_name, p) in gold for p in c.pages):
                gold_kind = c.kind
                break
        if gold_kind:
            break
    if gold_kind and (top.chunk.kind in TABLE_KINDS) != (gold_kind in TABLE_KINDS):
        return "wrong-page (table/prose)"
    return "wrong-page"


class _Counting:
    """The text embedder, counting its calls (a model call is most of a search's CPU time)."""

    def __init__(self, inner) -> None:
        self.inner, self.calls = inner, 0

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def embed(self, texts):
        self.calls += 1
        return self.inner.embed(texts)


def run_variant(retriever: Retriever, questions: list[Question], k: int) -> tuple[list[dict], list[float], list[float]]:
    """Rows, wall milliseconds and CPU milliseconds (this process) per search."""
    rows, times, cpu = [], [], []
    for q in questions:
        t0, c0 = time.perf_counter(), time.process_time()
        hits = retriever.search(q.question, k=k)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        rank = hit_rank(q.gold, hits, q.all_pages)
        rows.append({"q": q, "rank": rank, "cause": None if rank == 1 else miss_cause(q, hits),
                     "top": [f"{h.chunk.doc_name}:{h.chunk.page}/{h.chunk.kind}" for h in hits]})
    return rows, times, cpu


def _metrics(rows: list[dict], k: int) -> tuple[int, float, float, float]:
    n = len(rows)
    if not n:
        return 0, 0.0, 0.0, 0.0
    h1 = sum(r["rank"] == 1 for r in rows) / n
    hk = sum(r["rank"] is not None and r["rank"] <= k for r in rows) / n
    mrr = sum(1 / r["rank"] for r in rows if r["rank"]) / n
    return n, h1, hk, mrr


def pct(xs: list[float], q: int) -> float:
    return statistics.quantiles(xs, n=100, method="inclusive")[q - 1] if len(xs) > 1 else (xs[0] if xs else 0.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, help="data home holding the dev corpus (ingested when missing)")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--variant", action="append", default=[], metavar="NAME:SECTION.FIELD=V,...")
    ap.add_argument("--misses", action="store_true", help="list each variant's rank-1 misses")
    ap.add_argument("--rounds", type=int, default=1, help="passes over the questions (latency)")
    args = ap.parse_args()

    home = args.home or Path(tempfile.mkdtemp(prefix="pagelens-rank-"))
    questions = [q for q in load_questions([args.corpus / f for f in FILES]) if q.modality != UNANSWERABLE and q.gold]
    pdfs = sorted(p for p in (args.corpus / "pdfs").iterdir() if p.suffix.lower() == ".pdf")
    tune, check = split_pdfs([p.name for p in pdfs], args.seed)
    half = {q.id: "tune" if set(q.pdfs) <= tune else "check" for q in questions}
    print(f"tune half ({len(tune)} PDFs): {', '.join(sorted(tune))}")
    print(f"check half ({len(check)} PDFs): {', '.join(sorted(check))}\n")
    base = Settings(home=home).with_overrides(**{"answer.cache": False})
    variants = [("default", {})] + [parse_variant(v) for v in args.variant]
    with Pagelens(base) as app:
        app.ingest(pdfs)
        app.search("warm up", k=args.k)
        results = {}
        for name, overrides in variants:
            settings = base.with_overrides(**overrides) if overrides else base
            embedder = _Counting(app.retriever.embedder)
            r = Retriever(settings, app.retriever.store, embedder, app.retriever.sparse, known_docs=app.catalog.doc_ids)
            rows, times, cpu = [], [], []
            for _ in range(args.rounds):
                rows, t, c = run_variant(r, questions, args.k)
                times += t
                cpu += c
            results[name] = (rows, times, cpu, embedder.calls / max(1, args.rounds * len(questions)))

    k = args.k
    mods = sorted({q.modality for q in questions}, key=lambda m: (-sum(q.modality == m for q in questions), m))
    head = f"{'modality':<14}{'n':>4}" + "".join(f"{name[:20]:>22}" for name, _ in variants)
    print(f"hit@1 / hit@{k} / MRR per modality (all {len(questions)} scored questions)")
    print(head)
    for group in [*mods, "half:tune", "half:check", "overall"]:
        line = ""
        n = 0
        for name, _ in variants:
            rows = results[name][0]
            if group.startswith("half:"):
                rows = [r for r in rows if half[r["q"].id] == group[5:]]
            elif group != "overall":
                rows = [r for r in rows if r["q"].modality == group]
            n, h1, hk, mrr = _metrics(rows, k)
            line += f"{f'{h1:.2f} / {hk:.2f} / {mrr:.2f}':>22}"
        print(f"{group:<14}{n:>4}{line}")
    print(f"{'search p50/p95':<18}" + "".join(
        f"{f'{pct(results[n][1], 50):.1f} / {pct(results[n][1], 95):.1f} ms':>22}" for n, _ in variants))
    print(f"{'CPU p50/p95':<18}" + "".join(
        f"{f'{pct(results[n][2], 50):.1f} / {pct(results[n][2], 95):.1f} ms':>22}" for n, _ in variants))
    print(f"{'model calls/search':<18}" + "".join(f"{results[n][3]:>22.2f}" for n, _ in variants))
    print("\nrank-1 misses by cause")
    for name, _ in variants:
        causes = Counter(r["cause"] for r in results[name][0] if r["cause"])
        print(f"  {name}: " + ", ".join(f"{c} {n}" for c, n in causes.most_common()))
    if args.misses:
        for name, _ in variants:
            print(f"\n{name}:")
            for r in results[name][0]:
                if r["cause"]:
                    q = r["q"]
                    gold = " ".join(f"{d}:{p}" for d, p in q.gold)
                    print(f"  {q.id} [{q.modality}] rank {r['rank']} {r['cause']} gold {gold}\n    top {' '.join(r['top'])}")


if __name__ == "__main__":
    main()
