"""The faster character builder for PyMuPDF's table finder (ingest/table_chars.py) must build exactly
the characters PyMuPDF's own ``make_chars`` builds, so ``find_tables`` finds the same tables."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from pymupdf import table as ptable

from pagelens.ingest import table_chars
from tests.pdf_support import draw_ruled_table

ROWS = [("Region", "Units", "Revenue"), ("North", "1,204", "$ 3.1"), ("South", "987", "$ 2.4"),
        ("East", "2,310", "$ 5.9"), ("West", "1,045", "$ 2.2")]


def _build(path: Path) -> Path:
    """Pages that exercise every branch: a ruled table, bold and coloured spans, text turned 90 and
    30 degrees, a rotated page, a media box that does not start at the origin, an empty page."""
    doc = pymupdf.open()
    page = doc.new_page()
    draw_ruled_table(page, [60, 200, 320, 440], 100, 24, ROWS)
    page.insert_text((60, 300), "Bold heading", fontname="hebo", fontsize=14)
    page.insert_text((60, 330), "Red note, 12.5%", fontsize=9, color=(0.8, 0.1, 0.1))
    page.insert_text((500, 700), "Sideways label", rotate=90, fontsize=10)
    page.insert_text((300, 600), "Tilted", fontsize=12, morph=(pymupdf.Point(300, 600), pymupdf.Matrix(30)))
    page = doc.new_page()
    draw_ruled_table(page, [72, 180, 300], 200, 20, ROWS[:4])
    page.set_rotation(90)
    page = doc.new_page()
    draw_ruled_table(page, [100, 220, 340], 150, 22, ROWS[:3])
    page.set_mediabox(pymupdf.Rect(20, 30, 580, 800))
    doc.new_page()  # no text at all
    doc.save(path)
    doc.close()
    return path


def _chars(page: pymupdf.Page, make: object) -> str:
    old = bool(pymupdf.TOOLS.set_small_glyph_heights())
    pymupdf.TOOLS.set_small_glyph_heights(True)  # as find_tables sets it
    try:
        ptable._CHARS_VAR.set([])
        make(page)  # type: ignore[operator]
        return repr(list(ptable.CHARS))  # repr: -0.0 and 0.0 count as different
    finally:
        pymupdf.TOOLS.set_small_glyph_heights(old)


def test_installed_pymupdf_is_the_one_copied() -> None:
    """When this fails, PyMuPDF's make_chars changed: compare it with table_chars.make_chars, update
    the copy and MAKE_CHARS_SHA256 (until then the finder silently uses PyMuPDF's own, slower one)."""
    assert table_chars._matches_installed()


def test_same_characters_as_pymupdf(tmp_path: Path) -> None:
    with pymupdf.open(_build(tmp_path / "chars.pdf")) as doc:
        seen = []
        for page in doc:
            theirs = _chars(page, ptable.make_chars)
            ours = _chars(page, table_chars.make_chars)
            assert ours == theirs, f"page {page.number + 1}"
            seen.append(theirs)
    counts = [s.count("'object_type': 'char'") for s in seen]
    assert counts[0] > 60 and counts[1] > 30 and counts[2] > 20 and counts[3] == 0
    assert "'upright': False" in seen[0]  # the turned text was compared too


def test_find_tables_finds_the_same_tables(tmp_path: Path) -> None:
    with pymupdf.open(_build(tmp_path / "tables.pdf")) as doc:
        for page in doc:
            plain = page.find_tables(strategy="lines", use_layout=False)
            with table_chars.fast_chars() as used:
                fast = page.find_tables(strategy="lines", use_layout=False)
            assert used
            assert [t.bbox for t in fast.tables] == [t.bbox for t in plain.tables]
            assert [t.extract() for t in fast.tables] == [t.extract() for t in plain.tables]
        assert doc[0].find_tables(strategy="lines", use_layout=False).tables  # there was a table to find
    assert ptable.make_chars is not table_chars.make_chars  # put back after the block


def test_another_pymupdf_keeps_its_own_make_chars(monkeypatch: pytest.MonkeyPatch) -> None:
    table_chars._matches_installed.cache_clear()
    monkeypatch.setattr(table_chars, "MAKE_CHARS_SHA256", "0" * 64)
    try:
        original = ptable.make_chars
        with table_chars.fast_chars() as used:
            assert not used
            assert ptable.make_chars is original
    finally:
        table_chars._matches_installed.cache_clear()
