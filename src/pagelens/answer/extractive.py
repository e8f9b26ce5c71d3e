"""Answers without a language model: pick the sentences, table cells and field values that answer.

The top sources are split into candidates: sentences of running text, table rows (with their header,
so each cell is named by its column), ``label: value`` form lines, figure caption/label/OCR lines.
Each candidate is scored against the question by

* meaning: cosine similarity of its embedding with the question's (one batch for all candidates),
* words: IDF-weighted coverage of the question's content words (stemmed) and numbers,
* position: the rank of its source,
* answer type: "how many / what percentage / which score..." questions want a number the question
  does not already contain; superlatives ("lowest", "largest") pick the extreme cell of a column;
  "why" questions want a sentence that gives a reason ("because", "due to").

Each retrieved table is also read as a grid (``cells``, ``table_read``): the cell at the row and the
column the question names is quoted alone, and a table that lacks the asked row or year weighs less
and supports nothing. The answer is the best one to three snippets, each the shortest span of its kind
(``span``: a table cell with its row label and column header, the clauses of a sentence that carry the
answer), each followed by its citation ``[N, p.X]``. It is withheld ("The documents do not contain the answer.")
by default (``answer.abstain = "support"``) when its support score (``support.support_score``) is below
``answer.abstain_support``: the evidence score, times the share of the question's dates found on the
answer's page, halved for each missing support — the thing asked for (``focus``: "the *dividend per
share*") in the quoted row's label/column or sentence, a value of the asked type attached to it, the
question's names on the page, its numbers in the span — and nothing is left when a distinguishing name,
designator or count of the question ("Instagram", "Class B", "nine months") is in no source of the
documents the answer quotes (``distinct``). ``"rules"`` withholds it when its evidence
score is below ``answer.abstain_threshold``, a date or two of the question's names are missing from the
answer's own page, the thing asked for is in no source, or the asked value's form (an e-mail address, a
web address, a phone number, a date) is not in the answer's span; ``"calibrated"`` when a logistic
model over the support features (``pagelens.answer.support``, ``pagelens.answer.calibration``) gives
it less than ``answer.abstain_probability`` of being right. ``bench/answer_cv.py`` compares them by
cross-validation over whole PDFs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from pagelens.answer import text as tx
from pagelens.answer import lexical as lx
from pagelens.answer.by_parts import answer_by_parts
from pagelens.answer.calibration import DEFAULT, Calibration
from pagelens.answer.candidates import LABEL_VALUE, MAX_LABEL_CHARS, Candidate, candidates, extreme_row, marked_rows
from pagelens.answer.citations import format_citation
from pagelens.answer import distinct as ds
from pagelens.answer.focus import VALUE_KINDS, anchor_names, best_attachment, focus_idf, focus_of
from pagelens.answer import kinds, span
from pagelens.answer import support as sp
from pagelens.answer.prompts import ABSTAIN_TEXT
from pagelens.answer.table_read import cell_attachment, read_tables
from pagelens.embed.protocol import TextEmbedder
from pagelens.models import SearchHit
from pagelens.settings import AnswerSettings

# Weights of the evidence score (they sum to 1, so the score stays in 0..1).
W_SEMANTIC = 0.45
W_LEXICAL = 0.40
W_RANK = 0.15
# Multipliers for answer-type cues.
NUMERIC_MISSING_PENALTY = 0.75  # a numeric question, a candidate with no new number
FOCUS_STATED_WEIGHT = 0.1  # lexical weight of the asked thing's words (``Focus.terms``) the candidate states itself
NUMBER_MATCH_BONUS = 0.10  # per question number found in the candidate (table rows: "6 layers, 768")
SOURCES_USED = 6  # top sources split into candidates
EMBED_CANDIDATES = 10  # candidates (by words + rank) that get embedded
EMBED_WORDIEST = 2  # ... and the candidates richest in the question's words among the rest (a lower-ranked source)
EMBED_WORDS = 24  # words of a candidate that are embedded (short inputs keep the batch fast)
ROW_LABEL_BONUS = 0.12  # a table row whose label the question names ("10 g", "Texas", "BERT-Large")
FIELD_LABEL_BONUS = 0.15  # a "label: value" line whose label the question asks for ("authors", "city")
FIGURE_TEXT_BONUS = 0.12  # a figure's label/OCR text when the question is about a figure
FIGURE_REF_BONUS = 0.12  # ... and more when the question names that figure ("Fig. 4", "Figure 7-26")
FORM_BONUS = 0.10  # an e-mail/web address/phone question, a candidate holding one
NO_FORM_PENALTY = 0.8
DATE_BONUS = 0.10  # a "what date / when" question, a candidate holding a calendar date
NO_DATE_PENALTY = 0.8
SPEECH_BONUS = 0.10  # a "what does X say / call out" question, a candidate with quoted speech
REASON_BONUS = 0.10  # a "why" question, a candidate that gives a reason ("because", "due to")
EMPTY_CELL_PENALTY = 0.8
NO_PERSON_PENALTY = 0.6  # a "who" question, a candidate without a person-like name
LONG_LABEL_PENALTY = 0.8
TABLE_ROW_BONUS = 0.10  # a row with the asked column, when the question is about a table or an extreme
MODIFIER_MISSING_PENALTY = 0.6  # a field whose label lacks the focus's modifier
NO_KIND_PENALTY = 0.8  # a money / address / place / role question, a candidate without one (``kinds``)
OTHER_INSTANCE_PENALTY = 0.7  # a candidate that names only other quarters / designators than the question
UNASKED_METADATA_PENALTY = 0.8  # a file property ("Title: ...") the question does not name  # a table "row" whose label is a paragraph (notes under a table)
MAX_SNIPPETS = 3
SECOND_SNIPPET_RATIO = 0.75  # further snippets need this share of the best score
MAX_ANSWER_CHARS = 600  # snippets are added while the answer stays within this length
MAX_SNIPPET_CHARS = 320  # a longer snippet is cut to its stretch richest in question words
WEAK_COLUMN = 0.3  # below this share of its words named by the question, a column is shown with its row
FIGURE_TEXT_CHARS = 240  # figure label/OCR text quoted around the question's words

_NUMERIC_Q = re.compile(
    r"\b(how (many|much|large|big|long|fast|slow|high|low|old)|what (percentage|percent|share|fraction|proportion|"
    r"score|accuracy|value|number|size|rate|amount|total|count|f1|perplexity|price|cost|year)|"
    r"which (score|value|perplexity|accuracy|number)|by what (percentage|factor)|how much)\b",
    re.I,
)
_DATE_Q = re.compile(sp.ASKS_DATE + r"|^\s*when\b|\bdated\b", re.I)
_MIN_Q = re.compile(r"\b(lowest|smallest|least|fewest|minimum|min|shortest|fastest|cheapest)\b", re.I)
_MAX_Q = re.compile(r"\b(highest|largest|most|greatest|maximum|max|biggest|longest|best|top)\b", re.I)
_PERSON = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z]\.)*\s+[A-Z][a-z]+")  # "Matthias Vogelgesang", "Diederik P. Kingma"
_FIGURE_Q = re.compile(
    r"\b(fig(ure)?s?|chart|diagram|plot|graph|map|legend|axis|axes|illustrat\w*|panel|pictured|image|photo\w*|"
    r"screenshot|curves?|bars?|drawing|sketch)\b",
    re.I,
)
_YEAR = re.compile(r"(?<![\w.])(?:1[5-9]|20)\d\d(?![\w.])")
_FIGURE_REF = re.compile(r"\bfig(?:ure)?\.?\s*(\d+(?:[-.]\d+)*)", re.I)
_SPEECH_Q = re.compile(
    r"\b(says?|said|call(s|ed)? out|shout\w*|cr(y|ies|ied)( out)?|exclaim\w*|repl(y|ies|ied)|yell\w*|whisper\w*)\b", re.I
)
_QUOTE = re.compile(r"[\"“”«»]|\*\*|''")
_TABLE_Q = re.compile(r"\b(table|row|column|tabulated)s?\b", re.I)
# Bump when the extractive answers change, so cached answers from older code are not served.
EXTRACTIVE_VERSION = 31


@dataclass
class Evidence:
    text: str  # the answer with its citations
    score: float  # evidence score of the best snippet
    features: tuple[float, ...]  # see pagelens.answer.support.FEATURES
    flags: tuple[str, ...] = ()  # the rules that withhold it (see ``rule_flags``)
    blank: bool = False  # the field the question names is left blank on the form: nothing to answer

    @property
    def mismatch(self) -> bool:
        return bool(self.flags)


class ExtractiveAnswerer:
    """The offline default: answers are quoted from the sources, never generated."""

    def __init__(self, settings: AnswerSettings, embedder: TextEmbedder, calibration: Calibration = DEFAULT) -> None:
        self.settings = settings
        self.embedder = embedder
        self.calibration = calibration

    def answer(self, question: str, hits: Sequence[SearchHit]) -> tuple[str, bool, float]:
        """(answer text with citations, abstained, evidence score of the best snippet)."""
        if self.settings.by_parts:
            by_parts = answer_by_parts(self, question, hits)
            if by_parts is not None:
                return by_parts[0], False, by_parts[1]
        ev = self.evidence(question, hits)
        if ev is None:
            return ABSTAIN_TEXT, True, 0.0
        abstain = ev.blank or self.abstains(ev)
        return (ABSTAIN_TEXT, True, ev.score) if abstain else (ev.text, False, ev.score)

    def abstains(self, ev: Evidence) -> bool:
        if ev.blank:
            return True
        if self.settings.abstain == "calibrated":
            return self.calibration.probability(ev.features) < self.settings.abstain_probability
        if self.settings.abstain == "support":
            return sp.support_score(ev.features) < self.settings.abstain_support
        return ev.score < self.settings.abstain_threshold or ev.mismatch

    def evidence(self, question: str, hits: Sequence[SearchHit]) -> Evidence | None:
        """The best answer the sources give, with the features the abstention is decided on; None
        when the sources hold no candidate at all."""
        top = list(hits[:SOURCES_USED])
        cands = [c for i, h in enumerate(top) for c in candidates(h, i)]
        if not cands:
            return None
        q_terms = tx.content_terms(question)
        focus = focus_of(question)
        idf = lx.idf(q_terms, cands)
        cues = _Cues.of(question, q_terms)
        cues.titles = _titles(cands)
        naming = sp.naming_terms(top)  # "Acme's", "10-K": which document, never which span
        if focus.kind in VALUE_KINDS:  # "the OMB number of the <title>": the title says which document
            naming |= _title_terms(cands)
        span_terms = [t for t in q_terms if t not in naming] or q_terms
        asked_terms = [t for t in focus.terms if t in span_terms]  # the asked thing's words ("reporting agencies")
        for c in cands:
            if _unasked_property(c, q_terms):
                c.match_text = c.text  # the document's name it was scored with says which file, not what it holds
            c.lexical = lx.coverage(span_terms, idf, c.match_text)
            c.bonus, c.factor = cues.adjust(c)
            c.score = (W_LEXICAL * c.lexical + W_RANK * _rank_prior(c.source) + c.bonus) * c.factor
            # Ranked by the words it states itself and the asked thing's among them; the score abstention weighs is not.
            c.shift = W_LEXICAL * (lx.stated_coverage(span_terms, idf, c) - c.lexical
                                   + FOCUS_STATED_WEIGHT * lx.coverage(asked_terms, idf, c.text)) * c.factor
        asked = tx.ask_part(question) or question
        read_tables(question, q_terms, focus, cands, bool(_MIN_Q.search(asked) or _MAX_Q.search(asked)))
        # Only the candidates that look promising without meaning get embedded (one batch).
        pool = sorted(cands, key=lambda c: -(c.score + c.shift))[:EMBED_CANDIDATES]
        pool += sorted((c for c in cands if c not in pool), key=lambda c: -c.lexical - c.shift / W_LEXICAL)[:EMBED_WORDIEST]
        sims = self._similarities(question, [" ".join(c.match_text.split()[:EMBED_WORDS]) for c in pool])
        for c, sim in zip(pool, sims):
            c.semantic = max(0.0, sim)
            c.score = min(1.0, c.score + W_SEMANTIC * c.semantic * c.factor)
        pool.sort(key=lambda c: (-min(1.0, c.score + c.shift), -c.semantic))  # a tie at the cap (1.0) goes to the closer meaning
        # A field of the top source's form whose label the question names is the asked thing: it is
        # quoted first ("Report number: IR-2024-0931", not the form's title that holds more of the
        # question's words). Blank, it says the form leaves the asked thing blank: nothing to answer.
        # A blank field ("Known allergies: (empty)") is never quoted.
        named = _named_field(cands, _label_terms(question), top[0].chunk.doc_name, pool)
        if named is not None and _blank_field(named):
            return Evidence(named.text, named.score, (), ("blank field",), blank=True)
        if named is not None:
            pool = [named] + [c for c in pool if c is not named]
        pool = [c for c in pool if not _blank_field(c)]
        if not pool:
            return None
        best = pool[0]
        chosen = [best]
        for c in pool[1:]:
            if len(chosen) >= MAX_SNIPPETS or c.score < SECOND_SNIPPET_RATIO * best.score:  # the evidence, not the rank
                continue
            if best.column is not None and c.source == best.source and c.header == best.header:
                continue  # the table's named cell answers: its neighbours are not the answer
            if not any(_overlaps(c, o) for o in chosen):
                chosen.append(c)
        parts: list[str] = []
        for c in chosen:
            part = f"{self._render(c, question, q_terms, top)} {format_citation(c.source + 1, c.page)}"
            if part in parts or (parts and sum(len(p) + 1 for p in parts) + len(part) > MAX_ANSWER_CHARS):
                continue
            parts.append(part)
        rival = max((c.score for c in pool[1:] if c.source != best.source), default=0.0)  # (ranked apart from score)
        features, flags = _support(question, q_terms, idf, top, best, best.score - rival)
        quoted = [(c, _asked_column(c, question, q_terms) if c.kind == "row" and c.header else None) for c in chosen]
        docs = [h.chunk.doc_name for h in top]
        anchors, parties = anchor_names(question, docs), anchor_names(question, docs, kinds.parties(question))
        # A row of a table that lacks the asked row or year states nothing about the asked thing.
        attached = [(c, col) for c, col in quoted if not c.absent]
        features += cell_attachment(focus, question, chosen, best_attachment(
            focus, question, attached, focus_idf(focus, [c.match_text for c in cands]), anchors, parties))
        units = ds.units(question, docs, focus, ds.focus_weights(focus, [c.match_text for c in cands]))
        # A distinguishing name is stated for the answer only by the documents the answer quotes: a
        # page of another document that happens to hold it ("Hispanic" in a data set's notes) says
        # nothing about the quoted table.
        own = {top[c.source].chunk.doc_name for c in chosen}
        # What the question says to name a quoted document its identity states, for all its pages ("Acme",
        # "the second quarter" of a filing-0003.pdf whose cover reports them: ``SearchHit.doc_terms``).
        stated = ds.Sources.of([t for h in top if h.chunk.doc_name in own for c in h.all_chunks()
                                for t in (c.text, *c.section)] + [" ".join(h.doc_terms) for h in top if h.chunk.doc_name in own])
        features += ds.distinct(units, stated)
        features += (ds.in_span(units, ds.Sources.of([t for c in chosen for t in _quoted_context(c, top)])),)
        if named is not None and best is named and _names_field(named, _label_terms(question))[0]:
            # The question names the field's whole label: the asked thing is in the span, its value attached.
            features = tuple(1.0 if name in ("focus_span", "type_near") else v for name, v in zip(sp.FEATURES, features))
        return Evidence(" ".join(parts), best.score, features, flags)

    def _similarities(self, question: str, texts: list[str]) -> list[float]:
        vecs = np.asarray(self.embedder.embed([question, *texts]), dtype=np.float32)
        return [float(x) for x in vecs[1:] @ vecs[0]]

    def _render(self, c: Candidate, question: str, q_terms: list[str], hits: Sequence[SearchHit]) -> str:
        terms = set(q_terms)
        if c.kind == "figtext":
            caption = span.window(c.label, terms, 90) if c.label else "Figure"
            return f"{caption} — {span.window(c.text, terms, FIGURE_TEXT_CHARS)}"
        if c.kind == "sentence":
            focus = focus_of(question)
            shown = span.window(span.clause_span(c.text, terms, question, [t for t in focus.terms if t in terms]),
                              terms, MAX_SNIPPET_CHARS)
            after = span.continuation(shown, c.after, question, focus.kind or sp.answer_type(question), focus.terms)
            return f"{shown} {span.window(after, terms, span.CONTINUATION_CHARS)}" if after else shown
        if c.kind != "row" or not c.header:
            return span.window(c.text, terms, MAX_SNIPPET_CHARS)
        col = _asked_column(c, question, q_terms)
        row = c
        asked = tx.ask_part(question) or question  # "the table of the largest cities" does not ask for one
        if col is not None and c.column is None and (_MIN_Q.search(asked) or _MAX_Q.search(asked)):
            row = extreme_row(c, col, question, hits, bool(_MIN_Q.search(asked))) or c
        elif col is not None and (marked := marked_rows(c, col, hits)) is not None:
            return span.window(f"{c.header[col]} is marked for: {'; '.join(marked)}", terms, MAX_SNIPPET_CHARS)
        if col is not None and col < len(row.cells) and row.cells[col].strip() not in ("", "-", "–", "—"):
            cell = span.cell_span(row.header, row.cells, row.label, col, question)
            if row.column is not None or tx.column_match(row.header[col], q_terms) >= WEAK_COLUMN:
                return cell
            # The question names few of the column's words: the row goes with the cell, in case
            # another column was meant.
            return f"{cell} (row: {span.window(tx.row_text(row.header, row.cells), terms, MAX_SNIPPET_CHARS)})"
        return f"Row: {span.window(tx.row_text(row.header, row.cells), terms, MAX_SNIPPET_CHARS)}"


@dataclass
class _Cues:
    """Answer-type cues: additive bonuses and multiplicative penalties for one candidate."""

    q_terms: list[str]
    q_numbers: set[str]
    numeric: bool
    person: bool
    date: bool = False
    speech: bool = False
    figure: bool = False
    figure_refs: set[str] = field(default_factory=set)
    table: bool = False  # the question names a table, row or column, or asks for an extreme value
    ask_terms: list[str] = field(default_factory=list)  # content words from the last wh-word on
    modifier: list[str] = field(default_factory=list)  # first word of a two-word focus ("e-mail" address)
    form: str = ""  # an answer type with a form of its own: email, url, phone
    kind: str = ""  # a thing's type of ``kinds``: money, address, place, role
    question: str = ""
    reason: bool = False  # a "why" question (``span.WHY_Q``)
    titles: tuple[str, ...] = ()  # the sources' titles by their file properties, normalized (``_titles``)

    @classmethod
    def of(cls, question: str, q_terms: list[str]) -> _Cues:
        date = bool(_DATE_Q.search(question))
        table = bool(_TABLE_Q.search(question) or _MIN_Q.search(question) or _MAX_Q.search(question))
        words = tx.focus_words(question)
        cues = cls(q_terms, tx.numbers(question), bool(_NUMERIC_Q.search(question)) and not date,
                   sp.answer_type(question) == "person", date, bool(_SPEECH_Q.search(question)),
                   bool(_FIGURE_Q.search(question)), {m.group(1) for m in _FIGURE_REF.finditer(question)},
                   table, tx.ask_terms(question), words[0] if len(words) >= 2 else [],
                   kind if (kind := sp.answer_type(question)) in ("email", "url", "phone") else "",
                   kind if kind in ("money", "address", "place", "role") else "")
        cues.question = question
        cues.reason = bool(span.WHY_Q.search(question))
        return cues

    def adjust(self, c: Candidate) -> tuple[float, float]:
        bonus, factor = 0.0, 1.0
        found = tx.numbers(c.match_text)
        if self.q_numbers:
            bonus += NUMBER_MATCH_BONUS * len(self.q_numbers & found) / len(self.q_numbers)
        if c.kind == "field" and (m := LABEL_VALUE.match(c.text)):
            bonus += FIELD_LABEL_BONUS * tx.label_score(m.group(1), lx.with_synonyms(self.q_terms))
            if self.modifier and not tx.label_score(" ".join(self.modifier), tx.content_terms(m.group(1))):
                factor *= MODIFIER_MISSING_PENALTY  # "Address 2" for the "e-mail address"
            elif c.source_kind == "metadata" and not tx.label_score(m.group(1), self.q_terms):
                factor *= UNASKED_METADATA_PENALTY  # a file's title answers questions about titles
        if c.kind == "row" and c.cells:
            if len(c.label) > MAX_LABEL_CHARS:
                factor *= LONG_LABEL_PENALTY
            elif c.label:
                bonus += ROW_LABEL_BONUS * tx.label_score(c.label, self.q_terms)
            col = tx.best_column(c.header, self.q_terms, self.ask_terms)
            if col is not None and (col >= len(c.cells) or c.cells[col].strip() in ("", "-", "–", "—")):
                factor *= EMPTY_CELL_PENALTY  # the asked column is blank in this row
            elif col is not None and self.table:
                bonus += TABLE_ROW_BONUS
        if c.kind in ("figtext", "figure") and self.figure:
            bonus += FIGURE_TEXT_BONUS if c.kind == "figtext" else 0.0
            if self.figure_refs & set(_FIGURE_REF.findall(c.label or c.text)):
                bonus += FIGURE_REF_BONUS
        if self.person and not _names_person(c.text, self.q_terms):
            factor *= NO_PERSON_PENALTY
        if (self.titles and not self.person and c.kind == "sentence" and "titl" not in self.q_terms
                and _opens_with_title(c.text, self.titles)):
            # The document's title printed on its cover says which document, not what it holds (for a "who"
            # question the byline beside it stays: its name is told apart by ``_names_person``).
            factor *= UNASKED_METADATA_PENALTY
        if self.date:
            if tx.has_date(c.text):
                bonus += DATE_BONUS
            else:
                factor *= NO_DATE_PENALTY
        if self.speech and _QUOTE.search(c.text):
            bonus += SPEECH_BONUS
        if self.reason and span.REASON.search(c.text):
            bonus += REASON_BONUS
        if self.form:
            if sp.has_type(self.form, c.text, ""):
                bonus += FORM_BONUS
            else:
                factor *= NO_FORM_PENALTY
        if self.numeric and not (found - self.q_numbers) and not tx.WORDED_NUMBER.search(c.text):
            factor *= NUMERIC_MISSING_PENALTY  # ("thirteen dollars a month" holds one)
        if self.kind and not sp.has_type(self.kind, _typed_part(c, self.kind), self.question) and not (
                self.kind == "money" and c.kind == "row" and kinds.money_cell(c.text, f"{c.label} {' '.join(c.header)}")):
            factor *= NO_KIND_PENALTY  # (a statement prints "$" on its first row only: "Cost of sales" names money)
        if kinds.period_conflict(self.question, c.text) or kinds.designator_conflict(
                self.question, c.text, f"{c.text} {c.match_text} {c.label}", c.doc):
            factor *= OTHER_INSTANCE_PENALTY
        return bonus, factor


BLANK_VALUE = "(empty)"  # how a blank form field's line reads (``index.chunking.BLANK``)
MAX_BLANK_LABEL_TERMS = 6  # a longer label is no short name of one thing


def _blank_field(c: Candidate) -> bool:
    return c.kind == "field" and (m := LABEL_VALUE.match(c.text)) is not None and m.group(2).strip() == BLANK_VALUE


_LABEL_CONTENT = frozenset("""according given reported reports report listed list shown show shows named name called
    value values number numbers amount kind type use used uses using get gets obtain obtained achieve achieves reach
    reaches give gives appear appears mention mentioned state stated document documents paper pdf page""".split())
"""Words the answer's stop list drops that a form's label names a field by ("Report *number*", "Applicant *name*")."""


def _label_terms(text: str) -> list[str]:
    """Stemmed words of a field label (or a question, to match labels against): function words dropped only."""
    out = []
    for w in tx.words(text):
        lw = w.lower().strip("'’-")
        if lw and (lw not in tx.STOPWORDS or lw in _LABEL_CONTENT):
            out.append(lw if lw[0].isdigit() else tx.stem(lw))
    return list(dict.fromkeys(out))


_LABEL_PREPOSITION = re.compile(r"\s(?:of|for|on|in|at|to|by|from|with)\s", re.I)


def _names_field(c: Candidate, q_terms: list[str]) -> tuple[bool, int]:  # q_terms: ``_label_terms``
    """Whether the question names the field's label, and with how many of its words: a short label,
    all its content words, or all but one modifier ("*Known* allergies" for "what allergies", never the
    head: "*Date* of incident" is not named by "who was injured in the incident"). (False, 0) if not."""
    m = LABEL_VALUE.match(c.text)
    label = m.group(1) if m else ""
    terms = _label_terms(label)
    if not terms or len(terms) > MAX_BLANK_LABEL_TERMS:
        return False, 0
    asked = set(q_terms)
    missing = [t for t in terms if t not in asked]
    if not missing:
        return True, len(terms)
    head_part = _label_terms(_LABEL_PREPOSITION.split(f" {label} ", maxsplit=1)[0])
    head = head_part[-1] if head_part else terms[-1]
    if len(terms) >= 2 and len(missing) == 1 and missing[0] != head:
        return False, len(terms) - 1
    return False, 0


def _named_field(cands: Sequence[Candidate], q_terms: list[str], doc: str, pool: list[Candidate]) -> Candidate | None:
    """The form field of document ``doc`` whose label the question names: a whole label before one that
    misses a modifier, then the one named with more words, then the better ranked."""
    rank = {id(c): i for i, c in enumerate(pool)}
    named = [(whole, n, c) for c in cands if c.kind == "field" and c.source_kind == "form" and c.doc == doc
             for whole, n in [_names_field(c, q_terms)] if n]
    if not named:
        return None
    return max(named, key=lambda x: (x[0], x[1], -rank.get(id(x[2]), len(rank))))[2]


def _title_terms(cands: Sequence[Candidate]) -> set[str]:
    """Content terms of the titles the sources' file properties give ("Title: Application for Federal
    Assistance SF-424"). A question for a value of a titled document ("What is the OMB number of the SF-424
    application for federal assistance?") names the document by them; the value is labelled by the words of
    the asked thing, and a title line that repeats the rest of the question answers nothing. (A question
    for a person or a thing keeps them: the byline stands beside the title it is asked by.)"""
    return {t for c in cands if c.kind == "field" and c.source_kind == "metadata"
            and (m := LABEL_VALUE.match(c.text)) and m.group(1).strip().lower() == "title"
            for t in tx.content_terms(m.group(2))}


def _titles(cands: Sequence[Candidate]) -> tuple[str, ...]:
    """The titles the sources' file properties give, lower case, spaces collapsed."""
    return tuple(dict.fromkeys(" ".join(m.group(2).lower().split()) for c in cands
                               if c.kind == "field" and c.source_kind == "metadata"
                               and (m := LABEL_VALUE.match(c.text)) and m.group(1).strip().lower() == "title"
                               and len(m.group(2).split()) >= 2))


def _opens_with_title(text: str, titles: Sequence[str]) -> bool:
    """Whether ``text`` opens with one of ``titles`` (a title slide's or cover's first line)."""
    flat = " ".join(text.lower().split())
    return any(flat.startswith(t) for t in titles)


def _names_person(text: str, q_terms: Sequence[str]) -> bool:
    """Whether ``text`` holds a person-like name ("Matthias Vogelgesang") that is not made of the question's
    own words: "Predicting Bus Bunching" in a talk's title is the talk the question names, not who gave it."""
    asked = set(q_terms)
    return any(not set(tx.content_terms(m.group(0))) <= asked for m in _PERSON.finditer(text))


def _unasked_property(c: Candidate, q_terms: list[str]) -> bool:
    """A file property ("Producer: pdfTeX", "Modified: 2020-03-03") whose label the question does not name. Its
    candidate is scored with the document's name (``candidates``), which lets a question that names the document
    to pick it ("on the *electricity bill*, how much ...") quote the file's producer instead of the bill."""
    m = LABEL_VALUE.match(c.text) if c.kind == "field" and c.source_kind == "metadata" else None
    return m is not None and not tx.label_score(m.group(1), q_terms)


def _typed_part(c: Candidate, kind: str) -> str:
    """The part of ``c`` that holds its value: a field's value, a row's label for a thing (a place, a
    role) and its cells for an amount, a sentence itself."""
    if c.kind == "field" and (m := LABEL_VALUE.match(c.text)):
        return m.group(2)
    if c.kind == "row" and c.cells:
        return c.label or c.cells[0] if kind in ("place", "role") else c.text
    return c.text


# -- scoring ---------------------------------------------------------------------------------------
def _rank_prior(rank: int) -> float:
    return 1.0 / math.sqrt(1 + rank)


def _support(
    question: str, q_terms: list[str], idf: dict[str, float], hits: Sequence[SearchHit], best: Candidate, margin: float,
) -> tuple[tuple[float, ...], tuple[str, ...]]:
    """The support features (``pagelens.answer.support.FEATURES``) of an answer, and the rules that
    withhold it. Names, dates and the question's words are looked for in the best snippet's own
    neighbourhood (its page's chunks, their section headings and the document's name): an answer
    from a page that never mentions "October" does not answer a question about October. A bare year is
    also found on the other retrieved pages of the answer's document (``support.dates_found``)."""
    near = sp.neighbourhood(hits[best.source])
    doc = hits[best.source].chunk.doc_name
    if best.kind == "field" and best.source_kind == "form":
        # A form's pages are one filing: the member named by page 1's fields is the one page 2's fields are for.
        near |= {t for h in hits if h.chunk.doc_name == doc for c in h.all_chunks() if c.kind == "form"
                 for t in tx.content_terms(c.text)}
    found, missing, dates = sp.names_found(question, near)
    years = {m.group(0) for h in hits if h.chunk.doc_name == doc for c in h.all_chunks()
             for m in _YEAR.finditer(" ".join([c.text, *c.section]))}
    kind = sp.answer_type(question)
    span = " ".join([best.match_text, best.label])
    features = (
        best.score, best.lexical, sp.coverage(q_terms, idf, near), float(sp.has_type(kind, span, question)),
        found, max(0.0, margin), sp.agreement(hits[best.source]), best.semantic,
        sp.focus_found(question, near), sp.dates_found(question, near, years),
    )
    every = {t for h in hits for c in h.all_chunks() for t in tx.content_terms(c.text)}
    flags = tuple(name for name, on in (
        ("date", dates), ("names", missing >= 2), ("focus", tx.missing_focus(question, every)),
        ("type", sp.format_mismatch(kind, span, question)),
    ) if on)
    return features, flags


def _quoted_context(c: Candidate, hits: Sequence[SearchHit]) -> list[str]:
    """What a quoted snippet states about itself: its scored text (a row carries its header and caption),
    its row label, and the section headings of the chunk it comes from."""
    head = " ".join(c.text.split())[:40]
    chunk = next((ch for ch in hits[c.source].all_chunks() if c.page in ch.pages and head in " ".join(ch.text.split())),
                 None)
    return [c.match_text, c.label, *(chunk.section if chunk is not None else ())]


def _asked_column(c: Candidate, question: str, q_terms: list[str]) -> int | None:
    """The column the question asks for in row ``c``: the one the table read picked (``cells``), else
    the best named; a column whose value the question itself states ("when 80% are masked") is a
    condition, not the answer, so the next best one is taken."""
    if c.column is not None:
        return c.column
    header = list(c.header)
    given = tx.numbers(question)
    for _ in range(3):
        col = tx.best_column(header, q_terms, tx.ask_terms(question))
        if col is None or col >= len(c.cells):
            return col
        found = tx.numbers(c.cells[col])
        if not (found and found <= given):
            return col
        header[col] = ""
    return None


def _overlaps(a: Candidate, b: Candidate) -> bool:
    if a.source == b.source and (a.text in b.text or b.text in a.text):
        return True
    ta, tb = set(tx.content_terms(a.text)), set(tx.content_terms(b.text))
    return bool(ta) and len(ta & tb) / len(ta) > 0.8


