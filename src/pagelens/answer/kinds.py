"""Answer types of things rather than numbers, and the qualifiers that pick one thing among its kind.

``support.answer_type`` reads the expected type from the question's wh-word and head noun; this module
adds the types a span can be checked for without a gazetteer:

* ``money`` ("what *price* / *cost* / *fee* / *dividend* / *salary*", "... *in dollars*"): a currency
  amount — a symbol or a currency word beside a number. A price change in percent is not a price.
* ``address`` ("what *home address* / *street address* / *mailing address*"): a house number before
  capitalised words ("133 Tin Drive"), a street word after a number, a P.O. box, or "City, ST 12345".
  A bare telephone number in a field called "Home" is not an address.
* ``place`` ("*which city / country / state / town* ...", "*where* is ... located / based /
  headquartered"): a capitalised name the question does not already give, either standing alone as
  a short value (a form field, a row label) or in running text after a locative preposition ("in
  Mountain View"), as a dateline ("CINCINNATI, September 8, 2023"), or as the town of an address line
  ("Tarzana, CA 91356", "DK-1098 Copenhagen").
* ``role`` ("what *job title* / *position* / *occupation* ...", "what title does X *hold*"): a role
  noun of general English (officer, director, chairman, specialist ...) — a job title, not a file's
  title property.

Two qualifier checks read the question's modifiers of the thing asked for:

* ``designator_conflict``: the question names an instance by a key word and a designator
  ("Class *B*", "Series *A*", "Table *3*", "Phase *II*"); a span that names the same key word only
  with other designators ("Class A ... Class C") is about another instance.
* ``parties``: whom the asked value belongs to ("for the *emergency contact*"); a form field is
  that party's only when its label says so (``focus.attachment``).
* ``contrast_conflict``: the question names one of a contrasting pair ("the on-call *secondary*", "*diluted*
  EPS") and the span names only another ("rules for the *primary*").
* ``named_instance_conflict``: the question names "*Black Moss* Reservoir" and the span only "*Hollins*
  Reservoir".
* ``modifier_conflict``: the same with a lower-case modifier: "*brass* ball valves" asked, only "stainless
  steel *butterfly* valves" in the span.
* ``period_conflict``: the question names a fiscal quarter ("2Q22", "Q2 2022", "the second quarter of
  2022") and the span names only other quarters.
* ``missing_event``: a question for the time of an event ("has X been *listed*") and a sentence
  that dates something else.

The word lists are general English (question syntax, role nouns, street words), not any document's terms.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence, Set

from pagelens.answer import text as tx

ENTITY_KINDS = frozenset({"person", "place", "role"})
"""Types whose answer in a table is the row's label, not a cell value."""

_MONEY_Q = re.compile(
    r"\b(what|which|how much)\b[^?]*?\b(prices?|costs?|fees?|dividends?|salar(y|ies)|wages?|"
    r"pay(ment)?s? per)\b|\bin (us )?(dollars|euros|pounds|usd|eur)\b|\bdollar (amount|value)\b", re.I)
_ADDRESS_Q = re.compile(r"\b(what|which)\b[^?]*?\b(home|street|mailing|postal|business|office|physical|"
                        r"residential|shipping|billing)?\s*address\b", re.I)
_PLACE_Q = re.compile(
    r"\b(which|what|in which|in what)\s+(city|country|state|town|county|province|village|nation|capital|"
    r"location|place|region|municipality)\b|^\s*where\b[^?]*\b(located|based|headquartered|situated|born|held|"
    r"live[sd]?|reside[sd]?)\b", re.I)
_ROLE_Q = re.compile(
    r"\b(job\s+title|job\s+position|occupation|profession)\b|"
    r"\b(what|which)\s+(title|position|office|role)\s+(does|did|do|is|was|has|had)\b[^?]*\b(hold|holds|held|have|has|"
    r"serve|serves|served|occupy|occupies)\b", re.I)

_CURRENCY = re.compile(r"[$€£¥]\s?\(?\d|\d\s?(usd|eur|gbp|dollars?|euros?|cents?)\b|\b(usd|eur|gbp)\s?\d|"
                       r"\((?:usd|eur|gbp|[$€£¥])\)\s*:?\s*\d", re.I)  # ... or a label's unit: "Fee paid (EUR): 45"
_STREET = re.compile(
    r"\b\d{1,6}\s+(?:[A-Z][A-Za-z'’.-]*\s+){0,4}(?:street|st|avenue|ave|road|rd|drive|dr|lane|ln|boulevard|blvd|"
    r"way|court|ct|place|pl|parkway|pkwy|square|sq|terrace|highway|hwy|circle|cir|trail|alley)\b\.?|"
    r"\bp\.?\s?o\.?\s+box\s+\d+|^\s*\d{1,6}\s+[A-Z][A-Za-z'’.-]+(\s+[A-Z][A-Za-z'’.-]+){0,3}\s*$|"
    r"\b[A-Z][a-z]+(\s+[A-Z][a-z]+)*,\s+[A-Z]{2}\s+\d{5}\b", re.I)
_NAME = re.compile(r"\b[A-Z][A-Za-z'’.-]+(?:\s+(?:[A-Z][A-Za-z'’.-]+|of|de|la|du|von|van))*")
_LOCATIVE = re.compile(r"\b(in|at|near|from|to|located in|based in|headquartered in|born in)\s+(the\s+)?"
                       r"([A-Z][A-Za-z'’.-]+(?:\s+[A-Z][A-Za-z'’.-]+)*)")
_DATELINE = re.compile(r"(?:^|[.!?]\s+)([A-Z][A-Z .'-]{2,})(?:,\s*[A-Z][A-Za-z.]*)?,\s+(january|february|march|april|"
                       r"may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|"
                       r"sept|oct|nov|dec)\b", re.I)
_POSTAL_PLACE = re.compile(
    r"\b([A-Z][A-Za-z'’.-]+(?:\s+[A-Z][A-Za-z'’.-]+){0,2}),\s+[A-Z]{2}\s+\d{5}(?:-\d{4})?\b|"
    r"(?<![\w-])(?:[A-Z]{1,2}-\d{4,5}|\d{5})\s+([A-Z][a-z]{2,}(?:\s+[A-Z][a-z]{2,})?)\b")
"""The town of an address line: before a US state and ZIP code ("Tarzana, CA 91356"), or after a postal code
of five digits or with a country prefix ("20457 Hamburg", "DK-1098 Copenhagen"; four bare digits before a
name are more often a year or a count, "2019 Google", "1234 Results")."""
_MONTHS = frozenset(tx.MONTHS) | {m[:3] for m in tx.MONTHS} | {"sept"}
_MONTH_STEMS = frozenset(t for m in _MONTHS for t in tx.content_terms(m))
ROLE_WORDS = frozenset(
    "chairman chairwoman chairperson chair president vice ceo cfo coo cto cio cmo officer director manager founder "
    "cofounder co-founder head chief secretary treasurer partner specialist engineer analyst consultant professor "
    "lecturer researcher scientist editor minister governor mayor senator judge attorney counsel lawyer accountant "
    "administrator architect developer designer assistant supervisor executive owner clerk nurse physician doctor "
    "teacher intern trustee auditor controller superintendent commissioner ambassador captain lead principal "
    "technician officer coordinator representative advisor adviser associate fellow dean provost chancellor "
    "inspector agent pilot programmer economist strategist".split())
"""General English role nouns: a job title names one of them."""

# "Class B", "Phase II", "Item 7"; not the first letter of a compound ("What R-squared", "an X-ray")
_DESIGNATOR = re.compile(r"\b([A-Z][a-z]{2,})\s+([A-Z]|[IVX]{1,4}|\d{1,3})\b(?![.,]?\d)(?![-'’][a-z])")
# Words that cannot carry a designator: function words, and the question and auxiliary words that open
# a question before a capital ("What R ...", "Does X ...").
_NOT_KEYS = frozenset("the and for with from what which who whom whose when where why how does did do is are "
                      "was were has have had can could should would will shall may might must".split())
_MONEY_NAME = re.compile(r"\b(prices?|costs?|fees?|dividends?|salar(y|ies)|wages?|dollars?|usd|eur|euros?)\b|"
                         r"[$€£¥]", re.I)


def money_cell(cell: str, names: str) -> bool:
    """A table cell that holds an amount of money: a currency sign or word in the cell, or a number in
    a row or column whose names say price, cost, dividend, dollars ... ("Average price per Class A
    share | 95.30")."""
    return bool(_CURRENCY.search(cell)) or bool(tx.numbers(cell) and _MONEY_NAME.search(names))


def answer_kind(question: str) -> str:
    """``money``, ``address``, ``place`` or ``role`` when the question asks for one, else ""."""
    if _ROLE_Q.search(question):
        return "role"
    if _ADDRESS_Q.search(question):
        return "address"
    if _PLACE_Q.search(question):
        return "place"
    if _MONEY_Q.search(question):
        return "money"
    return ""


def has_kind(kind: str, text: str, question: str) -> bool:
    """``text`` holds a value of ``kind`` (one of ``answer_kind``'s) that the question does not give."""
    if kind == "money":
        return bool(_CURRENCY.search(text))
    if kind == "address":
        return bool(_STREET.search(text))
    if kind == "role":
        return bool({w.lower().strip(".,;:()") for w in text.split()} & ROLE_WORDS)
    if kind == "place":
        return _has_place(text, question)
    return True


def _new_name(name: str, question: str) -> bool:
    """A capitalised name that the question does not already hold (by stem) and that is no month."""
    q = set(tx.content_terms(question))
    terms = [t for t in tx.content_terms(name) if t not in _MONTH_STEMS]
    return bool(terms) and not all(t in q or tx.prefix_match(t, q) for t in terms)


_VENUE = re.compile(
    r"\b(?:Room|Rm\.?|Suite|Building|Bldg\.?|Floor|Auditorium|Lab|Laboratory|Lecture Theatre|Hall)\s+[A-Z0-9][\w.-]*|"
    r"\b[A-Z][A-Za-z'’-]+(?:\s+[A-Z][A-Za-z'’-]+)?\s+(?:Hall|Building|Centre|Center|Library|Auditorium|Theatre|"
    r"Theater|Tower|Stadium|Arena|Pavilion|Campus|Farm|House|Cottages?|Grange|Manor|Lodge|Mill)\b")
"""A venue: a room, a suite, a floor, a named building ("Room 317", "Bexley Hall", "Suite 200", "Upper Weald Farm"):
where a meeting or office hours are held, where someone lives."""


def _has_place(text: str, question: str) -> bool:
    flat = " ".join(text.split())
    if any(_new_name(m.group(0), question) for m in _VENUE.finditer(flat)):
        return True
    if len(flat.split()) <= 4 and any(_new_name(m.group(0), question) for m in _NAME.finditer(flat)):
        return True  # a short value: a form field, a row label
    if any(_new_name(m.group(3), question) for m in _LOCATIVE.finditer(flat)):
        return True
    if any(_new_name(m.group(1).title(), question) for m in _DATELINE.finditer(flat)):
        return True
    return any(_new_name(m.group(1) or m.group(2), question) for m in _POSTAL_PLACE.finditer(flat))


_CAPS_DESIGNATOR = re.compile(r"\b([A-Z]{3,})\s+([A-Z]|[IVX]{1,4}|\d{1,3})\b(?![.,]?\d)(?![-'’][A-Za-z])")


def designators(text: str, capitals: bool = False) -> dict[str, set[str]]:
    """Key word (lower case) → the designators it carries in ``text`` ("Class A and Class C" → {class: {A, C}});
    a month before a number is a date, not a designator. ``capitals``: a key in capitals counts too ("DD FORM
    293", "CLASS B": how forms and headings print them) — for the sources' text, not a question's."""
    out: dict[str, set[str]] = {}
    found = [*_DESIGNATOR.finditer(text), *(_CAPS_DESIGNATOR.finditer(text) if capitals else ())]
    for m in found:
        key = m.group(1).lower()
        if key in _MONTHS or key in _NOT_KEYS:
            continue
        out.setdefault(key, set()).add(m.group(2).upper())
    return out


def document_words(doc_name: str) -> str:
    """A document's file name as capitalised words, for ``designators``: "dd-form-293.pdf" names "Form 293"."""
    return " ".join(w.capitalize() for w in re.sub(r"[_\W]+", " ", doc_name.rsplit(".", 1)[0]).split())


def designator_conflict(question: str, context: str, wider: str = "", doc_name: str = "") -> bool:
    """The question names "Key X" and ``context`` names the same key only with other designators, or
    ``wider`` (the span with its caption or label) does not name "Key X" at all, and neither does the
    name of the span's document (``doc_name``): "DD Form 293" of dd-form-293.pdf names the form every
    page of it is about, not an instance that each sentence must repeat."""
    asked = designators(question)
    if not asked:
        return False
    found = designators(context, capitals=True)
    if any(key in found and not (found[key] & des) for key, des in asked.items()):
        return True
    around = designators(f"{wider or context} {document_words(doc_name) if doc_name else ''}", capitals=True)
    return any(not (around.get(key, set()) & des) for key, des in asked.items())


_CONTRASTS: tuple[tuple[str, ...], ...] = (
    ("primary", "secondary", "tertiary"), ("upper", "lower"), ("minimum", "maximum"), ("male", "female"),
    ("men", "women"), ("boys", "girls"), ("domestic", "international", "foreign"), ("import", "export"),
    ("imports", "exports"), ("input", "output"), ("inbound", "outbound"), ("internal", "external"),
    ("basic", "diluted"), ("gross", "net"), ("pre-tax", "after-tax"), ("full-time", "part-time"),
    ("inpatient", "outpatient"), ("weekday", "weekend"), ("adult", "child"), ("adults", "children"),
    ("senior", "junior"), ("long-term", "short-term"), ("undergraduate", "graduate", "postgraduate"),
    ("residential", "commercial"), ("urban", "rural"), ("fixed", "variable"),
)
"""Words of general English that name one of a pair (or three) of contrasting instances: the *secondary* on-call
engineer is not the primary, a *diluted* EPS not the basic one."""
_CONTRAST_OF = {w: set(group) - {w} for group in _CONTRASTS for w in group}


def _contrast_words(text: str) -> set[str]:
    return {w for w in re.findall(r"(?<![\w-])[a-z]+(?:-[a-z]+)?(?![\w-])", text.lower()) if w in _CONTRAST_OF}


def contrast_conflict(question: str, text: str) -> bool:
    """The question names one of a contrasting pair ("the on-call *secondary*", "*diluted* EPS") and ``text`` (a
    span with its heading, label or header) names only another of the pair ("rules for the *primary*")."""
    asked = _contrast_words(question)
    if not asked:
        return False
    said = _contrast_words(text)
    return any(not (w in said) and (_CONTRAST_OF[w] & said) and not (_CONTRAST_OF[w] & asked) for w in asked)


_PARTY = re.compile(r"\b(?:for|of)\s+(?:the|a|an|this|that|each|your|his|her|their)\s+((?:[a-z][a-z-]*\s+){0,2}[a-z][a-z-]*)"
                    r"(?=\s+(?:on|in|at|according|listed|given|entered|shown|of|from|\?|$)|\s*[?,])|"
                    r"\b(?:the|a|an|this|that)\s+((?:[a-z][a-z-]*\s+){0,2}[a-z][a-z-]*)['’]s\b")


def parties(question: str) -> list[list[str]]:
    """Whom the asked value belongs to, by a common noun ("... given *for the emergency contact*", "*the
    emergency contact's* address"), as lists of stems; names (capitalised) are ``text.key_names``'s."""
    out = []
    for m in _PARTY.finditer(question):
        terms = tx.content_terms(m.group(1) or m.group(2))
        if terms:
            out.append(terms)
    return out


_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_PERIODS = (
    re.compile(r"\b([1-4])Q[\s'’]?(\d{4}|\d{2})\b", re.I),  # 2Q22
    re.compile(r"\bQ([1-4])[\s'’-]*(?:fy\s?)?(\d{4}|\d{2})\b", re.I),  # Q2 2022, Q2'22
    re.compile(r"\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?(?:fiscal\s+)?"
               r"(?:year\s+)?(\d{4})\b", re.I),  # second quarter of 2022
)


def periods(text: str) -> set[tuple[int, str]]:
    """The fiscal quarters ``text`` names, as (quarter, two-digit year): "2Q22", "Q2 2022" and "the second
    quarter of 2022" are all (2, "22")."""
    out: set[tuple[int, str]] = set()
    for rx in _PERIODS:
        for m in rx.finditer(text):
            q = m.group(1).lower()
            out.add((_ORDINAL.get(q) or int(q), m.group(2)[-2:]))
    return out


def period_conflict(question: str, context: str) -> bool:
    """The question names a quarter ("in 2Q22") and ``context`` names quarters, none of them that one
    ("… grown 2.6% in the 2nd quarter of 2023")."""
    asked = periods(question)
    if not asked:
        return False
    found = periods(context)
    return bool(found) and not (found & asked)


_NAMED_RUN = re.compile(r"\b[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)+")


def _named_heads(text: str, skip_first: bool = False) -> dict[str, set[frozenset[str]]]:
    """Head word (the last of a run of capitalised words, stemmed) → the specific words before it of each run:
    "Black Moss Reservoir" → {reservoir: {{black, moss}}}."""
    out: dict[str, set[frozenset[str]]] = {}
    for m in _NAMED_RUN.finditer(text):
        words = m.group(0).split()
        if skip_first and m.start() == 0:
            words = words[1:]  # a question's first word is capitalised anyway
        words = [w for w in words if w.lower() not in tx.STOPWORDS]
        if len(words) < 2:
            continue
        specific = frozenset(tx.stem(w.lower()) for w in words[:-1])
        out.setdefault(tx.stem(words[-1].lower()), set()).add(specific)
    return out


def named_instance_conflict(question: str, context: str) -> bool:
    """The question names a thing by its own name and a kind ("*Black Moss* Reservoir") and ``context`` names
    things of that kind only by other names ("*Hollins* Reservoir, the largest ..."): it is about another one.
    (A bare "the Reservoir" or a name of another kind says nothing either way.)"""
    asked = _named_heads(question, skip_first=True)
    if not asked:
        return False
    said = _named_heads(context)
    for head, names in asked.items():
        others = said.get(head)
        if others and not any(n <= o or o <= n for n in names for o in others):
            return True
    return False


_TOKENS = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d[\w.,]*|[^\sA-Za-z\d]")
_PLAIN = re.compile(r"[A-Za-z]{3,}")


def _plain(word: str) -> bool:
    """A plain content word: letters only (no hyphenated compound, whose parts a page may write apart), no
    function word, no number word."""
    low = word.lower()
    return bool(_PLAIN.fullmatch(word)) and low not in tx.STOPWORDS and not tx.WORDED_NUMBER.fullmatch(low)


def _near(word: str, words: Set[str]) -> bool:
    """``word`` or a spelling of it is among ``words`` ("metre"/"meter", "winter"/"overwinter", "max"/"maximum")."""
    return any(word == w or (min(len(word), len(w)) >= 4 and (word in w or w in word))
               or (min(len(word), len(w)) >= 3 and (word.startswith(w) or w.startswith(word)))
               or difflib.SequenceMatcher(None, word, w).ratio() >= 0.8 for w in words)


def _compound(word: str) -> bool:
    """A hyphenated modifier of content words ("Anti-HCV", "long-term"): a page's own name for a kind."""
    parts = [p for p in word.split("-") if p]
    return len(parts) > 1 and all(p.isalpha() for p in parts) and any(_plain(p) for p in parts)


def _near_all(mod: str, words: set[str]) -> bool:
    """``mod`` is used by ``words``: a compound ("anti-hcv") when each of its parts is one of them (by stem: a
    part is short, and "anti" is a prefix of the question's "antigen", no use of it)."""
    if "-" not in mod:
        return _near(mod, words)
    stems = {tx.stem(w) for w in words}
    return all(tx.stem(p) in stems for p in mod.split("-") if len(p) >= 3 and p not in tx.STOPWORDS)


def _modified_heads(text: str, question: bool) -> list[tuple[str, str]]:
    """(modifier, head) of each two adjacent plain words of ``text`` ("stainless steel *butterfly valves*"). In a
    question only a lower-case modifier (a capitalised one is a name: ``named_instance_conflict``) of a head
    that ends the phrase (a function word, a mark or the end follows) and is no participle ("inspired"). In a
    context a hyphenated modifier counts too ("*Anti-HCV* test" is a sibling of the asked "core antigen test")."""
    toks = _TOKENS.findall(text)
    out = []
    for i, (m, h) in enumerate(zip(toks, toks[1:])):
        if not ((_plain(m) or (not question and _compound(m))) and _plain(h)):
            continue
        if question:
            after = toks[i + 2].lower() if i + 2 < len(toks) else "?"
            if not m.islower() or h.lower().endswith("ed") or (after[0].isalnum() and after not in tx.STOPWORDS):
                continue
        out.append((m.lower(), h.lower()))
    return out


def modifier_conflict(question: str, context: str) -> bool:
    """The question names a kind of thing by a lower-case modifier ("a *nuclear* plant", "*brass* ball valves")
    and ``context`` names things of that kind only with other modifiers the question does not use ("Steam
    plant", "stainless steel butterfly valves") and never the asked one: it is about a sibling instance."""
    asked = _modified_heads(tx.ask_part(question) or question, question=True)
    if not asked:
        return False
    q_words = {w.lower() for w in _PLAIN.findall(question)}
    # a compound is one word of the context: the "anti" of "Anti-HCV" is no prefix of "antigen"
    c_words = {w.lower() for tok in _TOKENS.findall(context) for w in ([tok] if _compound(tok) else _PLAIN.findall(tok))}
    said = _modified_heads(context, question=False)
    for mod, head in asked:
        if _near(mod, c_words):
            continue
        others = {m for m, h in said if tx.stem(h) == tx.stem(head)}
        if others and not any(_near_all(m, q_words) for m in others):
            return True
    return False


_PARTICIPLE = re.compile(r"\b(?:is|are|was|were|been|be|being|has|have|had)\s+(?:\w+\s+){0,4}?([a-z]{3,}(?:ed|en))\b")
_TIME_KINDS = frozenset({"date", "when", "year"})


def missing_event(question: str, kind: str, sentence: str) -> bool:
    """A question for the time of an event ("since what date has X been *listed*", "when was it
    *founded*") and a sentence that dates something without that event: its date is another event's."""
    if kind not in _TIME_KINDS:
        return False
    events = [m.group(1) for m in _PARTICIPLE.finditer(tx.ask_part(question) or question)]
    if not events:
        return False
    stems = {tx.stem(w.lower()) for w in re.findall(r"[A-Za-z]+", sentence)}  # "listed" is a question word too
    return not any(tx.stem(e) in stems for e in events)


_UNIT_WORDS = frozenset(tx.content_terms(
    "how long many much time period duration second seconds minute minutes hour hours day days week weeks month "
    "months quarter quarters year years working business calendar"))


def missing_action(question: str, kind: str, sentence: str, focus_terms: Sequence[str] = ()) -> bool:
    """A question for how long an action takes or may take ("within how many working days must the review
    be *written*", "after how long should the primary *escalate*") and a sentence that states a duration
    without any of the question's other words (its focus, names and words of time left out): the
    duration of another action ("*Write the review* within 3 working days" for "... to *close a change
    request*")."""
    if kind != "duration":
        return False
    names = {t for n in tx.key_names(question) for t in tx.content_terms(" ".join(n))}
    asked = [t for t in tx.content_terms(tx.ask_part(question) or question)
             if t not in _UNIT_WORDS and t not in names and t not in focus_terms]
    if not asked:
        return False
    stems = set(tx.content_terms(sentence))
    return not any(t in stems or tx.prefix_match(t, stems) for t in asked)
