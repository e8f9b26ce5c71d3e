"""How well the sources support the extractive answer: a few general features in 0..1 (higher = better
supported), read from the answer's span, its neighbourhood and the retrieval that found it.

None of them looks for particular phrases of particular questions:

* ``score``: the answer's evidence score (words, meaning, rank, answer-type cues; see ``extractive``).
* ``span_cover``: IDF-weighted share of the question's content words (stems, numbers) that the span
  itself holds (a table row with its column names and caption).
* ``context_cover``: the same share over the span's neighbourhood: the chunks of its page, their
  section headings and the document's name. A question about a thing the page never mentions
  (a dividend on a page without the word) keeps a hole here that no paraphrase fills.
* ``type_match``: the question's expected answer type (an e-mail address, a web address, a phone
  number, a date, a year, a percentage, a person, a number) is present in the span, as a value the
  question does not already contain; 1 when the question expects no particular type.
* ``names_found``: share of the question's names, years and months (see ``text.key_names``) found in
  the neighbourhood: an answer from a page about November does not answer a question about October.
* ``margin``: how far the best candidate is ahead of the best candidate from another source.
* ``agreement``: how high the dense and the keyword channels both ranked the answer's source
  (mean of 1/√rank over the channels that report a rank; 0.5 when none does).
* ``semantic``: cosine of the span with the question.
* ``focus_found``: share of the words of the thing asked for ("what *license price* ...") found in the
  neighbourhood.
* ``dates_found``: share of the question's dates (a month with its day and year, or a year, as one) found
  in the neighbourhood: a page about November 2015 does not answer for October 2015.
* ``focus_span`` and ``type_near`` (``pagelens.answer.focus``): the thing asked for supported by the span's
  immediate context (a cell's row label and column header, the sentence), and a value of the asked
  type attached to it (same cell or clause); ``conditions``: the question's numbers other than years
  ("with 12 g", "6 layers") found in the span.
* ``distinct_names`` and ``distinct_focus`` (``pagelens.answer.distinct``): the question's distinguishing
  units — its names, identifiers, designators and counts; the terms of the thing asked, by rarity — stated
  by a source of the quoted documents (names as whole terms, close together); ``distinct_span``: the share
  of the names, designators and counts that the quoted spans state themselves.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence, Set

from pagelens.answer import kinds, spellings
from pagelens.answer import text as tx
from pagelens.answer.candidates import Candidate
from pagelens.models import SearchHit

FEATURES = ("score", "span_cover", "context_cover", "type_match", "names_found", "margin", "agreement", "semantic",
            "focus_found", "dates_found", "focus_span", "type_near", "conditions", "distinct_names",
            "distinct_focus", "distinct_span")

ASKED_DATE_OF = (r"^\s*(the\s+)?date of\b|\b(what|which)\s+(is|was|are|were)\s+(the\s+)?([\w-]+\s+)?date of\b|"
                 r"\b(give|state|enter|find)\s+the\s+date of\b")
"""A question whose asked thing is "the date of ..." (the wh-word's own phrase, or an opening "Date of")."""
ASKS_DATE = r"\b(what|which)\s+(date|day)\b|" + ASKED_DATE_OF + r"|\bbirth\s?date\b"
"""A question that asks for a date (the answer type "date"; ``cues`` adds "when" and "dated")."""

STATISTIC_Q = r"what (?:(?:is|was|are|were) )?(?:the )?(?:average|mean|median|total|overall rate)"
"""A question for a statistic of the thing asked ("what was the *average* overwinter survival", "what was the
*total* of donations"): a number, whatever noun follows."""

# Expected answer types: (type, what in a question asks for it). Checked in this order; the first wins.
_TYPE_Q: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("email", re.compile(r"\be-?mail\b", re.I)),
    ("url", re.compile(r"\b(web\s?site|web address|url|homepage|web page)\b", re.I)),
    # "phone" asks for a number when it is the asked thing ("the telephone number", "which phone to call"),
    # not when it names another ("how big did the *phone bill* get", "the *phone holder*")
    ("phone", re.compile(r"\b(tele)?phones?\b(?=\s+(numbers?|no\.?|#)|\s*[?,;:.]|\s*$|\s+(of|for|at|to|on|in|from)\b)|"
                         r"\b(what|which)\s+(tele)?phone\b|\bfax\b|\bmobile number\b", re.I)),
    # "date of" asks for a date when it is the asked thing ("what is the date of ..."), not when it is
    # part of the condition ("within what period ... for the date of claim to be preserved?")
    ("date", re.compile(ASKS_DATE, re.I)),
    # "When ...?" is answered by any time expression — a date, but also "in the third quarter", "each
    # spring", "after the merger" — so it is a soft type (ranking, support), never a format rule.
    # (Not a subordinate "When the models are compared, what AIC ...": the main clause after the comma asks.)
    ("when", re.compile(r"^\s*when\b(?![^?]*[,;:]\s*(what|which|who|whom|how|where|when)\b)", re.I)),
    ("year", re.compile(r"\b(what|which|in what|in which)\s+year\b", re.I)),
    # "In which quarter of 2025 ...": a fiscal or calendar quarter or half ("Q1", "2Q22", "the third quarter", "H2")
    ("quarter", re.compile(r"\b(what|which|in what|in which)\s+(fiscal\s+|calendar\s+)?(quarter|half)\b", re.I)),
    ("percent", re.compile(r"\b(what|which|by what)\s+(percentage|percent|share|fraction|proportion)\b|"
                           r"\bhow many percent\b", re.I)),
    # "Who ...", "What are the authors ...": not "what stepsize do the authors recommend".
    ("person", re.compile(r"^\s*who\b|\b(what|which)\s+((are|is|were|was)\s+)?(the\s+)?(names?\s+of\s+(the\s+)?)?"
                          r"authors?\b|\bwritten by\b", re.I)),
    ("number", re.compile(
        r"\b(how (many|much|large|big|long|fast|slow|high|low|old)|what (percentage|percent|score|accuracy|value|"
        r"number|size|rate|amount|total|count|price|cost|range)|which (score|value|number|accuracy|amount)|" + STATISTIC_Q +
        r")\b", re.I)),
)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")
_URL = re.compile(r"\b(https?://|www\.)\S+|\b[\w-]+\.(com|org|net|gov|edu|io)\b", re.I)
_PHONE = re.compile(r"(?<!\d)(\+?\d[\d\s().-]{6,}\d)(?!\d)")
_YEAR = re.compile(r"\b(1[5-9]|20)\d\d\b(?!-\d(?!\d))")  # not a code's "2012-2" (a revision, a part)
_MONTH_OR_DAY = re.compile(r"\b(january|february|march|april|june|july|august|september|october|november|december|"
                           r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b\.?|\bmay\s+\d|"
                           r"\b(mon|tues|wednes|thurs|fri|satur|sun)day\b", re.I)
_TIME_WORDS = re.compile(r"\b(quarter|q[1-4]|half|h[12]|spring|summer|autumn|fall|winter|season|morning|"
                         r"afternoon|evening|night|noon|midnight|century|decade|weekend|week|month|year|annual|"
                         r"daily|weekly|monthly|yearly|before|after|during|until|since|\d{1,2}:\d\d|"
                         r"\d{1,2}\s?(am|pm))\b", re.I)
_PERCENT = re.compile(r"\d\s?%|\bper\s?cent\b|\bpercent\b", re.I)
_PERSON = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z]\.)*\s+(?:[a-z]{1,3}\s+)?[A-Z][a-z'’]+|"
                     r"(?<![\w.])(?!U\.\s?[SKN]\.)(?:[A-Z]\.\s?){1,3}[A-Z][a-z'’]{2,}")  # ... or "A. Lindqvist"
_WORDED_NUMBER = re.compile(r"\b(one|two|three|four|five|six|seven|eight|nine|ten|twice|double|half|dozen|"
                            r"hundred|thousand|million|billion)\b", re.I)


_REFERENCE = re.compile(r"(?<![\w.])(table|tab\.|figure|fig\.|section|sec\.|§|chapter|appendix|equation|eqs?\.|exercise)"
                        r"\s*\(?\d+(\.\d+)*[a-z]?\)?(?!\w|\.\d)", re.I)
"""A numbered reference ("Table 1", "Fig. 2b", "Section 4.1", "Equation (18)"): its number says where, it is no value
asked for."""


def value_numbers(text: str) -> set[str]:
    """The numbers of ``text`` that may be values: those of numbered references ("Table 324") left out."""
    return tx.numbers(_REFERENCE.sub(" ", text))


_BEFORE_KINDS = ("email", "url", "phone", "date", "when", "year", "quarter", "percent")
QUARTER = re.compile(r"(?<![\w-])(?:Q[1-4]|[1-4]Q(?:\d\d){0,2}|H[12])(?![a-z0-9])|\b(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+"
                     r"(?:fiscal\s+|calendar\s+)?(?:quarter|half)\b", re.I)
"""A quarter or a half of a year, as a page names one: "Q1", "2Q22", "H2 2025", "the third quarter"."""

_TIME_UNIT = (r"(?:milli)?seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|fortnights?|months?|"
              r"quarters?|years?|yrs?|decades?|centuries|century")
_DAY_KIND = r"(?:working|business|calendar|school|trading|full|whole|consecutive)"
_OPENING = r"(?:^|[,;:]\s*)(?:[a-z]+\s+){0,1}?(?:(?:roughly|approximately|about|around|exactly)\s+)?how\s+"
"""The wh-phrase that opens the question (or its main clause after a comma), with a preposition before it:
"*Within how many* working days ...", "*After how long* ...", "After October 2022, *roughly how many* ..."."""
_DURATION_Q = re.compile(
    _OPENING + r"(?:long\b(?!\s+(?:is|are|was|were)\s+(?:the|a|an|its|their)\b)|many\s+(?:" + _DAY_KIND +
    r"\s+)?(?:" + _TIME_UNIT + r")\b)|\b(?:what|which)\s+(?:time\s+)?(?:period|duration|length of time|timeframe|"
    r"time\s?frame|deadline\s+in\s+(?:" + _TIME_UNIT + r"))\b|\bhow\s+many\s+(?:" + _DAY_KIND + r"\s+)?(?:" +
    _TIME_UNIT + r")\b", re.I)
"""A question for a duration: "how long does / should / after how long ..." (not "how long is the cable", a
length), "how many (working) days / minutes / years ...", "within what period ..."."""
_DURATION = re.compile(
    r"(?<![\w.])(?:\d+(?:[.,]\d+)?(?:\s*(?:-|–|to)\s*\d+(?:[.,]\d+)?)?|a|an|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|several|few|half an?)"
    r"[\s-]*(?:" + _DAY_KIND + r"\s+)?(?:" + _TIME_UNIT + r"|h|min|ms|s)\b", re.I)
"""A duration: a number or a number word with a unit of time ("20 minutes", "3 working days", "two-year",
"24h", "one year", "5–10 s")."""
_NUMERIC_OPENING = re.compile(_OPENING + r"(?:many|much|large|big|far|fast|slow|high|low|old|often)\b", re.I)
"""An opening "how many / how much ..." asks for a quantity, whatever a later clause says ("... be *written by*
the on-call primary" is a condition on the count, not a question for a person)."""


def answer_type(question: str) -> str:
    """The type of value the question asks for, or "" when it asks for no particular type. The types
    of ``kinds`` (money, address, place, role) come after the value formats and before person/number;
    a duration ("after how long", "how many working days") and an opening "how many / how much" before
    them all but the formats (what a later clause says is a condition)."""
    first = next((name for name, rx in _TYPE_Q if name in _BEFORE_KINDS and rx.search(question)), "")
    if first in ("email", "url", "phone", "date", "year", "quarter", "percent"):
        return first
    if _DURATION_Q.search(question):
        return "duration"
    if first:
        return first
    if _NUMERIC_OPENING.search(question) and not kinds.answer_kind(question) == "money":
        return "number"
    return kinds.answer_kind(question) or next((name for name, rx in _TYPE_Q if rx.search(question)), "")


def has_type(kind: str, text: str, question: str) -> bool:
    """``text`` holds a value of type ``kind`` that the question does not already give."""
    if not kind:
        return True
    if kind == "email":
        return bool(_EMAIL.search(text))
    if kind == "url":
        return bool(_URL.search(text))
    if kind == "phone":
        return any(sum(ch.isdigit() for ch in m.group(1)) >= 7 for m in _PHONE.finditer(text))
    if kind == "date":
        return tx.has_date(text) or bool(_YEAR.search(text) and any(m in text.lower() for m in tx.MONTHS))
    if kind == "when":
        return bool(tx.has_date(text) or _YEAR.search(text) or _MONTH_OR_DAY.search(text) or _TIME_WORDS.search(text))
    if kind == "year":
        return bool({m.group(0) for m in _YEAR.finditer(text)} - {m.group(0) for m in _YEAR.finditer(question)})
    if kind == "quarter":
        return bool({m.group(0).lower() for m in QUARTER.finditer(text)} - {m.group(0).lower() for m in QUARTER.finditer(question)})
    if kind == "percent":
        return bool(_PERCENT.search(text))
    if kind == "duration":
        return any(_new_value(m.group(0), question) for m in _DURATION.finditer(text))
    if kind == "person":
        return bool(_PERSON.search(text))
    if kind in ("money", "address", "place", "role"):
        return kinds.has_kind(kind, text, question)
    new = value_numbers(text) - tx.numbers(question)
    return bool(new) or bool(_WORDED_NUMBER.search(text) or tx.WORDED_NUMBER.search(text))


def _new_value(value: str, question: str) -> bool:
    """A value the question does not already give (by its numbers; a value without digits counts as new)."""
    nums = tx.numbers(value)
    return not nums or bool(nums - tx.numbers(question))


FORMAT_TYPES = frozenset({"email", "url", "phone", "date"})
"""Answer types with a form of their own: a span without one (no "@" for an e-mail address, no date
or year for a date) cannot be the answer, whatever its words."""


def format_mismatch(kind: str, text: str, question: str) -> bool:
    """The question asks for a value with a form of its own and ``text`` holds none (a year, a month or
    a weekday will do for a date)."""
    if kind not in FORMAT_TYPES:
        return False
    if kind == "date":
        return not (tx.has_date(text) or _YEAR.search(text) or _MONTH_OR_DAY.search(text))
    return not has_type(kind, text, question)


def coverage(q_terms: Sequence[str], idf: dict[str, float], terms: set[str]) -> float:
    """IDF-weighted share of the question's terms found in ``terms`` (abbreviations count)."""
    uniq = set(q_terms)
    total = sum(idf.get(t, 1.0) for t in uniq)
    got = sum(idf.get(t, 1.0) for t in uniq if t in terms or tx.prefix_match(t, terms))
    return got / total if total else 0.0


_PERIOD = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)|^'?\d\d$|^(?:[1-4][QH]\d*|[QH][1-4]\d*|FY\S*)$", re.I)
"""A period: a year ("2017", "FY2017", "'22"), a quarter or half ("2Q22", "Q3", "H1")."""


def naming_terms(hits: Sequence[SearchHit]) -> set[str]:
    """Content terms of the issuer, form and designator words that name the hits' documents
    (``SearchHit.doc_terms``: "Acme's", "10-K", "VA Form 21-0966"): they say which document, never which
    span, so a cover line that repeats them is no answer. Periods are left out of them: a release's
    "2Q22" is also the column asked for."""
    words = [w for h in hits for w in h.doc_terms if not (any(ch.isdigit() for ch in w) and _PERIOD.search(w))]
    return set(tx.content_terms(" ".join(words)))


def neighbourhood(hit: SearchHit) -> set[str]:
    """Content terms of a source's page: its chunks, their section headings, the document's name and the
    question's terms its issuer, form and period hold (``SearchHit.doc_terms``: "fiscal 2017" of a filing
    whose cover reports that year is said by the whole filing, not only by its cover page)."""
    chunks = hit.all_chunks()
    text = " ".join([c.text for c in chunks] + [" ".join([*c.section, c.doc_name]) for c in chunks] + hit.doc_terms)
    return set(tx.content_terms(spellings.spell_states(text)))


def agreement(hit: SearchHit) -> float:
    """Mean of 1/√rank over the retrieval channels that ranked this source (dense, keyword)."""
    ranks = [v for k, v in hit.channels.items() if k in ("dense_rank", "sparse_rank") and v and v > 0]
    if not ranks:
        return 0.5
    return sum(1.0 / math.sqrt(r) for r in ranks) / len(ranks)


def names_found(question: str, terms: set[str]) -> tuple[float, int, bool]:
    """(share of the question's names found in ``terms``, how many are missing, a date word among them)."""
    names = tx.key_names(question)
    missing = tx.missing_names(question, terms)
    dates = any(w in tx.MONTHS or w.isdigit() for name in missing for w in name.split())
    return (1.0 - len(missing) / len(names) if names else 1.0), len(missing), dates


def focus_found(question: str, terms: set[str]) -> float:
    """Share of the words of the thing asked for ("what *dividend per share* ...") found in ``terms``;
    1 when the question names no such thing."""
    focus = tx.focus_words(question)
    if not focus:
        return 1.0
    return sum(any(t in terms or tx.prefix_match(t, terms) for t in ts) for ts in focus) / len(focus)


_DATE_UNIT = re.compile(
    r"\b(january|february|march|april|may|june|july|august|september|october|november|december)\b"
    r"(?:\s+\d{1,2}(?:st|nd|rd|th)?,?)?(?:\s+((?:19|20)\d\d)\b)?|\b((?:19|20)\d\d)\b", re.I)


def dates_found(question: str, terms: set[str], years: Set[str] = frozenset()) -> float:
    """Share of the question's dates found in ``terms``; a month counts with its year ("October 2015"
    is found only where both are). "May" counts only with a year (it is also a verb). 1 when the
    question names no date. A bare year is found in ``years`` too (the years the answer's document states on
    its other retrieved pages: "the *2000* API score" is read from a table headed ``api00``, the year said in
    the document's introduction); a month is the page's own."""
    units: list[list[str]] = []
    for m in _DATE_UNIT.finditer(question):
        if m.group(1):
            if m.group(1).lower() == "may" and not m.group(2):
                continue
            units.append([m.group(1).lower(), *([m.group(2)] if m.group(2) else [])])
        else:
            units.append([m.group(3)])
    if not units:
        return 1.0
    found = sum(all(w in terms or tx.prefix_match(w, terms) for w in u) or (len(u) == 1 and u[0] in years)
                for u in units)
    return found / len(units)


SUPPORT_FACTORS = ("focus_span", "type_near", "names_found", "conditions")
SOFT = (0.5, 0.5, 0.5, 0.5)
"""What is left of the support score when a support of ``SUPPORT_FACTORS`` (focus, type, names, conditions)
is missing altogether, per factor: 0.5 halves the evidence."""
DISTINCT = ("distinct_names", "distinct_focus", "distinct_span")
DISTINCT_FLOORS = (0.0, 1.0, 1.0)
"""What is left of the support score when a distinguishing name/designator/count, or a term of the thing
asked, is found nowhere around the answer, or no name is in the quoted span (``distinct_names`` /
``distinct_focus`` / ``distinct_span`` = 0, see ``pagelens.answer.distinct``); 1.0 leaves the feature out.
Fit with the cut by ``bench/answer_cv.py`` on the tuning PDFs (every fold chose the same triple): a name or
count that no source states withholds the answer (0.0); the focus terms are left out (1.0), as pages
paraphrase them ("ZIP code" for a field called ZIP); so is the span share (1.0), as right answers often have
a name of the question in the row or paragraph beside their span. Refit on the four development sets pooled
(``answer_cv.py --pool [--fit-soft]``, 261 questions, 44 unanswerable) the cut, floors and ``SOFT`` gain
nothing cross-validated over these, so they stay."""


def support_score(x: Sequence[float], floors: Sequence[float] = DISTINCT_FLOORS,
                  soft: Sequence[float] = SOFT) -> float:
    """One score for abstaining (``answer.abstain = "support"``): the evidence score times the share of
    the question's dates found (a page of another month answers nothing), times ``soft + (1 - soft) · f``
    for each support ``f`` in ``SUPPORT_FACTORS`` (``SOFT``: one ``soft`` per factor), times
    ``floor + (1 - floor) · d`` for the three distinct features ``d`` (``DISTINCT``: the question's
    distinguishing names and focus terms stated by the sources, its names in the quoted span) with their
    ``floors``. No feature weight is fit: only the cut
    (``answer.abstain_support``), the three floors and the four soft factors are,
    by ``bench/answer_cv.py``'s cross-validation over PDFs."""
    f = dict(zip(FEATURES, x, strict=True))
    s = f["score"] * f["dates_found"]
    for name, k in zip(SUPPORT_FACTORS, soft, strict=True):
        s *= k + (1 - k) * f[name]
    for name, floor in zip(DISTINCT, floors, strict=True):
        s *= floor + (1 - floor) * f[name]
    return s


_PAGE_YEAR = re.compile(r"(?<![\w.])(?:1[5-9]|20)\d\d(?![\w.])")  # a year on its own, not inside a number or a code


def answer_support(
    question: str, q_terms: list[str], idf: dict[str, float], hits: Sequence[SearchHit], best: Candidate, margin: float,
) -> tuple[tuple[float, ...], tuple[str, ...]]:
    """The support features (``FEATURES``) of an answer, and the rules that withhold it (``extractive``).
    Names, dates and the question's words are looked for in the best snippet's own neighbourhood (its
    page's chunks, their section headings and the document's name): an answer from a page that never
    mentions "October" does not answer a question about October. A bare year is also found on the other
    retrieved pages of the answer's document (``dates_found``)."""
    near = neighbourhood(hits[best.source])
    near |= set(tx.content_terms(" ".join(spellings.spelled_acronyms(question, " ".join(c.text for c in hits[best.source].all_chunks())))))
    doc = hits[best.source].chunk.doc_name
    near |= spellings.terms_named_by(question, [doc])  # "ICCO" of icco-members.pdf
    if best.kind == "field" and best.source_kind == "form":
        # A form's pages are one filing: the member named by page 1's fields is the one page 2's fields are for.
        near |= {t for h in hits if h.chunk.doc_name == doc for c in h.all_chunks() if c.kind == "form"
                 for t in tx.content_terms(c.text)}
    found, missing, dates = names_found(question, near)
    years = {m.group(0) for h in hits if h.chunk.doc_name == doc for c in h.all_chunks()
             for m in _PAGE_YEAR.finditer(" ".join([c.text, *c.section]))}
    kind = answer_type(question)
    span = " ".join([best.match_text, best.label])
    features = (
        best.score, best.lexical, coverage(q_terms, idf, near), float(has_type(kind, span, question)),
        found, max(0.0, margin), agreement(hits[best.source]), best.semantic,
        focus_found(question, near), dates_found(question, near, years),
    )
    every = {t for h in hits for c in h.all_chunks() for t in tx.content_terms(c.text)}
    flags = tuple(name for name, on in (
        ("date", dates), ("names", missing >= 2), ("focus", tx.missing_focus(question, every)),
        ("type", format_mismatch(kind, span, question)),
    ) if on)
    return features, flags


def quoted_context(c: Candidate, hits: Sequence[SearchHit]) -> list[str]:
    """What a quoted snippet states about itself: its scored text (a row carries its header and caption),
    its row label, and the section headings of the chunk it comes from."""
    head = " ".join(c.text.split())[:40]
    chunk = next((ch for ch in hits[c.source].all_chunks() if c.page in ch.pages and head in " ".join(ch.text.split())),
                 None)
    return [c.match_text, c.label, *(chunk.section if chunk is not None else ())]
