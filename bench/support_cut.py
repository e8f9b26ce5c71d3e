"""How many questions each abstention cut gets right: every question is answered with
``answer.abstain_support = 0`` (its best answer and support score kept), then each cut counts an answerable
question right when its answer is right and its support reaches the cut, an unanswerable one when its
support is below it (or nothing was found). Homes must already hold the documents (``bench/realdocs.py
--home``, ``bench/eval_dev.py --home``).

    .venv/bin/python bench/support_cut.py /tmp/slides-home:bench/data/slides-questions.jsonl \
        /tmp/scans-home:bench/data/scans-questions.jsonl

Prints one row per set and a total row; the default cut is ``answer.abstain_support``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from pagelens.answer import support as sp  # noqa: E402
from pagelens.app import Pagelens  # noqa: E402
from pagelens.evaluate import UNANSWERABLE, answer_correct, load_questions  # noqa: E402
from pagelens.settings import Settings  # noqa: E402
from support_probe import recorded_evidence  # noqa: E402 - bench/ is on the path when a bench script runs

CUTS = (0.0, 0.1, 0.15, 0.2, 0.22, 0.24, 0.26, 0.28, 0.3, 0.32, 0.35, 0.4, 0.45)


def scored(home: Path, qfile: Path) -> list[tuple[bool, bool, float]]:
    """(unanswerable, answer right, support) per question; support -1 when nothing was found."""
    out = []
    settings = Settings(home=home).with_overrides(**{"answer.cache": False, "answer.abstain_support": 0.0})
    with recorded_evidence() as seen, Pagelens(settings) as app:
        for q in load_questions([qfile]):
            seen.clear()
            ans = app.ask(q.question)
            ev = seen.get("ev")
            support = sp.support_score(ev.features) if ev is not None and ev.features and not ans.abstained else -1.0
            right = not ans.abstained and answer_correct(ans.answer, q.answers)
            out.append((q.modality == UNANSWERABLE, right, support))
    return out


def right_at(rows: list[tuple[bool, bool, float]], cut: float) -> int:
    return sum((s < cut) if unans else (right and s >= cut) for unans, right, s in rows)


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: support_cut.py HOME:QUESTIONS.jsonl [HOME:QUESTIONS.jsonl ...]")
    sets = []
    for arg in sys.argv[1:]:
        home, qfile = arg.rsplit(":", 1)
        sets.append((Path(qfile).stem.removesuffix("-questions"), scored(Path(home), Path(qfile))))
    print(f"cut (default {Settings().answer.abstain_support:.2f})".ljust(26) + "".join(f"{c:6.2f}" for c in CUTS) + "     n")
    everything = [r for _, rows in sets for r in rows]
    for name, rows in [*sets, ("all", everything)]:
        print(name.ljust(26) + "".join(f"{right_at(rows, c):6d}" for c in CUTS) + f"{len(rows):6d}")


if __name__ == "__main__":
    main()
