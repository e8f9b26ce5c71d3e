"""Parsing in a child process: results in order, progress and warnings relayed, a dead child reported."""

from __future__ import annotations

from pathlib import Path

from pagelens.ingest.worker import ChildParser
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog

from pdfs import SAMPLE, hr_form_pdf, paper_pdf


def test_results_progress_and_a_bad_file(settings: Settings, tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_text("no pdf here")
    form = tmp_path / "hr-form.pdf"
    hr_form_pdf(form)
    files = [SAMPLE, bad, form]
    progress: list[tuple[str, int, int]] = []
    results = list(ChildParser(settings.with_overrides(**{"ingest.ocr": "off"}), files, lambda *a: progress.append(a)))
    assert [r.name for r in results] == [f.name for f in files]
    assert [r.status for r in results] == ["indexed", "failed", "indexed"]
    assert "not a PDF" in (results[1].error or "")
    assert (SAMPLE.name, 1, 1) in progress
    docs = Catalog(settings.home / "catalog.sqlite3").documents()  # written by the child
    assert sorted(d.name for d in docs) == ["hr-form.pdf", SAMPLE.name]


def test_a_child_that_dies_fails_the_remaining_files(settings: Settings, tmp_path: Path) -> None:
    files = [tmp_path / f"copy{i}.pdf" for i in range(3)]
    paper = paper_pdf()
    for i, f in enumerate(files):  # distinct bytes: each copy is a document of its own (~0.3 s to parse)
        f.write_bytes(paper + f"\n% copy {i}\n".encode())
    child = ChildParser(settings.with_overrides(**{"ingest.ocr": "off"}), files)
    it = iter(child)
    first = next(it)
    child.proc.kill()
    rest = list(it)
    assert first.status == "indexed"
    assert len(rest) == 2 and all(r.status == "failed" for r in rest)
    assert all("parser process stopped" in (r.error or "") for r in rest)
