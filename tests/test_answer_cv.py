"""bench/answer_cv.py's pooled cross-validation: folds keep every PDF whole and do not depend on the
order the sets come in, and the support fit finds the cut and factors that separate the rows."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from pagelens.answer import support as sp

_PATH = Path(__file__).resolve().parent.parent / "bench" / "answer_cv.py"


@pytest.fixture(scope="module")
def cv():
    spec = importlib.util.spec_from_file_location("answer_cv", _PATH)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["answer_cv"] = mod
    spec.loader.exec_module(mod)
    yield mod
    sys.modules.pop("answer_cv", None)


def _x(score: float, **kw: float) -> tuple[float, ...]:
    return tuple(kw.get(n, score if n == "score" else 1.0) for n in sp.FEATURES)


def test_pooled_folds_keep_pdfs_whole_and_are_fixed(cv):
    pdfs = [f"{s}/{i}.pdf" for s in ("dev", "realdocs", "fresh2") for i in range(7)]
    folds = cv.pool_split(pdfs)
    assert len(folds) == cv.FOLDS
    assert sorted(p for f in folds for p in f) == sorted(pdfs)  # every PDF in exactly one fold
    assert folds == cv.pool_split(list(reversed(pdfs)))  # the seeded rule, not the order given
    assert max(map(len, folds)) - min(map(len, folds)) <= 1


def test_support_fit_separates_and_prefers_the_shipped_parameters(cv):
    def row(i: int, score: float, answerable: bool, right: bool, **kw: float):
        return cv.Row(f"q{i}", "a.pdf", answerable, False, right, _x(score, **kw), (), score)

    rows = [row(i, 0.4 + i / 100, True, True) for i in range(10)]
    rows += [row(10 + i, 0.2 + i / 100, False, False) for i in range(5)]
    cut, floors, soft = cv.support_fit(rows)
    assert 0.25 <= cut <= 0.4  # anywhere between the negatives and the positives
    assert floors == sp.DISTINCT_FLOORS and soft == sp.SOFT  # nothing to gain: the shipped ones on the tie
    # unanswerable rows that only a missing focus gives away (0.9 halved is among the positives): the
    # distinct floors cannot help, a harder focus factor can
    rows += [row(20 + i, 0.9, False, False, focus_span=0.0) for i in range(3)]
    assert cv.score(rows, cv.support(*cv.support_fit(rows))).acc < 1.0  # the shipped factors cannot
    cv.FIT_SOFT = True
    try:
        cut, floors, soft = cv.support_fit(rows)
    finally:
        cv.FIT_SOFT = False
    decide = cv.support(cut, floors, soft)
    assert all(decide(r) != r.answerable for r in rows)
    assert soft[0] < sp.SOFT[0]
