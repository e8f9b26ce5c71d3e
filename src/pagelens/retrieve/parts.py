"""A question's parts: the separate pieces of evidence it asks for, found by cheap linguistic rules.

A question that asks for several things ("net revenue *and* dividends per share", "capital
expenditures *from* fiscal 2017 *to* fiscal 2018", "BERT is pre-trained with an optimizer; *what*
epsilon does that optimizer's paper recommend?") is answered by several pages, often of several
documents. Retrieval for the whole question ranks best the pages that mention *all* of its words
(a summary, a cover, a table of contents), rarely the page holding each fact. So the question is
split into parts, each retrieved on its own (``pagelens.retrieve.multipart``), and the top k keeps
each part's best evidence (``pagelens.retrieve.coverage``).

Rules, tried in this order; the first that applies decides (at most ``MAX_PARTS`` parts):

1. **Clauses**: a ``;`` or a second question word after ``and``/``,``/``?`` ("…, and what is …")
   starts a new clause; each clause is a part.
2. **Ranges**: ``from A to B`` and ``between A and B`` where A and B share a word or both hold a
   number ("from fiscal 2017 to fiscal 2018", "between 2019 and 2020"): the question once with A,
   once with B.
3. **Coordination**: ``A and B``, ``A, B and C``, ``A vs B``, ``A versus B``, ``A compared with B``,
   ``A as well as B``: the conjuncts are the words next to the coordinator up to a boundary (a
   question word, an auxiliary, a preposition other than *of*/*per*, punctuation, a possessive that
   the other conjunct does not mirror); the question once per conjunct, the others left out
   ("What were Acme's net revenue and its dividends in 2018?" → "What were Acme's net revenue in
   2018?", "What were Acme's dividends in 2018?"). A coordination inside a leading context phrase
   ("In the study of speed exercise and nitric oxide in footballers, what was ...") says where to
   look, not what is asked, and is not split, unless its conjuncts are numbers or names ("In 2017 and
   2018, ...", "For Acme and Globex, ...").

Conjuncts without a content word of their own (a BM25 term the other conjuncts lack) are not parts:
"2018 and 2018", "the and". A question none of these rules splits is one part, and is retrieved
exactly as before.

Separately, ``spans_documents`` says the question reaches over more than one document without
necessarily naming them ("both papers", "the other report", "each filing", "the original paper",
"across the reports"): the retriever then finds the documents it implies from the routing scores
(see ``pagelens.retrieve.multipart``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pagelens.index.bm25 import tokenize

MAX_PARTS = 4
"""More parts than this are not split further (a long list reads as one topic)."""
MAX_CONJUNCT_WORDS = 8
"""Words a conjunct may hold (past this the rule is not sure where it starts)."""

WH = frozenset("what which how who whom whose when where why".split())
AUX = frozenset("is are was were do does did has have had can could will would should may might".split())
# Words that end a conjunct: prepositions (not "of"/"per", which stay inside a noun phrase:
# "cost of sales", "dividends per share"), relative words and verbs of comparison.
BOUNDARY = frozenset(
    """in for during at on from to by over with between about according under within across after before
    than into since as that which who compared compare relative against among through throughout""".split()
) | WH | AUX
DETERMINERS = frozenset("its their his her the a an both each".split())
COORDINATORS = (("as", "well", "as"), ("compared", "with"), ("compared", "to"), ("and",), ("vs",), ("vs.",), ("versus",))
DOC_NOUNS = r"(?:papers?|reports?|documents?|filings?|files?|pdfs?|articles?|studies|study|releases?|statements?|10-ks?|10-qs?)"
SPAN_CUES = re.compile(
    r"\b(?:(?:both|each|all|two|three|four)\s+(?:of\s+)?(?:the\s+|these\s+|those\s+)?(?:\w+\s+)?" + DOC_NOUNS
    + r"|(?:the\s+)?other\s+(?:\w+\s+)?" + DOC_NOUNS
    + r"|(?:original|another|second|separate|different)\s+" + DOC_NOUNS
    + r"|across\s+(?:the\s+|these\s+)?(?:\w+\s+)?" + DOC_NOUNS
    + r"|(?:between|in)\s+the\s+(?:two|three)\s+(?:\w+\s+)?" + DOC_NOUNS + r")\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[^\s,;:?!()\[\]\"]+|[,;:?!()\[\]\"]")


@dataclass(frozen=True)
class Part:
    """One piece of evidence a question asks for."""

    text: str
    """The question as asked of this part alone (what is retrieved)."""
    label: str
    """The words that distinguish this part from the others (shown in explanations)."""
    kind: str
    """``clause``, ``range`` or ``coordination`` (``whole`` for an undivided question)."""


@dataclass
class Decomposition:
    question: str
    parts: list[Part] = field(default_factory=list)
    spans_documents: bool = False
    """The question reaches over several documents ("both papers", "the other report")."""

    @property
    def multi(self) -> bool:
        return len(self.parts) >= 2

    def own_terms(self, i: int) -> set[str]:
        """The BM25 terms of part ``i``'s label that no other part's label has."""
        others = set().union(*(set(tokenize(p.label)) for j, p in enumerate(self.parts) if j != i))
        return set(tokenize(self.parts[i].label)) - others


@dataclass
class _Tok:
    text: str
    start: int
    end: int

    @property
    def low(self) -> str:
        return self.text.lower()

    @property
    def punct(self) -> bool:
        return not any(ch.isalnum() for ch in self.text)

    @property
    def possessive(self) -> bool:
        return self.low.endswith(("'s", "\u2019s", "s'"))


def decompose(question: str) -> Decomposition:
    """The parts of ``question`` (one part, the question itself, when no rule splits it)."""
    q = " ".join(question.split())
    out = Decomposition(q, spans_documents=bool(SPAN_CUES.search(q)))
    toks = [_Tok(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(q)]
    for rule in (_clauses, _ranges, _coordination):
        parts = _distinct(rule(q, toks))
        if len(parts) >= 2:
            out.parts = parts[:MAX_PARTS]
            return out
    out.parts = [Part(q, q, "whole")]
    return out


def _distinct(parts: list[Part]) -> list[Part]:
    """Parts whose labels each have a content term the others lack (else: no split)."""
    if len(parts) < 2:
        return []
    terms = [set(tokenize(p.label)) for p in parts]
    for i, t in enumerate(terms):
        others = set().union(*(u for j, u in enumerate(terms) if j != i))
        if not t - others:
            return []
    return parts


def _replace(q: str, start: int, end: int, text: str) -> str:
    return " ".join(f"{q[:start]}{text}{q[end:]}".split())


# -- rule 1: clauses --------------------------------------------------------------------------------
def _clauses(q: str, toks: list[_Tok]) -> list[Part]:
    cuts = []
    asks = bool(toks) and (toks[0].low in WH or toks[0].low in AUX)
    for i, t in enumerate(toks[1:], 1):
        prev = toks[i - 1].low
        if t.low == ";":
            cuts.append((t.start, t.end))
        elif t.low in WH and (prev in {"and", "?", "but", "then"} or (prev == "," and asks)):
            # "…, and what is …": the clause starts at the question word; the joiner goes. A comma
            # alone joins two questions only when the first is one ("How many …, what …"); after
            # an opening phrase ("In Table 2, what …") it does not.
            start = toks[i - 1].start
            if prev == "and" and i >= 2 and toks[i - 2].low == ",":
                start = toks[i - 2].start
            cuts.append((start, t.start))
    if not cuts:
        return []
    pieces, at = [], 0
    for start, end in cuts:
        pieces.append(q[at:start])
        at = end
    pieces.append(q[at:])
    pieces = [" ".join(p.split()).strip(" ,;") for p in pieces]
    pieces = [p for p in pieces if tokenize(p)]
    return [Part(p, p, "clause") for p in pieces]


# -- rule 2: ranges ---------------------------------------------------------------------------------
_RANGE = re.compile(
    r"\b(?:from\s+(?P<a>[^,;?]+?)\s+to\s+(?P<b>[^,;?]+?)|between\s+(?P<c>[^,;?]+?)\s+and\s+(?P<d>[^,;?]+?))"
    r"(?=\s*(?:[,;?.]|$|\b(?:in|for|of|at|on|by|and|as|according)\b))",
    re.IGNORECASE,
)


def _ranges(q: str, toks: list[_Tok]) -> list[Part]:
    for m in _RANGE.finditer(q):
        a, b = (m.group("a"), m.group("b")) if m.group("a") else (m.group("c"), m.group("d"))
        if len(a.split()) > MAX_CONJUNCT_WORDS or len(b.split()) > MAX_CONJUNCT_WORDS:
            continue
        ta, tb = set(tokenize(a)), set(tokenize(b))
        numbers = any(ch.isdigit() for ch in a) and any(ch.isdigit() for ch in b)
        if not (ta & tb or numbers):
            continue
        return [Part(_replace(q, m.start(), m.end(), f"in {x}"), x, "range") for x in (a, b)]
    return []


# -- rule 3: coordination ---------------------------------------------------------------------------
def _coordinator_at(toks: list[_Tok], i: int) -> int:
    """Length of the coordinator starting at token ``i`` (0: none)."""
    for words in COORDINATORS:
        if tuple(t.low for t in toks[i : i + len(words)]) == words:
            return len(words)
    return 0


def _is_boundary(t: _Tok) -> bool:
    return t.punct or t.low in BOUNDARY


def _right(toks: list[_Tok], i: int) -> tuple[int, int]:
    """Token range [i, j) of the conjunct starting at ``i``."""
    j = i
    while j < len(toks) and j - i < MAX_CONJUNCT_WORDS and not _is_boundary(toks[j]) and not _coordinator_at(toks, j):
        j += 1
    return i, j


def _left(toks: list[_Tok], end: int, mirror_possessive: bool) -> list[tuple[int, int]]:
    """Conjuncts ending before token ``end``: one, or several for a comma list ("A, B and C")."""
    items: list[tuple[int, int]] = []
    j = end
    while True:
        i = j
        while i > 0 and j - i < MAX_CONJUNCT_WORDS:
            t = toks[i - 1]
            if _is_boundary(t) or _coordinator_at(toks, i - 1) or t.low in ("both", "either"):
                break
            if t.possessive and not mirror_possessive:
                break
            i -= 1
            if t.possessive or t.low in DETERMINERS:
                break  # "Acme's X and Globex's Y", "joins the A and the B": these open the conjunct
        while i < j and toks[i].low in DETERMINERS:
            i += 1  # "the 2017 and 2018 revenue": the determiner stays outside the conjunct
        if i == j:
            break
        items.insert(0, (i, j))
        if i >= 2 and toks[i - 1].low == "," and not _is_boundary(toks[i - 2]):
            j = i - 1  # a list: "revenue, net income and capex"
            continue
        break
    return items


EXCLUDING = frozenset("besides except excluding unlike beyond".split())
EXCLUDING_PAIRS = frozenset({("apart", "from"), ("other", "than"), ("aside", "from"), ("in", "addition")})
"""Words opening a phrase that lists what is *not* asked ("Besides A, B and C, which …")."""


def _excluded(toks: list[_Tok], c: int) -> bool:
    """The coordinator at ``c`` lists things the question sets aside: an excluding word comes before
    it with no question word in between."""
    for i in range(c - 1, -1, -1):
        t = toks[i]
        if t.low in WH or t.low in AUX:
            return False
        nxt = toks[i + 1].low if i + 1 < len(toks) else ""
        if t.low in EXCLUDING or (t.low, nxt) in EXCLUDING_PAIRS:
            return True
    return False


def _modifier(left: _Tok, right: _Tok) -> bool:
    """``left`` and ``right`` modify a head they share: both possessives, or both numbers."""
    number = any(ch.isdigit() for ch in left.text) and any(ch.isdigit() for ch in right.text)
    return (left.possessive and right.possessive) or number


CONTEXT_OPENERS = frozenset("in for within according from on across under at during".split())
"""Prepositions that open a leading context phrase ("*In* the study of A and B, what ...")."""


def _context_end(toks: list[_Tok]) -> int:
    """Index of the comma that closes a leading context phrase — the question opens with a preposition
    and a comma comes before its first question word or auxiliary ("In the study of speed exercise and
    nitric oxide in footballers, what was ...") — else 0."""
    if not toks or toks[0].low not in CONTEXT_OPENERS:
        return 0
    end = 0
    for i, t in enumerate(toks):
        if t.low in WH or t.low in AUX:
            return end
        if t.low == ",":
            end = i  # the last comma before the question word: a list of authors may come first
    return 0


def _named(t: _Tok) -> bool:
    """A number or a capitalised word (a period, a name) next to a coordinator."""
    return t.text[:1].isupper() or any(ch.isdigit() for ch in t.text)


def _coordination(q: str, toks: list[_Tok]) -> list[Part]:
    context = _context_end(toks)
    for c in range(1, len(toks) - 1):
        n = _coordinator_at(toks, c)
        if not n or _excluded(toks, c):
            continue
        start = c + n
        while start < len(toks) and toks[start].low in DETERMINERS:
            start += 1
        if start >= len(toks) or toks[start].low in WH or toks[start].low in AUX:
            continue
        ri, rj = _right(toks, start)
        if ri == rj:
            continue
        end = c - 1 if toks[c - 1].low == "," else c  # Oxford comma
        lefts = _left(toks, end, mirror_possessive=toks[ri].possessive)
        if not lefts:
            continue
        if c < context and not all(any(_named(toks[x]) for x in range(i, j)) for i, j in [*lefts, (ri, rj)]):
            # The context phrase says where to look (which study, which table), not what is asked;
            # periods and names there are still asks of their own ("In fiscal 2017 and fiscal 2018,
            # what were ...", "For Acme and Globex, what was ...": each has its own document).
            continue
        first = lefts[0][0]
        if first > 0 and toks[first - 1].low == "both":
            first -= 1  # "both A and B": "both" goes with the split
        span_start, span_end = toks[first].start, toks[rj - 1].end
        conjuncts = [q[toks[i].start : toks[j - 1].end] for i, j in lefts]
        conjuncts.append(q[toks[ri].start : toks[rj - 1].end])
        if rj - ri > 1 and all(j - i == 1 and _modifier(toks[i], toks[ri]) for i, j in lefts):
            # "Acme's and Globex's capital expenditures", "2017 and 2018 revenue": the head is shared
            head = q[toks[ri + 1].start : toks[rj - 1].end]
            conjuncts = [f"{x} {head}" for x in conjuncts[:-1]] + conjuncts[-1:]
        if any(not tokenize(x) for x in conjuncts):
            continue
        return [Part(_replace(q, span_start, span_end, x), x, "coordination") for x in conjuncts]
    return []
