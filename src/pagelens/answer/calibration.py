"""When the extractive answerer should abstain: a calibrated probability, not a rule per pattern.

The answerer describes its best answer by a few support features in 0..1
(``pagelens.answer.support.FEATURES``: how well it scores, how many of the question's words and names
its span and its page hold, whether it has the asked answer type, how far ahead of the other
sources it is, how well the retrieval channels agree on its source), and a logistic model turns
them into P(the answer is right). With ``answer.abstain = "calibrated"`` the answerer abstains below
``answer.abstain_probability``.

The coefficients are fit by ``bench/answer_cv.py`` on the tuning two thirds of the dev PDFs, cross-validated
by PDF (the questions about one PDF are all on one side), and checked on the third held aside; it prints the
``Calibration(...)`` below and the cut for ``answer.abstain_probability``. Logistic regression with an L2 penalty, fit by Newton's method
(iteratively reweighted least squares; Hastie, Tibshirani & Friedman, *The Elements of Statistical
Learning*, §4.4.1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pagelens.answer.support import FEATURES  # noqa: E402 - the features the model reads

L2 = 1.0
"""Ridge penalty on the weights (not the bias): with ~70 questions the fit must stay smooth."""


@dataclass(frozen=True)
class Calibration:
    """P(right) = σ(bias + Σ weight · feature); the cut is ``answer.abstain_probability``."""

    weights: tuple[float, ...]
    bias: float

    def probability(self, x: Sequence[float]) -> float:
        z = self.bias + sum(w * v for w, v in zip(self.weights, x, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


# Fit by bench/answer_cv.py on the tuning two thirds of the dev PDFs (10 of 15, 41 questions and 38
# swapped ones; cut 0.473), with the distinct_span feature (#10). Cross-validated by PDF it scores below the
# support score, the default.
DEFAULT = Calibration(weights=(0.512, 0.519, 0.928, 0.079, 0.721, -0.296, 0.169, 0.651, 0.115, 0.941, 0.985, 0.953,
                               0.07, 1.405, 0.244, 0.02),
                      bias=-5.484)


def fit(
    x: np.ndarray, y: np.ndarray, l2: float = L2, iterations: int = 50, sample_weight: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """Weights and bias of an L2-penalised logistic regression of ``y`` (0/1) on ``x`` (n × d)."""
    n, d = x.shape
    sw = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    a = np.hstack([x, np.ones((n, 1))])
    beta = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ beta, -30, 30)))
        grad = a.T @ (sw * (p - y)) + penalty * beta
        hess = (a * (sw * p * (1 - p))[:, None]).T @ a + np.diag(penalty) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return beta[:-1], float(beta[-1])


def best_threshold(p: Sequence[float], right: Sequence[bool], answerable: Sequence[bool]) -> float:
    """The cut that maximises answer accuracy: an answerable question counts when it is answered
    and right, an unanswerable one when the answerer abstains. Ties go to the middle of the widest
    run of equally good cuts."""
    cuts = sorted({0.0, 1.0, *(float(v) for v in p)})
    mids = [0.0] + [(a + b) / 2 for a, b in zip(cuts, cuts[1:])] + [1.0]

    def accuracy(t: float) -> int:
        return sum((pi >= t and r) if ans else pi < t for pi, r, ans in zip(p, right, answerable))

    scores = [accuracy(t) for t in mids]
    top = max(scores)
    best = [t for t, s in zip(mids, scores) if s == top]
    return float(best[len(best) // 2])
