"""Why the extractive answerer withheld (or quoted) what it did: the support features, the support score
and the rule flags of each question's evidence, in a home that already holds the documents.

    .venv/bin/python bench/realdocs.py --pdfs ~/.cache/pagelens-fresh2/pdfs \
        --questions bench/data/fresh2-questions.jsonl --answers --home /tmp/f2home   # once, keeps the home
    .venv/bin/python bench/support_probe.py /tmp/f2home bench/data/fresh2-questions.jsonl f2-lm-08 f2-sf-01

The support score is ``support.support_score`` (the answer is withheld below ``answer.abstain_support``);
a feature at 0 among ``distinct_names``, ``dates_found`` leaves nothing of it, and ``focus_span``,
``type_near``, ``names_found``, ``conditions`` at 0 halve it. No id: every question of the file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from pagelens.answer import extractive as ex  # noqa: E402
from pagelens.answer import support as sp  # noqa: E402
from pagelens.app import Pagelens  # noqa: E402
from pagelens.evaluate import UNANSWERABLE, answer_correct, load_questions  # noqa: E402
from pagelens.settings import Settings  # noqa: E402


@contextmanager
def recorded_evidence() -> Iterator[dict[str, object]]:
    """While open, each answer's evidence (``"ev"``) and the hits it was read from (``"hits"``) are kept in
    the yielded dict (also used by ``bench/support_cut.py``)."""
    seen: dict[str, object] = {}
    evidence = ex.ExtractiveAnswerer.evidence

    def recording(self, question, hits):  # keeps the evidence the answer was decided on
        seen["ev"], seen["hits"] = evidence(self, question, hits), hits
        return seen["ev"]

    ex.ExtractiveAnswerer.evidence = recording
    try:
        yield seen
    finally:
        ex.ExtractiveAnswerer.evidence = evidence


def main() -> None:
    home, qfile, *ids = sys.argv[1:]
    with recorded_evidence() as seen, Pagelens(Settings(home=Path(home)).with_overrides(**{"answer.cache": False})) as app:
        for q in load_questions([Path(qfile)]):
            if ids and q.id not in ids:
                continue
            seen.clear()
            ans = app.ask(q.question)
            ok = ans.abstained if q.modality == UNANSWERABLE else (
                not ans.abstained and answer_correct(ans.answer, q.answers))
            print(f"=== {q.id} [{q.modality}] right={ok} abstained={ans.abstained} gold={q.answers}")
            print("Q:", q.question)
            ev = seen.get("ev")
            if ev is None:
                print("  no candidate")
                continue
            print(f"  support={sp.support_score(ev.features):.3f} cut={app.settings.answer.abstain_support} "
                  f"flags={ev.flags}")
            print("  " + " ".join(f"{k}={v:.2f}" for k, v in zip(sp.FEATURES, ev.features)))
            print("  quoted:", ev.text[:300].replace("\n", " "))
            print("  sources:", [f"{h.chunk.doc_name}:{h.chunk.pages}" for h in seen["hits"][:6]])


if __name__ == "__main__":
    main()
