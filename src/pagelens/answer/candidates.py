"""Candidate snippets of the sources for the extractive answerer, and its table reading.

A source (its chunk and the chunks of its page it carries) is split into sentences of running text,
table rows (with their header, so each cell is named by its column, and their section row's label when
they sit under one, ``row_sections``; scored with the heading of the section their table sits in, as words
they inherit: two tables alike but for their headings are told apart by them), ``label: value`` form lines, figure captions and figure
label/OCR text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pagelens.answer import text as tx
from pagelens.answer import markdown as md
from pagelens.models import Chunk, SearchHit
from pagelens.row_sections import SEP, row_sections, with_section

LABEL_VALUE = re.compile(r"^\s*([^:]{1,60}):\s+(\S.*)$")
_FIGURE_BODY = re.compile(r"^(Labels|Values|Text in image|Description):\s*")
_TOTAL_ROW = re.compile(r"^\s*(grand\s+)?(totals?|sum|all|overall)\b", re.I)
_GENERIC_HEADER = re.compile(r"^col\d+$", re.I)  # names a table finder gives unnamed columns
MAX_LABEL_CHARS = 80  # longer first cells are notes, not row labels


@dataclass
class Candidate:
    text: str  # what is shown in the answer
    match_text: str  # what is scored (a table row carries its header names)
    source: int  # 0-based index into the hits
    page: int
    kind: str  # sentence | row | field | figure (caption) | figtext (labels, OCR)
    header: list[str] = field(default_factory=list)
    cells: list[str] = field(default_factory=list)
    label: str = ""  # a row's naming cells; a figure's caption
    source_kind: str = ""  # the chunk kind it came from
    score: float = 0.0
    lexical: float = 0.0
    shift: float = 0.0  # what ranks it apart from its score: the words it only inherits weigh less (``lexical``)
    semantic: float = 0.0
    bonus: float = 0.0
    factor: float = 1.0
    column: int | None = None  # a table row's cell picked by the table read (``cells``)
    cell_score: float = 0.0  # ... and how fully the question names its row and its column (``Cell.attached``)
    absent: bool = False  # a row of a table that lacks the asked row or year (``cells.Cell.absent``)
    gloss: str = ""  # the caption sentence that defines a row's label ("“LTR & No NSP” is trained as ...")
    doc: str = ""  # the file name of its document (a "Form 293" its name holds is said on every page)
    after: str = ""  # a sentence's next sentence in its chunk (``span.continuation``)
    setting: frozenset[str] = frozenset()  # the counts its paragraph's sentences before it state (``counts``)


def candidates(hit: SearchHit, index: int) -> list[Candidate]:
    """Candidate snippets of one source (its chunk and the chunks of the same page it carries)."""
    out: list[Candidate] = []
    for chunk in hit.all_chunks():
        found = _split(chunk, index)
        head = " ".join(chunk.section[-1].split()) if chunk.section else ""
        for c in found:
            c.source_kind, c.doc = chunk.kind, chunk.doc_name
            if head and c.kind == "row" and head not in c.match_text:
                c.match_text = f"{c.match_text} ({head})"
        out += found
    return out


def _split(chunk: Chunk, index: int) -> list[Candidate]:
    page = chunk.page
    out: list[Candidate] = []
    lines = chunk.text.splitlines()
    table_lines = [ln for ln in lines if md.is_table_line(ln)]
    other = [ln for ln in lines if not md.is_table_line(ln)]
    if table_lines:
        out.extend(_row_candidates(table_lines, " ".join(" ".join(other).split()), index, page))
    if chunk.kind in ("form", "metadata"):
        doc_words = re.sub(r"[_\W]+", " ", chunk.doc_name.rsplit(".", 1)[0])
        for ln in other:
            if ln.startswith("Document: "):  # the file name line of the metadata chunk
                continue
            if LABEL_VALUE.match(ln):  # a bare "label: value" is scored with the form's name
                out.append(Candidate(ln.strip(), f"{ln.strip()} ({doc_words})", index, page, "field"))
            elif ln.strip():
                out.extend(Candidate(s, s, index, page, "sentence") for s in tx.split_sentences(ln))
        return out
    if chunk.kind == "figure":
        caption = " ".join(" ".join(ln for ln in other if not _FIGURE_BODY.match(ln.strip())).split())
        bodies: list[str] = []
        for ln in other:
            m = _FIGURE_BODY.match(ln.strip())
            body = " ".join(ln.strip()[m.end():].split()) if m else ""
            if m and m.group(1) == "Values":  # a chart's "category: value" pairs, each a candidate of its own
                bodies.extend(v for v in body.split("; ") if v and v not in bodies)
            elif body and not any(body in b or b in body for b in bodies):
                bodies.append(body)
        for s in tx.split_sentences(caption):
            out.append(Candidate(s, s, index, page, "figure", label=caption))
        # A chart without a caption is named by the heading it sits under (a slide's title: "Q3 revenue by region").
        title = caption or (" ".join(chunk.section[-1].split()) if chunk.section else "")
        for body in bodies:
            out.append(Candidate(body, f"{title} {body}", index, page, "figtext", label=title))
        return out
    if any(_amount_field(ln) for ln in other):
        # A label and the amounts set on its line ("Contrib. Custeio Ilum Pública: 861,60", ``ingest.label_values``),
        # scored with the short lines that head its group (a column's title and a group's: "TUSD", "Tarifa Horária").
        heads: list[str] = []
        rest = []
        for ln in other:
            if _amount_field(ln):
                lead = " ".join(heads[-FIELD_HEADS:])
                out.append(Candidate(ln.strip(), f"{ln.strip()} ({lead})" if lead else ln.strip(), index, page, "field"))
            else:
                rest.append(ln)
                if ln.strip() and len(ln.split()) <= HEADING_WORDS and re.search(r"[^\W\d_]{2}", ln):
                    heads.append(ln.strip())
        other = rest
    blocks = _blocks(other) if not table_lines else [(" ".join(other), "")]  # a table's caption is a candidate too
    sentences = []
    for b, lead in blocks:
        stated: set[str] = set()
        for s in tx.join_speech(tx.split_sentences(b)):
            own = counts(s)
            sentences.append(Candidate(s, f"{s} ({lead})" if lead else s, index, page, "sentence",
                                       setting=frozenset(stated - own)))
            stated |= own
    for c, nxt in zip(sentences, sentences[1:]):
        c.after = nxt.text
        if _REFERS_BACK.match(nxt.text) and (names := _names(c.text)):  # "He is succeeded by ...": who "he" is,
            nxt.match_text = f"{nxt.match_text} ({names})"  # the names of the sentence before say
    return out + sentences


_REFERS_BACK = re.compile(r"(he|she|they|it|his|her|their|its|this|these|the latter)\b(?!\s+(is|was)\s+(also\s+)?"
                          r"(important|possible|necessary|likely|clear|worth|expected|estimated|assumed|known)\b)", re.I)
"""A sentence that opens with a pronoun refers to the sentence before it: it is scored with that sentence's names
(as inherited words, ``lexical.stated_coverage``), so "He is succeeded by Mrs. Ruth Okafor" answers "who
succeeded Dr. Colin Ashby" (not an expletive "It is likely that ..."). Only the names: in a story every "he"
would otherwise inherit the whole plot."""
_NAME_RUN = re.compile(r"[A-Z][\w'’.-]*(?:\s+(?:of\s+)?[A-Z][\w'’.-]*)*")


def _names(sentence: str) -> str:
    """The capitalised runs of a sentence ("Dr. Colin Ashby", "Chief Engineer"), its first word alone left out."""
    runs = [m.group(0) for m in _NAME_RUN.finditer(sentence)]
    if runs and sentence.startswith(runs[0]) and " " not in runs[0]:
        runs = runs[1:]
    return "; ".join(runs)


def counts(sentence: str) -> set[str]:
    """The numbers of a sentence that are no years: the counts and sizes a paragraph states once and its later
    sentences build on ("The study included 30 carcinomas and 7 scanners. [...] The ICC was 0.83")."""
    return {n for n in tx.numbers(sentence) if not tx.YEARLIKE.fullmatch(n)}


_AMOUNT = re.compile(r"^[-+\u2212(]?(?:[$€£R]{1,2}\$?\s?)?\d[\d.,]*%?\)?$")
LABEL_WORDS = 8
FIELD_HEADS = 2  # short lines before a label-and-amounts line that head it


def _amount_field(line: str) -> bool:
    """A line of a short label and one to four amounts after its colon: an item of a bill or statement
    whose values the parser joined to their label (``ingest.label_values.join_label_values``)."""
    m = LABEL_VALUE.match(line)
    if not m or len(m.group(1).split()) > LABEL_WORDS or not re.search(r"[^\W\d_]", m.group(1)):
        return False
    vals = m.group(2).split()
    return 0 < len(vals) <= 4 and all(_AMOUNT.match(v) for v in vals)


HEADING_WORDS = 5  # a line of at most this many words without end punctuation is a heading of what follows
BULLETS = "•●▪◦·‣▸►▶■□➢➤✓✔»○◆◇"
"""Bullet glyphs (PowerPoint's, beamer's, Word's): a line opening with one is a list item of its own."""
_BULLET = re.compile(rf"[{BULLETS}]\s|[-–*]\s")
_OPEN_END = re.compile(r"(\b(the|a|an|of|and|or|to|in|on|at|for|by|with|from|as|per|than)|[,;:(\-–—/&])\s*$", re.I)


def _blocks(lines: list[str]) -> list[tuple[str, str]]:
    """A text chunk's lines grouped into runs that may hold one sentence, each with the heading of its
    list: a line ends its run when it is a list item — a line of more than ``HEADING_WORDS`` words
    without end punctuation that does not break off mid-phrase, followed by a line that starts with a
    capital, a digit or a bullet ("Adjusted effective tax rate of 23%" / "Capital expenditures of $3.4 –
    $3.6 billion"). Headings (short lines) stay with the line they head, and the later items of the
    list are scored with them too ("Full-Year 2023 Guidance"); lines that end a sentence end their run
    anyway. A line that opens with a bullet glyph followed by another that does is an item of its own,
    however short ("· Database lock: May 2025" / "· Topline results: July 2025" on a slide)."""
    out: list[tuple[str, str]] = []
    run: list[str] = []
    lead = ""  # the heading lines of the list the next item belongs to
    for i, line in enumerate(lines):
        run.append(line)
        nxt = lines[i + 1].lstrip() if i + 1 < len(lines) else ""
        flat = line.strip()
        items = bool(nxt) and bool(_BULLET.match(flat)) and bool(_BULLET.match(nxt))
        if items or (nxt and len(flat.split()) > HEADING_WORDS and not re.search(r"[.!?:\"”')\]]\W*$", flat)
                     and not _OPEN_END.search(flat) and re.match(rf"[A-Z0-9{BULLETS}\-–*(]", nxt)):
            heads = [x.strip() for x in run[:-1] if len(x.split()) <= HEADING_WORDS]
            out.append(("\n".join(run), "" if heads else lead))
            lead = " ".join(heads) if heads else lead
            run = []
    if run:
        out.append(("\n".join(run), lead if len(run) == 1 else ""))
    return out


def _row_candidates(table_lines: list[str], caption: str, index: int, page: int) -> list[Candidate]:
    """One candidate per table row, named by its header; a row's label is glossed by the caption
    sentence that defines it ("“LTR & No NSP” is trained as a left-to-right LM ...")."""
    header, rows = md.parse_markdown_table(table_lines)
    header = ["" if _GENERIC_HEADER.match(h) else h for h in header]
    if header and header[0] and len(rows) == 1 and _values_only(rows[0]):
        # One line of values under a title for each ("AIC AICc BIC" over "634.0437 635.2682 644.0803", a
        # printout's fit statistics): the first column holds a value too, named by its title like the others.
        # (Rows of several led by a number are keyed by it: a year, a row number.)
        header, rows = ["", *header], [["", *r] for r in rows]
    out: list[Candidate] = []
    prev: list[str] = []
    # A row under a section row is named by it ("Services › Net sales"); a row group's rows come named.
    sections = row_sections(rows)
    for r, section in zip(rows, sections):
        lead = next((i for i, c in enumerate(r) if c), len(r))
        if 0 < lead < len(r) and len(prev) >= lead:  # cells merged down from the row above
            r = prev[:lead] + r[lead:]
        prev = r
        label = tx.row_label(r)
        row_text = tx.row_text(header, r)
        if section and r and r[0] and with_section(section, r[0]) != r[0]:
            label, row_text = with_section(section, label), f"{section}{SEP}{row_text}"
        gloss = tx.gloss(label, caption)
        match = " ".join(x for x in (row_text, gloss, caption[:160]) if x)
        out.append(Candidate(row_text, match, index, page, "row", header, r, label=label, gloss=gloss))
    return out


def _values_only(cells: list[str]) -> bool:
    """A row of values without a naming cell (numbers, blanks, marks)."""
    filled = [x for x in cells if x.strip()]
    return bool(filled) and not tx.row_label(cells) and tx.to_float(filled[0]) is not None


def _table_rows(c: Candidate, hits: Sequence[SearchHit]) -> list[Candidate]:
    """The labelled rows of ``c``'s table (notes and unlabelled unit rows left out)."""
    rows = [x for x in candidates(hits[c.source], c.source) if x.kind == "row" and x.header == c.header]
    return [r for r in rows if r.label and len(r.label) <= MAX_LABEL_CHARS]


def extreme_row(c: Candidate, col: int, question: str, hits: Sequence[SearchHit], smallest: bool) -> Candidate | None:
    """The row of the same table with the smallest/largest numeric value in column ``col``, among
    rows whose label shares a word with the question when some do; total rows are left out unless
    the question asks for a total."""
    rows = _table_rows(c, hits)
    q = set(tx.content_terms(question))
    if not ({"total", "sum", "overal"} & q):
        rows = [r for r in rows if not _TOTAL_ROW.match(r.label.split(SEP)[-1])]
    labelled = [r for r in rows if set(tx.content_terms(r.label)) & q]
    pool = labelled or rows
    scored = [(v, r) for r in pool if col < len(r.cells) and (v := tx.to_float(r.cells[col])) is not None]
    if not scored:
        return None
    pick = min if smallest else max
    return pick(scored, key=lambda vr: vr[0])[1]


def marked_rows(c: Candidate, col: int, hits: Sequence[SearchHit]) -> list[str] | None:
    """Labels of the rows ticked in column ``col`` when that column holds tick marks ("X", "✓"),
    as in a feature/permission matrix; None for a column of values."""
    rows = _table_rows(c, hits)
    values = [r.cells[col] for r in rows if col < len(r.cells) and r.cells[col].strip()]
    if not values or sum(tx.is_mark(v) for v in values) < 0.8 * len(values):
        return None
    return [r.label for r in rows if col < len(r.cells) and tx.is_mark(r.cells[col])]
