"""A pagelens process for the crash tests: run one action on a data home, print JSON.

    python tests/crash_app.py HOME ingest PDF...     ingest (the parser child, the real engine)
    python tests/crash_app.py HOME ingest-inproc PDF...   the same, parsed in this process
    python tests/crash_app.py HOME rm REF            remove a document
    python tests/crash_app.py HOME verify Q...       search each query, then `check`; print both
    python tests/crash_app.py HOME repair            `check --repair`: the index made to match the catalog

The text embedder is the deterministic HashingEmbedder (no model load), injected through the
facade's constructor; everything else is the production path. ``PAGELENS_FAULT_AT`` (read by
Settings) makes the process SIGKILL itself at that step (see pagelens.faults).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pagelens.app import Pagelens
from pagelens.embed.fake import HashingEmbedder
from pagelens.index.check import IndexChecker
from pagelens.settings import Settings


class UnusedOcr:
    """An OCR engine for text-only PDFs; injecting one makes the facade parse in this process."""

    name = cache_id = "unused"

    def recognize(self, png: bytes) -> list:
        raise AssertionError("the crash tests' PDFs have a text layer")


def main() -> None:
    home, action, *args = sys.argv[1:]
    settings = Settings(home=Path(home)).with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    ocr = UnusedOcr() if action == "ingest-inproc" else None
    with Pagelens(settings, embedder=HashingEmbedder(64), ocr=ocr) as app:
        if action in ("ingest", "ingest-inproc"):
            results = app.ingest(args)
            out: dict = {"results": [r.model_dump(mode="json") for r in results]}
        elif action == "rm":
            out = {"removed": app.remove(args[0]).doc_id}
        elif action == "verify":
            hits = {q: [h.chunk.doc_id for h in app.search(q, k=50, mode="sparse")] for q in args}
            report = IndexChecker(app).check()
            out = {"hits": hits, "check": report.to_dict(), "docs": sorted(d.doc_id for d in app.documents())}
        elif action == "repair":
            checker = IndexChecker(app)
            out = {"check": checker.repair(checker.check()).to_dict()}
        else:
            raise SystemExit(f"unknown action {action}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
