"""How much of a question's words a candidate's text covers, weighted by how rare each word is among
the candidates (the lexical part of the extractive answerer's score)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from pagelens.answer import text as tx
from pagelens.answer.candidates import Candidate

# Form-field words that name the same thing ("telephone" asks for the PHONE field).
FIELD_SYNONYMS = {"telephon": {"phone", "tel"}, "phone": {"telephon", "tel"}, "mail": {"email"},
                   "email": {"mail"}, "postal": {"zip"}, "zip": {"postal", "postcod"}, "sex": {"gender"},
                   "gender": {"sex"}, "surnam": {"last"}, "forenam": {"first"}}


def idf(q_terms: list[str], cands: Sequence[Candidate]) -> dict[str, float]:
    """IDF of each question term over the candidates (rarer terms say more)."""
    n = len(cands)
    df: Counter[str] = Counter()
    for c in cands:
        terms = set(tx.content_terms(c.match_text))
        for t in set(q_terms):
            if t in terms:
                df[t] += 1
    return {t: math.log(1 + (n + 1) / (1 + df[t])) for t in set(q_terms)}


def coverage(q_terms: list[str], idf: dict[str, float], text: str) -> float:
    """Share of the question's term weight (``idf``) that ``text`` holds."""
    if not q_terms:
        return 0.0
    terms = set(tx.content_terms(text))
    uniq = set(q_terms)
    total = sum(idf[t] for t in uniq)
    got = sum(idf[t] for t in uniq if t in terms or tx.prefix_match(t, terms))
    return got / total if total else 0.0


def with_synonyms(q_terms: list[str]) -> set[str]:
    """The question's terms with the form-field words that name the same thing."""
    out = set(q_terms)
    for t in q_terms:
        out |= FIELD_SYNONYMS.get(t, set())
    return out


# Words a candidate only inherits from its context (a table row's caption, a list item's heading, a form
# line's document name) count this much of the words it states itself: a caption that
# repeats the question lends every row of its table the same words, which say which table, not which row.
INHERITED_WEIGHT = 0.5


def stated_coverage(q_terms: list[str], idf: dict[str, float], c: Candidate) -> float:
    """``coverage`` of ``c.match_text``, with the question's words that only its inherited context holds
    counted at ``INHERITED_WEIGHT``. A figure's label/OCR text keeps its caption whole: it says nothing
    of its own in words (it is axis ticks and labels), so the caption is what it is about."""
    full = coverage(q_terms, idf, c.match_text)
    if c.kind == "figtext" or c.match_text == c.text:
        return full
    own = coverage(q_terms, idf, f"{c.text} {c.gloss}")  # the caption's sentence that defines a row's label is its own
    return own + INHERITED_WEIGHT * max(0.0, full - own)
