"""Whether the sources state what DISTINGUISHES the asked thing, not only its topic.

A near-miss question has its topic on the page and lacks the one thing that picks the asked fact:
"the first quarter" where only the second is reported, "Instagram" users where only Facebook's are
given, American Samoa in a table of other territories, a nine-month column where the statement has
three- and six-month ones. The answerer then quotes the look-alike. The evidence of absence is
general: a distinguishing term of the question that no retrieved source states.

The question's distinguishing units (``units``), each of which must be found whole:

* its names (``text.key_names``: runs of capitalised words, acronyms, years, months; a possessive ends
  one, "Cribari-Neto's | HC4") less the words the documents' names hold ("Kroger" in a Kroger release is
  said on every page: "*Music*" of "Fabrikam Music"; a name of three words whose initials the document's
  name holds, "National Hydro Network" of "geobase-nhn-model.pdf", goes whole) and the capitalised
  words of a phrase that names a document ("on the *Global Electronics* HR employee form",
  ``DOCUMENT_NOUNS``), each word needed;
* its lower-case identifiers (a word with a digit or an underscore: "glp_minisat1", "utf8");
* its designators (``kinds.designators``: "Class *B*", "Table *3*");
* its counts and ordinals before a noun ("*nine* months", "the *first* quarter"; not "the first to
  start"), matched as words or as digits before the same noun ("6 Months", "2nd quarter", "Q1"), and its
  numbers other than years ("aged *65*"), as pages group them ("1200" is "1,200", "10%" "10 per cent");
  not a slide or page number ("on slide 7": where to look) nor a count that opens the asked phrase
  ("which *two* regions": how many things answer, which a page seldom counts);
* the terms of the thing asked for (``focus.focus_of``: "what *fax* number", "what *label smoothing*
  value"), each weighted by its rarity among the retrieved snippets (``focus_weights``: IDF over its
  largest possible value): a term every snippet holds distinguishes nothing, one no snippet holds
  distinguishes most. Words that a value of a type supports ("percentage", "price") are left to
  ``focus``.

Each unit is looked for in every retrieved source of the documents the answer quotes (their chunks
and section headings; the caller passes those, ``extractive``): a page of another document that happens
to hold the name ("Hispanic" in a data set's notes, asked of an arrests table without that column) says
nothing about the quoted one. Counting every document's sources let 1 of 11 realdocs and 1 of 15
abstain-fresh near-misses through, and no answerable question of the dev, realdocs or abstain-fresh sets
needed them (cross-validation by PDF unchanged, #10). Two
features come out: ``distinct_names``, 0 when a name, designator or count is stated by no source, else 1;
and ``distinct_focus``, the lowest ``1 - weight`` of a focus term no source states. ``support.support_score``
multiplies ``floor + (1 - floor) · d`` for each, with floors fit by ``bench/answer_cv.py`` on the tuning
PDFs: every fold chose 0 for names (one the sources never state withholds the answer) and 1 for focus
terms (left out: pages paraphrase them, "ZIP code" for a field called ZIP, "grand total" for a Totals row).

A name is stated only as whole terms (``Sources.states``), never as a prefix either way ("Fit" and
"FitH" do not state "FitB"; "BERT" does not state "BERTology"), and a name of several words only where
they stand close together in one sentence or table row (``PROXIMITY``): "GRIMBERG MARQUEZ PAULA" and
"SOSA MARIA" do not state "GRIMBERG MARQUEZ MARIA". Spellings are normalised on the sources' side: case,
possessives, hyphenated or adjacent words joined ("BERT-Large", "BERT LARGE" state "BERTLarge"), camel
case split ("CoastalIsland" states "Island"), a footnote mark dropped ("Institute2"), Greek letters and
abbreviated months spelt out ("β2" states "beta2", "Mar." "March"). The prefix matching it replaces let
the FitB near-miss of freshdocs through and withheld nothing right on dev, realdocs, freshdocs or
abstain-fresh once these spellings were read (#10).

Only absence from every source counts. A third feature, ``distinct_span``, is for names stated for
another fact ("HC2" in a list of estimators, the answer about HC0): the share of the question's
identifiers that the quoted spans state themselves (``in_span``: the snippet's row with its header and
caption, sentence or field, and its section headings). Over every name, designator and count it was
below 1 for 17 of 130 right dev/realdocs/freshdocs/abstain-fresh answers (a name in the sentence before,
in the table's title) against 20 of 44 unanswerable questions, most withheld already; over identifiers
only, for no right answer and for one near-miss not withheld (freshdocs' HC2). ``bench/answer_cv.py``
fits its floor with the others; with no such case in the dev tuning folds every fold leaves it out
(1.0, the first of equal fits), so it changes no answer until a tuning set holds one. Looking first in the span's own context (a cell's row label and
column header, a field's label, a sentence) and then in its page was tried, scoring a unit found only
on the page 0.8 and only in another source 0.6: on the dev tuning PDFs answerable and unanswerable
questions sat at those levels alike, and on the realdocs check they withheld three right answers (a
regression's variable named in the code above its table). A look-alike row or sentence whose page does
state the asked instance is left to ``focus`` (``kinds.designator_conflict``, ``period_conflict``). No
word list of any document is used; the number, document and superlative words are general English.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from pagelens.answer import kinds, spellings
from pagelens.answer import text as tx
from pagelens.answer import markdown as md
from pagelens.answer.letters import fold
from pagelens.answer.focus import TYPE_WORDS, Focus

_COUNTS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
_ORDINALS = {w: i for i, w in enumerate(
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split())}
_SUPERLATIVES = ("lowest highest largest smallest greatest least most fewest biggest earliest latest longest shortest "
                 "fastest slowest cheapest first last").split()
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.,%'’\-]*")


@dataclass(frozen=True)
class Unit:
    """One distinguishing thing of the question: ``terms`` (stems, all needed), or a ``pattern`` on the
    raw text (a count or ordinal), or a designator (``key`` with one of ``designators``)."""

    label: str
    weight: float = 1.0
    focus: bool = False  # a term of the thing asked (``distinct_focus``), not a name or count
    terms: tuple[str, ...] = ()
    pattern: re.Pattern[str] | None = None
    key: str = ""
    designators: frozenset[str] = frozenset()

    def found(self, sources: Sources) -> bool:
        if self.key:
            return bool(kinds.designators(sources.text, capitals=True).get(self.key, set()) & self.designators)
        if self.pattern is not None:
            return bool(self.pattern.search(sources.text))
        if self.focus:  # the thing asked may be abbreviated or joined ("tel" for telephone): prefixes count
            return all(t in sources.terms or tx.prefix_match(t, sources.terms) for t in self.terms)
        return sources.states(self.terms)


def units(question: str, doc_names: Sequence[str], focus: Focus, focus_weights: dict[str, float]) -> list[Unit]:
    """The distinguishing units of ``question`` (see the module docstring); ``focus_weights``: the
    focus terms' weights in 0..1 (``focus_weights``). Accents are off on both sides (``letters.fold``)."""
    question = fold(question)
    out: list[Unit] = []
    docs = _doc_terms(doc_names) | _naming_document(question)
    # "International Council of Containership Operators" of icco-members.pdf (split by "of" into two names)
    docs |= spellings.terms_named_by(question, doc_names)
    for name in tx.key_names(_POSSESSIVE.sub(r"\1 ,", question)):  # "Cribari-Neto's HC4": two names, not one
        if _acronym(name) and _acronym(name) in docs:  # "National Hydro Network" of "geobase-nhn-model.pdf"
            continue
        own = tuple(t for t in name if t not in docs)  # "Fabrikam Music" in Fabrikam's release: "music"
        # "Secretary Fish" is stated by "HAMILTON FISH" under "The Secretary of State": a title is no part of
        # the name it goes with, and is seldom printed beside it.
        own = own[1:] if len(own) > 1 and own[0] in _title_stems() else own
        if own:
            out.append(Unit(" ".join(own), terms=own))
    for ident in _identifiers(question):
        out.append(Unit(ident, terms=(tx.stem(re.sub(r"[-_]", "", ident)),)))
    for key, des in kinds.designators(question).items():
        out.append(Unit(f"{key} {'/'.join(sorted(des))}", key=key, designators=frozenset(des)))
    named = {t for u in out for t in u.terms}
    labels = set()
    # A cardinal that opens the asked phrase says how many things the answer names ("which *two* regions", "the *top 4*
    # ideas"), not which: a page lists them without counting them. An ordinal there still picks one ("the
    # *second* step").
    words = [w.lower() for w in focus.words]
    asked = set(words[:1]) | (set(words[1:2]) if words[:1] == ["top"] else set())  # the phrase's first word
    for u in _count_units(question):
        if u.label in asked and u.label not in _ORDINALS:
            continue
        if u.label not in named and u.label not in labels:
            labels.add(u.label)
            out.append(u)
    for t in focus.terms:
        if t in TYPE_WORDS or t in named or t.isdigit() or t in _superlative_stems():
            continue
        out.append(Unit(t, weight=focus_weights.get(t, 1.0), terms=(t,), focus=True))
    return out


_IDENTIFIER = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:[_-]?[a-z0-9]+)*(?![\w-])")


def _identifiers(question: str) -> list[str]:
    """Lower-case identifiers of the question: a word that starts with a letter and holds a digit or an
    underscore ("glp_minisat1", "utf8", "x86"). Names in capitals are ``text.key_names``'."""
    return list(dict.fromkeys(m.group(0) for m in _IDENTIFIER.finditer(question)
                              if "_" in m.group(0) or any(ch.isdigit() for ch in m.group(0))))


_IDENTIFIER_TERM = re.compile(r"[a-z]\d|\d[a-z]")  # letters and digits in one term: "hc2", "specjvm98"
_POSSESSIVE = re.compile(r"(['’]s)(?=\s)")


DOCUMENT_NOUNS = frozenset("form report release paper filing document statement handbook manual table slide slides "
                           "presentation article study brochure sheet guide".split())
"""Nouns that name a document or a part of one: the capitalised words before them name it ("on the *Global
Electronics* HR employee form"), they do not pick a fact inside it."""
_NAMING_SPAN = 5  # words looked back from a document noun


def _naming_document(question: str) -> set[str]:
    """Stems of the capitalised words of a phrase that names a document: the words before a
    ``DOCUMENT_NOUNS`` noun back to the nearest function word ("the", "a", "of" ...)."""
    toks = re.findall(r"[A-Za-z0-9][A-Za-z0-9'’.\-]*", question)
    out: set[str] = set()
    for i, tok in enumerate(toks):
        if tok.lower() not in DOCUMENT_NOUNS:
            continue
        for w in reversed(toks[max(0, i - _NAMING_SPAN):i]):
            if w.lower() in tx.STOPWORDS:
                break
            if w[:1].isupper():
                out.update(tx.content_terms(w.removesuffix("'s").removesuffix("’s")))
    return out


TITLES = ("mr mrs ms dr prof professor sir president secretary senator congressman congresswoman governor mayor "
          "minister ambassador consul judge chancellor colonel captain admiral lieutenant sergeant commander chairman "
          "chairwoman bishop reverend").split()
"""Titles and honorifics that go before a person's name ("*Secretary* Fish", "*President* Grant", "*Dr.* Kingma"):
a name that opens with one is stated without it. Words that also open names of organisations ("General", "Major",
"Justice", "King") are left out."""


@lru_cache(maxsize=1)
def _title_stems() -> frozenset[str]:
    return frozenset(tx.stem(w) for w in TITLES)


@lru_cache(maxsize=1)
def _superlative_stems() -> frozenset[str]:
    """Superlatives are read from the values (extreme rows), not looked for."""
    return frozenset(tx.stem(w) for w in _SUPERLATIVES)


def _doc_terms(doc_names: Sequence[str]) -> set[str]:
    return {t for d in doc_names for t in tx.content_terms(re.sub(r"[_\W]+", " ", d.rsplit(".", 1)[0]))}


def focus_weights(focus: Focus, texts: Sequence[str]) -> dict[str, float]:
    """Each focus term's rarity among ``texts`` (the candidate snippets), as IDF over its largest
    possible value: 1 for a term no snippet holds."""
    sets = [set(tx.content_terms(t)) for t in texts]
    n = len(sets)
    top = math.log(1 + (n + 1))
    return {t: math.log(1 + (n + 1) / (1 + sum(t in s or tx.prefix_match(t, s) for s in sets))) / top
            for t in focus.terms}


def _grouped(num: str) -> str:
    """A pattern for ``num`` as pages print it: "2500" also as "2,500", "2 500" or "2.500" (thousands grouped),
    "10%" also as "10 per cent"."""
    if num.endswith("%"):  # "10%" also as "10 %", "10 per cent"
        return _grouped(num[:-1]) + r"\s?(?:%|per\s?cent)"
    whole, dot, rest = num.partition(".")
    if len(whole) < 4 or not whole.isdigit():
        return re.escape(num)
    groups = [whole[max(0, i - 3):i] for i in range(len(whole), 0, -3)][::-1]
    return r"[,.\s\u2009\u202f]?".join(groups) + (re.escape(dot + rest) if dot else "")


_LOCATORS = frozenset("page pages p pp slide slides sheet sheets".split())
"""Words whose number is a place in the document, not a count of the asked thing."""


def _count_units(question: str) -> list[Unit]:
    """Counts and ordinals ("nine months", "first quarter") and bare numbers other than years."""
    toks = _TOKEN.findall(question)
    out: list[Unit] = []
    for i, tok in enumerate(toks):
        low = tok.lower().strip(".,'’")
        if i and toks[i - 1].lower().strip(".,") in _LOCATORS:
            continue  # "on slide 7", "page 2 of the form": where to look, which the page's text seldom prints
        nxt = toks[i + 1].lower().strip(".,?'’") if i + 1 < len(toks) else ""
        stem = re.escape(nxt[:4]) if len(nxt) >= 3 and nxt not in tx.STOPWORDS else ""
        if (low in _COUNTS or low in _ORDINALS) and stem:  # "nine months", not "the first to start"
            n = _COUNTS.get(low, _ORDINALS.get(low))
            alts = [rf"\b{low}\b", rf"\b{n}(?:st|nd|rd|th)?[\s-]*{stem}"]
            if stem.startswith("quar"):
                alts.append(rf"\bQ{n}\b|\b{n}Q\d\d")
            out.append(Unit(low, pattern=re.compile("|".join(alts), re.I)))
        elif re.fullmatch(r"\d+(?:[.,]\d+)?%?", low) and not tx.YEARLIKE.fullmatch(low):
            num = tx.normalise_number(low)
            out.append(Unit(num, pattern=re.compile(rf"(?<![\w.]){_grouped(num)}(?![\d])")))
    return out


PROXIMITY = 2
"""A name of n words is stated where all n stand within ``n + PROXIMITY`` content words of one sentence or
table row ("Susan Li, CFO" states "CFO Susan Li"); the same words spread over a list of other names
("GRIMBERG ..., ... MARQUEZ ..., MARIA ...") do not state it."""


@dataclass(frozen=True)
class Sources:
    """What the retrieved sources state: their chunks' text and section headings, as whole terms (stems of
    words, of hyphenated words joined, of two adjacent words joined: "Fit B" states "FitB"), as the
    terms of each sentence or table row in order, and as text."""

    terms: frozenset[str]
    text: str
    segments: tuple[tuple[str, ...], ...] = ()
    abbreviations: frozenset[str] = frozenset()  # "corp" of "Microsoft Corp. revenue"

    @classmethod
    def of(cls, texts: Sequence[str]) -> Sources:
        texts = [fold(t) for t in texts]
        segments = tuple(seg for t in texts for seg in _segments(t))
        joined = {tx.stem(a + b) for t in texts for line in t.splitlines()
                  for ws in [re.findall(r"[a-z0-9]+", _plain(line).lower())] for a, b in zip(ws, ws[1:])}
        abbreviations = frozenset(m.group(1).lower() for t in texts for m in _ABBREVIATION.finditer(t))
        return cls(frozenset({t for seg in segments for t in seg} | joined), " ".join(texts), segments, abbreviations)

    def states(self, name: Sequence[str]) -> bool:
        """Every word of ``name`` is a whole term here (not a prefix: "Fit" does not state "FitB"), the
        words close together in one sentence or row; or the name joined is one term ("BERT-Large" is
        stated by "BERTLARGE"). Months and years come unstemmed from ``text.key_names``: they are stemmed here."""
        name = [t if t in self.terms else tx.stem(_MONTHS.get(t, t)) for t in name]  # "Mar." is read as "march"
        # A fiscal year is stated by its year: "FY2018" and "FY18" by the "2018" a statement's column prints.
        name = [year if t not in self.terms and (year := tx.fiscal_year(t)) in self.terms else t for t in name]
        # An identifier with inner punctuation ("M63x1.5", "v2.0") is one term of its characters.
        name = [t if t in self.terms or (bare := re.sub(r"\W", "", t)) not in self.terms else bare for t in name]
        name = [next((a for a in self.abbreviations if t.isalpha() and t.startswith(a) and len(t) >= len(a) + 2), t)
                if t not in self.terms else t for t in name]
        if all(t in self.terms for t in name) and (len(name) == 1 or any(_near(name, seg) for seg in self.segments)):
            return True
        return len(name) > 1 and ("".join(name) in self.terms or _acronym(name) in self.terms)


_ABBREVIATION = re.compile(r"\b([A-Z][a-z]{2,})\.(?=\s+[a-z0-9,(])")  # "Corp." mid-sentence: not "the Fit. The"
_FOOTNOTE = re.compile(r"(?<![\w\-.])([A-Z]?[a-z]{4,})(\d{1,2})(?![\w\-])")  # "Institute2": a word, its footnote mark
_CAMEL = re.compile(r"\b[A-Z]?[a-z]{2,}(?:[A-Z][a-z]{2,}|[A-Z]{2,}(?![a-z]))+\b")  # "CoastalIsland", "islandNid": words joined
_CAMEL_CUT = re.compile(r"(?<=[a-z])(?=[A-Z])")
_MONTHS = {m[:3]: m for m in "january february march april may june july august september october november "
           "december".split()}
_MONTH_ABBR = re.compile(r"\b(Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\b\.?")
_GREEK = dict(zip("αβγδεζηθικλμνξοπρστυφχψω", "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi "
                  "omicron pi rho sigma tau upsilon phi chi psi omega".split()))
_GREEK_RE = re.compile("[" + "".join(_GREEK) + "]")


def _acronym(name: Sequence[str]) -> str:
    """The initials of a name of three or more words ("National Hydro Network": "nhn"); "" for a shorter one."""
    return "".join(t[0] for t in name) if len(name) >= 3 else ""


def _plain(text: str) -> str:
    """Possessives off and curly apostrophes straight ("Kroger’s" is "Kroger"); a word with a footnote mark
    glued on ("Ponemon Institute2") states the word too (an identifier in capitals, with an underscore or
    a hyphen, "HC2", "glp_intfeas1", "crypto-sha1", is left whole); words joined in camel case state each
    word ("CoastalIsland" states "Island", not "FitB" "Fit"); Greek letters and abbreviated months ("Mar.")
    are spelt out, and so is a US state's postal code before a ZIP code ("CA 94612" states "California"). (An abbreviation mid-sentence, "Microsoft Corp. revenue", states the words it begins:
    "Corporation"; a prefix without its period does not.)"""
    text = _GREEK_RE.sub(lambda m: _GREEK[m.group(0)], text)  # "β2" is written "beta2" in a question
    text = _MONTH_ABBR.sub(lambda m: _MONTHS[m.group(1)[:3].lower()], text)  # "Mar. 29" states "March"
    text = spellings.spell_states(text)  # "Oakland, CA 94612" states "California"
    text = _CAMEL.sub(lambda m: f"{m.group(0)} {_CAMEL_CUT.sub(' ', m.group(0))}", text)
    return _FOOTNOTE.sub(r"\1 \1\2", re.sub(r"['’]s\b", "", text).replace("’", "'"))


SHORT_LINE_WORDS = 8
"""A line of at most this many words (a heading, a label, a bill's item) is one segment too: "Contrib. Custeio
Ilum Pública" is one name, though the sentence splitter cuts it after the abbreviation's period."""


def _segments(text: str) -> list[tuple[str, ...]]:
    """The terms of each table row (a markdown line), of each sentence of the other lines, and of each
    short line whole (``SHORT_LINE_WORDS``)."""
    lines = text.splitlines()
    rows = [ln for ln in lines if md.is_table_line(ln)]
    prose = tx.split_sentences("\n".join(ln for ln in lines if not md.is_table_line(ln)))
    short = [ln for ln in lines if not md.is_table_line(ln) and 1 < len(ln.split()) <= SHORT_LINE_WORDS]
    return [tuple(tx.content_terms(_plain(s))) for s in [*rows, *prose, *short]]


def _near(name: Sequence[str], seg: Sequence[str]) -> bool:
    """All of ``name`` within ``len(name) + PROXIMITY`` consecutive terms of ``seg``."""
    want = set(name)
    if not want <= set(seg):
        return False
    width = len(want) + PROXIMITY
    return any(want <= set(seg[i:i + width]) for i, t in enumerate(seg) if t in want)


def distinct(us: Sequence[Unit], sources: Sources) -> tuple[float, float]:
    """The features (``distinct_names``, ``distinct_focus``): 0 when a name, designator or count of the
    question is stated by no source, else 1; the lowest ``1 - weight`` of a focus term no source states
    (1 when every one is stated)."""
    names = all(u.found(sources) for u in us if not u.focus)
    focus = min((1.0 - u.weight for u in us if u.focus and not u.found(sources)), default=1.0)
    return float(names), focus


def in_span(us: Sequence[Unit], quoted: Sources) -> float:
    """The feature ``distinct_span``: the share of the question's identifiers (a one-word name with letters
    and digits: "HC2", "SpecJVM98", "glp_minisat1") that the quoted spans state themselves (a row with its
    header and caption, a sentence, a field, with their section headings); 1 when the question has none.
    "HC2" stated in a list of estimators does not put it in the quoted sentence about HC0."""
    idents = [u for u in us if not u.focus and len(u.terms) == 1 and _IDENTIFIER_TERM.search(u.terms[0])]
    return sum(u.found(quoted) for u in idents) / len(idents) if idents else 1.0
