"""Abstention of the extractive answerer, cross-validated by DOCUMENT, with a third of the PDFs aside.

    .venv/bin/python bench/answer_cv.py --corpus ../shared/corpus --home /tmp/cvhome   # reuse a home
    .venv/bin/python bench/answer_cv.py --pool --home /tmp/cv                        # the 4 dev sets pooled
    .venv/bin/python bench/answer_cv.py --corpus ../shared/corpus --home /tmp/cvhome \
        --unseen bench/data/questions-unseen-unanswerable.jsonl                       # + unseen negatives

Split (fixed, written down here so it is not chosen after the fact): the dev PDFs named by the three
question files, sorted by name and shuffled with ``random.Random(20261201)``; the first third
(``len // 3``) is the HELD-ASIDE half, never used to choose features, rules or thresholds, and scored
once at the end. The other PDFs form the TUNING half, cut into ``FOLDS`` folds of whole PDFs (every
question about a PDF, and every negative made from it, on one side): each fold is scored by a
model and cut fit on the other folds only.

Negatives: the dev set has five unanswerable questions, too few to fit anything on. Every
answerable question is therefore also asked of the OTHER PDFs of its own fold (its own PDFs left
out by a document filter): the documents do not hold its answer, so the answerer should abstain
("swapped" questions). They train the calibrated model with a small weight (``SWAP_WEIGHT`` each)
and are reported as their own column; accuracy is scored on the real questions only.

Modes compared per fold and on both halves:

* ``never``: never abstain;
* ``rules``: ``answer.abstain = "rules"``: evidence score below ``answer.abstain_threshold``, a date or
  two names of the question missing from the answer's page, the asked-for thing in no source, or the
  asked-for value's form (an e-mail address, a web address, a phone number, a date) absent from the
  answer's span;
* ``rules-cv``: the same rules with the evidence-score cut fit on the training folds;
* ``calibrated``: ``answer.abstain = "calibrated"``, a logistic model over the support features
  (``pagelens.answer.support.FEATURES``) with its cut fit on the training folds;
* ``support``: ``answer.abstain = "support"``, the support score (``support.support_score``: no fitted
  weight) with its cut and its three ``distinct`` floors (``support.DISTINCT_FLOORS``: how much of the score
  is left when a distinguishing name/count, or a focus term, is in no source; 1.0 leaves it out) fit
  together on the training folds; each fold's line names the floors its training folds chose.

``--pool``: the four DEVELOPMENT sets pooled (``SETS``: dev, realdocs, freshdocs, fresh2; each its own PDF
folder, question files and data home ``HOME/NAME``), ``--sets`` to pick some. The fixed split becomes: every
PDF of the pooled sets, named ``set/pdf``, sorted and shuffled with the same seed, cut into ``FOLDS`` folds
of whole PDFs (every question about a PDF, and every negative made from it, on one side); there is no
held-aside third: the fifth question set (fresh3) is the held-out check, never read here. Each fold is scored
by the modes fit on the other folds; the decisions are then reported per set and pooled, and once more
with everything fit on all folds. Swapped questions are asked of the other PDFs of their fold within their
own set (one index per set). The 44 real unanswerable questions weigh 1 each, a swapped one ``SWAP_WEIGHT``.

``--unseen FILE ...``: question files written without tuning on them (unanswerable questions about the
held-aside PDFs; a fresh answerable + unanswerable check set) are asked of the whole index and each is
reported on its own line (fit on the whole tuning half).

Columns: ``acc`` answer accuracy on the real questions (answerable: answered and right;
unanswerable: abstained), ``unans`` unanswerable questions abstained on, ``false`` answerable questions
abstained on, ``swap`` share of swapped questions abstained on. The last lines print the
``Calibration(...)`` fit on the whole tuning half and its cut, to paste into
``pagelens.answer.calibration.DEFAULT`` and ``answer.abstain_probability``, and the support cut and floors
for ``answer.abstain_support`` and ``support.DISTINCT_FLOORS``.
"""

from __future__ import annotations

import argparse
import json
import os
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402

from pagelens.answer.calibration import DEFAULT, Calibration, best_threshold, fit  # noqa: E402
from pagelens.answer.extractive import ExtractiveAnswerer  # noqa: E402
from pagelens.answer.query import plan_query  # noqa: E402
from pagelens.answer.support import (  # noqa: E402
    DISTINCT, DISTINCT_FLOORS, FEATURES, SOFT, SUPPORT_FACTORS, support_score,
)
from pagelens.evaluate import UNANSWERABLE, Question, answer_correct, load_questions  # noqa: E402
from pagelens.models import SearchHit  # noqa: E402
from pagelens.settings import AnswerSettings, Settings  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
QUESTION_FILES = ("questions.jsonl", "questions-special.jsonl", "questions-reports.jsonl")
SEED = 20261201
FOLDS = 5
SWAP_WEIGHT = 0.1  # weight of one swapped question against one real question
MODES = ("never", "rules", "rules-cv", "calibrated", "support")
_CACHE = Path.home() / ".cache"
_DATA = Path(__file__).resolve().parent / "data"
SETS: dict[str, tuple[Path, tuple[Path, ...]]] = {
    "dev": (CORPUS / "pdfs", tuple(CORPUS / n for n in QUESTION_FILES)),
    "realdocs": (_CACHE / "pagelens-realdocs" / "pdfs", (_DATA / "realdocs-questions.jsonl",)),
    "freshdocs": (_CACHE / "pagelens-freshdocs" / "pdfs", (_DATA / "freshdocs-questions.jsonl",)),
    "fresh2": (_CACHE / "pagelens-fresh2" / "pdfs", (_DATA / "fresh2-questions.jsonl",)),
}
"""The development sets ``--pool`` cross-validates over: (PDF folder, question files); dev's folder is
``--corpus``. fresh3 is not here: it is the check set, never tuned on."""


@dataclass
class Corpus:
    name: str
    pdfs: Path  # folder of PDFs
    files: list[Path]  # question files
    home: Path  # data home (its own index; caches the retrieved sources)


@dataclass
class Row:
    id: str
    pdf: str
    answerable: bool
    swapped: bool  # an answerable question asked of other PDFs
    right: bool  # the (non-abstained) answer contains a gold string
    x: tuple[float, ...]
    flags: tuple[str, ...]
    score: float
    text: str = ""
    unseen: str = ""  # the --unseen file the question comes from (each reported on its own line)
    corpus: str = ""  # the development set of the question (--pool)

    @property
    def weight(self) -> float:
        return SWAP_WEIGHT if self.swapped else 1.0

    @property
    def positive(self) -> bool:  # the answer should be given
        return self.answerable and not self.swapped


def split(pdfs: list[str]) -> tuple[list[str], list[list[str]]]:
    """(held-aside PDFs, folds of the tuning PDFs), by the seeded rule in the module docstring."""
    order = sorted(pdfs)
    random.Random(SEED).shuffle(order)
    aside, tuning = order[: len(order) // 3], order[len(order) // 3 :]
    return aside, [tuning[i::FOLDS] for i in range(FOLDS)]


def pool_split(pdfs: list[str]) -> list[list[str]]:
    """Folds of the pooled PDFs (``set/pdf``), by the seeded rule of ``--pool``: no held-aside part."""
    order = sorted(pdfs)
    random.Random(SEED).shuffle(order)
    return [order[i::FOLDS] for i in range(FOLDS)]


def collect(corpora: list[Corpus], answerer: ExtractiveAnswerer, unseen: list[Path] | None = None,
            pooled: bool = False) -> list[Row]:
    """Every real question and its swapped copies, answered once without abstaining; the questions of
    the ``unseen`` files are asked of the first corpus's whole index too, as rows of their own. With
    ``pooled`` a row's ``pdf`` is ``set/pdf`` and the folds are those of ``pool_split``."""
    per = [(c, load_questions(c.files)) for c in corpora]
    name = (lambda c, p: f"{c.name}/{p}") if pooled else (lambda c, p: p)
    pdfs = sorted({name(c, q.pdfs[0]) for c, qs in per for q in qs})
    if pooled:
        groups = pool_split(pdfs)
    else:
        aside, folds = split(pdfs)
        groups = [aside, *folds]
    group = {p: tuple(g) for g in groups for p in g}
    rows: list[Row] = []
    for n, (c, questions) in enumerate(per):
        extra = [(q, f.stem) for f in (unseen or []) if n == 0 for q in load_questions([f])]
        cache_file = c.home / "answer_cv_hits.json"  # retrieval is the slow part: kept between runs
        cache: dict[str, list] = json.loads(cache_file.read_text()) if cache_file.exists() else {}
        jobs: list[tuple[Question, str, list[str] | None]] = []
        group_of = {f"unseen:{q.id}": nm for q, nm in extra}
        for q in questions:
            jobs.append((q, q.id, None))
            own = name(c, q.pdfs[0])
            others = [p.removeprefix(f"{c.name}/") if pooled else p for p in group[own]
                      if (not pooled or p.startswith(f"{c.name}/")) and p != own]
            others = [p for p in others if p not in q.pdfs]
            if q.modality != UNANSWERABLE and others:
                jobs.append((q, f"swap{'@pool' if pooled else ''}:{q.id}", others))  # its own cache key: other PDFs
        jobs += [(q, f"unseen:{q.id}", None) for q, _ in extra]
        todo = [j for j in jobs if j[1] not in cache]
        if todo:
            c.home.mkdir(parents=True, exist_ok=True)
            _retrieve(c.home, c.pdfs, todo, cache)
            cache_file.write_text(json.dumps(cache))
        for q, key, _ in jobs:
            hits = [SearchHit.model_validate(h) for h in cache[key]]
            standalone = plan_query(None, q.question, expand=True).standalone
            ev = answerer.evidence(standalone, hits)
            swapped, extra_q = key.startswith("swap"), group_of.get(key, "")
            answerable = q.modality != UNANSWERABLE
            pdf = name(c, q.pdfs[0])
            if ev is None:
                rows.append(Row(key, pdf, answerable, swapped, False, tuple(0.0 for _ in FEATURES), ("empty",), 0.0,
                                unseen=extra_q, corpus=c.name))
                continue
            right = answerable and not swapped and answer_correct(ev.text, q.answers)
            rows.append(Row(key, pdf, answerable, swapped, right, ev.features, ev.flags, ev.score, ev.text,
                            unseen=extra_q, corpus=c.name))
    return rows


def _retrieve(home: Path, pdfs: Path, todo: list[tuple[Question, str, list[str] | None]], cache: dict) -> None:
    from pagelens.app import Pagelens

    with Pagelens(Settings(home=home)) as app:
        app.ingest(sorted(pdfs.glob("*.pdf")))
        for q, key, docs in todo:
            plan = plan_query(None, q.question, expand=app.settings.retrieval.expand_short)
            hits = app.retriever.search(plan.standalone, k=app.settings.retrieval.k,
                                        extra_queries=plan.extra_queries or None, doc_ids=app.resolve_docs(docs))
            cache[key] = [h.model_dump(mode="json") for h in hits]


# -- modes ------------------------------------------------------------------------------------------
Decide = Callable[[Row], bool]  # True: abstain


def rules(threshold: float, skip: tuple[str, ...] = ()) -> Decide:
    return lambda r: r.score < threshold or any(f not in skip for f in r.flags)


def best_cut(rows: list[Row], decide: Callable[[float], Decide]) -> float:
    """The cut of ``decide`` that scores best on ``rows`` (swapped questions with their small weight),
    the middle of the best run of cuts on a 0.01 grid."""
    grid = [i / 100 for i in range(0, 91)]

    def gain(t: float) -> float:
        d = decide(t)
        return sum(r.weight * ((not d(r) and r.right) if r.positive else d(r)) for r in rows)

    gains = [gain(t) for t in grid]
    best = [t for t, g in zip(grid, gains) if g >= max(gains) - 1e-9]
    return best[len(best) // 2]


def rules_cut(rows: list[Row]) -> float:
    """The evidence-score cut of the rules that scores best on ``rows``."""
    return best_cut(rows, rules)


def calibrate(rows: list[Row]) -> tuple[Calibration, float]:
    """A logistic model of "the answer should be given and is right" against "should abstain"
    (unanswerable and swapped questions), fit on ``rows``; wrong answers to answerable questions
    are left out of the fit (wrong whether given or not) but count when the cut is chosen."""
    used = [r for r in rows if r.right or not r.positive]
    x = np.array([r.x for r in used], dtype=float)
    y = np.array([1.0 if r.right else 0.0 for r in used])
    w = np.array([r.weight for r in used])
    pos, neg = max(1e-9, float((w * y).sum())), max(1e-9, float((w * (1 - y)).sum()))
    w = np.where(y > 0, w * w.sum() / (2 * pos), w * w.sum() / (2 * neg))  # classes weigh the same
    coef, bias = fit(x, y, sample_weight=w)
    cal = Calibration(tuple(round(float(v), 3) for v in coef), round(bias, 3))
    real = [r for r in rows if not r.swapped]
    cut = best_threshold([cal.probability(r.x) for r in real], [r.right for r in real], [r.answerable for r in real])
    return cal, round(cut, 3)


def calibrated(cal: Calibration, cut: float) -> Decide:
    return lambda r: cal.probability(r.x) < cut


FLOORS = tuple((a, b, c) for c in (1.0, 0.5, 0.25, 0.0) for a in (0.0, 0.25, 0.5, 1.0) for b in (0.0, 0.25, 0.5, 1.0))
"""Candidate ``support.DISTINCT_FLOORS`` (names, focus, span); 1.0 leaves that feature out."""
SOFTS = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Candidate ``support.SOFT`` per factor of ``support.SUPPORT_FACTORS`` (what is left when it is missing;
1.0 leaves the factor out), searched with ``--fit-soft``."""
FIT_SOFT = False  # set by --fit-soft: fit the four soft factors too (else they stay support.SOFT)

SupportFit = tuple[float, tuple[float, ...], tuple[float, ...]]  # (cut, distinct floors, soft factors)


def support(cut: float, floor: tuple[float, ...] = DISTINCT_FLOORS, soft: tuple[float, ...] = SOFT) -> Decide:
    return lambda r: support_score(r.x, floor, soft) < cut


def _candidates() -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
    """(floors, softs) to try, nearest the shipped ones first: on a tie the smaller change wins."""
    softs = list(itertools.product(SOFTS, repeat=len(SUPPORT_FACTORS))) if FIT_SOFT else [SOFT]
    combos = [(f, k) for f in FLOORS for k in softs]
    return sorted(combos, key=lambda c: sum(abs(u - v) for u, v in zip((*c[0], *c[1]), (*DISTINCT_FLOORS, *SOFT))))


def support_fit(rows: list[Row]) -> SupportFit:
    """The (support-score cut, distinct floors, soft factors) that score best on ``rows``: for each
    candidate of ``_candidates`` its best cut (as ``best_cut``: the middle of the best run on the 0.01 grid);
    the candidate whose cut gains most (the nearest the shipped parameters on a tie). Vectorised: the
    score without the soft and distinct factors is computed once per row, and each candidate's gain at
    every cut comes from two weighted histograms."""
    grid = np.array([i / 100 for i in range(0, 91)])
    x = np.array([r.x for r in rows], dtype=float).reshape(len(rows), len(FEATURES))
    base = x[:, FEATURES.index("score")] * x[:, FEATURES.index("dates_found")]
    d = x[:, [FEATURES.index(n) for n in DISTINCT]]
    f = x[:, [FEATURES.index(n) for n in SUPPORT_FACTORS]]
    w = np.array([r.weight for r in rows])
    pos = np.array([r.positive for r in rows])
    right = np.array([r.right for r in rows])
    w_neg, w_pos = np.where(pos, 0.0, w), np.where(pos & right, w, 0.0)
    soft_of = {(i, k): k + (1 - k) * f[:, i] for i in range(len(SUPPORT_FACTORS)) for k in SOFTS + SOFT}
    floor_of = {(i, k): k + (1 - k) * d[:, i] for i in range(len(DISTINCT)) for k in (0.0, 0.25, 0.5, 1.0)}
    best: tuple[float, float, tuple[float, ...], tuple[float, ...]] | None = None
    for floor, soft in _candidates():
        s = base.copy()
        for i, k in enumerate(soft):
            s *= soft_of[(i, k)]
        for i, k in enumerate(floor):
            s *= floor_of[(i, k)]
        j = np.searchsorted(grid, s, side="right")  # cuts t = grid[k] with k >= j abstain (s < t)
        neg = np.cumsum(np.bincount(j, w_neg, len(grid) + 1))[: len(grid)]
        kept = w_pos.sum() - np.cumsum(np.bincount(j, w_pos, len(grid) + 1))[: len(grid)]
        gains = neg + kept
        g = float(gains.max())
        if best is None or g > best[0] + 1e-9:
            top = grid[gains >= g - 1e-9]
            best = (g, float(top[len(top) // 2]), floor, soft)
    assert best is not None
    return best[1], best[2], best[3]


# -- scoring ----------------------------------------------------------------------------------------
@dataclass
class Score:
    n: int
    acc: float
    unans: str
    false: int
    swap: float


def score(rows: list[Row], decide: Decide) -> Score:
    real = [r for r in rows if not r.swapped]
    swaps = [r for r in rows if r.swapped]
    ok = sum((not decide(r) and r.right) if r.answerable else decide(r) for r in real)
    un = [r for r in real if not r.answerable]
    return Score(
        len(real), ok / len(real) if real else 0.0, f"{sum(decide(r) for r in un)}/{len(un)}",
        sum(decide(r) for r in real if r.answerable), sum(decide(r) for r in swaps) / len(swaps) if swaps else 0.0,
    )


def _line(name: str, s: dict[str, Score]) -> str:
    return f"{name:<34}{next(iter(s.values())).n:>4}" + "".join(
        f"{v.acc:>7.2f}{v.unans:>6}{v.false:>6}{v.swap:>6.2f}" for v in s.values())


def _head(modes: tuple[str, ...]) -> str:
    top = f"{'':<38}" + "".join(f"{m:^25}" for m in modes)
    sub = f"{'part':<34}{'n':>4}" + f"{'acc':>7}{'unans':>6}{'false':>6}{'swap':>6}" * len(modes)
    return f"{top}\n{sub}"


Decisions = dict[str, list[tuple[Row, bool]]]  # mode -> every scored row with that mode's decision (True: abstain)


def _cross_validate(rows: list[Row], folds: list[list[str]], settings: AnswerSettings, final: str,
                    modes: tuple[str, ...], label: Callable[[int, list[str], SupportFit], str]) -> Decisions:
    """Each fold scored by every mode fit on the other folds' rows (one line per fold, named by
    ``label(index, fold, support fit)``); returns every row with each mode's decision on it."""
    pooled: dict[str, list[tuple[Row, bool]]] = {m: [] for m in modes}
    for i, fold in enumerate(folds):
        train = [r for r in rows if r.pdf not in fold]
        test = [r for r in rows if r.pdf in fold]
        cal, cut = calibrate(train)
        s_fit = support_fit(train)
        deciders = _deciders(settings, cal, cut, final, rules_cut(train), s_fit)
        for m, d in zip(modes, deciders):
            pooled[m] += [(r, d(r)) for r in test]
        print(_line(label(i, fold, s_fit), {m: score(test, d) for m, d in zip(modes, deciders)}))
    return pooled


def report(rows: list[Row], settings: AnswerSettings, final: str) -> None:
    unseen = {name: [r for r in rows if r.unseen == name] for name in dict.fromkeys(r.unseen for r in rows if r.unseen)}
    rows = [r for r in rows if not r.unseen]
    pdfs = sorted({r.pdf for r in rows})
    aside, folds = split(pdfs)
    tuning = [p for f in folds for p in f]
    modes = (*MODES, f"final={final}")
    print(f"{len(pdfs)} PDFs; held aside ({len(aside)}): {', '.join(aside)}\n")
    print(_head(modes))
    pooled = _cross_validate([r for r in rows if r.pdf in tuning], folds, settings, final, modes,
                             lambda i, fold, fit: f"fold {i + 1} ({_fit_str(fit)}): "
                             f"{', '.join(p.removesuffix('.pdf')[:9] for p in fold)}")
    cv = {m: _pooled(pooled[m]) for m in modes}
    print(_line("tuning half, cross-validated", cv))
    cal, cut = calibrate([r for r in rows if r.pdf in tuning])
    score_cut = rules_cut([r for r in rows if r.pdf in tuning])
    s_fit = support_fit([r for r in rows if r.pdf in tuning])
    deciders = _deciders(settings, cal, cut, final, score_cut, s_fit)
    held = [r for r in rows if r.pdf in aside]
    print(_line("HELD-ASIDE half (fit on all tuning)", {m: score(held, d) for m, d in zip(modes, deciders)}))
    print(_line(f"all {len(pdfs)} PDFs (fit on all tuning)", {m: score(rows, d) for m, d in zip(modes, deciders)}))
    for name, group in unseen.items():
        print(_line(f"{name.removeprefix('questions-')[:18]} (fit on tuning)",
                    {m: score(group, d) for m, d in zip(modes, deciders)}))
    print(f"\nDEFAULT = Calibration(weights={cal.weights}, bias={cal.bias})  # features {FEATURES}")
    print(f"answer.abstain_probability = {cut}; rules-cv evidence-score cut (answer.abstain_threshold) = {score_cut}; "
          f"support cut (answer.abstain_support) = {s_fit[0]}, support.DISTINCT_FLOORS = {s_fit[1]}, "
          f"support.SOFT = {s_fit[2]}")


def report_pooled(rows: list[Row], settings: AnswerSettings, final: str) -> None:
    """``--pool``: cross-validation over folds of the pooled PDFs, reported per fold, per set and pooled;
    then every mode fit on all folds, per set and pooled, and the fitted parameters."""
    folds = pool_split(sorted({r.pdf for r in rows}))
    modes = (*MODES, f"final={final}")
    sets = list(dict.fromkeys(r.corpus for r in rows))
    print(f"{len({r.pdf for r in rows})} PDFs in {len(sets)} sets ({', '.join(sets)}), {FOLDS} folds\n")
    print(_head(modes))
    pooled = _cross_validate(rows, folds, settings, final, modes,
                             lambda i, fold, fit: f"fold {i + 1} ({len(fold)} PDFs) {_fit_str(fit)}")
    for name in sets:
        print(_line(f"{name}, cross-validated", {m: _pooled([p for p in pooled[m] if p[0].corpus == name])
                                                  for m in modes}))
    print(_line("POOLED, cross-validated", {m: _pooled(pooled[m]) for m in modes}))
    cal, cut = calibrate(rows)
    score_cut = rules_cut(rows)
    s_fit = support_fit(rows)
    deciders = _deciders(settings, cal, cut, final, score_cut, s_fit)
    for name in sets:
        part = [r for r in rows if r.corpus == name]
        print(_line(f"{name} (fit on all)", {m: score(part, d) for m, d in zip(modes, deciders)}))
    print(_line("POOLED (fit on all)", {m: score(rows, d) for m, d in zip(modes, deciders)}))
    print(f"\nDEFAULT = Calibration(weights={cal.weights}, bias={cal.bias})  # features {FEATURES}")
    print(f"answer.abstain_probability = {cut}; rules-cv evidence-score cut (answer.abstain_threshold) = {score_cut}; "
          f"support cut (answer.abstain_support) = {s_fit[0]}, support.DISTINCT_FLOORS = {s_fit[1]}, "
          f"support.SOFT = {s_fit[2]}")


def _deciders(settings: AnswerSettings, cal: Calibration, cut: float, final: str, score_cut: float,
              s_fit: SupportFit) -> list[Decide]:
    by_name = {"never": lambda r: False, "rules": rules(settings.abstain_threshold), "rules-cv": rules(score_cut),
               "calibrated": calibrated(cal, cut), "support": support(*s_fit)}
    shipped = {"rules": rules(settings.abstain_threshold), "support": support(settings.abstain_support),
               "calibrated": calibrated(DEFAULT, settings.abstain_probability)}  # as the settings ship it
    return [*by_name.values(), shipped[final]]


def _fit_str(s_fit: SupportFit) -> str:
    cut, floor, soft = s_fit
    text = f"{cut} fl {','.join(f'{v:g}' for v in floor)}"
    return text + (f" so {','.join(f'{v:g}' for v in soft)}" if FIT_SOFT else "")


def _pooled(pairs: list[tuple[Row, bool]]) -> Score:
    decisions = {id(r): d for r, d in pairs}
    return score([r for r, _ in pairs], lambda r: decisions[id(r)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True, help="data home (kept: it caches the retrieved sources)")
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="folder with pdfs/ and the question files")
    ap.add_argument("--questions", type=Path, nargs="*", help="question files (default: the three dev files)")
    ap.add_argument("--unseen", type=Path, nargs="*", help="question files not tuned on, each reported on its own "
                    "line (bench/data/questions-unseen-unanswerable.jsonl, bench/data/questions-fresh-answers.jsonl)")
    ap.add_argument("--pool", action="store_true", help="pool the development sets (SETS); homes HOME/NAME")
    ap.add_argument("--sets", nargs="*", choices=list(SETS), help="with --pool: only these sets")
    ap.add_argument("--fit-soft", action="store_true", help="fit support.SOFT (one per support factor) too")
    ap.add_argument("--dump", action="store_true", help="print every question's features and outcome")
    ap.add_argument("--fresh", action="store_true", help="retrieve again instead of reusing the hits kept in the home")
    args = ap.parse_args()
    from pagelens.embed.sentence import SentenceTransformerEmbedder

    global FIT_SOFT
    FIT_SOFT = args.fit_soft
    if args.pool:
        sets = {**SETS, "dev": (args.corpus / "pdfs", tuple(args.corpus / n for n in QUESTION_FILES))}
        corpora = [Corpus(n, sets[n][0], list(sets[n][1]), args.home / n) for n in (args.sets or SETS)]
    else:
        files = args.questions or [args.corpus / n for n in QUESTION_FILES if (args.corpus / n).exists()]
        corpora = [Corpus("dev", args.corpus / "pdfs", files, args.home)]
    for c in corpora:
        c.home.mkdir(parents=True, exist_ok=True)
        if args.fresh:
            (c.home / "answer_cv_hits.json").unlink(missing_ok=True)
    settings = AnswerSettings()
    rows = collect(corpora, ExtractiveAnswerer(settings, SentenceTransformerEmbedder(threads=1)), args.unseen,
                   pooled=args.pool)
    if args.dump:
        print(f"{'id':<22}{'kind':<6}{'right':<6}{'flags':<12}" + " ".join(f"{f[:6]:>6}" for f in FEATURES))
        for r in rows:
            kind = "swap" if r.swapped else ("ans" if r.answerable else "UNSEEN" if r.unseen else "UNANS")
            kind = kind if not (r.unseen and r.answerable) else "ANS+"
            print(f"{r.corpus:<10}{r.id:<22}{kind:<6}{'right' if r.right else '-':<6}{','.join(r.flags):<12}"
                  + " ".join(f"{v:>6.2f}" for v in r.x) + f"  support {support_score(r.x):.3f}  {r.text[:160]!r}")
        print()
    (report_pooled if args.pool else report)(rows, settings, settings.abstain)


if __name__ == "__main__":
    main()
