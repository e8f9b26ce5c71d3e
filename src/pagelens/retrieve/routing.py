"""Document routing: which documents a question names, as a prior for the fusion, never a filter.

Every document has a profile (``pagelens.index.profile``): its identity (file name, title, issuer,
form type, period, read from the cover and from the file name's parts) and its cover opening and
headings. For a question, each of its BM25 terms (and its capitalised word pairs written as one) is
looked up in the profiles (one engine call for all terms), which tells how many documents carry the
term. A term carried by more than half of the documents names none of them ("report", "revenue" in
a pile of annual reports); the others count with their inverse document frequency (the BM25 IDF of
Robertson & Zaragoza 2009, over profiles instead of chunks):

    s(d) = Σ_t  c(t) · idf(t) / idf(1) · (1 if t is in d's identity, BODY_WEIGHT if only in its cover/headings)

where ``c(t)``, the term's concentration, is the share of the chunks that match it best (BM25 over
the whole index, at most ``CONCENTRATION_CAP`` of them per document) that belong to the documents whose
profile carries it: a name is a word that its own documents use and others do not ("Kroger", "BERT"),
while a word that happens to be in one file name or title but runs through every document ("table",
"2022") names little, however often the document it titles repeats it. A document is *named* when its
identity terms alone reach ``MIN_NAME`` (a word that merely occurs in a cover paragraph does not
name the document); its strength is ``s(d) / max s`` in 0..1, lowered a little when its profile is
further from the question in meaning (dense cosine) than the closest named profile, and halved when
its own period or form contradicts the question's (:func:`conflicts`: "fiscal 2017" of a filing whose
cover reports fiscal 2016, "its 10-K" of a 10-Q). A question that names no document gets no routing,
and every document is searched alike.

The retriever turns strengths into (1) a prior added to each chunk's fused score, worth ``strength``
times a first place in a channel of weight ``weights["route"]``, (2) extra channels searched only
within the named documents, for the question without the words that named them (the chunks of a
named document are ranked as if it had been asked of that document alone), so that a long report's
relevant page is in the candidate pool at all,
and (3) for questions naming several documents, about equally or each by a name of its own, a place
in the top k for each (and a search within each).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from pagelens.index.bm25 import term_index, tokenize
from pagelens.index.profile import PROFILE_VECTORS, profile_collection
from pagelens.retrieve.labels import without_labels
from pagelens.vectors import ChannelQuery, SparseVector, VectorStore

BODY_WEIGHT = 0.5
"""A term found only in a document's cover text or headings counts half as much as in its identity."""
DF_SHARE = 0.5
"""Terms carried by more than this share of the documents' profiles name none of them."""
MIN_STRENGTH = 0.25
"""Named documents weaker than this share of the best one are left out."""
SCOPE_STRENGTH = 0.5
"""Documents at least this strong are searched on their own (the scoped channels)."""
COVER_STRENGTH = 0.75
"""Documents at least this strong are all given a place in the top k (cross-document questions)."""
MAX_COVERED = 4
"""At most this many named documents are each given a place."""
DENSE_TIE = 0.5
"""Strength lost per unit of cosine a named profile is further from the question than the closest one."""
MIN_NAME = 0.5
"""Identity evidence a document needs to be named: half a fully distinctive, concentrated term."""
CONFLICT = 0.5
"""Score kept by a named document whose reporting period or form the question contradicts."""
CONCENTRATION_DEPTH = 40
"""Best-matching chunks per term looked at for its concentration."""
CONCENTRATION_CAP = 3
"""Chunks of one document that count towards a term's concentration: a long document that uses a word
on every page ("tables" in a paper on contingency tables) does not make it a name when the other
documents use it too."""
MAX_TERMS = 32


@dataclass
class Routing:
    """The documents a question names: doc id → strength in 0..1 and the terms that named it."""

    strength: dict[str, float] = field(default_factory=dict)
    terms: dict[str, list[str]] = field(default_factory=dict)
    n_docs: int = 0
    identity: dict[str, set[str]] = field(default_factory=dict)
    """doc id → the question's terms found in that document's identity, distinctive or not."""

    facts: dict[str, set[str]] = field(default_factory=dict)
    """doc id → the question's terms found in that document's issuer, form types and periods."""

    own: dict[str, float] = field(default_factory=dict)
    """doc id → identity evidence from terms no other profile carries (the document's own name)."""

    def identity_terms(self, docs: list[str]) -> set[str]:
        """Question terms found in the identity of ``docs`` (file name, title, facts)."""
        return set().union(*(self.identity.get(d, set()) for d in docs))

    def fact_terms(self, docs: list[str]) -> set[str]:
        """Question terms that name ``docs`` by issuer, form or period: they say which document, never
        which page (unlike title words, which are often what the question is about)."""
        return set().union(*(self.facts.get(d, set()) for d in docs))

    def above(self, share: float) -> list[str]:
        return [d for d, s in sorted(self.strength.items(), key=lambda kv: -kv[1]) if s >= share]

    @property
    def scope(self) -> list[str]:
        """Documents searched on their own; empty when that would be every document anyway. A
        document the question names by its own name is among them however its strength compares."""
        docs = list(dict.fromkeys([*self.above(SCOPE_STRENGTH), *self.covered]))
        return docs if len(docs) < self.n_docs else []

    @property
    def named_apart(self) -> list[str]:
        """Documents named each by a name of its own: identity terms no other profile carries
        ("TraceMonkey", "21-0966") worth ``MIN_NAME``, strongest first, however weak beside a document
        whose cover also carries the question's topic words."""
        return [d for d in self.above(0.0) if self.own.get(d, 0.0) >= MIN_NAME]

    @property
    def covered(self) -> list[str]:
        """Documents each given a place in the top k (only when the question names several): those
        about as strong as the strongest (``COVER_STRENGTH``), and those named apart. Strength alone
        misses a cross-document question whose topic words are on one document's cover ("What
        average speedups do the TraceMonkey paper and What's New in Python 3.11 report?": the second
        carries "average", "speedup", "python", "3.11"; the first only its name)."""
        strong = self.above(COVER_STRENGTH)
        apart = self.named_apart
        docs = list(dict.fromkeys([*strong, *apart])) if len(apart) >= 2 or len(strong) >= 2 else []
        return docs if 2 <= len(docs) <= MAX_COVERED else []


def df_limit(n_docs: int) -> float:
    """Most documents a naming term may be carried by: ``DF_SHARE`` of them, but of three documents
    two, since with another term it still tells them apart ("Acme" and "2018" among Acme 2017, Acme
    2018 and Globex 2018)."""
    return max(1.0, DF_SHARE * n_docs, min(2.0, n_docs - 1.0))


def idf(df: int, n: int) -> float:
    """BM25's inverse document frequency (Robertson & Zaragoza 2009, eq. 3.3, plus 1 inside the log)."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_FORM = re.compile(r"(?<![\w-])(10-?K|10-?Q|8-?K|20-?F|40-?F|6-?K)(?![\w-])", re.I)


def _years_forms(text: str) -> tuple[set[str], set[str]]:
    return set(_YEAR.findall(text)), {f.upper().replace("-", "") for f in _FORM.findall(text)}


_FISCAL_YEAR = re.compile(r"\b(?:fiscal(?:\s+year)?|FY)\s*'?((?:19|20)\d\d|\d\d)\b", re.I)
_QUARTER = re.compile(r"\b(?:Q[1-4]|[1-4]Q|quarter\w*|(?:three|six|nine)[\s-]months?|half|semi-?annual|interim)\b", re.I)


def _fiscal_years(text: str) -> set[str]:
    return {y if len(y) == 4 else f"20{y}" for y in _FISCAL_YEAR.findall(text)}


def conflicts(query: str, facts: Mapping[str, str]) -> set[str]:
    """The documents whose facts (``doc -> issuer, forms and reporting periods``: the profile's
    ``facts``) contradict the question: it names years and the document reports other periods only; it
    names a form type and the document is of another; or it names a fiscal year, no quarter, and the
    document reports a quarter of it and not the year (a 10-Q for "fiscal 2017"). A document without
    such facts (a paper, a manual) contradicts nothing; a question that spans years ("from fiscal 2016
    to 2017") agrees with a filing of either."""
    q_years, q_forms = _years_forms(query)
    if not q_years and not q_forms:
        return set()
    annual = _fiscal_years(query) if not _QUARTER.search(query) else set()
    out = set()
    for doc, text in facts.items():
        years, forms = _years_forms(text)
        if (q_years and years and not q_years & years) or (q_forms and forms and not q_forms & forms):
            out.add(doc)
        elif annual and _QUARTER.search(text) and not annual & _fiscal_years(text):
            out.add(doc)
    return out


_PERIOD_WORDS = frozenset("fiscal fy year annual quarter quarterli report first second third fourth".split())


def yielding(query: str, fact_text: Mapping[str, str], facts: Mapping[str, set[str]]) -> set[str]:
    """The documents that contradict the question (:func:`conflicts`) and have a sibling that does not:
    another document of the same issuer (a question term, not a period or form word, in both one's
    facts, ``facts``: doc -> the question's terms its facts hold). Acme's FY2017 10-K yields to Acme's
    FY2016 10-K for "Acme's fiscal 2016 capex"; with no FY2016 filing in the pile it keeps its place (its
    statements print 2016 beside 2017)."""
    against = conflicts(query, fact_text)

    def issuer(d: str) -> set[str]:
        return {t for t in facts.get(d, ()) if t not in _PERIOD_WORDS and not any(ch.isdigit() for ch in t)}

    return {d for d in against if any(e not in against and issuer(d) & issuer(e) for e in facts if e != d)}


def score_documents(
    term_docs: Mapping[str, tuple[set[str], set[str]]],
    n_docs: int,
    concentration: Mapping[str, float] | None = None,
    dense: Mapping[str, float] | None = None,
    conflicted: set[str] | frozenset[str] = frozenset(),
) -> Routing:
    """Routing from ``term -> (docs with it in their identity, docs with it in cover/headings)``;
    ``concentration``: term -> 0..1 (missing terms count 1); ``dense``: doc -> profile cosine;
    ``conflicted``: documents whose period or form the question contradicts (:func:`conflicts`)."""
    scores: dict[str, float] = defaultdict(float)
    identity: dict[str, float] = defaultdict(float)
    own: dict[str, float] = defaultdict(float)
    terms: dict[str, list[str]] = defaultdict(list)
    limit = df_limit(n_docs)
    full = idf(1, n_docs)
    for term, (in_name, in_body) in term_docs.items():
        holders = in_name | in_body
        if not holders or len(holders) > limit:
            continue
        w = idf(len(holders), n_docs) / full * (concentration or {}).get(term, 1.0)
        for d in holders:
            scores[d] += w if d in in_name else BODY_WEIGHT * w
            terms[d].append(term)
        for d in in_name:
            identity[d] += w
        if len(holders) == 1 and holders <= in_name:
            own[next(iter(holders))] += w
    named = [d for d, v in identity.items() if v >= MIN_NAME]
    if not named:
        return Routing(n_docs=n_docs)
    for d in conflicted:
        if d in scores:
            scores[d] *= CONFLICT
    top = max(scores[d] for d in named)
    strength = {d: scores[d] / top for d in named if scores[d] / top >= MIN_STRENGTH}
    if dense:
        best = max((dense.get(d, 0.0) for d in strength), default=0.0)
        strength = {d: s * max(0.0, 1.0 - DENSE_TIE * max(0.0, best - dense.get(d, 0.0))) for d, s in strength.items()}
    return Routing(strength=strength, terms={d: terms[d] for d in strength}, n_docs=n_docs,
                   own={d: own[d] for d in strength if d in own})


_WORD = re.compile(r"[^\W_]+")


def joined_names(query: str) -> list[str]:
    """Terms of adjacent capitalised words written as one (``American Express`` → ``americanexpress``,
    ``Johnson & Johnson`` → ``johnsonjohnson``): file names often join a company's words
    (``AMERICANEXPRESS_2022_10K``)."""
    words = _WORD.findall(query)
    out = []
    for a, b in zip(words, words[1:]):
        if a[0].isupper() and b[0].isupper() and a.isalpha() and b.isalpha():
            out += tokenize(a + b)
    return out


_NAME_PART = re.compile(r"[^\W_]+(?:\.\d+)*")  # "va", "21", "0966"; "3.11" is one part


def _parts(text: str) -> list[str]:
    return [p.lower() for p in _NAME_PART.findall(text)]


def designators(query: str, doc_name: str) -> list[str]:
    """The question's words that repeat a *designator* of the document's file name: two or more
    consecutive parts of the name, one with a digit and one without ("DD Form 293" of dd-form-293.pdf,
    "VA Form 21-0966" of va-form-21-0966.pdf, "Python 3.11"), written consecutively in the question.
    They say which document, never what answers: a line that merely repeats them ("PAGE 2 VA FORM
    21-0966") is no answer. A file name's words without a number ("electricity-bill") are often its
    topic, what the question asks about, and are not designators."""
    name = _parts(doc_name.rsplit(".", 1)[0] if doc_name.lower().endswith(".pdf") else doc_name)
    words = re.findall(r"\S+", query)
    seq = [(p, i) for i, w in enumerate(words) for p in _parts(w)]  # parts with the word they are in
    out: set[int] = set()
    for a in range(len(seq)):
        for b in range(len(name)):
            n = 0
            while a + n < len(seq) and b + n < len(name) and seq[a + n][0] == name[b + n]:
                n += 1
            run = [p for p, _ in seq[a:a + n]]
            if n >= 2 and any(any(ch.isdigit() for ch in p) for p in run) and any(p.isalpha() for p in run):
                out.update(i for _, i in seq[a:a + n])
    return [words[i].strip("?,.;:!()\"'“”") for i in sorted(out)]


class DocRouter:
    """Scores the profiles of one index for a question (two engine calls)."""

    def __init__(self, store: VectorStore, index_name: str) -> None:
        self.store = store
        self.chunks = index_name
        self.collection = profile_collection(index_name)

    def route(self, query: str, query_vector: list[float] | None = None) -> Routing:
        n = self.store.count(self.collection)
        if n <= 1:
            return Routing(n_docs=n)
        named = without_labels(query)  # "Table 1" names a part of a document, not a document
        terms = list(dict.fromkeys([*tokenize(named), *joined_names(named)]))[:MAX_TERMS]
        if not terms:
            return Routing(n_docs=n)
        # Deep enough to tell a term carried by more than half of the profiles.
        depth = min(n, int(df_limit(n)) + 2)
        queries = [
            ChannelQuery(vec_name, SparseVector([term_index(t)], [1.0]), depth)
            for t in terms for vec_name in PROFILE_VECTORS
        ]
        if query_vector is not None:
            queries.append(ChannelQuery("dense", list(query_vector), n))
        results = self.store.search_batch(self.collection, queries)
        term_docs: dict[str, tuple[set[str], set[str]]] = {}
        identity: dict[str, set[str]] = defaultdict(set)
        facts: dict[str, set[str]] = defaultdict(set)
        fact_tokens: dict[str, set[str]] = {}
        fact_text: dict[str, str] = {}
        for i, t in enumerate(terms):
            in_name = {str(h.payload["doc_id"]) for h in results[2 * i]}
            in_body = {str(h.payload["doc_id"]) for h in results[2 * i + 1]}
            for h in results[2 * i]:
                d = str(h.payload["doc_id"])
                identity[d].add(t)
                if d not in fact_tokens:
                    fact_text[d] = str(h.payload.get("facts") or "")
                    fact_tokens[d] = set(tokenize(fact_text[d]))
                if t in fact_tokens[d]:
                    facts[d].add(t)
            if (in_name or in_body) and len(in_name | in_body) <= df_limit(n):
                term_docs[t] = (in_name, in_body)
        dense = {str(h.payload["doc_id"]): h.score for h in results[-1]} if query_vector is not None else None
        routing = score_documents(term_docs, n, self._concentration(term_docs), dense, yielding(query, fact_text, facts))
        routing.identity = {d: identity[d] for d in routing.strength}
        routing.facts = {d: facts[d] for d in routing.strength}
        return routing

    def _concentration(self, term_docs: Mapping[str, tuple[set[str], set[str]]]) -> dict[str, float]:
        """Per term: the share of its best-matching chunks that belong to the documents holding it."""
        if not term_docs:
            return {}
        names = list(term_docs)
        hits = self.store.search_batch(
            self.chunks, [ChannelQuery("bm25", SparseVector([term_index(t)], [1.0]), CONCENTRATION_DEPTH) for t in names]
        )
        out: dict[str, float] = {}
        for t, found in zip(names, hits, strict=True):
            if found:
                holders = term_docs[t][0] | term_docs[t][1]
                per_doc = Counter(str(h.payload.get("doc_id")) for h in found)
                counted = {d: min(n, CONCENTRATION_CAP) for d, n in per_doc.items()}
                out[t] = sum(n for d, n in counted.items() if d in holders) / sum(counted.values())
        return out
