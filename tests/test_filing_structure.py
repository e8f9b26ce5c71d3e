"""SEC filing structure through the real ingest (issue #10): PART/Item headings and their section
paths, two-line Item headings, overprinted (fake-bold) text, pages whose running heads alternate
between even and odd pages, and body sentences that only look like Item headings.

The filings are built here with PyMuPDF, so what each page holds is known exactly.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.ingest.pipeline import Ingestor
from pagelens.models import Element, ElementKind
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore

MDA = "Management's Discussion and Analysis of Financial Condition and Results of Operations"
FILLER = ("Net sales grew in every segment as volumes recovered and prices rose; the company reviews its "
          "plans with the board every quarter and reports the results to its shareholders. ")
STYLE = "font-family:sans-serif;font-size:10pt"


def _ingest(settings: Settings, pdf: Path) -> dict[int, list[Element]]:
    s = settings.with_overrides(**{"ingest.ocr": "off"})
    ingestor = Ingestor(s.ingest, Catalog(s.home / "catalog.sqlite3"), ImageStore(s.home / "images"))
    result = ingestor.ingest_file(pdf)
    assert result.status == "indexed", result.error
    pages: dict[int, list[Element]] = {}
    for e in ingestor.catalog.elements(result.doc_id):
        if e.kind != ElementKind.METADATA:
            pages.setdefault(e.page, []).append(e)
    return pages


def _one(els: list[Element], start: str) -> Element:
    hits = [e for e in els if e.text.startswith(start)]
    assert len(hits) == 1, (start, [(e.kind.value, e.text[:50]) for e in els])
    return hits[0]


def _overprint(page: pymupdf.Page, at: tuple[float, float], text: str, font: str = "hebo") -> None:
    """Fake bold: the same string drawn twice, 0.3 pt apart."""
    page.insert_text(at, text, fontsize=10, fontname=font)
    page.insert_text((at[0] + 0.3, at[1]), text, fontsize=10, fontname=font)


def _body(page: pymupdf.Page, y: float, text: str) -> None:
    assert page.insert_textbox(pymupdf.Rect(72, y, 540, y + 90), text, fontsize=10, fontname="helv") > 0


@pytest.fixture
def ten_k(tmp_path: Path) -> Path:
    """Three pages without an outline: PART/Item headings in body-size bold, plain text, HTML, overprint."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "PART I", fontsize=10, fontname="hebo")
    page.insert_text((72, 125), "Item 1. Business", fontsize=10, fontname="hebo")
    _body(page, 140, "Acme makes industrial pumps. " + FILLER)
    page.insert_text((72, 250), "Item 1A. Risk Factors", fontsize=10, fontname="helv")  # plain, on its own
    _body(page, 265, "Competition is intense. " + FILLER)
    _body(page, 370, "Item 7 of the agreement with our distributor requires ninety days of notice before it ends.")
    _body(page, 420, "Item 7. The buyer shall pay within thirty days.")
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "PART II", fontsize=10, fontname="hebo")
    _overprint(page, (72, 125), "Item 7.")  # two lines, each printed twice
    _overprint(page, (72, 138), MDA)
    _body(page, 155, "Revenue rose to 4.2 billion dollars. " + FILLER)
    _overprint(page, (72, 270), "Net sales increased in the Americas.", font="helv")
    page = doc.new_page(width=612, height=792)
    html = (f'<p style="{STYLE}"><b>PART III — OTHER INFORMATION</b></p>'
            f'<p style="{STYLE}"><b>Item 10.</b></p>'
            f'<p style="{STYLE}"><b>Directors, Executive Officers and Corporate Governance</b></p>'
            f'<p style="{STYLE}">The board has nine members. {FILLER}</p>'
            f'<p style="{STYLE}"><b>PART IV</b></p><p style="{STYLE}"><b>EXHIBITS AND SCHEDULES</b></p>'
            f'<p style="{STYLE}"><b>Item 15. Exhibits</b></p><p style="{STYLE}">The exhibits are listed below.</p>')
    assert page.insert_htmlbox(pymupdf.Rect(72, 90, 540, 700), html)[0] >= 0
    path = tmp_path / "acme-10k.pdf"
    doc.save(path)
    return path


def test_part_and_item_headings_set_section_paths(settings: Settings, ten_k: Path) -> None:
    pages = _ingest(settings, ten_k)
    p1 = pages[1]
    part, item1, item1a = _one(p1, "PART I"), _one(p1, "Item 1. Business"), _one(p1, "Item 1A. Risk Factors")
    assert [(e.kind, e.level) for e in (part, item1, item1a)] == [(ElementKind.HEADING, 1), (ElementKind.HEADING, 2),
                                                                  (ElementKind.HEADING, 2)]
    assert _one(p1, "Acme makes").section == ["PART I", "Item 1. Business"]
    assert _one(p1, "Competition is intense").section == ["PART I", "Item 1A. Risk Factors"]
    p3 = pages[3]
    assert _one(p3, "PART III").level == 1
    assert _one(p3, "The board has nine").section == ["PART III — OTHER INFORMATION",
                                                      "Item 10. Directors, Executive Officers and Corporate Governance"]
    assert _one(p3, "The exhibits are").section == ["PART IV EXHIBITS AND SCHEDULES", "Item 15. Exhibits"]


def test_two_line_item_heading_is_one_heading(settings: Settings, ten_k: Path) -> None:
    p2 = _ingest(settings, ten_k)[2]
    heading = _one(p2, "Item 7.")
    assert heading.kind == ElementKind.HEADING and heading.level == 2
    assert heading.text == f"Item 7. {MDA}"
    assert _one(p2, "Revenue rose").section == ["PART II", f"Item 7. {MDA}"]
    assert not any(e.text == MDA for e in p2)


def test_overprinted_text_is_kept_once(settings: Settings, ten_k: Path) -> None:
    pages = _ingest(settings, ten_k)
    text = " ".join(e.text for els in pages.values() for e in els)
    assert "Item 7. Item 7." not in text and text.count("Discussion and Analysis") == 1
    assert _one(pages[2], "Net sales increased").text == "Net sales increased in the Americas."


def test_item_references_in_body_text_are_not_headings(settings: Settings, ten_k: Path) -> None:
    p1 = _ingest(settings, ten_k)[1]
    for start in ("Item 7 of the agreement", "Item 7. The buyer"):
        e = _one(p1, start)
        assert e.kind == ElementKind.TEXT, e
        assert e.section == ["PART I", "Item 1A. Risk Factors"]
    assert sum(e.kind == ElementKind.HEADING for e in p1) == 3


def test_toc_lines_with_page_numbers_are_not_headings(settings: Settings, tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for i, line in enumerate(("Item 1. Business 4", "Item 1A. Risk Factors 12", "Item 7. Management's Discussion 31")):
        page.insert_text((72, 100 + 30 * i), line, fontsize=10, fontname="helv")
    doc.save(tmp_path / "toc.pdf")
    els = _ingest(settings, tmp_path / "toc.pdf")[1]
    assert [e.kind for e in els] == [ElementKind.TEXT] * 3


@pytest.fixture
def mirrored(tmp_path: Path) -> Path:
    """Five pages: the company name top-left on even pages, the form top-right on odd ones, page
    numbers in the outer corners, a "Table of Contents" link on every page."""
    doc = pymupdf.open()
    for n in range(1, 6):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 30), "Table of Contents", fontsize=8, fontname="helv", color=(0, 0, 1))
        if n % 2 == 0:
            page.insert_text((72, 48), "Acme Corporation", fontsize=8, fontname="helv")
            page.insert_text((72, 765), str(n), fontsize=8, fontname="helv")
        else:
            page.insert_text((612 - 72 - pymupdf.get_text_length("Annual Report on Form 10-K", "helv", 8), 48),
                             "Annual Report on Form 10-K", fontsize=8, fontname="helv")
            page.insert_text((532, 765), str(n), fontsize=8, fontname="helv")
        page.insert_text((72, 110), f"Item {n}. Section Number {n}", fontsize=10, fontname="hebo")
        _body(page, 125, f"Body of section {n}. " + FILLER * 3)
    path = tmp_path / "mirrored.pdf"
    doc.save(path)
    return path


def test_filing_structure_with_alternating_running_heads(settings: Settings, mirrored: Path) -> None:
    """Item headings and sections hold on pages with a running head on one side only. Such a head is
    not taken for furniture unless it repeats on ``repeat_threshold`` pages (issue #10): in a short
    filing it may be the only place the year is printed ("Form 10-K 2016")."""
    pages = _ingest(settings, mirrored)
    assert sorted(pages) == [1, 2, 3, 4, 5]
    for n, els in pages.items():
        kinds = {e.text: e.kind for e in els}
        assert kinds["Table of Contents"] == ElementKind.PAGE_HEADER  # on every page
        assert kinds[str(n)] == ElementKind.PAGE_FOOTER
        heading = _one(els, f"Item {n}. Section Number {n}")
        assert heading.kind == ElementKind.HEADING
        assert _one(els, f"Body of section {n}").section == [f"Item {n}. Section Number {n}"]
        if n % 2 == 0:  # on two pages only: kept, as plain text, not as a heading
            assert kinds["Acme Corporation"] == ElementKind.TEXT


def test_part_keeps_apart_from_a_title_case_heading_below(settings: Settings, tmp_path: Path) -> None:
    """A bare "PART I" takes an upper-case title from the next line, not the next heading, nor the Item
    below it in the same block."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "PART I", fontsize=10, fontname="hebo")
    page.insert_text((72, 114), "Forward-Looking Statements", fontsize=10, fontname="hebo")
    _body(page, 130, "This report contains forward-looking statements. " + FILLER)
    page.insert_textbox(pymupdf.Rect(72, 240, 540, 280), "PART II\nItem 5. Market for Common Equity", fontsize=10,
                        fontname="hebo")  # one block
    _body(page, 285, "Our shares trade on the New York Stock Exchange.")
    doc.save(tmp_path / "part.pdf")
    els = _ingest(settings, tmp_path / "part.pdf")[1]
    assert [(e.text, e.level) for e in els if e.kind == ElementKind.HEADING] == [
        ("PART I", 1), ("Forward-Looking Statements", 3), ("PART II", 1), ("Item 5. Market for Common Equity", 2)]
    assert _one(els, "This report").section == ["PART I", "Forward-Looking Statements"]
    assert _one(els, "Our shares").section == ["PART II", "Item 5. Market for Common Equity"]


def test_annual_report_style_headings(settings: Settings, tmp_path: Path) -> None:
    """Glossy annual reports: a dingbat before "PART II", an Item title that runs on to a hanging line,
    subheadings nested under the Item with their ranks kept, "PART II" as a small running head."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((400, 40), "PART II", fontsize=8, fontname="helv")  # running head, smaller than body
    page.insert_text((60, 100), "z", fontsize=25, fontname="zadb")
    page.insert_text((80, 100), "PART II", fontsize=25, fontname="hebo")
    page.insert_text((42, 150), "ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY,", fontsize=16, fontname="hebo")
    page.insert_text((147, 170), "RELATED STOCKHOLDER MATTERS", fontsize=16, fontname="hebo")
    page.insert_text((42, 210), "Holders of Record", fontsize=13, fontname="hebo")
    page.insert_text((42, 230), "Registered Holders", fontsize=10.5, fontname="hebo")
    _body(page, 240, "There were 2,000 holders of record of our Class A stock. " + FILLER)
    doc.save(tmp_path / "annual.pdf")
    els = _ingest(settings, tmp_path / "annual.pdf")[1]
    item = "ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY, RELATED STOCKHOLDER MATTERS"
    assert [(e.text, e.level) for e in els if e.kind == ElementKind.HEADING] == [
        ("PART II", 1), (item, 2), ("Holders of Record", 4), ("Registered Holders", 5)]
    assert _one(els, "There were").section == ["PART II", item, "Holders of Record", "Registered Holders"]


def test_filing_nests_under_the_cover_title(settings: Settings, tmp_path: Path) -> None:
    """The cover's title stays the root of every path: a chunk of Item 7 still says whose filing it is."""
    doc = pymupdf.open()
    cover = doc.new_page(width=612, height=792)
    cover.insert_text((72, 100), "FORM 10-K", fontsize=10, fontname="helv")
    cover.insert_text((72, 140), "Acme Corporation", fontsize=20, fontname="helv")
    _body(cover, 160, "(Exact name of registrant as specified in its charter)")
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "PART II", fontsize=10, fontname="hebo")
    page.insert_text((72, 125), "Item 7. Liquidity and Capital Resources", fontsize=10, fontname="hebo")
    page.insert_text((72, 145), "Overview", fontsize=10, fontname="hebo")
    _body(page, 155, "Capital expenditures were 332 million dollars. " + FILLER)
    doc.save(tmp_path / "cover.pdf")
    pages = _ingest(settings, tmp_path / "cover.pdf")
    assert [(e.text, e.level) for e in pages[2] if e.kind == ElementKind.HEADING] == [
        ("PART II", 2), ("Item 7. Liquidity and Capital Resources", 3), ("Overview", 6)]
    assert _one(pages[2], "Capital expenditures").section == [
        "Acme Corporation", "PART II", "Item 7. Liquidity and Capital Resources", "Overview"]
