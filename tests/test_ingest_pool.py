"""Parsing on a pool of processes: the same elements as one process, in page order, one catalog
transaction per document; a child that crashes fails only its file; stray stdout changes nothing."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pymupdf
import pytest

from pagelens.app import Pagelens
from pagelens.embed.fake import HashingEmbedder
from pagelens.ingest.assemble import page_ranges
from pagelens.ingest.executor import LocalProcessExecutor
from pagelens.ingest.parallel import ParallelParser
from pagelens.ingest.pipeline import Ingestor
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from pool_workers import CRASH_MARKER  # noqa: E402


def build_report(path: Path, pages: int, tag: str) -> Path:
    """A report: running header, numbered section headings, paragraphs, a ruled table per page that
    continues on the next page, a vector chart on every third page."""
    doc = pymupdf.open()
    for i in range(pages):
        page = doc.new_page()
        page.insert_text((72, 40), f"{tag} annual report 2024", fontsize=8)
        if i % 4 == 0:
            page.insert_text((72, 150), f"{i // 4 + 1} Results of part {i // 4 + 1}", fontsize=16)
        body = (f"On page {i + 1} of {tag}, unit {i} shipped {i * 7 + 3} parcels while the depot in zone {i % 5} "
                "kept its cost flat. ") * 5
        page.insert_textbox(pymupdf.Rect(72, 170, 523, 320), body, fontsize=10)
        for r in range(4):
            for c in range(3):
                rect = pymupdf.Rect(72 + c * 140, 340 + r * 22, 212 + c * 140, 362 + r * 22)
                page.draw_rect(rect, color=(0, 0, 0), width=0.6)
                text = ["Region", "Units", "Cost"][c] if r == 0 else f"{tag[:3]}{r}-{c}:{r * c + i}"
                page.insert_text((rect.x0 + 4, rect.y1 - 7), text, fontsize=9)
        if i % 3 == 0:
            for b in range(6):
                h = 20 + (b * 11 + i) % 50
                page.draw_rect(pymupdf.Rect(100 + b * 30, 600 - h, 120 + b * 30, 600), color=(0, 0, 0), fill=(0.3, 0.5, 0.8))
            page.insert_text((72, 625), f"Figure {i + 1}: parcels by depot", fontsize=9)
        page.insert_text((290, 810), str(i + 1), fontsize=8)
    doc.save(path)
    return path


def no_ocr(settings: Settings) -> Settings:
    return settings.with_overrides(**{"ingest.ocr": "off", "answer.cache": False})


def summary(catalog: Catalog, doc_id: str) -> list[tuple]:
    return [
        (e.id, e.page, e.order, e.kind.value, e.text, tuple(e.section),
         e.table.markdown if e.table else None, e.table.continued_from_page if e.table else None)
        for e in catalog.elements(doc_id)
    ]


class CountingCatalog(Catalog):
    """Records which write transaction every document write happened in."""

    def __init__(self, path: Path) -> None:
        self.tx = 0  # set first: opening the catalog runs its migrations in a transaction
        self.writes: list[tuple[str, int, str]] = []  # (call, transaction number, doc id)
        super().__init__(path)

    @contextmanager
    def transaction(self) -> Iterator:
        nested = self._conn.in_transaction
        if not nested:
            self.tx += 1
        with super().transaction() as conn:
            yield conn

    def begin_document(self, conn, doc) -> None:  # type: ignore[no-untyped-def]
        self.writes.append(("begin", self.tx, doc.doc_id))
        super().begin_document(conn, doc)

    def add_elements(self, conn, elements) -> int:  # type: ignore[no-untyped-def]
        elements = list(elements)
        for doc_id in {e.doc_id for e in elements}:
            self.writes.append(("elements", self.tx, doc_id))
        return super().add_elements(conn, elements)


def test_page_ranges_cover_every_page_once() -> None:
    assert page_ranges(18, 2, 8) == [(0, 8), (8, 16), (16, 18)]
    assert page_ranges(5, 2, 8) == [(0, 3), (3, 5)]
    assert page_ranges(1, 4, 8) == [(0, 1)]
    for n in (1, 7, 33):
        covered = [p for a, b in page_ranges(n, 3, 4) for p in range(a, b)]
        assert covered == list(range(n))


def test_pool_gives_the_same_elements_as_one_process(settings: Settings, tmp_path: Path) -> None:
    files = [build_report(tmp_path / "long.pdf", 13, "Northwind"), build_report(tmp_path / "short.pdf", 2, "Contoso"),
             build_report(tmp_path / "mid.pdf", 5, "Fabrikam")]
    one = no_ocr(settings.with_overrides(home=str(tmp_path / "one")))
    ingestor = Ingestor(one.ingest, Catalog(one.home / "catalog.sqlite3"), ImageStore(one.home / "images"))
    expected = {f.name: ingestor.ingest_file(f) for f in files}
    assert all(r.status == "indexed" for r in expected.values())

    pool = no_ocr(settings.with_overrides(home=str(tmp_path / "pool")))
    pool.home.mkdir(parents=True, exist_ok=True)
    catalog = CountingCatalog(pool.home / "catalog.sqlite3")
    executor = LocalProcessExecutor(pool, workers=2)
    progress: list[tuple[str, int, int]] = []
    try:
        results = list(ParallelParser(files, catalog, executor, pages_per_task=3, progress=lambda *a: progress.append(a)))
    finally:
        executor.close()
    assert sorted(r.name for r in results) == sorted(f.name for f in files)
    for r in results:
        want = expected[r.name]
        assert r.status == "indexed", r.error
        assert (r.doc_id, r.pages, r.elements) == (want.doc_id, want.pages, want.elements)
        got = summary(catalog, r.doc_id)
        assert got == summary(ingestor.catalog, want.doc_id)
        assert [row[1] for row in got] == sorted(row[1] for row in got)  # page order
    long_doc = expected["long.pdf"].doc_id
    # Section paths run across page ranges: page 4 (second range) sits under page 1's heading.
    assert any(row[1] == 4 and "1 Results of part 1" in row[5] for row in summary(catalog, long_doc))
    assert ("long.pdf", 13, 13) in progress
    # One transaction per document: its row and all its elements were written in it, and nothing else.
    for r in results:
        txs = {tx for call, tx, doc in catalog.writes if doc == r.doc_id}
        assert len(txs) == 1, (r.name, txs)
        (tx,) = txs
        assert {doc for _, t, doc in catalog.writes if t == tx} == {r.doc_id}
        assert [c for c, _, d in catalog.writes if d == r.doc_id].count("begin") == 1


def test_a_crashing_child_fails_only_its_file_and_a_fresh_child_goes_on(settings: Settings, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    good = [build_report(folder / f"good{i}.pdf", n, f"Company{i}") for i, n in enumerate((6, 1, 9, 3))]
    bad = folder / "bad.pdf"
    doc = pymupdf.open()
    for i in range(4):
        doc.new_page().insert_text((72, 72), f"page {i + 1} " + (CRASH_MARKER if i == 2 else "fine"))
    doc.save(bad)

    s = no_ocr(settings)
    with Pagelens(s, embedder=HashingEmbedder(dim=64)) as app:
        made: list[LocalProcessExecutor] = []

        def factory(st: Settings) -> LocalProcessExecutor:
            made.append(LocalProcessExecutor(st, workers=2, command=[sys.executable, str(HERE / "pool_workers.py"), "crash"]))
            return made[-1]

        app.coordinator.executor_factory = factory
        results = app.ingest([folder])
        by_name = {r.name: r for r in results}
        assert [r.name for r in results] == sorted(by_name)  # file order
        failed = by_name.pop("bad.pdf")
        assert failed.status == "failed"
        assert failed.error and failed.error.startswith("bad.pdf: parse: the parser process died (killed by SIGKILL")
        assert "\n" not in failed.error
        assert made[0].restarts >= 1
        for path in good:
            r = by_name[path.name]
            assert r.status == "indexed" and r.chunks > 0, r.error
        assert sorted(d.name for d in app.documents()) == sorted(p.name for p in good)
        hits = app.search("Company2 parcels depot", k=3)
        assert hits and hits[0].chunk.doc_name == "good2.pdf"


def test_stray_stdout_from_a_library_does_not_break_the_protocol(settings: Settings, tmp_path: Path) -> None:
    files = [build_report(tmp_path / "a.pdf", 4, "Alpha"), build_report(tmp_path / "b.pdf", 1, "Beta")]
    s = no_ocr(settings)
    catalog = Catalog(s.home / "catalog.sqlite3")
    executor = LocalProcessExecutor(s, workers=2, command=[sys.executable, str(HERE / "pool_workers.py"), "chatty"])
    try:
        results = list(ParallelParser(files, catalog, executor, pages_per_task=2))
    finally:
        executor.close()
    assert sorted((r.name, r.status, r.pages) for r in results) == [("a.pdf", "indexed", 4), ("b.pdf", "indexed", 1)]
    assert executor.restarts == 0
    for r in results:
        assert sum(r.elements.values()) == len(catalog.elements(r.doc_id)) > 3


def test_bad_input_fails_with_one_line_and_the_rest_is_parsed(settings: Settings, tmp_path: Path) -> None:
    notpdf = tmp_path / "notes.pdf"
    notpdf.write_text("no pdf here")
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    files = [notpdf, build_report(tmp_path / "ok.pdf", 3, "Okay"), empty]
    s = no_ocr(settings)
    with Pagelens(s, embedder=HashingEmbedder(dim=64)) as app:
        results = app.ingest(files)
        again = app.ingest(files[1:2])
    assert [r.status for r in results] == ["failed", "indexed", "failed"]
    assert results[0].error == "notes.pdf: open: not a PDF (no %PDF- header)"
    assert "empty" in (results[2].error or "")
    assert results[1].chunks > 0
    assert again[0].status == "unchanged"


def test_parser_processes_that_cannot_start_fail_each_file_with_the_reason(settings: Settings, tmp_path: Path) -> None:
    files = [build_report(tmp_path / f"r{i}.pdf", 2, f"Report{i}") for i in range(5)]
    s = no_ocr(settings)
    broken = [sys.executable, "-c", "import sys; print('ImportError: no module named fitz', file=sys.stderr); sys.exit(3)"]
    executor = LocalProcessExecutor(s, workers=1, command=broken)
    try:
        results = list(ParallelParser(files, Catalog(s.home / "catalog.sqlite3"), executor))
    finally:
        executor.close()
    assert sorted(r.name for r in results) == [f.name for f in files]
    assert all(r.status == "failed" for r in results)
    assert all("exit code 3" in (r.error or "") and "ImportError" in (r.error or "") for r in results)
    assert executor.restarts == 2  # three processes that could not start, then no more


def test_a_parser_process_that_grew_is_replaced_between_tasks(settings: Settings, tmp_path: Path) -> None:
    files = [build_report(tmp_path / "a.pdf", 4, "Alpha"), build_report(tmp_path / "b.pdf", 1, "Beta")]
    s = no_ocr(settings)
    executor = LocalProcessExecutor(s, workers=1, max_rss_mb=1)  # every process is "too big" after a task
    try:
        results = list(ParallelParser(files, Catalog(s.home / "catalog.sqlite3"), executor, pages_per_task=2))
    finally:
        executor.close()
    assert sorted((r.name, r.status, r.pages) for r in results) == [("a.pdf", "indexed", 4), ("b.pdf", "indexed", 1)]
    assert executor.restarts == 4  # a: prepare + 2 ranges, b: prepare (with its page): a fresh process each time
