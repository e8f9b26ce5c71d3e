"""Where each "another instance" rule of the extractive answerer fires, and what it does there: every
question is answered with ``answer.abstain_support = 0`` (its best answer and support score kept), the
rules of ``pagelens.answer.kinds`` that mark a span as about another instance (a designator, a quarter, a
contrast word, a capitalised or a lower-case modifier of the asked kind, an event or an action the
sentence lacks) are recorded whenever one returns True while the answer is chosen, and each rule is
counted by the question's outcome at the default cut:

* ``right kept`` / ``right held``: an answerable question whose answer is right, kept or withheld;
* ``wrong kept`` / ``wrong held``: an answerable question whose answer is wrong (withholding it gains
  nothing: accuracy counts right answers);
* ``unans held`` / ``unans kept``: an unanswerable question, withheld (right) or answered.

A rule that fires on "right held" and never on "unans held" costs answers and buys nothing. Homes must
already hold the documents (``bench/realdocs.py --home``, ``bench/eval_dev.py --home``).

    .venv/bin/python bench/instance_rules.py /tmp/slides-home:bench/data/slides-questions.jsonl \\
        /tmp/scans-home:bench/data/scans-questions.jsonl

(A rule that fired for some candidate did not always decide the answer: the counts say where each one
is in play, not what removing it would change; measure that on every set.)
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from pagelens.answer import kinds  # noqa: E402
from pagelens.answer import support as sp  # noqa: E402
from pagelens.app import Pagelens  # noqa: E402
from pagelens.evaluate import UNANSWERABLE, answer_correct, load_questions  # noqa: E402
from pagelens.settings import Settings  # noqa: E402
from support_probe import recorded_evidence  # noqa: E402 - bench/ is on the path when a bench script runs

RULES = ("designator_conflict", "period_conflict", "contrast_conflict", "named_instance_conflict",
         "modifier_conflict", "missing_event", "missing_action")
OUTCOMES = ("right kept", "right held", "wrong kept", "wrong held", "unans held", "unans kept")


@contextmanager
def recorded_rules() -> Iterator[set[str]]:
    """While open, the names of the ``RULES`` that returned True are added to the yielded set (restored on exit)."""
    fired: set[str] = set()
    originals = {name: getattr(kinds, name) for name in RULES}

    def recording(name: str, rule: Callable[..., bool]) -> Callable[..., bool]:
        def wrapped(*args: object, **kwargs: object) -> bool:
            hit = rule(*args, **kwargs)
            if hit:
                fired.add(name)
            return hit
        return wrapped

    for name, rule in originals.items():
        setattr(kinds, name, recording(name, rule))
    try:
        yield fired
    finally:
        for name, rule in originals.items():
            setattr(kinds, name, rule)


def outcomes(home: Path, qfile: Path) -> list[tuple[str, frozenset[str]]]:
    """(outcome, rules fired) per question."""
    out = []
    settings = Settings(home=home).with_overrides(**{"answer.cache": False, "answer.abstain_support": 0.0})
    cut = Settings().answer.abstain_support
    with recorded_evidence() as seen, recorded_rules() as fired, Pagelens(settings) as app:
        for q in load_questions([qfile]):
            seen.clear()
            fired.clear()
            ans = app.ask(q.question)
            ev = seen.get("ev")
            held = ans.abstained or ev is None or not ev.features or sp.support_score(ev.features) < cut
            if q.modality == UNANSWERABLE:
                outcome = "unans held" if held else "unans kept"
            else:
                right = not ans.abstained and answer_correct(ans.answer, q.answers)
                outcome = f"{'right' if right else 'wrong'} {'held' if held else 'kept'}"
            out.append((outcome, frozenset(fired)))
    return out


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: instance_rules.py HOME:QUESTIONS.jsonl [HOME:QUESTIONS.jsonl ...]")
    counts: Counter[tuple[str, str]] = Counter()
    n = 0
    for arg in sys.argv[1:]:
        home, qfile = arg.rsplit(":", 1)
        for outcome, fired in outcomes(Path(home), Path(qfile)):
            n += 1
            counts.update((rule, outcome) for rule in fired)
            counts[("(any question)", outcome)] += 1
    print("rule".ljust(26) + "".join(o.rjust(12) for o in OUTCOMES))
    for rule in (*RULES, "(any question)"):
        print(rule.ljust(26) + "".join(f"{counts[(rule, o)]:12d}" for o in OUTCOMES))
    print(f"{n} questions; cut {Settings().answer.abstain_support:.2f}")


if __name__ == "__main__":
    main()
