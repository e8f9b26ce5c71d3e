"""``label: value`` fields among the candidates: a form's field the question names by its label, a blank
field, a field counted as attached to the asked thing, and a file's properties (its title, its producer).

A form's fields are read as ``label: value`` lines (``index.chunking``); a blank one reads
``label: (empty)`` (``BLANK_VALUE``). ``named_field`` finds the field of the top source's form whose label
the question names (``names_field``, by the label's words, ``label_terms``): ``extractive`` quotes it
first, and withholds the answer when it is blank (``blank_field``): the form leaves the asked thing blank.
``field_attachment`` counts a quoted field whose label the question states in full as attached to what is
asked. A file's properties (``source_kind == "metadata"``) name the document: ``title_terms`` are the words
by which a question names a titled document, ``unasked_property`` a property the question does not ask for.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pagelens.answer import support as sp
from pagelens.answer import text as tx
from pagelens.answer.candidates import LABEL_VALUE, Candidate
from pagelens.models import SearchHit

BLANK_VALUE = "(empty)"  # how a blank form field's line reads (``index.chunking.BLANK``)
MAX_BLANK_LABEL_TERMS = 6  # a longer label is no short name of one thing


def blank_field(c: Candidate) -> bool:
    return c.kind == "field" and (m := LABEL_VALUE.match(c.text)) is not None and m.group(2).strip() == BLANK_VALUE


_LABEL_CONTENT = frozenset("""according given reported reports report listed list shown show shows named name called
    value values number numbers amount kind type use used uses using get gets obtain obtained achieve achieves reach
    reaches give gives appear appears mention mentioned state stated document documents paper pdf page""".split())
"""Words the answer's stop list drops that a form's label names a field by ("Report *number*", "Applicant *name*")."""


def label_terms(text: str) -> list[str]:
    """Stemmed words of a field label (or a question, to match labels against): function words dropped only."""
    out = []
    for w in tx.words(text):
        lw = w.lower().strip("'’-")
        if lw and (lw not in tx.STOPWORDS or lw in _LABEL_CONTENT):
            out.append(lw if lw[0].isdigit() else tx.stem(lw))
    return list(dict.fromkeys(out))


_LABEL_PREPOSITION = re.compile(r"\s(?:of|for|on|in|at|to|by|from|with)\s", re.I)


def names_field(c: Candidate, q_terms: list[str]) -> tuple[bool, int]:  # q_terms: ``label_terms``
    """Whether the question names the field's label, and with how many of its words: a short label,
    all its content words, or all but one modifier ("*Known* allergies" for "what allergies", never the
    head: "*Date* of incident" is not named by "who was injured in the incident"). (False, 0) if not."""
    m = LABEL_VALUE.match(c.text)
    label = m.group(1) if m else ""
    terms = label_terms(label)
    if not terms or len(terms) > MAX_BLANK_LABEL_TERMS:
        return False, 0
    asked = set(q_terms)
    missing = [t for t in terms if t not in asked]
    if not missing:
        return True, len(terms)
    head_part = label_terms(_LABEL_PREPOSITION.split(f" {label} ", maxsplit=1)[0])
    head = head_part[-1] if head_part else terms[-1]
    if len(terms) >= 2 and len(missing) == 1 and missing[0] != head:
        return False, len(terms) - 1
    return False, 0


def named_field(cands: Sequence[Candidate], q_terms: list[str], doc: str, pool: list[Candidate]) -> Candidate | None:
    """The form field of document ``doc`` whose label the question names: a whole label before one that
    misses a modifier, then the one named with more words, then the better ranked."""
    rank = {id(c): i for i, c in enumerate(pool)}
    named = [(whole, n, c) for c in cands if c.kind == "field" and c.source_kind == "form" and c.doc == doc
             for whole, n in [names_field(c, q_terms)] if n]
    if not named:
        return None
    return max(named, key=lambda x: (x[0], x[1], -rank.get(id(x[2]), len(rank))))[2]


def field_attachment(focus, question: str, q_terms: list[str], chosen: list[Candidate],
                     found: tuple[float, float, float]) -> tuple[float, float, float]:
    """(``focus_span``, ``type_near``, ``conditions``) with a quoted ``label: value`` field whose label the
    question states in full ("how much is charged for the *Contrib. Custeio Ilum Pública*") counted as
    attached to what is asked, as a table cell named by its row and column is (``cell_attachment``): the
    asked thing may be a verb's ("charged"), which no label repeats. A label of one word says too little."""
    best = 0.0
    typed = False
    for c in chosen:
        m = LABEL_VALUE.match(c.text) if c.kind == "field" and c.source_kind != "metadata" else None
        if m is None or len(set(tx.content_terms(m.group(1)))) < 2 or tx.label_score(m.group(1), q_terms) < 1.0:
            continue
        best = 1.0
        typed = typed or not focus.kind or sp.has_type(focus.kind, m.group(2), question)
    if not best:
        return found
    return max(found[0], best), max(found[1], best if typed else 0.0), found[2]


def title_terms(cands: Sequence[Candidate]) -> set[str]:
    """Content terms of the titles the sources' file properties give ("Title: Application for Federal
    Assistance SF-424"). A question for a value of a titled document ("What is the OMB number of the SF-424
    application for federal assistance?") names the document by them; the value is labelled by the words of
    the asked thing, and a title line that repeats the rest of the question answers nothing. (A question
    for a person or a thing keeps them: the byline stands beside the title it is asked by.)"""
    return {t for c in cands if c.kind == "field" and c.source_kind == "metadata"
            and (m := LABEL_VALUE.match(c.text)) and m.group(1).strip().lower() == "title"
            for t in tx.content_terms(m.group(2))}


def titles(cands: Sequence[Candidate]) -> tuple[str, ...]:
    """The titles the sources' file properties give, lower case, spaces collapsed."""
    return tuple(dict.fromkeys(" ".join(m.group(2).lower().split()) for c in cands
                               if c.kind == "field" and c.source_kind == "metadata"
                               and (m := LABEL_VALUE.match(c.text)) and m.group(1).strip().lower() == "title"
                               and len(m.group(2).split()) >= 2))


def cover_titles(hits: Sequence[SearchHit]) -> tuple[str, ...]:
    """The titles the sources' first pages print: the top heading of a chunk of page 1 (a paper's or a scanned
    report's title, a deck's title slide), lower case, spaces collapsed; two words or more."""
    return tuple(dict.fromkeys(" ".join(c.section[0].lower().split()) for h in hits for c in h.all_chunks()
                               if c.page == 1 and c.section and len(c.section[0].split()) >= 2))


def unasked_property(c: Candidate, q_terms: list[str]) -> bool:
    """A file property ("Producer: pdfTeX", "Modified: 2020-03-03") whose label the question does not name. Its
    candidate is scored with the document's name (``candidates``), which lets a question that names the document
    to pick it ("on the *electricity bill*, how much ...") quote the file's producer instead of the bill."""
    m = LABEL_VALUE.match(c.text) if c.kind == "field" and c.source_kind == "metadata" else None
    return m is not None and not tx.label_score(m.group(1), q_terms)
