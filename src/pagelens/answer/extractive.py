"""Answers without a language model: pick the sentences, table cells and field values that answer.

The top sources are split into candidates: sentences of running text, table rows (with their header,
so each cell is named by its column), ``label: value`` form lines, figure caption/label/OCR lines.
Each candidate is scored against the question by

* meaning: cosine similarity of its embedding with the question's (one batch for all candidates),
* words: IDF-weighted coverage of the question's content words (stemmed) and numbers,
* position: the rank of its source,
* answer type: "how many / what percentage / which score..." questions want a number the question
  does not already contain; superlatives ("lowest", "largest") pick the extreme cell of a column.

The answer is the best one to three snippets, each followed by its citation ``[N, p.X]``. When the
best evidence scores below ``abstain_threshold``, or the question's distinctive terms appear in none
of the sources, the answer is "The documents do not contain the answer."
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from pagelens.answer import text as tx
from pagelens.answer.citations import format_citation
from pagelens.answer.prompts import ABSTAIN_TEXT
from pagelens.embed.protocol import TextEmbedder
from pagelens.models import SearchHit
from pagelens.settings import AnswerSettings

# Weights of the evidence score (they sum to 1, so the score stays in 0..1).
W_SEMANTIC = 0.45
W_LEXICAL = 0.40
W_RANK = 0.15
# Multipliers for answer-type cues.
NUMERIC_MISSING_PENALTY = 0.75  # a numeric question, a candidate with no new number
NUMBER_MATCH_BONUS = 0.10  # per question number found in the candidate (table rows: "6 layers, 768")
SOURCES_USED = 6  # top sources split into candidates
EMBED_CANDIDATES = 8  # candidates (by words + rank) that get embedded
EMBED_WORDS = 32  # words of a candidate that are embedded (short inputs keep the batch fast)
ROW_LABEL_BONUS = 0.10  # a table row whose label the question names ("10 g", "Texas", "BERT-Large")
FIELD_LABEL_BONUS = 0.15  # a "label: value" line whose label the question asks for ("authors", "city")
EMPTY_CELL_PENALTY = 0.8
NO_PERSON_PENALTY = 0.6  # a "who" question, a candidate without a person-like name
MAX_SNIPPETS = 3
SECOND_SNIPPET_RATIO = 0.88  # further snippets need this share of the best score
MAX_ROW_CELLS = 14  # cells of a table row written into an answer

_NUMERIC_Q = re.compile(
    r"\b(how (many|much|large|big|long|fast|slow|high|low|old)|what (percentage|percent|share|fraction|proportion|"
    r"score|accuracy|value|number|size|rate|amount|total|count|f1|perplexity|price|cost|year|date)|"
    r"which (score|value|perplexity|accuracy|number)|by what (percentage|factor)|how much)\b",
    re.I,
)
_MIN_Q = re.compile(r"\b(lowest|smallest|least|fewest|minimum|min|shortest|fastest|cheapest)\b", re.I)
_MAX_Q = re.compile(r"\b(highest|largest|most|greatest|maximum|max|biggest|longest|best|top)\b", re.I)
_PERSON_Q = re.compile(r"^\s*who\b|\bauthors?\b|\bwritten by\b", re.I)
_PERSON = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z]\.)*\s+[A-Z][a-z]+")  # "Matthias Vogelgesang", "Diederik P. Kingma"
_LABEL_VALUE = re.compile(r"^\s*([^:]{1,60}):\s+(\S.*)$")


@dataclass
class Candidate:
    text: str  # what is shown in the answer
    match_text: str  # what is scored (a table row carries its header names)
    source: int  # 0-based index into the hits
    page: int
    kind: str  # sentence | row | field | figure
    header: list[str] = field(default_factory=list)
    cells: list[str] = field(default_factory=list)
    score: float = 0.0
    lexical: float = 0.0
    bonus: float = 0.0
    factor: float = 1.0


class ExtractiveAnswerer:
    """The offline default: answers are quoted from the sources, never generated."""

    def __init__(self, settings: AnswerSettings, embedder: TextEmbedder) -> None:
        self.settings = settings
        self.embedder = embedder

    def answer(self, question: str, hits: Sequence[SearchHit]) -> tuple[str, bool, float]:
        """(answer text with citations, abstained, evidence score of the best snippet)."""
        top = list(hits[:SOURCES_USED])
        cands = [c for i, h in enumerate(top) for c in candidates(h, i)]
        if not cands:
            return ABSTAIN_TEXT, True, 0.0
        q_terms = tx.content_terms(question)
        idf = _idf(q_terms, cands)
        q_numbers = tx.numbers(question)
        numeric = bool(_NUMERIC_Q.search(question))
        person = bool(_PERSON_Q.search(question))
        cues = _Cues(q_terms, q_numbers, numeric, person)
        for c in cands:
            c.lexical = _coverage(q_terms, idf, c.match_text)
            c.bonus, c.factor = cues.adjust(c)
            c.score = (W_LEXICAL * c.lexical + W_RANK * _rank_prior(c.source) + c.bonus) * c.factor
        # Only the candidates that look promising without meaning get embedded (one batch).
        pool = sorted(cands, key=lambda c: -c.score)[:EMBED_CANDIDATES]
        sims = self._similarities(question, [" ".join(c.text.split()[:EMBED_WORDS]) for c in pool])
        for c, sim in zip(pool, sims):
            c.score = min(1.0, c.score + W_SEMANTIC * max(0.0, sim) * c.factor)
        pool.sort(key=lambda c: -c.score)
        best = pool[0]
        if (best.score < self.settings.abstain_threshold or _abstain_on_names(_missing_names(question, top))
                or _missing_focus(question, top)):
            return ABSTAIN_TEXT, True, best.score
        chosen = [best]
        for c in pool[1:]:
            if len(chosen) >= MAX_SNIPPETS or c.score < SECOND_SNIPPET_RATIO * best.score:
                break
            if not any(_overlaps(c, o) for o in chosen):
                chosen.append(c)
        parts = [f"{self._render(c, question, q_terms, top)} {format_citation(c.source + 1, c.page)}" for c in chosen]
        return " ".join(parts), False, best.score

    def _similarities(self, question: str, texts: list[str]) -> list[float]:
        vecs = np.asarray(self.embedder.embed([question, *texts]), dtype=np.float32)
        return [float(x) for x in vecs[1:] @ vecs[0]]

    def _render(self, c: Candidate, question: str, q_terms: list[str], hits: Sequence[SearchHit]) -> str:
        if c.kind != "row" or not c.header:
            return c.text
        col = _best_column(c.header, q_terms)
        row = c
        named = bool(c.cells) and _label_matches(c.cells[0], q_terms)
        if col is not None and not named and (_MIN_Q.search(question) or _MAX_Q.search(question)):
            row = _extreme_row(c, col, question, hits) or c
        label = row.cells[0] if row.cells else ""
        lead = ""
        if col is not None and col < len(row.cells) and col > 0:
            lead = f"{label} — {row.header[col]}: {row.cells[col]}. "
        return f"{lead}Row: {_row_text(row.header, row.cells)}"


@dataclass
class _Cues:
    """Answer-type cues: additive bonuses and multiplicative penalties for one candidate."""

    q_terms: list[str]
    q_numbers: set[str]
    numeric: bool
    person: bool

    def adjust(self, c: Candidate) -> tuple[float, float]:
        bonus, factor = 0.0, 1.0
        found = tx.numbers(c.match_text)
        if self.q_numbers:
            bonus += NUMBER_MATCH_BONUS * len(self.q_numbers & found) / len(self.q_numbers)
        if c.kind == "field" and (m := _LABEL_VALUE.match(c.text)) and _label_matches(m.group(1), self.q_terms):
            bonus += FIELD_LABEL_BONUS
        if c.kind == "row" and c.cells:
            if _label_matches(c.cells[0], self.q_terms):
                bonus += ROW_LABEL_BONUS
            col = _best_column(c.header, self.q_terms)
            if col is not None and (col >= len(c.cells) or c.cells[col].strip() in ("", "-", "–", "—")):
                factor *= EMPTY_CELL_PENALTY  # the asked column is blank in this row
        if self.person and not _PERSON.search(c.text):
            factor *= NO_PERSON_PENALTY
        if self.numeric and not (found - self.q_numbers):
            factor *= NUMERIC_MISSING_PENALTY
        return bonus, factor


# -- candidates ------------------------------------------------------------------------------------
def candidates(hit: SearchHit, index: int) -> list[Candidate]:
    """Candidate snippets of one source."""
    chunk = hit.chunk
    page = chunk.page
    out: list[Candidate] = []
    lines = chunk.text.splitlines()
    table_lines = [ln for ln in lines if tx.is_table_line(ln)]
    other = [ln for ln in lines if not tx.is_table_line(ln)]
    if table_lines:
        header, rows = tx.parse_markdown_table(table_lines)
        caption = " ".join(" ".join(other).split())
        for r in rows:
            row_text = _row_text(header, r)
            match = f"{row_text} ({caption[:160]})" if caption else row_text
            out.append(Candidate(row_text, match, index, page, "row", header, r))
    if chunk.kind in ("form", "metadata"):
        for ln in other:
            if ln.startswith("Document: "):  # the file name line of the metadata chunk
                continue
            if _LABEL_VALUE.match(ln):
                out.append(Candidate(ln.strip(), ln.strip(), index, page, "field"))
            elif ln.strip():
                out.extend(Candidate(s, s, index, page, "sentence") for s in tx.split_sentences(ln))
        return out
    if chunk.kind == "figure":
        for ln in other:
            body = re.sub(r"^(Labels|Text in image|Description):\s*", "", ln.strip())
            for s in tx.split_sentences(body):
                out.append(Candidate(s, s, index, page, "figure"))
        return out
    if not table_lines:
        out.extend(Candidate(s, s, index, page, "sentence") for s in tx.split_sentences("\n".join(other)))
    elif other:  # a table's caption is a candidate too ("Table 2: ... F1 93.2")
        out.extend(Candidate(s, s, index, page, "sentence") for s in tx.split_sentences(" ".join(other)))
    return out


def _row_text(header: list[str], cells: list[str]) -> str:
    parts = []
    for i, cell in enumerate(cells[:MAX_ROW_CELLS]):
        if not cell:
            continue
        name = header[i] if i < len(header) else ""
        parts.append(f"{name}: {cell}" if name and i > 0 else cell)
    text = "; ".join(parts)
    return text + (" …" if len(cells) > MAX_ROW_CELLS else "")


# -- scoring ---------------------------------------------------------------------------------------
def _idf(q_terms: list[str], cands: list[Candidate]) -> dict[str, float]:
    """IDF of each question term over the candidates (rarer terms say more)."""
    n = len(cands)
    df: Counter[str] = Counter()
    for c in cands:
        terms = set(tx.content_terms(c.match_text))
        for t in set(q_terms):
            if t in terms:
                df[t] += 1
    return {t: math.log(1 + (n + 1) / (1 + df[t])) for t in set(q_terms)}


def _coverage(q_terms: list[str], idf: dict[str, float], text: str) -> float:
    if not q_terms:
        return 0.0
    terms = set(tx.content_terms(text))
    uniq = set(q_terms)
    total = sum(idf[t] for t in uniq)
    got = sum(idf[t] for t in uniq if t in terms or _prefix_match(t, terms))
    return got / total if total else 0.0


def _label_matches(label: str, q_terms: list[str]) -> bool:
    terms = tx.content_terms(label)
    qs = set(q_terms)
    return bool(terms) and all(t in qs or _prefix_match(t, qs) for t in terms)


def _prefix_match(term: str, terms: set[str]) -> bool:
    """Tolerate abbreviations and joined spellings: 'ens' ~ 'ensembl', 'bertlarg' ~ 'bertlargeen'."""
    if len(term) < 3:
        return False
    return any(len(t) >= 3 and (t.startswith(term) or term.startswith(t)) for t in terms)


def _rank_prior(rank: int) -> float:
    return 1.0 / math.sqrt(1 + rank)


def _missing_names(question: str, hits: Sequence[SearchHit]) -> list[str]:
    """Names the question relies on that appear in none of the sources (capitalised names, acronyms,
    years, months). The documents may discuss the topic but not the thing asked ("BLEU on WMT 2014",
    "October 2015" where only November is reported): quoting the nearest sentence would then answer
    a different question."""
    corpus: set[str] = set()
    for h in hits:
        corpus.update(tx.content_terms(h.chunk.text))
        corpus.update(tx.content_terms(" ".join(h.chunk.section)))
        corpus.update(tx.content_terms(h.chunk.doc_name))
    missing = []
    for name in tx.key_names(question):
        if not any(t in corpus or _prefix_match(t, corpus) for t in name):
            missing.append(" ".join(name))
    return missing


_FOCUS = re.compile(
    r"^(?:.*?,\s*)?(?:what|which)\s+(?:is\s+|are\s+|was\s+|were\s+)?(?:the\s+)?((?:[\w-]+\s+){0,3}?[\w-]+)\s+"
    r"(?:of|for|in|on|does|do|did|is|are|was|were|has|have|had|that|to|at|by)\b",
    re.I,
)


def _missing_focus(question: str, hits: Sequence[SearchHit]) -> bool:
    """True when the thing asked for ("the *license price* of ...") has two or more content words and
    none of them occurs in the sources."""
    m = _FOCUS.match(question)
    if not m:
        return False
    focus = {t for t in tx.content_terms(m.group(1).replace("-", " "))}
    if len(focus) < 2:
        return False
    corpus: set[str] = set()
    for h in hits:
        corpus.update(tx.content_terms(h.chunk.text))
    return not any(t in corpus for t in focus)


def _abstain_on_names(missing: list[str]) -> bool:
    """Two missing names, or one missing date word (a month or a year)."""
    if len(missing) >= 2:
        return True
    return any(w in tx.MONTHS or w.isdigit() for name in missing for w in name.split())


def _overlaps(a: Candidate, b: Candidate) -> bool:
    if a.source == b.source and (a.text in b.text or b.text in a.text):
        return True
    ta, tb = set(tx.content_terms(a.text)), set(tx.content_terms(b.text))
    return bool(ta) and len(ta & tb) / len(ta) > 0.8


# -- tables ----------------------------------------------------------------------------------------
def _best_column(header: list[str], q_terms: list[str]) -> int | None:
    qs = set(q_terms)
    best, best_score = None, 0.0
    for i, name in enumerate(header):
        if i == 0 or not name:
            continue
        terms = tx.content_terms(name)
        if not terms:
            continue
        hit = sum(1 for t in terms if t in qs or _prefix_match(t, qs))
        score = hit / len(terms) + 0.01 * hit
        if hit and score > best_score:
            best, best_score = i, score
    return best


def _extreme_row(c: Candidate, col: int, question: str, hits: Sequence[SearchHit]) -> Candidate | None:
    """The row of the same table with the smallest/largest numeric value in column ``col``, among
    rows whose label shares a word with the question when some do."""
    chunk = hits[c.source].chunk
    rows = [x for x in candidates(hits[c.source], c.source) if x.kind == "row" and x.header == c.header]
    q = set(tx.content_terms(question))
    rows = [r for r in rows if r.cells and r.cells[0].strip()]  # unlabelled rows are units/counts
    labelled = [r for r in rows if set(tx.content_terms(r.cells[0])) & q]
    pool = labelled or rows
    scored = [(v, r) for r in pool if col < len(r.cells) and (v := tx.to_float(r.cells[col])) is not None]
    if not scored or chunk is None:
        return None
    pick = min if _MIN_Q.search(question) else max
    return pick(scored, key=lambda vr: vr[0])[1]
