"""What a question asks for (its focus) and how closely an answer's span is attached to it.

The focus is the noun phrase the wh-word asks about, with its modifiers: "What *dividend per share* did
Meta declare ...", "How many *full-time employees* ...", "What *e-mail address* did ...", "Who is the
*chief executive* ...". A possessor ("Meta's") is a name, not the focus (``text.key_names`` covers it);
"of" joins only after a measure word ("the *number of employees*", "what *share of the tokens*").
"What *does* the applicant propose ...", "what *did* the board approve": the noun after the auxiliary is the
verb's subject, and the question names no thing (``text.DO_AUX``).

Two support features come from it (see ``pagelens.answer.support``):

* ``focus_span``: IDF-weighted share of the focus's terms found in the span's immediate context —
  for a table cell its row label, its column header and the table's caption; for a sentence the
  sentence itself; for a form field its label. Topic words elsewhere on the page do not count: a
  page about per-share results that never says "dividend" does not support a dividend. The only
  paraphrases accepted are of value types: "percentage" is supported by a "%", "price" or "cost"
  by a currency amount, "year" by a year, "date" by a date (``TYPE_WORDS``). Class words ("what
  *quantity* is plotted", "which *colour* marks ...") name the kind of the answer, not a thing the
  document states, and are not looked for (``CLASS_WORDS``). The terms of a "per" unit weigh half
  (``UNIT_WEIGHT``: a dividend per share is a dividend first). A question for a value (a number, a
  date, an e-mail address ...) needs its focus; one for a thing of a kind ("which *state* ...") is
  answered by an instance that seldom repeats the kind, so there a miss costs half (``ENTITY_FLOOR``).
* ``type_near``: the question's answer type (``support.answer_type``: a number, a percentage, a year,
  a date, a person, an e-mail address ...) has a value in the span that is attached to the focus: the
  asked cell of a row whose label or column names the focus, or a clause that holds both (1.0), an
  adjacent clause (``NEAR_CLAUSE``), the same sentence only (``SAME_SENTENCE``); 0 when the span holds
  no value of that type; 1 when the question asks for no particular type.
* ``conditions``: the question's numbers other than years ("with *12* g", "*6* layers") in the span.

A span about another instance of the asked thing is not attached to it, whatever its words
(``kinds.designator_conflict``: "Class B" asked, "Class A" quoted; ``kinds.period_conflict``: "2Q22" asked, "the 2nd
quarter of 2023" quoted; ``kinds.modifier_conflict``: "brass ball valves" asked, only "butterfly valves"
quoted): its ``focus_span`` is 0 and its ``type_near`` at most
``SAME_SENTENCE``. A span without a value of the asked type does not state the asked thing either, whatever
words of the focus it holds ("the average price per ad decreased by 16%" for a price in dollars):
``focus_span`` 0 with ``type_near`` 0. For a thing of a kind (a person, a place, a role) a table row's label is the value.

The answer's quoted snippets are each measured and the best counts (``best_attachment``). The words
lists below are general English (question syntax, measure and class nouns), not any document's terms.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence, Set
from dataclasses import dataclass

from pagelens.answer import kinds, span, spellings
from pagelens.answer import support as sp
from pagelens.answer import text as tx
from pagelens.answer.candidates import LABEL_VALUE, Candidate

NEAR_CLAUSE = 0.6  # the typed value is in the clause next to the one naming the focus
SAME_SENTENCE = 0.3  # ... further away in the same sentence
MAX_FOCUS_WORDS = 5
NAMED = 0.5  # a clause or a row names the focus when it holds this IDF-weighted share of its terms
UNIT_WEIGHT = 0.5  # weight of the terms of a "per ..." unit against the thing measured
ENTITY_FLOOR = 0.5  # focus_span of a question for a thing of a kind whose span does not name the kind
VALUE_KINDS = frozenset({"number", "percent", "year", "date", "email", "url", "phone", "money", "duration"})
# A number inside a code names something, it is no quantity: "10-K", "8-K", "S-1", "COVID-19" (not "12-month"),
# a course or a standard in capitals ("PHYS 214", "ISO 9001").
_CODE = re.compile(r"(?<![\w-])(?:\d+-[A-Z]{1,2}|[A-Z]{1,5}-\d+|[A-Z]{2,5}\s\d{2,4}[A-Z]?)(?![\w-])")

_WH = re.compile(r"^(what|which|who|whom|whose|how|when|where)$", re.I)
_AUX = frozenset("is are was were be been being do does did has have had can could will would shall should may "
                 "might must".split())
_DET = frozenset("the a an this that these those its their his her our".split())
_BE = frozenset("is are was were be been being".split())
_JOINERS = frozenset({"of", "per"})
_BOUNDARY = frozenset("in on at for by from to with without within during after before since until into over under "
                      "between among as than that which who whom whose where when while if and or".split())
_HOW_ADJ = frozenset("large big long fast slow high low old far wide tall deep heavy often early late small "
                     "short".split())
MEASURE_WORDS = frozenset("number numbers amount share percentage percent proportion fraction rate total count sum "
                          "ratio range thousands millions billions dollars".split())
"""Heads that take their thing from an "of" phrase: "the number of employees" asks about employees."""
CLASS_WORDS = frozenset("quantity thing item kind type sort color colour operation method technique term word "
                        "words label name title notation symbol unit part feature property benefit setting step "
                        "action actions option category format form role job occupation profession city "
                        "country state town county province village nation location place region territory "
                        "period duration timeframe".split())
"""Words that name the kind of the answer rather than a thing the document states about it (a place's
or a role's kind too: "in which *city* ..." is answered by "in Mountain View"; a duration's: "within what
*period*" is answered by "within one year")."""
QUANTITY_WORDS = frozenset("rate rates price prices cost costs amount total number count score accuracy size value "
                           "ratio income revenue revenues profit loss expense expenses expenditure expenditures "
                           "earnings sales salary temperature duration length width height weight speed resistance "
                           "perplexity f1 percentage dividend dividends tax charge population efficiency yield "
                           "capacity volume depth distance diameter thickness altitude elevation age mass density "
                           "pressure voltage frequency energy budget fee fees wage wages rent premium balance margin "
                           "turnover".split())
"""Focus words that name a quantity: the question wants a number even without "how many"."""
ATTAIN = re.compile(r"\b(do|does|did)\b[^?,;]*?\b(reach|achieve|attain|obtain|score)\b|"
                    r"\b(is|are|was|were)\s+(reached|achieved|attained|obtained)\b", re.I)
"""What a "what X ..." question says after its focus when X is a level reached ("what AIC does the model
*reach*", "what MAPE did the method *achieve*", "what accuracy is *obtained*"): X is a quantity even when
it is no word of ``QUANTITY_WORDS``."""
_NOUNS = MEASURE_WORDS | QUANTITY_WORDS | CLASS_WORDS  # nouns among text.STOPWORDS ("value", "name", "type")
TYPE_WORDS: dict[str, str] = {
    "percentag": "percent", "percent": "percent", "proport": "percent", "fraction": "percent", "share": "percent",
    "price": "currency", "cost": "currency", "dollar": "currency", "usd": "currency", "eur": "currency",
    "year": "year", "date": "date", "day": "date", "number": "number", "count": "number", "amount": "number",
    "total": "number", "mani": "number", "quarter": "quarter",
}
"""Focus stems that a value of a type supports ("what percentage" — a "%"; "what price" — "$12")."""
_CURRENCY = re.compile(r"[$€£¥]\s?\d|\d\s?(usd|eur|gbp|dollars?|euros?|cents?)\b", re.I)
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_'’.\-/]*|[^\sA-Za-z0-9]")


@dataclass(frozen=True)
class Focus:
    words: tuple[str, ...]  # the focus as written ("dividend", "per", "share")
    terms: tuple[str, ...]  # its content stems, class words left out ("dividend", "share")
    kind: str  # the expected answer type (``support.answer_type``), "" for none
    units: tuple[str, ...] = ()  # terms of a "per ..." unit ("share" of "dividend per share")

    def __bool__(self) -> bool:
        return bool(self.terms)


def focus_of(question: str) -> Focus:
    """The thing ``question`` asks for (see the module docstring); empty when it names none
    ("Who wrote ...?", "When did ...?")."""
    kind = sp.answer_type(question)
    toks = _TOKEN.findall(question)
    start = _wh_index(toks)
    if start is None:
        return Focus((), (), kind)
    i = start + 1
    wh = toks[start].lower()
    if wh == "how":
        if i < len(toks) and toks[i].lower() in ("many", "much"):
            i += 1
        elif i < len(toks) and toks[i].lower() in _HOW_ADJ:
            i += 1
            if i < len(toks) and toks[i].lower() in _BOUNDARY:
                return Focus((), (), kind)  # "after how long *without progress* ...": a condition, not a thing
        else:
            return Focus((), (), kind)
    if wh in ("when", "where") or (wh in ("who", "whom") and i < len(toks) and toks[i].lower() not in _AUX):
        return Focus((), (), kind)  # "Who wrote ...": a verb follows, the question names no thing
    if wh in ("what", "which") and i < len(toks) and toks[i].lower() in tx.DO_AUX:
        return Focus((), (), kind)  # "What does *the applicant* propose ...": the noun is the verb's subject
    words: list[str] = []
    skipping = True  # auxiliaries and determiners before the phrase ("what was the ...")
    while i < len(toks) and sum(w.lower() not in _JOINERS for w in words) < MAX_FOCUS_WORDS:
        tok = toks[i]
        low = tok.lower()
        nxt = toks[i + 1].lower() if i + 1 < len(toks) else "?"
        i += 1
        if not words and wh == "how" and low in _AUX and low not in _BE:
            break  # "how much did Meta spend": the thing asked is a verb's amount, no noun
        if skipping and (low in _AUX or low in _DET):
            continue
        if re.search(r"[A-Za-z]['’]s?$", tok) and len(tok) > 2:  # "Meta's", "person's" own the focus
            skipping = True
            continue
        if not re.match(r"[A-Za-z0-9]", tok):  # punctuation ends the phrase
            if words:
                break
            continue
        if low == "of":
            if words and words[-1].lower() in MEASURE_WORDS:
                words.append(tok)
                skipping = True
                continue
            break
        if low == "per" and words:
            words.append(tok)
            continue
        if tok == "A" and words and words[-1][:1].isupper():
            words.append(tok)  # "Class A share": a name's letter, not an article
            continue
        if words and (low in _AUX or low in _BOUNDARY or low in _DET or _is_verb(low, nxt)):
            break
        if not words and (low in _BOUNDARY or (low in tx.STOPWORDS and low not in _NOUNS)):
            continue  # "Who is *named as the* author ...": verbs and particles before the noun
        skipping = False
        words.append(tok)
    terms = [t for w in words if w.lower() not in CLASS_WORDS and w.lower() not in _JOINERS
             for t in tx.content_terms(w)]
    per = next((k for k, w in enumerate(words) if w.lower() == "per"), len(words))
    units = ({t for w in words[per + 1:] for t in tx.content_terms(w)}
             - {t for w in words[:per] for t in tx.content_terms(w)})
    heads = [w.lower() for w in words if w.lower() not in _JOINERS]
    attained = wh == "what" and bool(ATTAIN.match(" ".join(toks[i - 1:])))  # the words after the focus
    if not kind and heads and (set(heads) & QUANTITY_WORDS or attained):
        kind = "number"  # "what corrosion rate ...", "what dividend per share ...", "what AIC does it reach"
    return Focus(tuple(words), tuple(dict.fromkeys(terms)), kind, tuple(units))


def _is_verb(word: str, nxt: str) -> bool:
    """A word that ends the noun phrase as its verb: a question word of ``text.STOPWORDS`` that is
    no measure ("*reported*", "*appears*", "*named*"), or an -s/-ed/-ing form followed by an article
    ("which colour *marks the* rows", "who *developed the* ...")."""
    if word in tx.STOPWORDS and word not in _NOUNS:
        return True
    return nxt in ("the", "a", "an") and len(word) > 4 and bool(re.search(r"(?<!s)s$|ed$|ing$", word))


def _wh_index(toks: Sequence[str]) -> int | None:
    """The wh-word that opens the question: the first at the start or after a comma, else the first."""
    first = None
    for i, tok in enumerate(toks):
        if _WH.match(tok):
            if i == 0 or toks[i - 1] in (",", ";", ":") or (i <= 2 and toks[0].lower() in ("in", "on", "at", "by",
                                                                                          "for", "to", "from")):
                return i
            first = i if first is None else first
    return first


def supported(term: str, context_terms: set[str], context_text: str) -> bool:
    """A focus term found in a context: the stem itself, an abbreviation of it, or (for value-type
    words) a value of its type."""
    if term in context_terms or tx.prefix_match(term, context_terms):
        return True
    kind = TYPE_WORDS.get(term)
    if kind == "percent":
        return sp.has_type("percent", context_text, "")
    if kind == "currency":
        return bool(_CURRENCY.search(context_text))
    if kind == "year":
        return sp.has_type("year", context_text, "")
    if kind == "date":
        return tx.has_date(context_text)
    if kind == "number":
        return bool(tx.numbers(context_text))
    if kind == "quarter":
        return bool(sp.QUARTER.search(context_text))
    return False


def focus_idf(focus: Focus, texts: Sequence[str]) -> dict[str, float]:
    """IDF of the focus's terms over ``texts`` (the candidate snippets of the retrieved sources),
    matched as ``supported`` matches them: a term every snippet holds says little. The terms of a
    "per" unit weigh ``UNIT_WEIGHT`` of that: a dividend per share is a dividend first."""
    sets = [set(tx.content_terms(t)) for t in texts]
    n = len(sets)
    return {t: math.log(1 + (n + 1) / (1 + sum(t in s or tx.prefix_match(t, s) for s in sets)))
            * (UNIT_WEIGHT if t in focus.units else 1.0) for t in focus.terms}


def _cover(focus: Focus, idf: dict[str, float], context: str, values: str = "") -> float:
    terms = set(tx.content_terms(context))
    text = f"{context} {values}"
    total = sum(idf.get(t, 1.0) for t in focus.terms)
    got = sum(idf.get(t, 1.0) for t in focus.terms if supported(t, terms, text if t in TYPE_WORDS else context))
    return got / total if total else 1.0


def focus_span(focus: Focus, idf: dict[str, float], context: str, values: str = "") -> float:
    """IDF-weighted share of the focus's terms that ``context`` supports (value-type words may be
    supported by ``values``, the span's values); 1 for a question without a focus. A question for a
    value ("what dividend per share") needs its focus; one for a thing of a kind ("which state ...",
    "what job title") is answered by an instance that rarely repeats the kind, so a miss costs half. A
    span that holds only the unit of the asked measure ("per share") and not the measure supports none of it."""
    if not focus:
        return 1.0
    cover = _cover(focus, idf, context, values)
    if focus.kind in VALUE_KINDS and focus.units and not _cover(_measured(focus), idf, context, values):
        return 0.0  # only the unit: "per share" of earnings is no dividend per share
    return cover if focus.kind in VALUE_KINDS else ENTITY_FLOOR + (1 - ENTITY_FLOOR) * cover


def _measured(focus: Focus) -> Focus:
    """The focus without its "per ..." unit: the thing measured."""
    return Focus(focus.words, tuple(t for t in focus.terms if t not in focus.units), focus.kind)


def type_near(focus: Focus, question: str, pieces: Sequence[str], named: Sequence[bool]) -> float:
    """How closely a value of the asked type is attached to the focus in a span cut into ``pieces``
    (a sentence's clauses, or a table cell or form value as one piece); ``named[i]``: piece ``i``
    (or its row label and column header) names the focus."""
    if not focus.kind:
        return 1.0
    typed = [sp.has_type(focus.kind, p, question) for p in pieces]
    if not any(typed):
        return 0.0
    if not focus or not any(named):
        return 1.0 if not focus else SAME_SENTENCE
    best = 0.0
    for i, ok in enumerate(typed):
        if ok:
            d = min(abs(i - j) for j, n in enumerate(named) if n)
            best = max(best, 1.0 if d == 0 else NEAR_CLAUSE if d == 1 else SAME_SENTENCE)
    return best


def conditions_found(question: str, text: str, doc_name: str = "") -> float:
    """Share of the question's numbers other than years ("with *12* g", "*6* layers") that ``text`` holds;
    1 when it gives none. Years are names (``text.key_names``), checked on the page; so are numbers
    inside codes ("its 2017 *10*-K") and numbers the name of the span's document holds ("DD Form *293*"
    of dd-form-293.pdf names the form, it is no condition each sentence repeats)."""
    named = tx.numbers(kinds.document_words(doc_name)) if doc_name else set()
    given = {n for n in tx.numbers(_CODE.sub(" ", question)) if not tx.YEARLIKE.fullmatch(n) and n not in named}
    if not given:
        return 1.0
    return len(given & tx.numbers(text)) / len(given)


def attachment(focus: Focus, question: str, c: Candidate, col: int | None, idf: dict[str, float],
               anchors: Sequence[Sequence[str]] = (), parties: Sequence[Sequence[str]] = ()
               ) -> tuple[float, float, float]:
    """(``focus_span``, ``type_near``, ``conditions``) of candidate ``c``; ``col``: a table row's asked column;
    ``anchors``: the names a place or a role is asked of (``anchor_names``); ``parties``: whom the value
    belongs to ("for the emergency contact", ``anchor_names(..., kinds.parties(question))``): a form
    field is theirs only when its label names them (the form's own subject is in its name)."""
    found = _attachment(focus, question, c, col, idf)
    if parties and c.kind == "field" and (m := LABEL_VALUE.match(c.text)):
        label = set(tx.content_terms(m.group(1)))
        if not all(any(t in label or tx.prefix_match(t, label) for t in p) for p in parties):
            found = 0.0, min(found[1], SAME_SENTENCE), found[2]
    if focus.kind in ("place", "role") and anchors:
        terms = set(tx.content_terms(c.match_text))
        if not all(any(t in terms or tx.prefix_match(t, terms) for t in name) for name in anchors):
            found = found[0], 0.0, found[2]  # a place or a title of something else
    if focus.kind and found[1] == 0.0:
        return 0.0, 0.0, found[2]  # no value of the asked type: the span does not state the asked thing
    return found


def anchor_names(question: str, doc_names: Sequence[str], names: Sequence[Sequence[str]] | None = None,
                 named: Set[str] = frozenset()) -> list[list[str]]:
    """The question's names (``text.key_names``) that its documents' names do not hold: "In which city
    is *Albertsons* headquartered?" asks a place of Albertsons, and a place in a sentence without
    Albertsons (a dateline, another company's address) is not its answer. A name of the document
    ("Kroger" in a Kroger report) is taken as said on every page, and so is a name its file name spells
    ("International Council of Containership Operators" of icco-members.pdf); so are ``named``, the terms that name the
    documents (``support.naming_terms``: an issuer, a deck's footer "On-call at Halvorsen Bank")."""
    docs = {t for d in doc_names for t in tx.content_terms(re.sub(r"[_\W]+", " ", d.rsplit(".", 1)[0]))}
    docs |= spellings.terms_named_by(question, doc_names)
    docs |= set(named)
    given = tx.key_names(question) if names is None else names
    return [list(n) for n in given if not all(t in docs or tx.prefix_match(t, docs) for t in n)]


def _attachment(focus: Focus, question: str, c: Candidate, col: int | None, idf: dict[str, float]
                ) -> tuple[float, float, float]:
    if c.kind == "row" and c.cells:
        caption = c.match_text[len(c.text):]
        names = " ".join(dict.fromkeys([c.label, c.cells[0]]))
        if col is not None and col < len(c.cells):
            head = c.header[col] if col < len(c.header) else ""
            context, pieces, own = f"{names} {head} {caption}", [c.cells[col]], f"{names} {head}"
        else:
            context, pieces, own = f"{names} {' '.join(c.header)} {caption}", [c.text], c.text
        pieces = [_money_value(focus, question, pieces[0], f"{own} {caption}")]
        if focus.kind in kinds.ENTITY_KINDS:
            pieces = [f"{c.label or c.cells[0]} {pieces[0]}" if len(pieces[0]) < 40 else c.label or c.cells[0]]
        named = [_cover(focus, idf, context, pieces[0]) >= NAMED]
        found = (focus_span(focus, idf, context, pieces[0]), type_near(focus, question, pieces, named),
                 conditions_found(question, c.match_text, c.doc))
        return _qualified(found, question, own, None, f"{own} {c.match_text}", c.doc)
    if c.kind == "field" and (m := LABEL_VALUE.match(c.text)):
        named = [_cover(focus, idf, m.group(1), m.group(2)) >= NAMED]
        value = _money_value(focus, question, m.group(2), m.group(1))  # "Fee paid (EUR): 45"
        found = (focus_span(focus, idf, m.group(1), value), type_near(focus, question, [value], named),
                 conditions_found(question, c.text, c.doc))
        return _qualified(found, question, m.group(1), None, c.match_text, c.doc)
    text = f"{c.label} {c.text}" if c.kind == "figtext" else c.text
    pieces = span.clauses(text) or [text]
    named = [_cover(focus, idf, p) >= NAMED for p in pieces]
    found = focus_span(focus, idf, text), type_near(focus, question, pieces, named), conditions_found(question, text, c.doc)
    return _qualified(found, question, text, text if c.kind in ("sentence", "figure") else None, c.match_text, c.doc,
                      focus.terms)


def _money_value(focus: Focus, question: str, value: str, names: str) -> str:
    """``value`` read as an amount of money when a money question asks and its row, column or label (``names``)
    gives the currency or says price, cost, fee ... ("Average price per share | 95.30", "Fee paid (EUR): 45")."""
    if focus.kind == "money" and not sp.has_type("money", value, question) and kinds.money_cell(value, names):
        return f"$ {value}"
    return value


def _qualified(found: tuple[float, float, float], question: str, context: str, sentence: str | None,
               wider: str, doc_name: str = "", focus_terms: Sequence[str] = ()) -> tuple[float, float, float]:
    """``found`` unless the span is about another instance of the asked thing (see the module docstring):
    a designator conflict in ``context`` (a row's label and column, a field's label, a sentence) or a
    designator ``wider`` (with the table's caption) lacks, a quarter other than the asked one in ``context``,
    or an event or an action (``focus_terms`` aside) the ``sentence`` does not state. (A superlative the sentence
    does not repeat, "the largest" asked, was one too: on the check sets it withheld right answers only, two of
    them, and no unanswerable question.)"""
    if kinds.designator_conflict(question, context, wider, doc_name) or kinds.period_conflict(question, context) or \
            kinds.contrast_conflict(question, f"{context} {wider}") or kinds.named_instance_conflict(question, context) or \
            kinds.modifier_conflict(question, context) or (
            sentence and (kinds.missing_event(question, sp.answer_type(question), sentence)
                          or kinds.missing_action(question, sp.answer_type(question), sentence, focus_terms))):
        return 0.0, min(found[1], SAME_SENTENCE), found[2]
    return found


def best_attachment(focus: Focus, question: str, quoted: Sequence[tuple[Candidate, int | None]],
                    idf: dict[str, float], anchors: Sequence[Sequence[str]] = (),
                    parties: Sequence[Sequence[str]] = ()) -> tuple[float, float, float]:
    """The best ``attachment`` among the quoted snippets (each with its asked column): the answer
    holds when one of them carries it."""
    return max((attachment(focus, question, c, col, idf, anchors, parties) for c, col in quoted), key=sum,
               default=(0.0, 0.0, 0.0))
