"""Document metadata, METADATA elements, outline-driven section levels, links and annotations."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pagelens.ingest import metadata, sections
from pagelens.ingest.context import PageContext
from pagelens.models import Document, Element, ElementKind, Provenance
from pagelens.settings import IngestSettings

from pdfs import PAPER_TITLE


def _doc(pdf: pymupdf.Document, name: str) -> Document:
    return Document(doc_id="d", name=name, path=f"/x/{name}", size=1, pages=pdf.page_count, **metadata.document_metadata(pdf))


def test_title_falls_back_to_largest_line(paper: Path) -> None:
    pdf = pymupdf.open(paper)
    meta = metadata.document_metadata(pdf)
    assert pdf.metadata["title"] == ""  # the info dictionary has none: the title comes from page 1
    assert meta["title"] == PAPER_TITLE
    assert meta["created"] == "2025-01-02T03:04:05Z" and meta["producer"] == "pdfTeX-1.40.25"
    els = metadata.metadata_elements(pdf, "d", _doc(pdf, "quill.pdf"))
    assert len(els) == 1  # no outline in this file
    info = els[0]
    assert info.kind == ElementKind.METADATA and info.provenance == Provenance.METADATA and info.bbox is None
    assert "Pages: 9" in info.text.splitlines() and info.page == 1
    assert f"Title: {meta['title']}" in info.text


def test_info_dictionary_and_redp_metadata(math_paper: Path, data_dir: Path) -> None:
    solve = metadata.document_metadata(pymupdf.open(math_paper))
    assert solve["author"] == "Grace Hopper, Alan Turing" and solve["title"].startswith("SOLVE")
    redp = pymupdf.open(data_dir / "redp5110_sampled.pdf")
    meta = metadata.document_metadata(redp)
    # The cover's biggest text is the "Redpaper" logo at the foot; the title is the big upper text.
    assert meta["title"] == "Row and Column Access Control Support in IBM DB2 for i"
    assert meta["outline"] == [] and meta["modified"] is None
    assert metadata.pdf_date("D:20171211093519-06'00'") == "2017-12-11T09:35:19-06:00"


def test_outline_becomes_contents_and_section_levels(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for title in ("Getting Started", "Installing the Tool", "Advanced Topics"):
        page = doc.new_page()
        page.insert_text((72, 80), title, fontsize=16)
        page.insert_text((72, 120), f"Body text about {title.lower()} goes here.", fontsize=10)
    doc.set_toc([[1, "Getting Started", 1], [2, "Installing the Tool", 2], [1, "Advanced Topics", 3]])
    doc.set_metadata({"title": "Tool Manual", "author": "Ada"})
    path = tmp_path / "manual.pdf"
    doc.save(path)
    pdf = pymupdf.open(path)
    d = _doc(pdf, "manual.pdf")
    assert [(e.level, e.title, e.page) for e in d.outline] == [
        (1, "Getting Started", 1), (2, "Installing the Tool", 2), (1, "Advanced Topics", 3),
    ]
    els = metadata.metadata_elements(pdf, "d", d)
    assert els[-1].text == "Contents: Getting Started (p.1); Installing the Tool (p.2); Advanced Topics (p.3)"
    assert "Author: Ada" in els[0].text
    # All three headings share one size, so only the outline can say "Installing" is a subsection.
    tracker = sections.SectionTracker(d.outline)
    paths = []
    for pno, title in enumerate(("Getting Started", "Installing the Tool", "Advanced Topics")):
        head = Element(doc_id="d", page=pno + 1, order=0, kind=ElementKind.HEADING, text=title, level=1,
                       bbox=(72, 60, 300, 82), attrs={"size": 16.0})
        body = Element(doc_id="d", page=pno + 1, order=1, kind=ElementKind.TEXT, text="body", bbox=(72, 110, 300, 122))
        tracker.assign([head, body])
        paths.append(body.section)
    assert paths == [["Getting Started"], ["Getting Started", "Installing the Tool"], ["Advanced Topics"]]


def test_page_extras_links_and_annotations(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Visit the project site for details.", fontsize=11)
    page.insert_text((72, 300), "An internal pointer: 5", fontsize=11)
    words = page.get_text("words")
    site = pymupdf.Rect(words[1][:4]) | pymupdf.Rect(words[3][:4])  # "the project site"
    page.insert_link({"kind": pymupdf.LINK_URI, "from": site, "uri": "https://example.org/tool"})
    five = pymupdf.Rect(words[-1][:4])
    page.insert_link({"kind": pymupdf.LINK_GOTO, "from": five, "page": 0})
    page.insert_link({"kind": pymupdf.LINK_URI, "from": pymupdf.Rect(400, 600, 450, 620), "uri": "https://empty.example"})
    annot = page.add_text_annot((300, 200), "Check these numbers with finance.")
    annot.set_info(title="Reviewer")
    path = tmp_path / "links.pdf"
    doc.save(path)
    page = pymupdf.open(path).load_page(0)
    ctx = PageContext.build(page, doc_id="d", file_name="links.pdf", settings=IngestSettings(), images=None)  # type: ignore[arg-type]
    els = metadata.page_extras(ctx)
    links = [e for e in els if e.kind == ElementKind.LINK]
    assert [(e.text, e.attrs.get("uri")) for e in links] == [("the project site", "https://example.org/tool")]
    notes = [e for e in els if e.kind == ElementKind.ANNOTATION]
    assert len(notes) == 1 and notes[0].text == "Text: Check these numbers with finance."
    assert notes[0].attrs == {"annot_type": "Text", "author": "Reviewer"}
