"""Ingest orchestration: idempotency, versions, bad input, interrupted ingest, page failures."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pymupdf
import pytest

from pagelens.ingest.pipeline import Ingestor
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore

from pdfs import SAMPLE


def make_pdf(path: Path, texts: list[str], size: tuple[float, float] = (595, 842)) -> Path:
    doc = pymupdf.open()
    for t in texts:
        page = doc.new_page(width=size[0], height=size[1])
        page.insert_textbox(pymupdf.Rect(72, 72, size[0] - 72, size[1] - 72), t, fontsize=11)
    doc.save(path)
    return path


@pytest.fixture
def ingestor(settings: Settings) -> Ingestor:
    s = settings.with_overrides(**{"ingest.ocr": "off"})
    return Ingestor(s.ingest, Catalog(s.home / "catalog.sqlite3"), ImageStore(s.home / "images"))


def test_same_file_twice_is_unchanged(ingestor: Ingestor) -> None:
    first = ingestor.ingest_file(SAMPLE)
    assert first.status == "indexed", first.error
    n = sum(first.elements.values())
    assert n > 5
    again = ingestor.ingest_file(SAMPLE)
    assert again.status == "unchanged" and again.doc_id == first.doc_id
    assert len(ingestor.catalog.elements(first.doc_id)) == n


def test_changed_file_becomes_a_new_version_replacing_the_old(ingestor: Ingestor, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "report.pdf", ["The budget for 2024 is 41.8 million euros."])
    v1 = ingestor.ingest_file(pdf)
    make_pdf(pdf, ["The budget for 2025 is 44.0 million euros."])
    v2 = ingestor.ingest_file(pdf)
    assert v2.status == "indexed" and v2.doc_id != v1.doc_id and v2.replaced == v1.doc_id
    docs = ingestor.catalog.documents()
    assert [(d.doc_id, d.version) for d in docs] == [(v2.doc_id, 2)]
    assert ingestor.catalog.elements(v1.doc_id) == []
    assert "44.0" in " ".join(e.text for e in ingestor.catalog.elements(v2.doc_id))


def _encrypted(p: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret")
    doc.save(p, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="o", user_pw="u")
    return p


def _zero_pages(p: Path) -> Path:
    body = b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
    xref = len(body)
    body += b"xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000052 00000 n \n"
    body += b"trailer<</Size 3/Root 1 0 R>>\nstartxref\n" + str(xref).encode() + b"\n%%EOF\n"
    p.write_bytes(body)
    return p


BAD_INPUTS = {
    "encrypted": (_encrypted, "password"),
    "corrupt": (lambda p: (p.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40), p)[1], "pdf"),
    "truncated": (lambda p: (p.write_bytes((src := (p.parent / "src.pdf").read_bytes())[: len(src) // 2]), p)[1], "truncated"),
    "empty": (lambda p: (p.write_bytes(b""), p)[1], "empty"),
    "not-a-pdf": (lambda p: (p.write_text("hello, I am a text file\n"), p)[1], "not a pdf"),
    "zero-pages": (_zero_pages, "no pages"),
    "directory": (lambda p: (p.mkdir(), p)[1], "directory"),
    "missing": (lambda p: p, "cannot read"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_gives_one_line_and_leaves_the_store_intact(
    case: str, ingestor: Ingestor, paper: Path, tmp_path: Path
) -> None:
    good = ingestor.ingest_file(SAMPLE)
    before = len(ingestor.catalog.elements(good.doc_id))
    with pymupdf.open(paper) as src:  # with object streams, as most writers save: the page tree comes last
        src.save(tmp_path / "src.pdf", garbage=3, deflate=True, use_objstms=1)
    build, expected = BAD_INPUTS[case]
    path = build(tmp_path / f"{case}.pdf")
    result = ingestor.ingest_file(path)
    assert result.status == "failed"
    assert result.error and "\n" not in result.error
    assert f"{case}.pdf" in result.error, result.error  # names the file
    assert expected in result.error.lower(), result.error
    assert [d.doc_id for d in ingestor.catalog.documents()] == [good.doc_id]
    assert len(ingestor.catalog.elements(good.doc_id)) == before


def test_a_failing_page_is_reported_by_number_and_the_rest_kept(ingestor: Ingestor, tmp_path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Page one says hello.")
    doc.new_page(width=20000, height=20000).insert_text((72, 72), "A poster far too large.")
    doc.new_page().insert_text((72, 72), "Page three says goodbye.")
    doc.save(tmp_path / "mixed.pdf")
    result = ingestor.ingest_file(tmp_path / "mixed.pdf")
    assert result.status == "indexed"
    assert len(result.page_errors) == 1 and "page 2" in result.page_errors[0]
    texts = " ".join(e.text for e in ingestor.catalog.elements(result.doc_id))
    assert "hello" in texts and "goodbye" in texts and "poster" not in texts


def test_killed_ingest_leaves_no_half_document_and_is_redone(settings: Settings, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "long.pdf", [f"Paragraph of page {i} about topic {i}." for i in range(1, 13)])
    home = settings.home
    script = textwrap.dedent(f"""
        import os, signal
        from pathlib import Path
        from pagelens.ingest.pipeline import Ingestor
        from pagelens.settings import Settings
        from pagelens.store.catalog import Catalog
        from pagelens.store.images import ImageStore
        s = Settings(home=Path({str(home)!r}))
        ing = Ingestor(s.ingest, Catalog(s.home / "catalog.sqlite3"), ImageStore(s.home / "images"))
        real = ing._parse_page
        def dying(pdf, pno, *a):
            if pno == 6:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(pdf, pno, *a)
        ing._parse_page = dying
        ing.ingest_file(Path({str(pdf)!r}))
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert proc.returncode == -9, proc.stderr.decode()[-500:]
    con = sqlite3.connect(home / "catalog.sqlite3")
    assert con.execute("select count(*) from documents").fetchone()[0] == 0
    assert con.execute("select count(*) from elements").fetchone()[0] == 0
    con.close()
    ing = Ingestor(settings.ingest, Catalog(home / "catalog.sqlite3"), ImageStore(home / "images"))
    result = ing.ingest_file(pdf)
    assert result.status == "indexed" and result.pages == 12
    assert {e.page for e in ing.catalog.elements(result.doc_id)} == set(range(1, 13))


def test_pages_without_text_and_ocr_off_are_reported_once_per_document(settings: Settings, tmp_path: Path) -> None:
    src = pymupdf.open()
    src.new_page().insert_text((72, 100), "Scanned words that only an OCR engine could read.", fontsize=14)
    png = src[0].get_pixmap(dpi=100).tobytes("png")
    scan = pymupdf.open()
    for _ in range(3):
        scan.new_page().insert_image(scan[-1].rect, stream=png)
    scan.save(tmp_path / "scan.pdf")
    warnings: list[str] = []
    s = settings.with_overrides(**{"ingest.ocr": "off"})
    ing = Ingestor(s.ingest, Catalog(s.home / "catalog.sqlite3"), ImageStore(s.home / "images"), warn=warnings.append)
    assert ing.ingest_file(tmp_path / "scan.pdf").status == "indexed"
    assert warnings == ["scan.pdf: no text layer and no OCR engine to read it (see pagelens doctor) on pages 1-3"]
