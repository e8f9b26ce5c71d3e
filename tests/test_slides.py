"""Slide decks: overlay titles stay headings, drawn bullets open items, overlay builds make no chunks,
running footers ride along with chunks and name the document, chart value labels read with their
categories, and the answerer does not take a talk's title for its speaker. PDFs built with PyMuPDF."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pagelens.answer import candidates as cd
from pagelens.answer.cues import _names_person, _opens_with_title
from pagelens.answer import text as tx
from pagelens.index.chunking import chunk_document, running_line
from pagelens.ingest import figures, furniture, tables, text
from pagelens.ingest.context import PageContext
from pagelens.models import Chunk, Document, Element, ElementKind, SearchHit
from pagelens.settings import IndexSettings, IngestSettings
from pagelens.store.images import ImageStore

W, H = 364.0, 273.0


def _deck(slides: list[tuple[str, list[str]]], footer: str = "A. Speaker | Short Talk Title",
          drawn: bool = False) -> pymupdf.Document:
    """A beamer-sized deck: a title bar per slide, bullets (drawn triangles with ``drawn``, else text
    dashes), and a footer with the slide number on every page."""
    doc = pymupdf.open()
    for n, (title, bullets) in enumerate(slides, start=1):
        page = doc.new_page(width=W, height=H)
        page.insert_text((14, 22), title, fontsize=14)
        y = 60.0
        for b in bullets:
            if drawn:
                page.draw_polyline([(20, y - 7), (24.5, y - 4.8), (20, y - 2.6), (20, y - 7)], color=None,
                                   fill=(0, 0.4, 0.45), closePath=True)
                page.insert_text((31, y), b, fontsize=10)
            else:
                page.insert_text((20, y), b, fontsize=10)
            y += 13
        page.insert_text((14, H - 4), f"{footer}    {n} / {len(slides)}", fontsize=5)
    return doc


def _page_elements(pdf: pymupdf.Document, pno: int) -> list[Element]:
    ctx = PageContext.build(pdf[pno], doc_id="d", file_name="f.pdf", settings=IngestSettings(), images=None,  # type: ignore[arg-type]
                            furniture=furniture.detect_furniture(pdf))
    return text.extract_text(ctx)


def test_overlay_title_is_a_heading_and_the_footer_furniture() -> None:
    rules = ["Acknowledge a page within 5 minutes", "Open an incident channel", "Escalate after 20 minutes"]
    slides = [("On-call at Example Bank", ["Speaker name"]), ("The rotation", ["Six engineers"])]
    slides += [("Three rules for the primary", rules[:k]) for k in (1, 2, 3)]
    slides += [(f"Topic {i}", [f"Point {i}"]) for i in range(4)]
    pdf = _deck(slides)
    running = furniture.detect_furniture(pdf)
    assert "a. speaker | short talk title # / #" in running
    assert furniture.normalize("Three rules for the primary") not in running
    els = _page_elements(pdf, 3)
    assert any(e.kind == ElementKind.HEADING and e.text == "Three rules for the primary" for e in els)
    assert any(e.kind == ElementKind.PAGE_FOOTER and e.attrs.get("landscape") for e in els)


def test_a_title_repeated_across_a_portrait_document_stays_furniture() -> None:
    doc = pymupdf.open()
    for i in range(4):
        page = doc.new_page()
        page.insert_text((72, 40), "Chapter 3: Methods", fontsize=9)
        page.insert_text((72, 300), f"Body text of page {i} goes here.", fontsize=10)
    for i in range(4):
        page = doc.new_page()
        page.insert_text((72, 300), f"Other body text of page {i}.", fontsize=10)
    assert "chapter #: methods" in furniture.detect_furniture(doc)


def test_drawn_bullets_open_items_of_their_own() -> None:
    pdf = _deck([("Problem set 4", ["Due Tuesday, February 25, in class", "Problems 3.12 and 3.30 from Schroeder",
                                    "Office hours: Thursdays, Room 317 Bexley Hall"])] * 3, drawn=True)
    els = [e for e in _page_elements(pdf, 0) if e.kind not in (ElementKind.PAGE_FOOTER, ElementKind.PAGE_HEADER)]
    items = [e.text for e in els if e.kind == ElementKind.LIST_ITEM]
    assert items == ["Due Tuesday, February 25, in class", "Problems 3.12 and 3.30 from Schroeder",
                     "Office hours: Thursdays, Room 317 Bexley Hall"]
    plain = _deck([("Problem set 4", ["Due Tuesday, February 25, in class", "Problems 3.12 and 3.30 from Schroeder"])] * 3)
    assert not any(e.kind == ElementKind.LIST_ITEM for e in _page_elements(plain, 0))


DOC = Document(doc_id="d" * 64, name="talk.pdf", path="/x/talk.pdf", size=1, pages=5, title="Short Talk")


def _el(page: int, order: int, kind: ElementKind, text: str, y: float = 60) -> Element:
    return Element(doc_id=DOC.doc_id, page=page, order=order, kind=kind, text=text, bbox=(20, y, 340, y + 12))


def test_overlay_builds_make_no_chunks_and_footers_ride_along() -> None:
    rules = ["Acknowledge a page within 5 minutes", "Open an incident channel", "Escalate after 20 minutes"]
    els: list[Element] = []
    for p, k in ((1, 1), (2, 2), (3, 3)):
        els.append(_el(p, 0, ElementKind.HEADING, "Three rules for the primary", y=10))
        els += [_el(p, i + 1, ElementKind.LIST_ITEM, r, y=60 + 13 * i) for i, r in enumerate(rules[:k])]
        els.append(_el(p, 9, ElementKind.PAGE_FOOTER, f"SRE Guild - On-call at Example Bank    2 / {5}", y=265))
        els[-1].attrs["landscape"] = True
    els.append(_el(4, 0, ElementKind.HEADING, "Next slide", y=10))
    els.append(_el(4, 1, ElementKind.TEXT, "Something else entirely", y=60))
    chunks = [c for c in chunk_document(DOC, els, IndexSettings(), lambda s: len(s.split())) if c.kind == "text"]
    assert [c.pages for c in chunks] == [[3], [4]]
    assert all(r in chunks[0].text for r in rules)
    assert chunks[0].running == ["SRE Guild - On-call at Example Bank"]
    assert chunks[1].running == []


def test_a_slide_s_last_bullet_does_not_run_onto_the_next_slide() -> None:
    els = [_el(1, 0, ElementKind.HEADING, "What we heard", y=10),
           _el(1, 1, ElementKind.TEXT, "· Offline mode is the top request", y=60),
           _el(1, 2, ElementKind.TEXT, "· Admins want SCIM provisioning", y=73),
           _el(2, 0, ElementKind.TEXT, "H1 2025", y=120)]
    chunks = [c for c in chunk_document(DOC, els, IndexSettings(), lambda s: len(s.split())) if c.kind == "text"]
    assert [c.pages for c in chunks] == [[1], [2]]


def test_running_lines_drop_page_numbers() -> None:
    assert running_line("Spring 2025 3 / 5") == "Spring 2025"
    assert running_line("Page 3 of 10") == ""
    assert running_line("PHYS 214 - Lecture 7: Entropy") == "PHYS 214 - Lecture 7: Entropy"


def test_bulleted_lines_are_candidates_of_their_own() -> None:
    chunk = Chunk(id="c", doc_id="d", doc_name="t.pdf", kind="text", embed_text="", pages=[8],
                  text="Timeline\n· Enrollment closes: 31 August 2024\n· Database lock: May 2025\n· Topline: July 2025")
    hit = SearchHit(rank=1, score=1.0, chunk=chunk)
    texts = [c.text for c in cd.candidates(hit, 0)]
    assert "· Database lock: May 2025" in texts and not any("closes" in t and "lock" in t for t in texts)


def test_chart_value_labels_read_with_their_categories(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=720, height=405)
    x0, y0, x1, y1 = 130.0, 90.0, 600.0, 320.0
    page.draw_line((x0, y1), (x0, y0))
    page.draw_line((x0, y1), (x1, y1))
    for t in (0, 5, 10, 15):
        y = y1 - (y1 - y0) * t / 15
        page.draw_line((x0 - 3, y), (x0, y))
        w = pymupdf.get_text_length(str(t), fontsize=9)
        page.insert_text((x0 - 5 - w, y + 3), str(t), fontsize=9)
    cats, vals = ["North", "South", "East", "West"], [12.4, 9.8, 6.1, 5.2]
    slot = (x1 - x0) / len(cats)
    for i, (c, v) in enumerate(zip(cats, vals)):
        bx0, bx1 = x0 + slot * i + slot * 0.2, x0 + slot * (i + 1) - slot * 0.2
        top = y1 - (y1 - y0) * v / 15
        page.draw_rect(pymupdf.Rect(bx0, top, bx1, y1), color=None, fill=(0, 0.4, 0.45))
        for label, yy in ((f"{v:g}", top - 3), (c, y1 + 12)):
            w = pymupdf.get_text_length(label, fontsize=9)
            page.insert_text(((bx0 + bx1) / 2 - w / 2, yy), label, fontsize=9)
    ctx = PageContext.build(page, doc_id="d", file_name="x.pdf", settings=IngestSettings(),
                            images=ImageStore(tmp_path / "img"))
    tables.extract_tables(ctx)
    figs = [e for e in figures.extract_figures(ctx) if e.kind == ElementKind.FIGURE]
    assert figs and figs[0].attrs.get("values") == ["North: 12.4", "South: 9.8", "East: 6.1", "West: 5.2"]


def test_chart_values_need_a_category_axis() -> None:
    R = pymupdf.Rect
    labels = [(R(10, 10, 20, 20), "12"), (R(10, 30, 20, 40), "14"), (R(50, 100, 80, 110), "Legend")]
    assert figures.chart_values(labels) == []


def test_a_title_made_of_the_question_s_words_is_no_person() -> None:
    q = tx.content_terms("Who presented the talk on predicting bus bunching from sparse GPS traces?")
    assert not _names_person("Predicting Bus Bunching from Sparse GPS Traces", q)
    assert _names_person("A graph-based approach Ilse Vandermeer Delft Institute", q)
    assert _opens_with_title("Q3 FY2024 Sales Review Northwind Outdoor Gear", ("q3 fy2024 sales review",))


def test_a_list_item_ends_its_slide_too() -> None:
    els = [_el(1, 0, ElementKind.HEADING, "H1 commitments", y=10),
           _el(1, 1, ElementKind.LIST_ITEM, "Q1: Offline mode for iOS and Android", y=60),
           _el(1, 2, ElementKind.LIST_ITEM, "Q2: Audit log API", y=73),
           _el(2, 0, ElementKind.TEXT, "H2 2025", y=120)]
    chunks = [c for c in chunk_document(DOC, els, IndexSettings(), lambda s: len(s.split())) if c.kind == "text"]
    assert [c.pages for c in chunks] == [[1], [2]]


def test_an_uncaptioned_chart_is_named_by_its_heading() -> None:
    chunk = Chunk(id="c", doc_id="d", doc_name="t.pdf", kind="figure", embed_text="", pages=[4],
                  section=["Q3 revenue by region ($M)"],
                  text="Labels: 14 12.4 12 9.8 Pacific NW California\nValues: Pacific NW: 12.4; California: 9.8")
    hit = SearchHit(rank=1, score=1.0, chunk=chunk)
    found = {c.text: c for c in cd.candidates(hit, 0) if c.kind == "figtext"}
    assert found["Pacific NW: 12.4"].label == "Q3 revenue by region ($M)"
    assert "revenue" in found["California: 9.8"].match_text


def test_a_portrait_page_s_running_head_does_not_ride_along() -> None:
    els = [_el(1, 0, ElementKind.PAGE_HEADER, "THE SIEGE OF VICKSBURG", y=10),
           _el(1, 1, ElementKind.TEXT, "Many a family is dependent upon the sum drawn here.", y=60)]
    chunks = [c for c in chunk_document(DOC, els, IndexSettings(), lambda s: len(s.split())) if c.kind == "text"]
    assert chunks[0].running == []


def test_horizontal_bar_chart_values_read_with_their_categories(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=720, height=405)
    x0, y0, x1, y1 = 200.0, 80.0, 620.0, 320.0
    page.draw_line((x0, y0), (x0, y1))
    page.draw_line((x0, y1), (x1, y1))
    for t in (0, 10, 20, 30, 40):
        x = x0 + (x1 - x0) * t / 40
        w = pymupdf.get_text_length(str(t), fontsize=9)
        page.insert_text((x - w / 2, y1 + 12), str(t), fontsize=9)
        page.draw_line((x, y1), (x, y1 + 3))
    cats, vals = ["Offline mode", "SCIM", "Audit log API", "Summaries"], [38, 27, 19, 16]
    slot = (y1 - y0) / len(cats)
    for i, (c, v) in enumerate(zip(cats, vals)):
        by0, by1 = y0 + slot * i + slot * 0.2, y0 + slot * (i + 1) - slot * 0.2
        right = x0 + (x1 - x0) * v / 40
        page.draw_rect(pymupdf.Rect(x0, by0, right, by1), color=None, fill=(0.85, 0.45, 0.1))
        mid = (by0 + by1) / 2 + 3
        w = pymupdf.get_text_length(c, fontsize=9)
        page.insert_text((x0 - 6 - w, mid), c, fontsize=9)
        page.insert_text((right + 4, mid), str(v), fontsize=9)
    ctx = PageContext.build(page, doc_id="d", file_name="x.pdf", settings=IngestSettings(),
                            images=ImageStore(tmp_path / "img"))
    tables.extract_tables(ctx)
    figs = [e for e in figures.extract_figures(ctx) if e.kind == ElementKind.FIGURE]
    assert figs and figs[0].attrs.get("values") == ["Offline mode: 38", "SCIM: 27", "Audit log API: 19", "Summaries: 16"]
