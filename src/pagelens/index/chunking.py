"""Elements → retrievable chunks, following the document's structure.

* Body text (paragraphs, list items, headings, captions, footnotes, formulas) flows into chunks of
  at most ``chunk_tokens`` model tokens within one section, with ``chunk_overlap`` tokens of overlap.
  A heading starts a new chunk and stays with the text under it. Long paragraphs are split at
  sentence boundaries. A chunk ends at a page break unless a sentence runs across it (then it
  cites both pages), so chunks cite the page their text is on.
* An overlay build of a slide (beamer's \\pause, a PowerPoint build: a page whose every element is
  repeated on the next page under the same first line, which adds more) makes no chunks: the last
  build says it all, and earlier builds would crowd the results with copies.
* Page headers and footers never enter a chunk's text. On landscape pages (slides) their lines, page
  numbers left out, ride along as ``Chunk.running`` (a deck's short title and speaker, a course code):
  a slide's body rarely restates what its deck is about, so they name the document on that page for
  the answerer without being content. (A book's or report's running head is not taken so: its pages'
  prose says what it is about, and a chapter head printed on a page is no evidence for a name.)
* A table is one chunk (caption + markdown, kind ``table``); a long or wide table also gets row-group
  chunks that repeat the header row (kind ``table_rows``), so a cell deep in a table is still found.
  A row group is embedded (and BM25-indexed) as its rows' records, ``label — column: value; ...``,
  so each value sits beside its row label and column name; its text stays markdown, each row's label
  named by its section ("Services › Net sales", ``row_sections``) where the table has section rows.
* A figure is one chunk (kind ``figure``): caption, text drawn inside it, OCR text, description.
* Form fields of a page form one ``form`` chunk of ``label: value`` lines; a blank field of a filled-in
  form reads ``label: (empty)``.
* Document metadata becomes one ``metadata`` chunk on page 1.

``embed_text`` is ``"{title} > {section path}\\n{text}"``, with the prefix kept short because
MiniLM-class models truncate at 256 tokens. Chunk ids hash the doc id, kind, pages and text (plus
the image for figures), so re-indexing the same document yields the same ids.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pagelens.models import FURNITURE_KINDS, Chunk, Document, Element, ElementKind, form_filled_in
from pagelens.row_sections import with_section
from pagelens.settings import IndexSettings

CountFn = Callable[[str], int]

CHUNKER_VERSION = 10
"""Bump when a change here alters chunk texts or ids, or when the label keys a chunk's point carries
change (``pagelens.retrieve.labels``; 6: financial statement titles; 7: blank form fields kept as
``label: (empty)``; 10: running header/footer lines carried as ``Chunk.running``), so that an index built by the old
code is not reused (``Settings.index_identity`` should include it)."""

FLOW_KINDS = frozenset(
    {
        ElementKind.TEXT,
        ElementKind.HEADING,
        ElementKind.LIST_ITEM,
        ElementKind.CAPTION,
        ElementKind.FOOTNOTE,
        ElementKind.FORMULA,
        ElementKind.ANNOTATION,
    }
)
PREFIX_WORDS = 8  # words kept from the title and from each heading in the embed prefix
SECTION_LEVELS = 2  # innermost headings kept in the embed prefix
_SENTENCE_DONE = re.compile(r"[.!?:;)\]\"'”]\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+(?=[\"'(\[]?[A-Z0-9])")
_BULLETED = re.compile(r"\s*[•●▪◦·‣▸►▶■□➢➤✓✔»○◆◇]\s")
_PAGE_COUNT = re.compile(r"(?<![\w.])(?:page\s+)?\d{1,4}\s*(?:/|of)\s*\d{1,4}(?![\w.])|^\s*\d{1,4}\s*$|(?<=\s)\d{1,4}\s*$", re.I)
_JUNK_TITLE = re.compile(r"(microsoft\s+\w+\s+-|untitled|\.(docx?|tex|pdf|indd|pptx?)\b)", re.I)


def chunk_id(doc_id: str, kind: str, pages: list[int], text: str, image: str | None = None) -> str:
    key = f"{doc_id}\x1f{kind}\x1f{','.join(map(str, pages))}\x1f{image or ''}\x1f{text}"
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def doc_label(doc: Document) -> str:
    """The document's title when it is a real one, else its file name without extension."""
    title = (doc.title or "").strip()
    if not (3 <= len(title) <= 200) or _JUNK_TITLE.search(title):
        title = Path(doc.name).stem.replace("_", " ")
    return _words(title, PREFIX_WORDS)


def running_line(text: str) -> str:
    """A header/footer line without its page number ("Spring 2025 3 / 5" -> "Spring 2025", "12" -> "")."""
    return " ".join(_PAGE_COUNT.sub(" ", text).split())


def _words(text: str, n: int) -> str:
    parts = text.split()
    return " ".join(parts[:n]) + (" …" if len(parts) > n else "")


def embed_prefix(label: str, section: list[str]) -> str:
    path = [_words(s, PREFIX_WORDS) for s in section[-SECTION_LEVELS:] if s.strip()]
    return " > ".join([label, *path])


@dataclass
class _Unit:
    text: str
    tokens: int
    element: Element


@dataclass
class _Builder:
    """Shared state for one document: label, budget, token counter."""

    doc: Document
    ix: IndexSettings
    raw_count: CountFn
    label: str = ""
    special: int = 0  # tokens the counter adds to every text ([CLS]/[SEP]), removed per unit
    running: dict[int, list[str]] = field(default_factory=dict)  # page -> its header/footer lines (``Chunk.running``)

    def count(self, text: str) -> int:
        return max(0, self.raw_count(text) - self.special)

    def make(
        self, kind: str, text: str, els: list[Element], section: list[str], image: str | None = None,
        embed: str | None = None,
    ) -> Chunk:
        pages = sorted({e.page for e in els}) or [1]
        bboxes = [(e.page, e.bbox) for e in els if e.bbox is not None]
        prefix = embed_prefix(self.label, section)
        return Chunk(
            id=chunk_id(self.doc.doc_id, kind, pages, text, image),
            doc_id=self.doc.doc_id,
            doc_name=self.doc.name,
            kind=kind,
            text=text,
            embed_text=f"{prefix}\n{embed or text}",
            pages=pages,
            bboxes=bboxes,
            element_ids=list(dict.fromkeys(e.id for e in els)),
            section=list(section),
            image=image,
            running=list(dict.fromkeys(line for p in pages for line in self.running.get(p, ()))),
        )

    def units(self, el: Element, text: str | None = None) -> list[_Unit]:
        """``text`` (default: the element's) as units of at most ``chunk_tokens`` tokens."""
        text = " ".join((el.text if text is None else text).split())
        if not text:
            return []
        budget = self.ix.chunk_tokens
        n = self.count(text)
        if n <= budget:
            return [_Unit(text, n, el)]
        out: list[_Unit] = []
        for sentence in _SENTENCE_END.split(text):
            m = self.count(sentence)
            if m <= budget:
                out.append(_Unit(sentence, m, el))
            else:
                out.extend(_Unit(piece, self.count(piece), el) for piece in self._split_words(sentence, budget))
        return out

    def _split_words(self, text: str, budget: int) -> Iterator[str]:
        words = text.split()
        start = 0
        while start < len(words):
            # Shrink a word window until it fits (tokens per word vary: numbers, code, formulas).
            end = min(len(words), start + max(1, budget // 2))
            while end > start + 1 and self.count(" ".join(words[start:end])) > budget:
                end = start + max(1, (end - start) * 3 // 4)
            yield " ".join(words[start:end])
            start = end


@dataclass
class _Flow:
    """Accumulates body-text units into chunks."""

    b: _Builder
    units: list[_Unit] = field(default_factory=list)
    tokens: int = 0
    section: list[str] = field(default_factory=list)

    @property
    def headings_only(self) -> bool:
        return all(u.element.kind == ElementKind.HEADING for u in self.units)

    def add(self, el: Element) -> Iterator[Chunk]:
        ix = self.b.ix
        if el.kind == ElementKind.HEADING and self.units and not self.headings_only:
            yield from self.flush()
        elif self.units and not self.headings_only and list(el.section) != self.section:
            yield from self.flush()
        elif self.units and el.page != self.units[-1].element.page and not self._continues(el):
            yield from self.flush()
        if not self.units or self.headings_only:
            self.section = list(el.section)
        for unit in self.b.units(el):
            if self.units and self.tokens + unit.tokens > ix.chunk_tokens:
                yield from self.flush(carry=True)
            self.units.append(unit)
            self.tokens += unit.tokens

    def _continues(self, el: Element) -> bool:
        """A chunk runs onto the next page only to finish a sentence cut by the page break, and
        never spans more than two pages (slides and short pages stay one chunk per page)."""
        last = self.units[-1]
        if len({u.element.page for u in self.units}) > 1 or el.page != last.element.page + 1:
            return False
        if el.kind not in (ElementKind.TEXT, ElementKind.LIST_ITEM):
            return False
        item = last.element.kind == ElementKind.LIST_ITEM or _BULLETED.match(last.text)
        if item and re.match(r"\W*[A-Z0-9]", el.text):
            return False  # a slide's last bullet, then the next slide's first line: an item ends without a period
        return not _SENTENCE_DONE.search(last.text)

    def flush(self, carry: bool = False) -> Iterator[Chunk]:
        if not self.units:
            return
        yield self._chunk()
        kept: list[_Unit] = []
        if carry:
            budget = self.b.ix.chunk_overlap
            for unit in reversed(self.units[1:]):
                if unit.tokens > budget or unit.element.kind == ElementKind.HEADING:
                    break
                kept.insert(0, unit)
                budget -= unit.tokens
        self.units = kept
        self.tokens = sum(u.tokens for u in kept)

    def _chunk(self) -> Chunk:
        parts: list[str] = []
        prev: Element | None = None
        for u in self.units:
            sep = " " if prev is not None and prev.id == u.element.id else "\n"
            parts.append((sep if parts else "") + u.text)
            prev = u.element
        els = [u.element for u in self.units]
        return self.b.make("text", "".join(parts), els, self.section)


def chunk_document(
    doc: Document, elements: Iterable[Element], ix: IndexSettings, count_tokens: CountFn
) -> Iterator[Chunk]:
    """Chunks of one document, in reading order (text, then tables/figures of the page, ...)."""
    b = _Builder(doc, ix, count_tokens)
    b.label = doc_label(doc)
    b.special = count_tokens("")
    flow = _Flow(b)
    metadata: list[Element] = []
    pages = [(p, list(g)) for p, g in itertools.groupby(elements, key=lambda e: e.page)]
    for i, (_page, group) in enumerate(pages):
        if i + 1 < len(pages) and pages[i + 1][0] == _page + 1 and _earlier_build(group, pages[i + 1][1]):
            metadata.extend(e for e in group if e.kind == ElementKind.METADATA)
            continue
        page_els = [e for e in group if e.kind not in FURNITURE_KINDS]
        lines = [running_line(e.text) for e in group if e.kind in FURNITURE_KINDS and e.attrs.get("landscape")]
        b.running[_page] = [line for line in dict.fromkeys(lines) if line]
        captions = [e for e in page_els if e.kind == ElementKind.CAPTION]
        forms: list[Element] = []
        for el in page_els:
            if el.kind in FLOW_KINDS:
                yield from flow.add(el)
            elif el.kind == ElementKind.TABLE:
                yield from table_chunks(b, el, captions)
            elif el.kind == ElementKind.FIGURE:
                yield figure_chunk(b, el, captions)
            elif el.kind == ElementKind.FORM:
                forms.append(el)
            elif el.kind == ElementKind.METADATA:
                metadata.append(el)
        if forms:
            yield from form_chunks(b, forms)
    yield from flow.flush()
    meta = metadata_chunk(b, metadata)
    if meta is not None:
        yield meta


def _earlier_build(page: list[Element], following: list[Element]) -> bool:
    """Whether ``page`` is an overlay build of the slide on ``following``: same first line, and all of
    its content elements are on ``following`` too (which adds more)."""
    def texts(els: list[Element]) -> list[str]:
        return [" ".join(e.text.split()) for e in els
                if e.kind not in FURNITURE_KINDS and e.kind != ElementKind.METADATA and e.text.strip()]

    now, then = texts(page), texts(following)
    if len(now) < 2 or not then or now[0] != then[0] or len(then) <= len(now):
        return False
    return set(now) <= set(then)


# -- tables ----------------------------------------------------------------------------------------
def _nearest_caption(el: Element, captions: list[Element], words: tuple[str, ...]) -> str | None:
    """The caption element on the same page nearest to ``el`` that names the right kind of object."""
    if el.bbox is None:
        return None
    best: tuple[float, str] | None = None
    for c in captions:
        if c.bbox is None or not c.text.strip().lower().startswith(words):
            continue
        gap = max(c.bbox[1] - el.bbox[3], el.bbox[1] - c.bbox[3], 0.0)
        if gap <= 72 and (best is None or gap < best[0]):
            best = (gap, c.text.strip())
    return best[1] if best else None


def _table_caption(el: Element, captions: list[Element]) -> str:
    assert el.table is not None
    return (el.table.caption or _nearest_caption(el, captions, ("table", "tab.")) or "").strip()


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(" ".join(c.split()).replace("|", "/") for c in cells) + " |"


def _table_rows(el: Element) -> tuple[list[str], list[str]]:
    """(header lines, body lines) in markdown, from the structured rows or the markdown itself."""
    t = el.table
    assert t is not None
    if t.rows:
        header = [_md_row(t.header), "|" + "---|" * len(t.header)] if t.header else []
        if len(t.sections) == len(t.rows):  # a row group's rows name their section: "Services › Net sales"
            return header, [_md_row([with_section(s, r[0]), *r[1:]] if r and s else r) for r, s in zip(t.rows, t.sections)]
        return header, [_md_row(r) for r in t.rows]
    lines = [ln for ln in t.markdown.splitlines() if ln.strip()]
    if len(lines) >= 2 and set(lines[1].replace("|", "").strip()) <= set("-: "):
        return lines[:2], lines[2:]
    return [], lines


def table_chunks(b: _Builder, el: Element, captions: list[Element]) -> Iterator[Chunk]:
    caption = _table_caption(el, captions)
    markdown = el.table.markdown.strip() if el.table else ""
    text = f"{caption}\n{markdown}".strip()
    if not text:
        return
    yield b.make("table", text, [el], el.section)
    header, rows = _table_rows(el)
    ix = b.ix
    if len(rows) <= ix.table_rows_per_chunk and b.count(text) <= ix.chunk_tokens:
        return
    # Row groups: the header (and a short caption) repeated, then as many rows as fit.
    head = "\n".join([_words(caption, 16)] * bool(caption) + header)
    head_tokens = b.count(head) if head else 0
    records = el.table.records if el.table and len(el.table.records) == len(rows) else []
    group: list[int] = []
    used = head_tokens

    def row_group() -> Chunk:
        text = f"{head}\n" + "\n".join(rows[i] for i in group)
        recs = [records[i] for i in group if records and records[i]]
        embed = "\n".join([_words(caption, 16)] * bool(caption) + recs) if recs else None
        return b.make("table_rows", text, [el], el.section, embed=embed)

    for i, row in enumerate(rows):
        n = b.count(row)
        if group and (len(group) >= ix.table_rows_per_chunk or used + n > ix.chunk_tokens):
            yield row_group()
            group, used = [], head_tokens
        group.append(i)
        used += n
    if group:
        yield row_group()


# -- figures, forms, metadata ----------------------------------------------------------------------
def figure_text(el: Element, caption: str | None) -> str:
    f = el.figure
    assert f is not None
    parts = [caption or ""]
    if f.inner_text:
        parts.append("Labels: " + " ".join(f.inner_text.split()))
    if el.attrs.get("values"):  # a chart's value labels with their categories (``figures.chart_values``)
        parts.append("Values: " + "; ".join(" ".join(str(v).split()) for v in el.attrs["values"]))
    if f.ocr_text:
        parts.append("Text in image: " + " ".join(f.ocr_text.split()))
    if f.description:
        # A vision model wrote it: marked as such, never passed off as the document's own text.
        parts.append("[Model-generated description, not document text] " + " ".join(f.description.split()))
    return "\n".join(p for p in parts if p.strip())


def figure_chunk(b: _Builder, el: Element, captions: list[Element]) -> Chunk:
    assert el.figure is not None
    caption = (el.figure.caption or _nearest_caption(el, captions, ("fig", "figure", "chart", "image", "photo")) or "").strip()
    return b.make("figure", figure_text(el, caption), [el], el.section, image=el.figure.image)


BLANK = "(empty)"
"""The value a blank form field shows in its ``label: value`` line: kept, so that a question for it finds
the field and the answerer can say the form leaves it blank (``answer.fields``)."""


BLANK_LABEL_WORDS = 10
"""A blank field with a longer label (an instruction as its tooltip) is left out: no question names it."""


def _filled(fields: list[Element]) -> bool:
    return form_filled_in([e.field for e in fields if e.field is not None])


def _field_line(el: Element, blanks: bool = True) -> str:
    f = el.field
    if f is None:
        return el.text.strip()
    label = " ".join((f.label or f.name).split())
    if not f.value.strip() and (not blanks or len(label.split()) > BLANK_LABEL_WORDS):
        return ""
    value = " ".join(f.value.split()) or BLANK
    if f.field_type in ("checkbox", "radio") and f.options and value not in f.options and value != BLANK:
        value = f"{value} (options: {', '.join(f.options)})"
    return f"{label}: {value}"


def form_chunks(b: _Builder, fields: list[Element]) -> Iterator[Chunk]:
    """One ``form`` chunk per page (split when over budget) of ``label: value`` lines, blank ones included
    when the page's form is filled in (an unfilled form's blanks say nothing) and their label is short."""
    blanks = _filled(fields)
    lines: list[tuple[str, Element]] = [(ln, e) for e in fields if (ln := _field_line(e, blanks))]
    group: list[tuple[str, Element]] = []
    used = 0
    section = ["Form fields"]
    for line, el in lines:
        n = b.count(line)
        if group and used + n > b.ix.chunk_tokens:
            yield b.make("form", "\n".join(ln for ln, _ in group), [e for _, e in group], section)
            group, used = [], 0
        group.append((line, el))
        used += n
    if group:
        yield b.make("form", "\n".join(ln for ln, _ in group), [e for _, e in group], section)


def metadata_chunk(b: _Builder, elements: list[Element]) -> Chunk | None:
    d = b.doc
    lines = [f"Document: {d.name}"]
    for label, value in (("Title", d.title), ("Author", d.author), ("Subject", d.subject), ("Keywords", d.keywords)):
        if value and value.strip():
            lines.append(f"{label}: {' '.join(value.split())}")
    lines += [" ".join(ln.split()) for e in elements for ln in e.text.splitlines() if ln.strip()]
    lines = list(dict.fromkeys(lines))  # the metadata elements repeat the document facts line by line
    if len(lines) == 1 and not elements:
        return None
    while len(lines) > 1 and b.count("\n".join(lines)) > b.ix.chunk_tokens:
        lines.pop()
    return b.make("metadata", "\n".join(lines), [e for e in elements if e.page == 1], ["Document information"])
