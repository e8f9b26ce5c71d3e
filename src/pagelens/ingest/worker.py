"""Parsing in a child process, so that parsing (one core, Python-bound) and embedding (torch, in the
parent) run at the same time instead of taking turns on the GIL.

Protocol: the parent writes one JSON object to the child's stdin, ``{"settings": {...}, "paths": [...]}``;
the child answers with JSON lines on stdout, in file order:

    {"type": "progress", "name": "a.pdf", "done": 3, "total": 16}
    {"type": "warn", "message": "..."}
    {"type": "result", "result": {...IngestResult...}}

The child writes documents to the catalog itself (SQLite in WAL mode lets the parent read what it has
committed meanwhile); it never opens the vector index.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pagelens.models import IngestResult
from pagelens.settings import Settings


class ChildParser:
    """Starts the child at once (so the caller can load models meanwhile); iterate for the results,
    one IngestResult per path, in order, as the child finishes each file."""

    def __init__(
        self,
        settings: Settings,
        paths: list[Path],
        progress: Callable[[str, int, int], None] | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.paths = paths
        self.progress = progress
        self.warn = warn
        request = json.dumps({"settings": settings.model_dump(mode="json"), "paths": [str(p) for p in paths]})
        # stderr goes to a file, not a pipe: a chatty library must never block the child on a full pipe.
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "pagelens.ingest.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert self.proc.stdin is not None
        self.proc.stdin.write(request)
        self.proc.stdin.close()

    def __iter__(self) -> Iterator[IngestResult]:
        proc = self.proc
        done = 0
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                msg = json.loads(line)
                if msg["type"] == "progress" and self.progress:
                    self.progress(msg["name"], msg["done"], msg["total"])
                elif msg["type"] == "warn" and self.warn:
                    self.warn(msg["message"])
                elif msg["type"] == "result":
                    done += 1
                    yield IngestResult.model_validate(msg["result"])
            code = proc.wait()
            if done < len(self.paths):
                self.stderr.seek(0)
                err = self.stderr.read().strip().splitlines()
                why = err[-1] if err else f"exit code {code}"
                for path in self.paths[done:]:
                    yield IngestResult(
                        doc_id=None, name=path.name, path=str(path), status="failed",
                        error=f"{path.name}: ingest: the parser process stopped ({why})",
                    )
        finally:
            self.close()

    @property
    def running(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        self.stderr.close()


def _emit(msg: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(msg, default=str) + "\n")
    sys.stdout.flush()


def main() -> None:
    from pagelens.ingest.pipeline import Ingestor
    from pagelens.ocr import create_ocr_engine
    from pagelens.store.catalog import open_catalog
    from pagelens.store.images import open_image_store

    request = json.loads(sys.stdin.read())
    settings = Settings(**request["settings"])
    catalog = open_catalog(settings)

    def warn(message: str) -> None:
        _emit({"type": "warn", "message": message})

    ocr = create_ocr_engine(settings.ingest, warn=warn, catalog=catalog)
    ingestor = Ingestor(settings.ingest, catalog, open_image_store(settings), ocr, warn=warn)
    for raw in request["paths"]:
        path = Path(raw)

        last = [0.0]

        def progress(done: int, total: int, name: str = path.name) -> None:
            # At most ~5 lines a second: the parent reads them between documents it embeds.
            now = time.monotonic()
            if done == total or now - last[0] >= 0.2:
                last[0] = now
                _emit({"type": "progress", "name": name, "done": done, "total": total})

        result = ingestor.ingest_file(path, progress=progress)
        _emit({"type": "result", "result": result.model_dump(mode="json")})
    catalog.close()


if __name__ == "__main__":
    main()
