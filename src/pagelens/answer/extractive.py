"""Answers without a language model: pick the sentences, table cells and field values that answer.

The top sources are split into candidates: sentences of running text, table rows (with their header,
so each cell is named by its column), ``label: value`` form lines, figure caption/label/OCR lines.
Each candidate is scored against the question by

* meaning: cosine similarity of its embedding with the question's (one batch for all candidates),
* words: IDF-weighted coverage of the question's content words (stemmed) and numbers,
* position: the rank of its source; a question that names its document(s) (``retrieve.routing`` marks their
  sources) marks down the candidates of other documents (``OFF_ROUTE_PENALTY``),
* answer type: "how many / what percentage / which score..." questions want a number the question
  does not already contain; superlatives ("lowest", "largest") pick the extreme cell of a column;
  "why" questions want a sentence that gives a reason ("because", "due to") (``cues``).

Each retrieved table is also read as a grid (``cells``, ``table_read``): the cell at the row and the
column the question names is quoted alone, and a table that lacks the asked row or year weighs less
and supports nothing. A field of the top source's form whose label the question names is quoted first,
and a blank one withholds the answer (``fields``). The answer is the best one to three snippets, each the
shortest span of its kind (``render``, ``span``: a table cell with its row label and column header, the
clauses of a sentence that carry the answer), each followed by its citation ``[N, p.X]``; after the first,
none from a document the question does not name (an answer is not assembled from two people's forms). It is
withheld ("The documents do not contain the answer.") by default (``answer.abstain = "support"``) when its support
score (``support.support_score`` of the features ``support.answer_support`` reads) is below
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
from dataclasses import dataclass

import numpy as np

from pagelens.answer import text as tx
from pagelens.answer import glossary
from pagelens.answer import lexical as lx
from pagelens.answer.by_parts import answer_by_components, answer_by_parts
from pagelens.answer.calibration import DEFAULT, Calibration
from pagelens.answer.candidates import Candidate, candidates, counts
from pagelens.answer.citations import format_citation
from pagelens.answer.cues import MAX_Q, MIN_Q, Cues
from pagelens.answer.directions import asked
from pagelens.answer import distinct as ds
from pagelens.answer import fields as fl
from pagelens.answer.focus import VALUE_KINDS, anchor_names, best_attachment, focus_idf, focus_of
from pagelens.answer import kinds
from pagelens.answer import spellings
from pagelens.answer import support as sp
from pagelens.answer.prompts import ABSTAIN_TEXT
from pagelens.answer.render import asked_column, render
from pagelens.answer.table_read import cell_attachment, read_tables
from pagelens.embed.protocol import TextEmbedder
from pagelens.models import SearchHit
from pagelens.retrieve.routing import SCOPE_STRENGTH
from pagelens.settings import AnswerSettings

# Weights of the evidence score (they sum to 1, so the score stays in 0..1).
W_SEMANTIC = 0.45
W_LEXICAL = 0.40
W_RANK = 0.15
FOCUS_STATED_WEIGHT = 0.1  # lexical weight of the asked thing's words (``Focus.terms``) the candidate states itself
OFF_ROUTE_PENALTY = 0.85  # a question that names its document(s): a candidate from a document it does not name
SOURCES_USED = 6  # top sources split into candidates
EMBED_CANDIDATES = 10  # candidates (by words + rank) that get embedded
EMBED_WORDIEST = 2  # ... and the candidates richest in the question's words among the rest (a lower-ranked source)
EMBED_WORDS = 24  # words of a candidate that are embedded (short inputs keep the batch fast)
MAX_SNIPPETS = 3
SECOND_SNIPPET_RATIO = 0.75  # further snippets need this share of the best score
MAX_ANSWER_CHARS = 600  # snippets are added while the answer stays within this length
# Bump when the extractive answers change, so cached answers from older code are not served.
EXTRACTIVE_VERSION = 58


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
        """(answer text with citations, abstained, evidence score of the best snippet). The question's
        directions about the answer ("Answer in USD millions.") are set aside (``directions.asked``)."""
        question = asked(question)
        if self.settings.by_parts:
            by_parts = answer_by_parts(self, question, hits)
            if by_parts is not None:
                return by_parts[0], False, by_parts[1]
        ev = self.evidence(question, hits)
        found = ev is not None and not (ev.blank or self.abstains(ev))
        if self.settings.by_parts:  # a ratio no source states: the cells of its parts
            by_components = answer_by_components(self, question, hits, ev.text if found and ev else "")
            if by_components is not None:
                return by_components[0], False, by_components[1]
        if found and ev is not None:
            return ev.text, False, ev.score
        return ABSTAIN_TEXT, True, ev.score if ev is not None else 0.0

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
        # A column the question names in the words the document's list of variables spells it out in
        # ("the *weight*" for "wt", ``glossary``): its name is a term of the question.
        headers = {h for c in cands if c.kind == "row" for h in c.header if h}
        if headers:
            defs = glossary.definitions([ch.text for h in top for ch in h.all_chunks()], headers)
            q_terms += glossary.named_by(q_terms, defs)
        focus = focus_of(question)
        idf = lx.idf(q_terms, cands)
        cues = Cues.of(question, q_terms, focus)
        cues.top_doc = top[0].chunk.doc_name
        cues.name_instances(cands)
        cues.titles = tuple(dict.fromkeys(fl.titles(cands) + fl.cover_titles(top)))
        naming = sp.naming_terms(top)  # "Acme's", "10-K": which document, never which span
        if len(focus.terms) <= 2:  # ... unless it is the thing asked for: "in which *journal*" (the cover's journal)
            naming -= set(focus.terms)
        if focus.kind in VALUE_KINDS:  # "the OMB number of the <title>": the title says which document
            naming |= fl.title_terms(cands)
        span_terms = [t for t in q_terms if t not in naming] or q_terms
        asked_terms = [t for t in focus.terms if t in span_terms]  # the asked thing's words ("reporting agencies")
        # The documents the question names (``retrieve.routing``: as strong as those it searches on their own).
        routed = {i for i, h in enumerate(top) if h.channels.get("route", 0.0) >= SCOPE_STRENGTH}
        q_counts = _counts_of(question)
        for c in cands:
            if spelled := spellings.spelled_acronyms(question, c.match_text):  # "MAE (s): 97" states the "mean absolute error"
                c.match_text = f"{c.match_text} ({'; '.join(spelled)})"
            if c.setting and (given := (q_counts & c.setting) - tx.numbers(c.match_text)):
                # the question's counts its paragraph stated before it: the setting it reports on ("a study
                # of 30 carcinomas and 7 scanners ... The ICC for average scores was 0.83"), inherited words
                c.match_text = f"{c.match_text} ({'; '.join(sorted(given))})"
            if fl.unasked_property(c, q_terms):
                c.match_text = c.text  # the document's name it was scored with says which file, not what it holds
            c.lexical = lx.coverage(span_terms, idf, c.match_text)
            c.bonus, c.factor = cues.adjust(c)
            if routed and c.source not in routed:
                c.factor *= OFF_ROUTE_PENALTY
            c.score = (W_LEXICAL * c.lexical + W_RANK * _rank_prior(c.source) + c.bonus) * c.factor
            # Ranked by the words it states itself and the asked thing's among them; the score abstention weighs is not.
            c.shift = W_LEXICAL * (lx.stated_coverage(span_terms, idf, c) - c.lexical
                                   + FOCUS_STATED_WEIGHT * lx.coverage(asked_terms, idf, c.text)) * c.factor
        asked = tx.ask_part(question) or question
        read_tables(question, q_terms, focus, cands, bool(MIN_Q.search(asked) or MAX_Q.search(asked)))
        # Only the candidates that look promising without meaning get embedded (one batch).
        pool = sorted(cands, key=lambda c: -(c.score + c.shift))[:EMBED_CANDIDATES]
        pool += sorted((c for c in cands if c not in pool), key=lambda c: -c.lexical - c.shift / W_LEXICAL)[:EMBED_WORDIEST]
        sims = self._similarities(question, [" ".join(c.match_text.split()[:EMBED_WORDS]) for c in pool])
        for c, sim in zip(pool, sims):
            c.semantic = max(0.0, sim)
            c.score = min(1.0, c.score + W_SEMANTIC * c.semantic * c.factor)
        pool.sort(key=lambda c: (-min(1.0, c.score + c.shift), -c.semantic))  # a tie at the cap (1.0) goes to the closer meaning
        pool = _named_cell_first(pool)
        # A field of the top source's form whose label the question names is the asked thing: it is
        # quoted first ("Report number: IR-2024-0931", not the form's title that holds more of the
        # question's words). Blank, it says the form leaves the asked thing blank: nothing to answer.
        # A blank field ("Known allergies: (empty)") is never quoted.
        named = fl.named_field(cands, fl.label_terms(question), top[0].chunk.doc_name, pool)
        if named is not None and fl.blank_field(named):
            return Evidence(named.text, named.score, (), ("blank field",), blank=True)
        if named is not None:
            pool = [named] + [c for c in pool if c is not named]
        pool = [c for c in pool if not fl.blank_field(c)]
        if not pool:
            return None
        best = pool[0]
        chosen = [best]
        for c in pool[1:]:
            if len(chosen) >= MAX_SNIPPETS or c.score < SECOND_SNIPPET_RATIO * best.score:  # the evidence, not the rank
                continue
            if best.column is not None and c.source == best.source and c.header == best.header:
                continue  # the table's named cell answers: its neighbours are not the answer
            if routed and c.source not in routed and top[c.source].chunk.doc_name != top[best.source].chunk.doc_name:
                continue  # the question names its document(s): another's snippet is no part of the answer
            if not any(_overlaps(c, o) for o in chosen):
                chosen.append(c)
        parts: list[str] = []
        for c in chosen:
            part = f"{render(c, question, q_terms, top)} {format_citation(c.source + 1, c.page)}"
            if part in parts or (parts and sum(len(p) + 1 for p in parts) + len(part) > MAX_ANSWER_CHARS):
                continue
            parts.append(part)
        rival = max((c.score for c in pool[1:] if c.source != best.source), default=0.0)  # (ranked apart from score)
        features, flags = sp.answer_support(question, q_terms, idf, top, best, best.score - rival)
        quoted = [(c, asked_column(c, question, q_terms) if c.kind == "row" and c.header else None) for c in chosen]
        docs = [h.chunk.doc_name for h in top]
        anchors = anchor_names(question, docs, named=sp.naming_terms(top))
        parties = anchor_names(question, docs, kinds.parties(question))
        # A row of a table that lacks the asked row or year states nothing about the asked thing.
        attached = [(c, col) for c, col in quoted if not c.absent]
        features += fl.field_attachment(focus, question, q_terms, chosen, cell_attachment(focus, question, chosen, best_attachment(
            focus, question, attached, focus_idf(focus, [c.match_text for c in cands]), anchors, parties)))
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
        features += (ds.in_span(units, ds.Sources.of([t for c in chosen for t in sp.quoted_context(c, top)])),)
        if named is not None and best is named and fl.names_field(named, fl.label_terms(question))[0]:
            # The question names the field's whole label: the asked thing is in the span, its value attached.
            features = tuple(1.0 if name in ("focus_span", "type_near") else v for name, v in zip(sp.FEATURES, features))
        return Evidence(" ".join(parts), best.score, features, flags)

    def _similarities(self, question: str, texts: list[str]) -> list[float]:
        vecs = np.asarray(self.embedder.embed([question, *texts]), dtype=np.float32)
        return [float(x) for x in vecs[1:] @ vecs[0]]


# -- scoring ---------------------------------------------------------------------------------------
def _rank_prior(rank: int) -> float:
    return 1.0 / math.sqrt(1 + rank)


_COUNT = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w.,]?\w)")


def _counts_of(question: str) -> set[str]:
    """The question's numbers written on their own, no years: its counts and sizes ("with *30* breast carcinomas
    and *7* scanners", "aged 3–5"), not a designator's digits ("2Q22", "SVR12")."""
    return {n for m in _COUNT.finditer(question) for n in counts(m.group(0))}


def _named_cell_first(pool: list[Candidate]) -> list[Candidate]:
    """The row of the cell a table read names (``table_read``: its row and column) before the other rows of
    its table when its score is as high: at the cap (1.0) the cell's bonus no longer shows, and a
    sibling row that repeats more of the question's words ("Reflex pathway › *Anti-HCV test*" for "the
    total cost of the reflex *testing* pathway") would be quoted instead of the Total row asked for."""
    if not pool or pool[0].column is not None or pool[0].kind != "row":
        return pool
    best = pool[0]
    for c in pool[1:]:
        if c.column is not None and c.source == best.source and c.header == best.header and c.score >= best.score:
            return [c] + [o for o in pool if o is not c]
    return pool


def _overlaps(a: Candidate, b: Candidate) -> bool:
    if a.source == b.source and (a.text in b.text or b.text in a.text):
        return True
    ta, tb = set(tx.content_terms(a.text)), set(tx.content_terms(b.text))
    return bool(ta) and len(ta & tb) / len(ta) > 0.8
