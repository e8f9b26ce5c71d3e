"""Answer-type cues: what the question's form asks for, as bonuses and penalties on each candidate.

``Cues.of`` reads the question once: the numbers it gives, whether it asks for a number ("how many", "what
percentage", a thing whose head noun names a quantity: "what *F value* does the term get", ``focus.focus_of``),
a date ("when"), a person ("who"), quoted speech ("what does X say"), a reason ("why"), a
figure ("Fig. 4"), a table's row or column or an extreme ("lowest", ``MIN_Q`` / ``MAX_Q``), a value with a
form of its own (an e-mail address, a web address, a phone number) or a thing's type of ``kinds`` (money,
an address, a place, a role). ``Cues.adjust`` gives one candidate its additive bonus (the question's numbers
in it, a field or row label the question names, the asked figure) and its multiplicative factor (no new
number for a numeric question, no date for a "when", a blank asked cell, only other quarters,
designators, contrasting words or names of the asked kind than the question's), which ``extractive`` scores
it with. How a page answers a question about itself is read too: a byline for "who wrote", the name under
a letter's close for "who signed" (both of the top source's document only: "who wrote *the paper on* ..." is
about one document, another's signature is not its author), a name made with the asked noun for "in which
*journal*", the asked statistic stated with a number ("averaged 23 per cent"), the asked extreme said in a
sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pagelens.answer import kinds, span
from pagelens.answer import lexical as lx
from pagelens.answer import support as sp
from pagelens.answer import text as tx
from pagelens.answer.cells import EMPTY
from pagelens.answer.candidates import LABEL_VALUE, MAX_LABEL_CHARS, Candidate
from pagelens.answer.focus import Focus, focus_of

# Multipliers for answer-type cues.
NUMERIC_MISSING_PENALTY = 0.75  # a numeric question, a candidate with no new number
NUMBER_MATCH_BONUS = 0.10  # per question number found in the candidate (table rows: "6 layers, 768")
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
AUTHOR_LINE_BONUS = 0.25  # an author question, a short line of names on a first page (a byline)
SIGNATURE_BONUS = 0.5  # ... a letter's close with the name signed under it ("Yours faithfully, M. Ellison")
INSTANCE_BONUS = 0.2  # "in which *journal*", a candidate naming one ("Journal of Freshwater Ecology")
STATISTIC_BONUS = 0.2  # "what was the *average* X", a candidate that states an average with a number
SUPERLATIVE_BONUS = 0.08  # "where was X *highest*", a sentence that says what was highest
OTHER_INSTANCE_PENALTY = 0.7  # a candidate that names only other quarters / designators than the question
UNASKED_METADATA_PENALTY = 0.8  # a file property ("Title: ...") the question does not name  # a table "row" whose label is a paragraph (notes under a table)

_NUMERIC_Q = re.compile(
    r"\b(how (many|much|large|big|long|fast|slow|high|low|old)|what (percentage|percent|share|fraction|proportion|"
    r"score|accuracy|value|number|size|rate|amount|total|count|f1|perplexity|price|cost|year)|"
    r"which (score|value|perplexity|accuracy|number)|by what (percentage|factor)|how much|" + sp.STATISTIC_Q + r")\b",
    re.I,
)
_DATE_Q = re.compile(sp.ASKS_DATE + r"|^\s*when\b|\bdated\b", re.I)
MIN_Q = re.compile(r"\b(lowest|smallest|least|fewest|minimum|min|shortest|fastest|cheapest)\b", re.I)
MAX_Q = re.compile(r"\b(highest|largest|most|greatest|maximum|max|biggest|longest|best|top)\b", re.I)
_PERSON = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z]\.)*\s+[A-Z][a-z]+|" + r"(?<![\w.])(?!U\.\s?[SKN]\.)(?:[A-Z]\.\s?){1,3}[A-Z][a-z]{2,}")
"""A person-like name: "Matthias Vogelgesang", "Diederik P. Kingma", or initials before a surname ("A. Lindqvist",
"J.R. Smith"; not "U.S. Army")."""
_FIGURE_Q = re.compile(
    r"\b(fig(ure)?s?|chart|diagram|plot|graph|map|legend|axis|axes|illustrat\w*|panel|pictured|image|photo\w*|"
    r"screenshot|curves?|bars?|drawing|sketch)\b",
    re.I,
)
_FIGURE_REF = re.compile(r"\bfig(?:ure)?\.?\s*(\d+(?:[-.]\d+)*)", re.I)
_SPEECH_Q = re.compile(
    r"\b(says?|said|call(s|ed)? out|shout\w*|cr(y|ies|ied)( out)?|exclaim\w*|repl(y|ies|ied)|yell\w*|whisper\w*)\b", re.I
)
_QUOTE = re.compile(r"[\"“”«»]|\*\*|''")
_AUTHOR_Q = re.compile(r"\bwho\s+(wrote|authored|writes|co-?authored|signed|sent)\b|\bauthors?\b|\bwritten\s+by\b|"
                       r"\bsigned\s+by\b|\bsignator(y|ies)\b|\bsender\b", re.I)
_VALEDICTION = re.compile(r"\b(yours\s+(faithfully|sincerely|truly)|sincerely(\s+yours)?|(kind|best|warm)\s+regards|"
                          r"respectfully(\s+yours)?)\s*,", re.I)
"""The close of a letter, before its signature: who signed it is named after it."""
_BYLINE_WORDS = 25  # words of a byline with its affiliation ("A. Lindqvist and R. Pemberton Department of Zoology, ...")
_INSTANCE_Q = re.compile(
    r"\b(?:in|at|by|from|on|to|for|of)?\s*(?:which|what)\s+([a-z]{4,})"
    r"(?=\s+(?:is|are|was|were|do|does|did|has|have|had|will|would|can|could|should|in|on|at|for|to|from|by)\b|\s*\?)",
    re.I)
""""In which *journal* was ...", "which *university* did ...", "what *company* is ...": the asked thing in one noun
(a verb or a preposition follows), whose instance is a name that holds it ("Journal of Freshwater Ecology",
"University of Aberdeen", "Acme Company")."""
_BYLINE = re.compile(r"\s*(?:(?i:by)\s+)?(?:(?:[A-Z]\.\s?){1,3}[A-Z][a-z'’-]+|[A-Z][a-z'’-]+(?:\s+[A-Z]\.)*\s+[A-Z][a-z'’-]+)"
                     r"(?:\s*(?:,|\band\b|&|$))")
"""A line that opens with a person's name and goes on to the next name or ends ("A. Lindqvist and R. Pemberton",
"By Jane Doe, ..."): a byline."""
_STATISTIC = re.compile(r"\b(average|mean|median|total)\b", re.I)
_TABLE_Q = re.compile(r"\b(table|row|column|tabulated)s?\b", re.I)


@dataclass
class Cues:
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
    kind: str = ""  # a thing's type of ``kinds``: money, address, place, role; or a quarter ("Q1")
    question: str = ""
    reason: bool = False  # a "why" question (``span.WHY_Q``)
    author: bool = False  # the question asks who wrote the document ("who wrote", "the authors")
    instance: str = ""  # the asked thing's head noun, stemmed, for "which <noun>" ("journal")
    instance_named: frozenset[str] = frozenset()  # ... the candidates' texts that name one (``name_instances``)
    statistic: str = ""  # the asked statistic, stemmed ("averag", "median", "total")
    superlative: tuple[str, ...] = ()  # the question's extreme words, stemmed ("highest")
    titles: tuple[str, ...] = ()  # the sources' titles by their file properties, normalized (``fields.titles``)
    top_doc: str = ""  # the document of the top source: the one a "who wrote the paper on ..." question is about

    @classmethod
    def of(cls, question: str, q_terms: list[str], focus: Focus | None = None) -> Cues:
        """``focus``: the question's ``focus.focus_of``, when the caller has it already."""
        date = bool(_DATE_Q.search(question))
        table = bool(_TABLE_Q.search(question) or MIN_Q.search(question) or MAX_Q.search(question))
        words = tx.focus_words(question)
        numeric = bool(_NUMERIC_Q.search(question)) or (focus or focus_of(question)).kind == "number"
        cues = cls(q_terms, tx.numbers(question), numeric and not date,
                   sp.answer_type(question) == "person", date, bool(_SPEECH_Q.search(question)),
                   bool(_FIGURE_Q.search(question)), {m.group(1) for m in _FIGURE_REF.finditer(question)},
                   table, tx.ask_terms(question), words[0] if len(words) >= 2 else [],
                   kind if (kind := sp.answer_type(question)) in ("email", "url", "phone") else "",
                   kind if kind in ("money", "address", "place", "role", "quarter") else "")
        cues.question = question
        cues.reason = bool(span.WHY_Q.search(question))
        cues.author = bool(_AUTHOR_Q.search(question))
        if (m := _INSTANCE_Q.search(question)) and m.group(1).lower() not in tx.STOPWORDS:
            cues.instance = tx.stem(m.group(1).lower())
        if (m := re.search(sp.STATISTIC_Q, question, re.I)) and (s := _STATISTIC.search(m.group(0))):
            cues.statistic = tx.stem(s.group(1).lower())
        asked = tx.ask_part(question) or question
        cues.superlative = tuple(tx.stem(m.group(0).lower()) for rx in (MIN_Q, MAX_Q) for m in rx.finditer(asked)
                                 if m.group(0).lower() not in ("most", "top", "max", "min", "least"))
        return cues

    def name_instances(self, cands: Sequence[Candidate]) -> None:
        """Note the candidates that name an instance of the asked noun: then the others are no answer to a
        "which <noun>" question (when none does, the sources may call it otherwise: nothing is penalised)."""
        named = (c.text for c in cands if _names_instance(c.text, self.instance)) if self.instance else ()
        self.instance_named = frozenset(named)

    def adjust(self, c: Candidate) -> tuple[float, float]:
        bonus, factor = 0.0, 1.0
        found = tx.numbers(c.match_text)
        if self.q_numbers:
            bonus += NUMBER_MATCH_BONUS * len(self.q_numbers & found) / len(self.q_numbers)
        if c.kind == "field" and (m := LABEL_VALUE.match(c.text)):
            bonus += FIELD_LABEL_BONUS * tx.label_score(m.group(1), lx.with_synonyms(self.q_terms))
            lead = c.match_text[len(c.text):] if c.match_text.startswith(c.text) and c.source_kind not in ("form", "metadata") else ""
            if self.modifier and not tx.label_score(" ".join(self.modifier), tx.content_terms(f"{m.group(1)} {lead}")):
                factor *= MODIFIER_MISSING_PENALTY  # "Address 2" for the "e-mail address" (a group's heading may say it)
            elif c.source_kind == "metadata" and not tx.label_score(m.group(1), self.q_terms):
                factor *= UNASKED_METADATA_PENALTY  # a file's title answers questions about titles
        if c.kind == "row" and c.cells:
            if len(c.label) > MAX_LABEL_CHARS:
                factor *= LONG_LABEL_PENALTY
            elif c.label:
                bonus += ROW_LABEL_BONUS * tx.label_score(c.label, self.q_terms)
            col = tx.best_column(c.header, self.q_terms, self.ask_terms)
            if col is not None and (col >= len(c.cells) or c.cells[col].strip() in EMPTY):
                factor *= EMPTY_CELL_PENALTY  # the asked column is blank in this row
            elif col is not None and self.table:
                bonus += TABLE_ROW_BONUS
        if c.kind in ("figtext", "figure") and self.figure:
            bonus += FIGURE_TEXT_BONUS if c.kind == "figtext" else 0.0
            if self.figure_refs & set(_FIGURE_REF.findall(c.label or c.text)):
                bonus += FIGURE_REF_BONUS
        if self.person and not _names_person(c.text, self.q_terms):
            factor *= NO_PERSON_PENALTY
        elif self.author and c.doc in ("", self.top_doc):  # a byline or a signature of the top source's document
            if c.kind == "sentence" and c.page == 1 and len(c.text.split()) <= _BYLINE_WORDS \
                    and _BYLINE.match(c.text) and _names_person(c.text, self.q_terms) and not re.search(r"\d", c.text):
                bonus += AUTHOR_LINE_BONUS  # a byline: names under the title of a first page
            elif (m := _VALEDICTION.search(c.text)) and _names_person(c.text[m.end():], self.q_terms):
                bonus += SIGNATURE_BONUS  # a letter's signature
        if c.text in self.instance_named:
            bonus += INSTANCE_BONUS
        elif self.instance and self.instance_named:
            factor *= NO_KIND_PENALTY  # another source names one: a span that names none is no instance
        if self.statistic or self.superlative:
            stems = set(tx.content_terms(c.text))
            if self.statistic in stems and found - self.q_numbers:
                bonus += STATISTIC_BONUS
            if c.kind == "sentence" and any(s in stems for s in self.superlative):
                bonus += SUPERLATIVE_BONUS
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
        if self.numeric and not (sp.value_numbers(c.text) - self.q_numbers) and not tx.WORDED_NUMBER.search(c.text):
            factor *= NUMERIC_MISSING_PENALTY  # ("thirteen dollars a month" holds one)
        if self.kind and not sp.has_type(self.kind, _typed_part(c, self.kind), self.question) and not (
                self.kind == "money" and c.kind == "row" and kinds.money_cell(c.text, f"{c.label} {' '.join(c.header)}")):
            factor *= NO_KIND_PENALTY  # (a statement prints "$" on its first row only: "Cost of sales" names money)
        if kinds.period_conflict(self.question, c.text) or kinds.designator_conflict(
                self.question, c.text, f"{c.text} {c.match_text} {c.label}", c.doc) or kinds.contrast_conflict(
                self.question, f"{c.text} {c.match_text} {c.label}") or kinds.named_instance_conflict(self.question, c.text):
            factor *= OTHER_INSTANCE_PENALTY
        return bonus, factor


def _typed_part(c: Candidate, kind: str) -> str:
    """The part of ``c`` that holds its value: a field's value, a row's label for a thing (a place, a
    role) and its cells for an amount, a sentence itself."""
    if c.kind == "field" and (m := LABEL_VALUE.match(c.text)):
        return m.group(2)
    if c.kind == "row" and c.cells:
        return c.label or c.cells[0] if kind in ("place", "role") else c.text
    return c.text


def _names_instance(text: str, noun: str) -> bool:
    """Whether ``text`` holds a capitalised name made with the asked thing's noun ("Journal of Freshwater
    Ecology" for "which journal", "Allt Mor Burn" for "which burn")."""
    for m in _NAME_RUN.finditer(text):
        words = m.group(0).split()
        if len(words) >= 2 and noun in {tx.stem(w.lower()) for w in words}:
            return True
    return False


_NAME_RUN = re.compile(r"[A-Z][\w'’-]*(?:\s+(?:of|and|for|on|de|the)\s+[A-Z][\w'’-]*|\s+[A-Z][\w'’-]*)+")


def _opens_with_title(text: str, titles: Sequence[str]) -> bool:
    """Whether ``text`` opens with one of ``titles`` (a title slide's or cover's first line)."""
    flat = " ".join(text.lower().split())
    return any(flat.startswith(t) for t in titles)


def _names_person(text: str, q_terms: Sequence[str]) -> bool:
    """Whether ``text`` holds a person-like name ("Matthias Vogelgesang") that is not made of the question's
    own words: "Predicting Bus Bunching" in a talk's title is the talk the question names, not who gave it."""
    asked = set(q_terms)
    return any(not set(tx.content_terms(m.group(0))) <= asked for m in _PERSON.finditer(text))
