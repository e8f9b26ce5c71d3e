"""Text path of the ingest stage: typed text elements, formulas, furniture, reading order, sections.

Committed public PDFs (tests/data) plus built documents whose layout is known exactly (tests/pdfs.py).
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.ingest import furniture, metadata, order, sections, text
from pagelens.ingest.context import PageContext
from pagelens.models import Element, ElementKind, FigureData, TableData
from pagelens.settings import IngestSettings

from pdfs import paper_pdf

LOREM = "The committee reviewed the budget and agreed on the plan for the coming year. " * 3


def _page_elements(pdf: pymupdf.Document, pno: int, running: set[str]) -> list[Element]:
    page = pdf.load_page(pno)
    ctx = PageContext.build(
        page, doc_id="d", file_name="f.pdf", settings=IngestSettings(), images=None, furniture=running  # type: ignore[arg-type]
    )
    return order.reading_order(text.extract_text(ctx), page.rect)


def _doc_elements(pdf: pymupdf.Document, pages: int | None = None) -> dict[int, list[Element]]:
    """The pipeline's text path over the first ``pages`` pages (no tables/figures claimed)."""
    running = furniture.detect_furniture(pdf)
    tracker = sections.SectionTracker(metadata.document_metadata(pdf)["outline"])
    out = {}
    for pno in range(pages or pdf.page_count):
        els = _page_elements(pdf, pno, running)
        tracker.assign(els)
        out[pno + 1] = els
    return out


def _index(els: list[Element], needle: str) -> int:
    hits = [i for i, e in enumerate(els) if needle in e.text]
    assert hits, f"{needle!r} not found in {[e.text[:40] for e in els]}"
    return hits[0]


@pytest.fixture(scope="module")
def two_column_pdf() -> pymupdf.Document:
    """Three pages: a running header, page numbers, a wide title, two columns cut by a wide paragraph."""
    doc = pymupdf.open()
    for n, title in enumerate(("Quarterly Overview", "Regional Wide Title", "Outlook"), start=1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 40), "ACME Corporation Quarterly Report", fontsize=9)
        page.insert_text((290, 815), str(n), fontsize=9)
        assert page.insert_textbox(pymupdf.Rect(72, 66, 523, 115), title, fontsize=18) > 0
        page.insert_textbox(pymupdf.Rect(72, 130, 290, 400), "Alpha starts the left column. " + LOREM, fontsize=10)
        page.insert_textbox(pymupdf.Rect(305, 130, 523, 400), "Bravo starts the right column. " + LOREM, fontsize=10)
        page.insert_textbox(pymupdf.Rect(72, 420, 523, 480), "Charlie spans both columns. " + LOREM, fontsize=10)
        page.insert_textbox(pymupdf.Rect(72, 500, 290, 760), "Delta is lower left. " + LOREM, fontsize=10)
        page.insert_textbox(pymupdf.Rect(305, 500, 523, 760), "Echo is lower right. " + LOREM, fontsize=10)
    return doc


def test_synthetic_furniture_and_column_order(two_column_pdf: pymupdf.Document) -> None:
    running = furniture.detect_furniture(two_column_pdf)
    assert "acme corporation quarterly report" in running
    els = _page_elements(two_column_pdf, 1, running)
    kinds = {e.text: e.kind for e in els}
    assert kinds["ACME Corporation Quarterly Report"] == ElementKind.PAGE_HEADER
    assert kinds["2"] == ElementKind.PAGE_FOOTER
    assert els[0].kind == ElementKind.PAGE_HEADER and els[-1].kind == ElementKind.PAGE_FOOTER
    seq = [_index(els, k) for k in ("Wide Title", "Alpha", "Bravo", "Charlie", "Delta", "Echo")]
    assert seq == sorted(seq), [e.text[:20] for e in els]
    body = [e for e in els if e.kind == ElementKind.TEXT]
    assert all("ACME" not in e.text for e in body)
    assert any(e.kind == ElementKind.HEADING and e.text == "Regional Wide Title" for e in els)


def test_furniture_needs_repeats(two_column_pdf: pymupdf.Document) -> None:
    single = pymupdf.open()
    single.insert_pdf(two_column_pdf, from_page=0, to_page=0)
    assert furniture.detect_furniture(single) == set()
    assert furniture.normalize("Page 12  of 30") == "page # of #"
    assert furniture.is_page_number("7-45") and furniture.is_page_number("xi") and furniture.is_page_number("Page 3 of 9")
    assert not furniture.is_page_number("X")  # a tick in a table, not page ten
    assert not furniture.is_page_number("Results")


def test_amt_two_columns_are_not_interleaved(data_dir: Path) -> None:
    pdf = pymupdf.open(data_dir / "amt_handbook_sample.pdf")
    els = _page_elements(pdf, 0, set())
    last_left = _index(els, "Boots self-locking nuts are made with three different spring")
    first_right = _index(els, "the most common ranges in size")
    assert _index(els, "The two general types of self-locking nuts") < last_left < first_right
    assert first_right < _index(els, "The elastic stop nut is a standard nut")
    caps = [e.text for e in els if e.kind == ElementKind.CAPTION]
    assert "Figure 7-26. Self-locking nuts." in caps and "Figure 7-27. Stainless steel self-locking nut." in caps
    footer = [e for e in els if e.kind == ElementKind.PAGE_FOOTER]
    assert [e.text for e in footer] == ["7-45"]


@pytest.fixture(scope="module")
def paper_pages() -> dict[int, list[Element]]:
    return _doc_elements(pymupdf.open(stream=paper_pdf(), filetype="pdf"), pages=4)


def test_paper_headings_and_sections(paper_pages: dict[int, list[Element]]) -> None:
    headings = {e.text: e.level for els in paper_pages.values() for e in els if e.kind == ElementKind.HEADING}
    assert headings["1 Introduction"] == 1
    assert headings["3.1 Pre-training QUILL"] == 2
    assert headings["Abstract"] == 1  # unnumbered, styled like "1 Introduction"
    page3 = paper_pages[3]
    para = page3[_index(page3, "we do not use traditional left-to-right")]
    assert para.kind == ElementKind.TEXT
    assert para.section[-1] == "3.1 Pre-training QUILL" and para.section[0] == "3 QUILL"


def test_paper_footnotes_captions_and_hyphenation(paper_pages: dict[int, list[Element]]) -> None:
    page3 = paper_pages[3]
    note = page3[_index(page3, "accuracy on sentence order prediction")]
    assert note.kind == ElementKind.FOOTNOTE
    assert all("accuracy on sentence order" not in e.text for e in page3 if e.kind == ElementKind.TEXT)
    assert page3[-1].kind == ElementKind.FOOTNOTE  # footnotes come after the body
    assert page3[_index(page3, "Figure 1: Overall pre-training")].kind == ElementKind.CAPTION
    page4 = paper_pages[4]
    cap = page4[_index(page4, "Table 1: GLUE Test results")]
    assert cap.kind == ElementKind.CAPTION
    page1 = paper_pages[1]
    intro = page1[_index(page1, "Two families of methods")].text
    assert "representations over to downstream tasks" in intro  # "down-" + "stream" rejoined
    assert "a strictly left-to-right reading order" in page1[_index(page1, "We observe that current encoders")].text


def test_math_formulas_and_running_header(math_paper: Path) -> None:
    pdf = pymupdf.open(math_paper)
    running = furniture.detect_furniture(pdf)
    assert "published as a workshop paper at learn #" in running
    page2 = _page_elements(pdf, 1, running)
    assert page2[0].kind == ElementKind.PAGE_HEADER and page2[-1].text == "2"
    assert page2[-1].kind == ElementKind.PAGE_FOOTER
    formulas = [e.text for e in page2 if e.kind == ElementKind.FORMULA]
    # The update rule θt ← θt−1 − αt·mt/(√vt + ε), Greek letters restored from the garbled math font.
    assert any("θt−1" in f and "α" in f and "ε" in f for f in formulas), formulas
    assert not any(c in f for f in formulas for c in "↵✏✓")
    assert not any(e.kind == ElementKind.TEXT and "θt" in e.text for e in page2)
    page3 = _page_elements(pdf, 2, running)
    eq12 = [e for e in page3 if e.kind == ElementKind.FORMULA and e.attrs.get("equation_number") == "(12)"]
    assert len(eq12) == 1 and "max(β2" in eq12[0].text
    assert not any(e.kind == ElementKind.TEXT and e.text == "(12)" for e in page3)


def test_link_captions_pairs_by_kind_and_side() -> None:
    def el(kind: ElementKind, bbox: tuple[float, float, float, float], txt: str = "", **kw: object) -> Element:
        return Element(doc_id="d", page=1, order=0, kind=kind, bbox=bbox, text=txt, **kw)  # type: ignore[arg-type]

    table = el(ElementKind.TABLE, (72, 120, 520, 300), table=TableData(markdown="|a|", html="<table/>"))
    figure = el(ElementKind.FIGURE, (72, 400, 520, 600), figure=FigureData(image="x", width=1, height=1, source="raster"))
    t_cap = el(ElementKind.CAPTION, (72, 100, 400, 112), "Table 2: Results on SQuAD.")
    f_cap = el(ElementKind.CAPTION, (72, 610, 400, 622), "Figure 3: Loss curves.")
    stray = el(ElementKind.CAPTION, (72, 700, 400, 712), "Figure 9: Far away and unrelated.")
    els = [t_cap, table, figure, f_cap, stray]
    order.link_captions(els)
    assert table.table is not None and table.table.caption == "Table 2: Results on SQuAD."
    assert figure.figure is not None and figure.figure.caption == "Figure 3: Loss curves."
    assert t_cap.attrs["caption_of"] == table.bbox and figure.attrs["caption_bbox"] == f_cap.bbox
    assert "caption_of" not in stray.attrs


def test_redp_footers_with_chapter_and_page_number(data_dir: Path) -> None:
    pdf = pymupdf.open(data_dir / "redp5110_sampled.pdf")
    running = furniture.detect_furniture(pdf)
    for pno, footer in ((9, "Chapter 2. Roles and separation of duties 11"), (11, "Chapter 3. Row and Column Access Control 19")):
        els = _page_elements(pdf, pno - 1, running)
        assert els[-1].text == footer and els[-1].kind == ElementKind.PAGE_FOOTER
    page2 = _page_elements(pdf, 1, running)
    assert {e.text for e in page2 if e.kind == ElementKind.PAGE_FOOTER} == {
        "© Copyright IBM Corp. 2014. All rights reserved.", "iii",
    }
    assert page2[_index(page2, "Contents")].kind == ElementKind.HEADING
