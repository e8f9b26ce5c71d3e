"""Parsing in a child process: results in order, progress and warnings relayed, a dead child reported."""

from __future__ import annotations

from pathlib import Path

from pagelens.ingest.worker import ChildParser
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog


def test_results_progress_and_a_bad_file(settings: Settings, corpus: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_text("no pdf here")
    files = [corpus / "otsl_2305.03393v1_p9.pdf", bad, corpus / "sp-form-hr-employee.pdf"]
    progress: list[tuple[str, int, int]] = []
    results = list(ChildParser(settings.with_overrides(**{"ingest.ocr": "off"}), files, lambda *a: progress.append(a)))
    assert [r.name for r in results] == [f.name for f in files]
    assert [r.status for r in results] == ["indexed", "failed", "indexed"]
    assert "not a PDF" in (results[1].error or "")
    assert ("otsl_2305.03393v1_p9.pdf", 1, 1) in progress
    docs = Catalog(settings.home / "catalog.sqlite3").documents()  # written by the child
    assert sorted(d.name for d in docs) == ["otsl_2305.03393v1_p9.pdf", "sp-form-hr-employee.pdf"]


def test_a_child_that_dies_fails_the_remaining_files(settings: Settings, corpus: Path, tmp_path: Path) -> None:
    files = [tmp_path / f"copy{i}.pdf" for i in range(3)]
    for i, f in enumerate(files):  # distinct bytes: each copy is a document of its own (~0.6 s to parse)
        f.write_bytes((corpus / "bert.pdf").read_bytes() + f"\n% copy {i}\n".encode())
    child = ChildParser(settings.with_overrides(**{"ingest.ocr": "off"}), files)
    it = iter(child)
    first = next(it)
    child.proc.kill()
    rest = list(it)
    assert first.status == "indexed"
    assert len(rest) == 2 and all(r.status == "failed" for r in rest)
    assert all("parser process stopped" in (r.error or "") for r in rest)
