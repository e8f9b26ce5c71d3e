"""A listing page: rows of names beside ID numbers, hyphenated codes, dates and amounts (issue #10).

Registers, donor lists and payrolls print one person per line: two columns of names, then an ID number
("27.083.460"), a tax code of hyphenated digit groups ("20-27083460-5"), a date, a word, an amount
("$ 10.000,00"), with no rules but a frame. Counted word by word, the names and the lone "$" kept each
line under the share of numbers the page tier asks of a row of numbers, so the page was never sent to
the table finders and no table came out. The pages are built with PyMuPDF and read the way the pipeline
reads them (page tier, then ``tables.extract_tables``).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
from table_support import page_tables

from pagelens.ingest import tables
from pagelens.ingest.context import PageContext
from pagelens.ingest.table_signals import table_signals
from pagelens.settings import IngestSettings
from pagelens.store.images import ImageStore

SURNAMES = ["ALVAREZ", "BRUNO", "CASTRO DIAZ", "DOMINGUEZ", "ESPOSITO", "FERRARI", "GIMENEZ", "HERRERA",
            "IBARRA", "JUAREZ", "KOVAC", "LOPEZ MORA", "MEDINA", "NUNEZ", "OLIVERA", "PAREDES", "QUIROGA",
            "ROMERO", "SOSA", "TORRES", "URQUIZA", "VEGA", "WAGNER", "ZAPATA"]
GIVEN = ["ANA LUCIA", "BRUNO", "CARLA INES", "DIEGO", "ELENA MARIA", "FACUNDO", "GRACIELA", "HUGO ARIEL"]
HEADER = ["Surname", "Given names", "ID number", "Tax code", "Date", "Method", "Amount"]
XS = [50, 150, 260, 330, 395, 450, 515]


def _rows() -> list[list[str]]:
    out = []
    for i, name in enumerate(SURNAMES):
        idn = 10_000_000 + 731_457 * (i + 3)
        dotted = f"{idn:,}".replace(",", ".")
        code = f"{20 + 7 * (i % 2)}-{idn}-{i % 10}"
        amount = f"$ {5 * (1 + i % 4)}.000,00"
        out.append([name, GIVEN[i % len(GIVEN)], dotted, code, f"{1 + i % 28:02d}/10/2013",
                    "CASH" if i % 3 else "TRANSFER", amount])
    return out


def _listing() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.draw_rect(pymupdf.Rect(44, 40, 566, 60 + 16 * (len(SURNAMES) + 1)), width=0.8)
    for j, text in enumerate(HEADER):
        page.insert_text((XS[j], 56), text, fontsize=7.5)
    for i, row in enumerate(_rows()):
        for j, text in enumerate(row):
            page.insert_text((XS[j], 72 + 16 * i), text, fontsize=7.5)
    return doc.tobytes()


def test_the_listing_page_counts_rows_of_numbers(tmp_path: Path) -> None:
    doc = pymupdf.open(stream=_listing(), filetype="pdf")
    ctx = PageContext.build(doc[0], doc_id="d", file_name="listing.pdf", settings=IngestSettings(),
                            images=ImageStore(tmp_path / "img"))
    assert table_signals(ctx).numeric_rows >= len(SURNAMES)
    assert tables.is_hard_page(ctx)


def test_the_listing_is_read_as_one_table_with_its_columns(tmp_path: Path) -> None:
    els = page_tables(_listing(), tmp_path, name="listing.pdf")
    assert len(els) == 1
    t = els[0].table
    assert t is not None
    assert t.header == HEADER
    assert t.rows == _rows()


def test_prose_citing_codes_and_dates_is_no_row_of_numbers(tmp_path: Path) -> None:
    """Hyphenated codes count as numbers, but a sentence citing a few is still a sentence."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    lines = [
        "The order 555-0142 was placed on 2013-10-09 and shipped on 2013-10-12 to the customer in",
        "Rosario, who paid $ 1.250,00 by transfer; the invoice 20-27083460-5 was filed the next week",
        "with the receipt 0001-00004521 and the delivery note, as the contract of 2012 requires for",
        "every order above 1.000,00 pesos placed between 2013-01-01 and 2013-12-31 by a new client.",
    ]
    for i, text in enumerate(lines):
        page.insert_text((72, 100 + 14 * i), text, fontsize=10)
    ctx = PageContext.build(page, doc_id="d", file_name="prose.pdf", settings=IngestSettings(),
                            images=ImageStore(tmp_path / "img"))
    assert table_signals(ctx).numeric_rows == 0
