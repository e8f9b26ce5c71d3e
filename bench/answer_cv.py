"""Cross-validated abstention for the extractive answerer, split by PDF.

    .venv/bin/python bench/answer_cv.py --home /tmp/cvhome        # reuse a home between runs

Every dev question is retrieved and answered once (without abstaining) and described by the
calibration features (``pagelens.answer.calibration``). The PDFs are split in two halves: the
logistic model and its cut are fit on the questions about the tuning half and scored on the
questions about the held-out half (a question about several PDFs goes with its first). Printed for
both halves: answer accuracy (answerable: answered and right; unanswerable: abstained) of

* ``never``:  never abstaining,
* ``rules``:  the former rule (evidence score < 0.35, or two of the question's names / one of its
  dates / its focus words in no source),
* ``local``:  the shipped rule (``answer.abstain = "rules"``): names and dates are looked for in the
  answer's own source instead of in any source,
* ``calibrated``: the logistic model fit on the tuning half (``answer.abstain = "calibrated"``),

then leave-one-PDF-group-out accuracy over four folds, and the ``Calibration(...)`` to paste.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402

from pagelens.answer.calibration import FEATURES, Calibration, best_threshold, fit  # noqa: E402
from pagelens.answer.query import plan_query  # noqa: E402
from pagelens.app import Pagelens  # noqa: E402
from pagelens.evaluate import UNANSWERABLE, answer_correct, load_questions  # noqa: E402
from pagelens.models import SearchHit  # noqa: E402
from pagelens.settings import Settings  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
SEED = 20261201
LOCAL: dict[str, bool] = {}
OLD_SCORE_CUT = 0.35


@dataclass
class Row:
    id: str
    pdf: str
    answerable: bool
    right: bool  # the (non-abstained) answer contains a gold string
    x: tuple[float, ...]
    old_abstain: bool


def collect(app: Pagelens, questions_paths: list[Path]) -> list[Row]:
    from pagelens.answer import text as tx

    questions = load_questions(questions_paths)
    extractive = app.answerer.extractive
    rows = []
    cache_file = app.home / "answer_cv_hits.json"  # retrieval is the slow part: kept between runs
    cache = json.loads(cache_file.read_text()) if cache_file.exists() else {}
    for q in questions:
        plan = plan_query(None, q.question, expand=app.settings.retrieval.expand_short)
        if q.id in cache:
            hits = [SearchHit.model_validate(h) for h in cache[q.id]]
        else:
            hits = app.retriever.search(plan.standalone, k=app.settings.retrieval.k, extra_queries=plan.extra_queries or None)
            cache[q.id] = [h.model_dump(mode="json") for h in hits]
        ev = extractive.evidence(plan.standalone, hits)
        answerable = q.modality != UNANSWERABLE
        if ev is None:
            rows.append(Row(q.id, q.pdfs[0], answerable, False, tuple(0.0 for _ in FEATURES), True))
            continue
        texts = {t for h in hits[:6] for c in h.all_chunks() for t in tx.content_terms(c.text)}
        named = {t for h in hits[:6] for c in h.all_chunks() for t in tx.content_terms(" ".join([*c.section, c.doc_name]))}
        old = (ev.score < OLD_SCORE_CUT or tx.abstain_on_names(tx.missing_names(q.question, texts | named))
               or tx.missing_focus(q.question, texts))
        LOCAL[q.id] = ev.score < app.settings.answer.abstain_threshold or ev.mismatch  # the shipped rules
        rows.append(Row(q.id, q.pdfs[0], answerable, answerable and answer_correct(ev.text, q.answers), ev.features, old))
    cache_file.write_text(json.dumps(cache))
    return rows


def accuracy(rows: list[Row], abstain: list[bool]) -> float:
    ok = sum((not a and r.right) if r.answerable else a for r, a in zip(rows, abstain))
    return ok / len(rows) if rows else 0.0


def calibrate(rows: list[Row]) -> tuple[Calibration, float]:
    """Right answers against unanswerable questions (a wrong answer to an answerable question is
    wrong whether given or not, so it does not inform the cut), the classes weighted equally."""
    used = [r for r in rows if r.right or not r.answerable]
    x = np.array([r.x for r in used], dtype=float)
    y = np.array([1.0 if r.right else 0.0 for r in used])
    n_pos, n_neg = max(1.0, y.sum()), max(1.0, len(y) - y.sum())
    weights = np.where(y > 0, len(y) / (2 * n_pos), len(y) / (2 * n_neg))
    w, b = fit(x, y, sample_weight=weights)
    cal = Calibration(tuple(round(float(v), 3) for v in w), round(b, 3))
    p = [cal.probability(r.x) for r in rows]
    return cal, round(best_threshold(p, [r.right for r in rows], [r.answerable for r in rows]), 3)


def scores(rows: list[Row], cal: Calibration, cut: float) -> tuple[float, float, float, float]:
    return (accuracy(rows, [False] * len(rows)), accuracy(rows, [r.old_abstain for r in rows]),
            accuracy(rows, [LOCAL.get(r.id, True) for r in rows]),
            accuracy(rows, [cal.probability(r.x) < cut for r in rows]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path)
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--dump", action="store_true", help="print every question's features and outcome")
    ap.add_argument("--fresh", action="store_true", help="retrieve again instead of reusing the hits kept in the home")
    args = ap.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="pagelens-cv-"))
    paths = [args.corpus / n for n in ("questions.jsonl", "questions-special.jsonl", "questions-reports.jsonl")]
    with Pagelens(Settings(home=home)) as app:
        app.ingest(sorted((args.corpus / "pdfs").glob("*.pdf")))
        if args.fresh:
            (home / "answer_cv_hits.json").unlink(missing_ok=True)
        rows = collect(app, [p for p in paths if p.exists()])

    if args.dump:
        for r in rows:
            print(f"{r.id:<16}{'ans' if r.answerable else 'UNANS':<6}{'right' if r.right else '-':<6}"
                  f"{'old-abst' if r.old_abstain else '':<9}" + " ".join(f"{v:.2f}" for v in r.x))
    pdfs = sorted({r.pdf for r in rows})
    random.Random(SEED).shuffle(pdfs)
    tune_pdfs = set(pdfs[: len(pdfs) // 2])
    tune = [r for r in rows if r.pdf in tune_pdfs]
    held = [r for r in rows if r.pdf not in tune_pdfs]
    cal, cut = calibrate(tune)
    print(f"{len(rows)} questions, {len(pdfs)} PDFs; tuning half: {', '.join(sorted(tune_pdfs))}\n")
    print(f"{'half':<10}{'n':>4}{'unans':>7}{'never':>8}{'rules':>8}{'local':>8}{'calibrated':>12}")
    for name, part in (("tuning", tune), ("held-out", held), ("all", rows)):
        n_un = sum(not r.answerable for r in part)
        never, rules, local, calibrated = scores(part, cal, cut)
        print(f"{name:<10}{len(part):>4}{n_un:>7}{never:>8.2f}{rules:>8.2f}{local:>8.2f}{calibrated:>12.2f}")

    folds = [set(pdfs[i::4]) for i in range(4)]
    results: dict[str, list[float]] = {"never": [], "rules": [], "local": [], "calibrated": []}
    for fold in folds:
        train = [r for r in rows if r.pdf not in fold]
        test = [r for r in rows if r.pdf in fold]
        c, t = calibrate(train)
        for key, v in zip(results, scores(test, c, t)):
            results[key].extend([v] * len(test))
    print("\n4-fold by PDF (held-out accuracy, question-weighted): "
          + ", ".join(f"{k} {sum(v) / len(v):.2f}" for k, v in results.items()))
    print(f"\nDEFAULT = Calibration(weights={cal.weights}, bias={cal.bias})  # features {FEATURES}")
    print(f"answer.abstain_probability = {cut}")


if __name__ == "__main__":
    main()
