"""Multi-part retrieval on the dev questions: one-part questions unchanged, multi-part ones before/now.

    .venv/bin/python bench/multipart.py --home /tmp/evalhome      # a home (ingested if new)

One index over all dev PDFs, no document filter (as bench/rank_study.py). Every scored question is
searched with ``retrieval.multipart`` off (before) and on (now), top 5:

* questions the mechanism leaves whole (one part, no cross-document cue): how many rank *exactly*
  as before (same chunks, order, scores and channels) — all of them should;
* the others: their parts, the rank at which all gold pages are in (``pagelens eval``'s rule), and
  the gold documents reached in the top 5, before and now.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from pagelens.app import Pagelens  # noqa: E402
from pagelens.evaluate import UNANSWERABLE, hit_rank, load_questions  # noqa: E402
from pagelens.retrieve.multipart import plan  # noqa: E402
from pagelens.retrieve.retriever import Retriever  # noqa: E402
from pagelens.settings import Settings  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
FILES = ("questions.jsonl", "questions-special.jsonl", "questions-reports.jsonl")


def _key(hits) -> list[tuple]:
    return [(h.chunk.id, h.rank, h.score, sorted(h.channels.items())) for h in hits]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, help="data home holding the dev corpus (ingested when missing)")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("-k", type=int, default=5)
    args = ap.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="pagelens-multipart-"))
    questions = [q for q in load_questions([args.corpus / f for f in FILES]) if q.modality != UNANSWERABLE and q.gold]
    pdfs = sorted(p for p in (args.corpus / "pdfs").iterdir() if p.suffix.lower() == ".pdf")
    base = Settings(home=home).with_overrides(**{"answer.cache": False})
    same = whole = 0
    rows = []
    with Pagelens(base) as app:
        app.ingest(pdfs)
        r = app.retriever
        now = Retriever(base, r.store, r.embedder, r.sparse, known_docs=app.catalog.doc_ids)
        before = Retriever(base.with_overrides(**{"retrieval.multipart": False}), r.store, r.embedder, r.sparse,
                           known_docs=app.catalog.doc_ids)
        for q in questions:
            d = plan(q.question, now.route(q.question))
            h_now, h_before = now.search(q.question, k=args.k), before.search(q.question, k=args.k)
            if not d.multi and not d.spans_documents:
                whole += 1
                same += _key(h_now) == _key(h_before)
                continue
            docs = set(q.pdfs)
            rows.append((q, d, hit_rank(q.gold, h_before, q.all_pages), hit_rank(q.gold, h_now, q.all_pages),
                         len(docs & {h.chunk.doc_name for h in h_before}), len(docs & {h.chunk.doc_name for h in h_now}),
                         len(docs)))
    print(f"{len(questions)} scored dev questions; {whole} left whole, {same} of them ranked exactly as before\n")
    print(f"{len(rows)} split or spanning documents (rank of the last gold page needed, gold documents in the top {args.k}):")
    print(f"{'id':<14}{'modality':<12}{'parts':>6}{'span':>6}{'rank before':>13}{'now':>6}{'docs before':>13}{'now':>6}")
    for q, d, rb, rn, db, dn, nd in rows:
        print(f"{q.id:<14}{q.modality:<12}{len(d.parts):>6}{'yes' if d.spans_documents else '':>6}"
              f"{rb if rb else '-':>13}{rn if rn else '-':>6}{f'{db}/{nd}':>13}{f'{dn}/{nd}':>6}")
        for p in d.parts if d.multi else []:
            print(f"{'':<14}  part: {p.label}")


if __name__ == "__main__":
    main()
