"""Ingest that survives: OCR kept page by page across a crash, the catalog writable while a document
parses, and SQLite trouble reported as a line a user can act on."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pymupdf
import pytest

from pagelens.errors import HomeLockedError, StoreError
from pagelens.ingest.pipeline import Ingestor
from pagelens.ocr.cache import CachedOcrEngine
from pagelens.ocr.protocol import OcrLine
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore
from pagelens.vectors.edge import EdgeVectorStore


def scanned_pdf(path: Path, pages: int) -> Path:
    """Pages that are one raster image each (no text layer), each image different."""
    doc = pymupdf.open()
    for i in range(pages):
        src = pymupdf.open()
        src.new_page(width=300, height=400).insert_text((40, 80 + 10 * i), f"Scanned page {i + 1}", fontsize=18)
        pix = src[0].get_pixmap(dpi=72)
        page = doc.new_page(width=300, height=400)
        page.insert_image(page.rect, pixmap=pix)
        src.close()
    doc.save(path)
    doc.close()
    return path


class Crash(BaseException):
    """What a kill looks like to the code under test: nothing after it runs."""


class ScriptedOcr:
    """Reads every page as one line; raises ``Crash`` on call ``crash_on``; checks meanwhile that
    another connection can write to the catalog (the parse holds no write lock)."""

    name = "scripted"
    cache_id = "scripted-1"

    def __init__(self, catalog_path: Path, crash_on: int | None = None) -> None:
        self.catalog_path, self.crash_on, self.calls = catalog_path, crash_on, 0

    def recognize(self, png: bytes) -> list[OcrLine]:
        self.calls += 1
        other = sqlite3.connect(self.catalog_path, timeout=0.2)
        other.execute("BEGIN IMMEDIATE")  # raises 'database is locked' if the ingest held the lock
        other.execute("ROLLBACK")
        other.close()
        if self.calls == self.crash_on:
            raise Crash()
        # Mid-page: a line in the top band that every page repeats (but for its number) is a running header
        # (``furniture.mark_ocr_running``).
        return [OcrLine(f"ocr text of call {self.calls}", (10.0, 300.0, 200.0, 320.0), 95.0, 0)]


def test_ocr_of_pages_before_a_crash_is_kept(settings: Settings, tmp_path: Path) -> None:
    pdf = scanned_pdf(tmp_path / "scan.pdf", pages=5)
    catalog = Catalog(settings.home / "catalog.sqlite3")
    s = settings.with_overrides(**{"ingest.ocr_figures": False}).ingest
    first = ScriptedOcr(catalog.path, crash_on=4)
    with pytest.raises(Crash):
        Ingestor(s, catalog, ImageStore(settings.home / "images"), CachedOcrEngine(first, catalog)).ingest_file(pdf)
    assert catalog.documents() == []  # nothing half-written
    second = ScriptedOcr(catalog.path)
    cached = CachedOcrEngine(second, catalog)
    result = Ingestor(s, catalog, ImageStore(settings.home / "images"), cached).ingest_file(pdf)
    assert result.status == "indexed" and result.ocr_pages == 5
    assert (cached.hits, cached.misses, second.calls) == (3, 2, 2)  # pages 1-3 were not read again


def test_a_locked_catalog_names_the_process_that_holds_the_home(settings: Settings) -> None:
    path = settings.home / "catalog.sqlite3"
    Catalog(path).close()
    owner = EdgeVectorStore(settings.home / "qdrant", home=settings.home)  # writes OWNER: this pid
    blocker = sqlite3.connect(path)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        catalog = Catalog(path, busy_timeout_s=0.1)
        with pytest.raises(HomeLockedError) as info:
            catalog.mark_indexed("x", "y", 1)
        import os

        assert f"is in use by pid {os.getpid()}" in str(info.value) and "\n" not in str(info.value)
        assert "stop it or use another --home" in str(info.value)
    finally:
        blocker.rollback()
        blocker.close()
        owner.close()


def test_a_damaged_catalog_is_one_line_that_says_what_to_do(settings: Settings) -> None:
    path = settings.home / "catalog.sqlite3"
    path.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(StoreError, match=r"is damaged .*move it aside"):
        Catalog(path)


def test_a_killed_parse_leaves_no_visible_elements_and_its_staging_is_dropped(settings: Settings, tmp_path: Path) -> None:
    pdf = scanned_pdf(tmp_path / "scan.pdf", pages=4)
    catalog = Catalog(settings.home / "catalog.sqlite3")
    s = settings.with_overrides(**{"ingest.ocr_figures": False}).ingest
    ocr = ScriptedOcr(catalog.path, crash_on=3)
    with pytest.raises(Crash):
        Ingestor(s, catalog, ImageStore(settings.home / "images"), CachedOcrEngine(ocr, catalog)).ingest_file(pdf)
    raw = sqlite3.connect(catalog.path)
    assert raw.execute("SELECT count(*) FROM elements").fetchone()[0] == 0
    assert raw.execute("SELECT count(*) FROM staged_elements").fetchone()[0] == 0
    raw.close()
    result = Ingestor(s, catalog, ImageStore(settings.home / "images"),
                      CachedOcrEngine(ScriptedOcr(catalog.path), catalog)).ingest_file(pdf)
    assert result.status == "indexed"
    texts = [e.text for e in catalog.elements(result.doc_id) if e.kind.value == "text"]
    assert len([t for t in texts if t.startswith("ocr text of call")]) == 4  # one per page, none twice
