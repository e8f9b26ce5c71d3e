"""A small table in a drawing, and a page stored sideways with ``/Rotate`` (issue #10).

CAD exports print a landscape sheet as a portrait page turned by ``/Rotate 270`` (or 90): linework, a
title block of ruled boxes and, among them, a small table set by whitespace ("Size | Range (mm) |
Torque (Nm)", each range one cell "8.0 - 15.0"). PyMuPDF gives the words in the unrotated page's
coordinates, where each row runs down the page, so the table stage saw no rows; and a range was not a
value, so the rows had one value each. The pages here are built with PyMuPDF (a landscape sheet placed
turned on a portrait page, then the page rotated back) and read the way the pipeline reads them.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from table_support import page_tables

from pagelens.ingest.context import PageContext
from pagelens.ingest.table_upright import sideways
from pagelens.settings import IngestSettings
from pagelens.store.images import ImageStore

HEADER = ["Size", "Range (mm)", "Torque (Nm)"]
ROWS = [["G1/4", "4.0 - 8.5", "6"], ["G3/8", "7.5 - 11.0", "9"], ["G1/2", "10.0 - 14.5", "14"],
        ["G3/4", "13.0 - 18.0", "22"], ["G1", "17.5 - 24.0", "31"]]


def _sheet() -> pymupdf.Document:
    """A landscape sheet: a frame, linework, a ruled title block, notes and the table among them."""
    doc = pymupdf.open()
    page = doc.new_page(width=842, height=595)
    page.draw_rect(pymupdf.Rect(20, 20, 822, 575), width=1.2)
    for k in range(12):  # linework of the part
        page.draw_line((80 + 20 * k, 120), (140 + 20 * k, 380), width=0.5)
        page.draw_circle((300, 250), 30 + 8 * k, width=0.4)
    block = pymupdf.Rect(600, 480, 822, 575)  # title block
    page.draw_rect(block, width=0.8)
    for y in (505, 530, 555):
        page.draw_line((600, y), (822, y), width=0.5)
    page.draw_line((700, 480), (700, 575), width=0.5)
    for y, (k, v) in zip((498, 523, 548, 571), [("DRAWING", "GL-204"), ("SCALE", "1:2"), ("SHEET", "1 of 1"),
                                                  ("REV", "C")]):
        page.insert_text((606, y), k, fontsize=8)
        page.insert_text((706, y), v, fontsize=8)
    page.insert_text((40, 60), "1. Strip the cable and fold the screen back over the inner ring.", fontsize=9)
    page.insert_text((40, 74), "2. Tighten the nut to the torque in the table, then fit the cap.", fontsize=9)
    page.insert_text((560, 150), "Gland sizes / torque", fontsize=9)
    xs = (560, 640, 720)
    for j, h in enumerate(HEADER):
        page.insert_text((xs[j], 178), h, fontsize=9)
    for i, row in enumerate(ROWS):
        for j, text in enumerate(row):
            page.insert_text((xs[j], 194 + 14 * i), text, fontsize=9)
    page.insert_text((560, 290), "The torques are maximum values for the largest cable.", fontsize=9)
    return doc


def _stored_sideways(rotation: int) -> bytes:
    """The sheet as a CAD export stores it: a portrait page, the sheet drawn turned, ``/Rotate`` set
    so that it shows upright."""
    sheet = _sheet()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.show_pdf_page(page.rect, sheet, 0, rotate=rotation)
    page.set_rotation(rotation)
    return doc.tobytes()


def _ctx(data: bytes, tmp_path: Path) -> PageContext:
    doc = pymupdf.open(stream=data, filetype="pdf")
    return PageContext.build(doc[0], doc_id="d", file_name="sheet.pdf", settings=IngestSettings(),
                             images=ImageStore(tmp_path / "img"), pdf_bytes=data)


def _torque_tables(data: bytes, tmp_path: Path) -> list:
    return [e for e in page_tables(data, tmp_path, name="sheet.pdf")
            if e.table is not None and e.table.header[:3] == HEADER]


def test_the_table_among_linework_is_read(tmp_path: Path) -> None:
    (el,) = _torque_tables(_sheet().tobytes(), tmp_path)
    assert el.table.rows == ROWS


@pytest.mark.parametrize("rotation", [90, 270])
def test_a_sideways_page_is_read_as_shown(rotation: int, tmp_path: Path) -> None:
    data = _stored_sideways(rotation)
    ctx = _ctx(data, tmp_path)
    assert sideways(ctx)
    (el,) = _torque_tables(data, tmp_path)
    assert el.table.rows == ROWS
    # The box is in the page's own coordinates, where its words (and its text elements) are.
    box = pymupdf.Rect(el.bbox) + (-0.5, -0.5, 0.5, 0.5)
    cells = [w for w in ctx.words if w[4] in {r[0] for r in ROWS}]
    assert len(cells) == len(ROWS)
    assert all(box.contains(pymupdf.Rect(w[:4])) for w in cells)


def test_text_written_sideways_on_an_upright_page_is_not_turned(tmp_path: Path) -> None:
    """A page without /Rotate, or a turned page whose text runs up the sheet as shown (a rotated
    label), is read as it is."""
    assert not sideways(_ctx(_sheet().tobytes(), tmp_path))
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "A portrait page of ordinary text, stored turned.", fontsize=10)
    page.set_rotation(90)
    assert not sideways(_ctx(doc.tobytes(), tmp_path))


def test_the_pipeline_claims_the_sideways_table_from_the_body_text(settings, tmp_path: Path) -> None:
    """The table's box, mapped back to the page's own coordinates, keeps its rows out of the text."""
    from pagelens.ingest.pipeline import Ingestor
    from pagelens.models import ElementKind
    from pagelens.store.catalog import Catalog

    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(_stored_sideways(270))
    s = settings.with_overrides(**{"ingest.ocr": "off"})
    ingestor = Ingestor(s.ingest, Catalog(s.home / "catalog.sqlite3"), ImageStore(s.home / "images"))
    result = ingestor.ingest_file(pdf)
    assert result.status == "indexed", result.error
    els = list(ingestor.catalog.iter_elements(result.doc_id))
    assert [e.table.rows for e in els if e.kind == ElementKind.TABLE and e.table.header[:3] == HEADER] == [ROWS]
    body = " ".join(e.text for e in els if e.kind != ElementKind.TABLE)
    assert "Tighten the nut" in body
    assert not any(r[1] in body for r in ROWS)
