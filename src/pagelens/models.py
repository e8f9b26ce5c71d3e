"""The data pagelens passes between stages: documents, elements, chunks, search hits, answers.

Elements are validated: a table element without table data, a figure without its image, or a box
outside the page are refused with a message that says what is missing.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

BBox = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in PDF points, origin top-left, as PyMuPDF reports them."""


class ElementKind(StrEnum):
    TEXT = "text"
    HEADING = "heading"
    LIST_ITEM = "list_item"
    CAPTION = "caption"
    FOOTNOTE = "footnote"
    PAGE_HEADER = "page_header"
    PAGE_FOOTER = "page_footer"
    TABLE = "table"
    FIGURE = "figure"
    FORMULA = "formula"
    FORM = "form"
    METADATA = "metadata"
    LINK = "link"
    ANNOTATION = "annotation"


# Kinds kept out of body text (retrieval skips them; `show` still lists them).
FURNITURE_KINDS = frozenset({ElementKind.PAGE_HEADER, ElementKind.PAGE_FOOTER})


class Provenance(StrEnum):
    TEXT_LAYER = "text_layer"
    OCR = "ocr"
    ACROFORM = "acroform"
    METADATA = "metadata"


class TableData(BaseModel):
    markdown: str
    html: str
    header: list[str] = Field(default_factory=list)
    rows: list[list[str]] = Field(default_factory=list, description="Body rows, header excluded.")
    caption: str | None = None
    continued_from_page: int | None = Field(None, description="Set when the table continues one on an earlier page.")
    continues_on_page: int | None = None
    finder: str = Field("pymupdf", description="pymupdf | pdfplumber | layout | text | whitespace")
    records: list[str] = Field(
        default_factory=list, description="One 'label — column: value; ...' line per body row ('' for a row without values)."
    )
    sections: list[str] = Field(
        default_factory=list, description="Each body row's section path ('Services › Net sales' is row 'Net sales' under "
        "section row 'Services'; '' for none); empty when the table has no section rows."
    )


class FigureData(BaseModel):
    image: str = Field(description="sha256 of the PNG in the image store.")
    width: int
    height: int
    source: str = Field(description="raster | vector")
    caption: str | None = None
    ocr_text: str | None = Field(None, description="Text read from the raster image by OCR.")
    inner_text: str | None = Field(None, description="Text-layer text drawn inside the figure region.")
    description: str | None = Field(None, description="Vision-model description, when enriched.")


class FormFieldData(BaseModel):
    name: str
    field_type: str = Field(description="text | checkbox | radio | combobox | listbox | signature | button")
    label: str
    value: str
    options: list[str] = Field(default_factory=list)


FILLED_SHARE = 0.25
"""Share of a page's fields that can be left blank (text, choices, radio groups) that must hold a value
for the page's form to count as filled in: its blank fields then say something (``label: (empty)``),
an unfilled form's say nothing."""


def form_filled_in(fields: "list[FormFieldData]") -> bool:
    """Whether a page's form fields were filled in (``FILLED_SHARE``; a checkbox always reads checked or not)."""
    fillable = [f for f in fields if f.field_type != "checkbox"]
    return bool(fillable) and sum(bool(f.value.strip()) for f in fillable) >= FILLED_SHARE * len(fillable)


class Element(BaseModel):
    """One typed piece of a page, in reading order."""

    model_config = ConfigDict(frozen=False)

    id: str = ""
    doc_id: str
    page: int = Field(ge=1, description="1-based physical page index.")
    order: int = Field(ge=0, description="Reading-order index within the page.")
    kind: ElementKind
    text: str = ""
    bbox: BBox | None = None
    section: list[str] = Field(default_factory=list, description="Headings this element sits under.")
    provenance: Provenance = Provenance.TEXT_LAYER
    parser: str = Field("pymupdf", description="Component that produced the element.")
    level: int | None = Field(None, description="Heading level (1 = top).")
    table: TableData | None = None
    figure: FigureData | None = None
    field: FormFieldData | None = None
    attrs: dict[str, Any] = Field(default_factory=dict, description="Small extras (link target, font...).")

    @field_validator("bbox")
    @classmethod
    def _bbox_ordered(cls, v: BBox | None) -> BBox | None:
        if v is None:
            return v
        x0, y0, x1, y1 = (float(c) for c in v)
        if x1 < x0 or y1 < y0:
            raise ValueError(f"bbox {v} has x1<x0 or y1<y0; pass (x0, y0, x1, y1)")
        return (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))

    @model_validator(mode="after")
    def _kind_payload(self) -> "Element":
        need = {ElementKind.TABLE: "table", ElementKind.FIGURE: "figure", ElementKind.FORM: "field"}
        for kind, attr in need.items():
            if self.kind == kind and getattr(self, attr) is None:
                raise ValueError(f"a {kind.value} element needs `{attr}` data")
            if self.kind != kind and getattr(self, attr) is not None:
                raise ValueError(f"`{attr}` data is only allowed on {kind.value} elements, not {self.kind.value}")
        if self.kind == ElementKind.HEADING and self.level is None:
            self.level = 1
        if self.bbox is None and self.kind not in (ElementKind.METADATA,):
            raise ValueError(f"a {self.kind.value} element needs a bbox (only metadata may omit it)")
        if not self.id:
            self.id = element_id(self.doc_id, self.page, self.order, self.kind)
        return self


def element_id(doc_id: str, page: int, order: int, kind: str) -> str:
    return hashlib.sha256(f"{doc_id}:{page}:{order}:{kind}".encode()).hexdigest()[:24]


class TocEntry(BaseModel):
    level: int
    title: str
    page: int


class Document(BaseModel):
    doc_id: str = Field(description="sha256 of the file bytes.")
    name: str = Field(description="File name.")
    path: str
    size: int
    pages: int
    title: str | None = None
    author: str | None = None
    subject: str | None = None
    keywords: str | None = None
    creator: str | None = None
    producer: str | None = None
    created: str | None = None
    modified: str | None = None
    outline: list[TocEntry] = Field(default_factory=list)
    ocr_pages: list[int] = Field(default_factory=list)
    failed_pages: dict[int, str] = Field(default_factory=dict)
    version: int = 1
    ingested_at: datetime | None = None
    seconds: float = 0.0
    element_counts: dict[str, int] = Field(default_factory=dict)
    parser_version: int = Field(
        0, description="The parser that produced the stored elements (ingest.version.PARSER_VERSION); "
        "0: stored before versions were recorded. An older one is re-parsed at the next ingest."
    )


class IngestResult(BaseModel):
    """One line of the ingest report (`--json` contract)."""

    doc_id: str | None
    name: str
    path: str
    pages: int = 0
    elements: dict[str, int] = Field(default_factory=dict)
    ocr_pages: int = 0
    seconds: float = 0.0
    status: str = Field(
        description="indexed | reparsed (stored content parsed again: a newer parser, or --reparse; its "
        "elements, chunks and vectors replaced) | unchanged | failed"
    )
    error: str | None = None
    page_errors: list[str] = Field(default_factory=list)
    chunks: int = 0
    replaced: str | None = Field(None, description="doc_id of the earlier version this file replaced.")


class Chunk(BaseModel):
    """A retrievable unit built from one or more elements."""

    id: str = Field(description="Deterministic: hash of doc id + content.")
    doc_id: str
    doc_name: str
    kind: str = Field(description="text | table | table_rows | figure | formula | form | metadata")
    text: str = Field(description="Original content shown to people and the LLM.")
    embed_text: str = Field(description="What is embedded: title + section path + text.")
    pages: list[int]
    bboxes: list[tuple[int, BBox]] = Field(default_factory=list, description="(page, bbox) pairs.")
    element_ids: list[str] = Field(default_factory=list)
    section: list[str] = Field(default_factory=list)
    image: str | None = Field(None, description="Figure image sha256 for figure chunks.")
    running: list[str] = Field(
        default_factory=list, description="The running header and footer lines of the chunk's slides (landscape pages), page numbers "
        "left out (a deck's short title, its author, a course code): said on every page, so they name the document "
        "for this page without being any part of its content (never embedded, never quoted)."
    )

    @property
    def page(self) -> int:
        return self.pages[0]


class SearchHit(BaseModel):
    rank: int
    score: float
    chunk: Chunk
    channels: dict[str, float] = Field(default_factory=dict, description="Per-channel scores (and ranks).")
    rerank_score: float | None = None
    merged: list["SearchHit"] = Field(
        default_factory=list, description="Lower-ranked chunks of the same page, carried by this one (rank = fused rank)."
    )
    parts: list[str] = Field(
        default_factory=list, description="Why this hit holds its place: the parts of a multi-part question it is the best "
        "evidence for (pagelens.retrieve.multipart), or a second hop's labels, 'bridge: NAME' on the page that "
        "resolved a description and 'hop 2 via NAME' on the page found by asking about it (pagelens.retrieve.hop); "
        "empty for a plain one-part question."
    )
    doc_terms: list[str] = Field(
        default_factory=list, description="The question's terms that this hit's document's facts hold (issuer, form type "
        "and reporting period, from its cover and file name: pagelens.retrieve.routing): what the question says to "
        "name the document, said by the document as a whole rather than by this page."
    )

    def all_chunks(self) -> list[Chunk]:
        """This hit's chunk, then the chunks of its page it carries."""
        return [self.chunk, *(m.chunk for m in self.merged)]


class Citation(BaseModel):
    n: int
    doc: str
    doc_id: str
    page: int
    bboxes: list[tuple[int, BBox]] = Field(default_factory=list)
    valid: bool = True


class Answer(BaseModel):
    question: str
    answer: str
    sources: list[SearchHit] = Field(default_factory=list)
    cited: list[Citation] = Field(default_factory=list)
    invalid_citations: list[int] = Field(default_factory=list)
    abstained: bool = False
    model: str = "extractive"
    cached: bool = False
    timings_ms: dict[str, float] = Field(default_factory=dict)
    notes: list[str] = Field(
        default_factory=list, description="What fell back and why (an LLM step that failed or ran out of time)."
    )
