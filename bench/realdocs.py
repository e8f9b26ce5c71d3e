"""pagelens on the realdocs set (real public PDFs nobody tuned on), beside a naive baseline in the
same run.

    .venv/bin/python bench/realdocs_fetch.py                       # once: builds ~/.cache/pagelens-realdocs/pdfs
    .venv/bin/python bench/realdocs.py --answers --misses          # one fresh index, all 13 documents
    .venv/bin/python bench/realdocs.py --pdfs /tmp/rd/pdfs --json out.json
    .venv/bin/python bench/realdocs.py --pdfs ~/.cache/pagelens-freshdocs/pdfs \
        --questions bench/data/freshdocs-questions.jsonl --answers   # the second held-out set
    .venv/bin/python bench/realdocs.py --pdfs ~/.cache/pagelens-fresh2/pdfs \
        --questions bench/data/fresh2-questions.jsonl --answers      # the third (bench/fresh2_fetch.py)
    .venv/bin/python bench/realdocs.py --pdfs ~/.cache/pagelens-fresh3/pdfs \
        --questions bench/data/fresh3-questions.jsonl --answers      # the fourth (bench/fresh3_fetch.py)

Questions: bench/data/realdocs-questions.jsonl, written from the pages (and committed) before pagelens
ran on them. Scoring is bench/eval_dev.py's (the corpus README rule, `pagelens.evaluate`): hit@k is any
gold page in the top k, all gold pages for multi-hop and cross-doc; doc@k uses each question's own
documents as the filter; answers are correct when they contain a gold string, unanswerable ones when
the answerer abstains.

The naive baseline is bench/ingest.py's reference case: PyMuPDF plain text per document, fixed
800-character chunks, the same MiniLM, cosine top 5 (no OCR, no tables, no fusion). Its rows are
retrieval only (it has no answerer).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from pagelens.app import Pagelens  # noqa: E402
from pagelens.evaluate import UNANSWERABLE, load_questions, run_eval  # noqa: E402
from pagelens.settings import Settings  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from fresh2_fetch import DOCS as FRESH2_DOCS  # noqa: E402
from fresh3_fetch import DOCS as FRESH3_DOCS  # noqa: E402
from freshdocs_fetch import DOCS as FRESH_DOCS  # noqa: E402
from realdocs_fetch import DEFAULT_CACHE, DOCS  # noqa: E402

QUESTIONS = HERE / "data" / "realdocs-questions.jsonl"
KIND = {d.name: d.kind for d in [*DOCS, *FRESH_DOCS, *FRESH2_DOCS, *FRESH3_DOCS]}  # the document kind each row group names


def naive_index(pdfs: list[Path]):
    """800-character chunks of each document's plain text, with the pages each chunk spans."""
    import pymupdf
    from sentence_transformers import SentenceTransformer

    from pagelens.embed.sentence import resolve_model_path

    chunks: list[tuple[str, set[int], str]] = []  # (doc, pages, text)
    for path in pdfs:
        with pymupdf.open(path) as doc:
            texts = [page.get_text() for page in doc]
        full, starts = "", []
        for t in texts:
            starts.append(len(full))
            full += t + "\n"
        for i in range(0, len(full), 800):
            piece = full[i : i + 800]
            if not piece.strip():
                continue
            pages = {p + 1 for p, s in enumerate(starts) if s < i + 800 and (p + 1 == len(starts) or starts[p + 1] > i)}
            chunks.append((path.name, pages, piece))
    model = SentenceTransformer(resolve_model_path("all-MiniLM-L6-v2")[0], device="cpu")
    vectors = model.encode([c[2] for c in chunks], batch_size=16, normalize_embeddings=True, convert_to_numpy=True)
    return model, chunks, vectors


def naive_rank(q, model, chunks, vectors, k: int, docs: set[str] | None = None) -> int | None:
    import numpy as np

    qv = model.encode([q.question], normalize_embeddings=True, convert_to_numpy=True)[0]
    scores = vectors @ qv
    order = [i for i in np.argsort(-scores) if docs is None or chunks[i][0] in docs][:k]
    needed, found = set(q.gold), set()
    for rank, i in enumerate(order, 1):
        found |= {(chunks[i][0], p) for p in chunks[i][1]} & needed
        if (found == needed) if q.all_pages else found:
            return rank
    return None


def rates(ranks: list[int | None], k: int) -> tuple[float, float, float]:
    n = len(ranks) or 1
    return (sum(r == 1 for r in ranks) / n, sum(r is not None and r <= k for r in ranks) / n,
            sum(1 / r for r in ranks if r) / n)


def side_by_side(groups: dict[str, list[tuple]], k: int) -> str:
    head = (f"{'group':<16}{'n':>4} | {'pagelens hit@1':>14}{f'hit@{k}':>7}{'MRR':>6}{'doc@1':>7}{f'doc@{k}':>7}"
            f" | {'naive hit@1':>11}{f'hit@{k}':>7}{'MRR':>6}{'doc@1':>7}{f'doc@{k}':>7}")
    lines = [head, "-" * len(head)]
    for name, rows in groups.items():
        pl, pd_, nv, nd = (rates([r[i] for r in rows], k) for i in range(4))
        lines.append(f"{name:<16}{len(rows):>4} | {pl[0]:>14.2f}{pl[1]:>7.2f}{pl[2]:>6.2f}{pd_[0]:>7.2f}{pd_[1]:>7.2f}"
                     f" | {nv[0]:>11.2f}{nv[1]:>7.2f}{nv[2]:>6.2f}{nd[0]:>7.2f}{nd[1]:>7.2f}")
    return "\n".join(lines)


def _value(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdfs", type=Path, default=DEFAULT_CACHE / "pdfs")
    ap.add_argument("--questions", type=Path, default=QUESTIONS)
    ap.add_argument("--home", type=Path, help="data home to use (and keep); default: a temp dir")
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--answers", action="store_true", help="also ask every question (extractive answerer)")
    ap.add_argument("--no-naive", action="store_true", help="skip the naive baseline")
    ap.add_argument("--misses", action="store_true", help="list retrieval misses and wrong answers")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.FIELD=VALUE",
                    help="settings override, as in bench/eval_dev.py (e.g. retrieval.page_coverage=0)")
    args = ap.parse_args()

    questions = load_questions([args.questions])
    home = args.home or Path(tempfile.mkdtemp(prefix="pagelens-realdocs-"))
    overrides = {k: _value(v) for k, v in (kv.split("=", 1) for kv in args.set)}
    with Pagelens(Settings(home=home).with_overrides(**overrides)) as app:
        report = run_eval(app, [args.questions], args.pdfs, k=args.k, answers=args.answers)
    print(report.table())

    byid = {r.id: r for r in report.results}
    naive: dict[str, tuple[int | None, int | None]] = {}
    if not args.no_naive:
        pdfs = sorted(p for p in args.pdfs.iterdir() if p.suffix.lower() == ".pdf")
        model, chunks, vectors = naive_index(pdfs)
        for q in questions:
            if q.modality != UNANSWERABLE and q.gold:
                naive[q.id] = (naive_rank(q, model, chunks, vectors, args.k),
                               naive_rank(q, model, chunks, vectors, args.k, set(q.pdfs)))
        groups: dict[str, list[tuple]] = defaultdict(list)
        for q in questions:
            if q.id not in naive:
                continue
            r = byid[q.id]
            row = (r.rank, r.doc_rank, *naive[q.id])
            groups[q.modality].append(row)
            groups["doc:" + KIND.get(q.pdfs[0], "?")].append(row)
            groups["overall"].append(row)
        order = sorted(groups, key=lambda g: (g == "overall", g.startswith("doc:"), -len(groups[g]), g))
        print(f"\nsame run, {len(chunks)} naive chunks (PyMuPDF text, 800 characters, MiniLM, cosine):")
        print(side_by_side({g: groups[g] for g in order}, args.k))

    if args.answers:
        unans = [r for r in report.results if r.modality == UNANSWERABLE]
        answered = [r for r in report.results if r.modality != UNANSWERABLE and r.answer_ok is not None]
        print(f"\nanswers: {sum(bool(r.answer_ok) for r in answered)}/{len(answered)} correct, "
              f"{sum(bool(r.abstained) for r in answered)} false abstentions; "
              f"unanswerable abstained {sum(bool(r.abstained) for r in unans)}/{len(unans)}")
    if args.misses:
        for q in questions:
            r = byid[q.id]
            miss = r.scored and (r.rank is None or r.rank > args.k)
            wrong = r.answer_ok is False
            if miss or wrong or (r.scored and r.rank != 1):
                tag = "MISS" if miss else ("RANK" if r.scored and r.rank != 1 else "ANSW")
                print(f"{tag} {q.id} [{q.modality}] rank={r.rank} doc_rank={r.doc_rank} naive={naive.get(q.id)}"
                      f" top: {' '.join(r.top)}")
                if wrong:
                    print(f"     answer{' (abstained)' if r.abstained else ''}: {(r.answer or '')[:160]!r}")
    if args.json:
        d = report.to_dict()
        d["naive"] = naive
        args.json.write_text(json.dumps(d, indent=1, default=str))


if __name__ == "__main__":
    main()
