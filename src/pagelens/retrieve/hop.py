"""A second hop for questions that refer to something by a description (``retrieval.multihop``).

"What accuracy does *the 340M-parameter model* reach?", "How much revenue did *the business Acme
acquired in 2019* report?", "When did *the director who chairs the audit committee* join the board?",
"… what epsilon does *that optimizer's* paper recommend?": one page resolves the description to an
entity (a model variant, a business, a person: the *bridge*), and another page — often another
document — holds the asked fact about that entity, without the description's words. Retrieval for
the question finds the first page; the second shares with the question only the asked words, which
every look-alike page has too.

1. **When** (:func:`description`): the question holds a description: a relative clause on a noun
   phrase ("the director who chairs", "the subsidiary that Acme acquired"), a reduced one ("the
   company acquired in 2019", "the optimizer used to train Quill"), a demonstrative ("that
   optimizer's", "that person's"), a numeric modifier ("the 340M-parameter model"), "the X with N Y",
   "the one that". Any other question is left exactly as ranked.
2. **Where it is resolved**: the first hop's best pages (``HOP_PAGES``), and those of the description
   asked on its own (:func:`resolve_query`: the description, or a demonstrative's antecedent clause),
   since the asked words of the whole question ("default stepsize") outrank the page that resolves it.
3. **Bridge** (:func:`bridges`): on those pages, the names (capitalised words and runs of them,
   identifiers: ``Priya Raman``, ``BERTLARGE``, ``Quill-Heron``, ``HBEDOYA``; not a cited author) that
   the question lacks, scored by the question's words in the same sentence, each weighted by how few
   of those pages' sentences hold it (the description's rare words, "340M", "2019", "audit", decide)
   and by its distance to the name; the description's words count ``DESCRIPTION_BOOST`` times, pages
   outside the documents the question names ``OUTSIDE_NAMED``. A name that names another document
   whose profile holds a word of the description ("Adam" → "Adam: A Method for Stochastic
   Optimization" for "the optimizer") gains ``MIN_BRIDGE`` (:func:`_by_identity`, document routing,
   no model call). The best name scoring at least ``MIN_BRIDGE`` is the bridge — unless its page
   also holds the asked thing (:func:`answered_on`): then the question is answered there.
4. **Second hop** (:func:`hop_query`): the clause holding the description, the description replaced
   by the bridge ("What revenue did Brightwater Analytics report?"), is retrieved like any question
   (all channels, its own routing: a bridge that names a document routes there). Its best page among
   the first ``HOP_DEPTH`` that holds the bridge and an asked word, and is not the bridge's page, is
   the hop's page; when none holds an asked word, the first ``HOP_UNSURE`` pages holding the bridge.
5. **Top k**: the hop's page, if not already there, is placed right after the bridge's page (which
   moves up when it is last, or joins with it at the end of the top k when it came from the
   description's own search); rank 1 never changes. The bridge's page carries ``bridge: NAME`` and
   the hop's page ``hop 2 via NAME`` in ``SearchHit.parts`` (``search --explain``, the API's sources),
   and the hop's page its rank in the second hop (channel ``hop2_rank``).

Constants chosen on the synthetic set of ``bench/multihop.py`` (several seeds), checked on dev.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pagelens.index.bm25 import STOPWORDS, tokenize
from pagelens.retrieve.diversity import page_key
from pagelens.retrieve.parts import decompose

HOP_PAGES = 5
"""The first hop's best pages searched for a bridge."""
HOP_DEPTH = 10
"""How deep in the second hop's ranking its page is looked for."""
HOP_UNSURE = 2
"""Pages about the bridge kept when none holds an asked word."""
MIN_BRIDGE = 0.3
"""Least score of a bridge: about one rare question word in its sentence, near it."""
DESCRIPTION_BOOST = 2.0
"""A word of the description counts this many times a word of the rest of the question."""
PROXIMITY = 6.0
"""Words at which a question word next to a name counts half."""
PAGE_DECAY = 0.8
"""Weight of the first hop's n-th page: PAGE_DECAY ** (n - 1)."""
ASKED_SHARE = 0.5
"""Share of the asked words (the question's outside its description) on the bridge's page for the
question to count as answered there (no hop)."""
OUTSIDE_NAMED = 0.5
"""Weight of a name found outside the documents the question names ("the optimizer used to train
Quill": the name on Quill's paper, not the one on another paper's training page)."""
MAX_NAME_WORDS = 4
MAX_IDENTITY = 8
"""The best names looked up as documents (one routing call each, no model call)."""

_DET = r"(?:the|a|an)"
_W = r"[\w'\u2019-]+"
_CUES: list[tuple[str, re.Pattern[str]]] = [
    ("relative clause", re.compile(
        rf"\b{_DET}\s+(?:{_W}\s+){{0,3}}?[a-z][\w-]*\s+(?:that|which|who|whom|whose)\s+{_W}(?:\s+{_W}){{0,3}}", re.I)),
    ("reduced relative", re.compile(
        rf"\b{_DET}\s+(?:{_W}\s+){{0,2}}?[a-z][\w-]*\s+(?:(?:the|its|their)\s+{_W}\s+|(?:[A-Z][\w'\u2019&.-]*\s+){{1,3}})?"
        r"(?:\w+ed|bought|built|made|won|held|ran|led|chose|sold|paid|uses|used|owns|runs|leads)\s+"
        r"(?:in|by|at|for|during|with|from|on|to|under|over)\s+[\w'\u2019-]+(?:\s+[A-Z0-9][\w'\u2019-]*)*")),
    ("reduced relative", re.compile(
        rf"\b{_DET}\s+(?:{_W}\s+){{0,2}}?[a-z][\w-]*\s+(?:the|its|their)\s+{_W}\s+(?:uses|used|use|trains?|trained|cites?|cited|"
        r"proposes?|proposed|introduces?|introduced|describes?|described|recommends?|recommended)\b", re.I)),
    ("demonstrative", re.compile(r"\b(?:that|this|those|these)\s+(?!(?:is|was|are|were|has|have|had|does|do|did|can|"
                                 r"will|would|could|should)\b)[a-z][\w-]*(?:'s|\u2019s)", re.I)),
    ("numeric modifier", re.compile(rf"\b{_DET}\s+(?:{_W}\s+){{0,2}}?\d[\d.,]*\s?[A-Za-z%]{{0,3}}-[a-z]+(?:\s+{_W}){{1,3}}")),
    ("description with", re.compile(
        rf"\b{_DET}\s+(?:{_W}\s+){{0,3}}?[a-z][\w-]*\s+with\s+(?:the\s+)?(?:\d[\d.,]*\s?[A-Za-z%]{{0,3}}|highest|lowest|"
        r"largest|smallest|most|fewest|best|worst)(?:\s+" + _W + r"){1,2}", re.I)),
    ("the one", re.compile(r"\bthe\s+one\s+(?:that|which|who|with|whose)\b.*", re.I)),
]
_ANAPHOR = re.compile(r"\b(?:a|an)\s+(?:[\w-]+\s+){0,2}?([a-z][\w-]*)\b.*?\b(?:that|this|the same|the said)\s+(\1)\b", re.I)

_WORD = re.compile(r"[^\W_][\w'\u2019]*(?:[-_.][^\W_][\w]*)*")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=\S)|\n\s*\n|\n(?=[A-Z][\w-]*\s{2,})")
GENERIC = frozenset(
    """table tab figure fig section sec algorithm appendix equation eq chapter page part note notes total average
    model models step steps item items use using see example examples list lists mr mrs ms dr prof inc corp ltd co
    january february march april may june july august september october november december monday tuesday
    wednesday thursday friday saturday sunday""".split()
)


@dataclass(frozen=True)
class Description:
    kind: str
    text: str


@dataclass(frozen=True)
class Bridge:
    name: str
    score: float
    source: Any  # the first hop's candidate the name was found on


def description(question: str) -> Description | None:
    """The description the question refers by (the first cue found), or None."""
    q = " ".join(question.split())
    for kind, pattern in _CUES:
        m = pattern.search(q)
        if m:
            return Description(kind, m.group(0))
    m = _ANAPHOR.search(q)
    if m:
        return Description("anaphor", m.group(0))
    return None


def _text(candidate: Any) -> str:
    return "\n\n".join(c.text for c in [candidate.chunk, *(m.chunk for m in candidate.merged)])


def _terms(candidate: Any) -> set[str]:
    return set(tokenize(_text(candidate)))


def _name_like(word: str, first: bool, lower_words: set[str]) -> bool:
    letters = [ch for ch in word if ch.isalpha()]
    if len(letters) < 2 or not word[0].isalpha():
        return False
    low = word.lower()
    if low in STOPWORDS or low.strip("'\u2019s") in GENERIC:
        return False
    upper = sum(ch.isupper() for ch in letters)
    strong = upper >= 2 or any(ch.isdigit() for ch in word) or "_" in word  # BERTLARGE, AdaMax, GPT2, bert_large
    if strong:
        return True
    if not word[0].isupper():
        return False
    # A capitalised word that the pages also write in lower case is a common word ("Parameters").
    return not first and low not in lower_words


def _titled(word: str) -> bool:
    """A capitalised word of a multi-word name (``Priya``, ``Analytics``), not an identifier."""
    return word[:1].isupper() and word[1:].islower() and word.isalpha()


def _names(sentence: str, lower_words: set[str], question: set[str]) -> list[tuple[str, int]]:
    """Names in ``sentence`` with their word position: identifiers alone (``HBEDOYA``, ``Quill-Heron``)
    and runs of capitalised words (``Priya Raman``, ``Brightwater Analytics``); a word the question
    has ends a run (it is not part of the name the question lacks)."""
    words = [m.group(0).rstrip(".") for m in _WORD.finditer(sentence)]
    out: list[tuple[str, int]] = []
    run: list[str] = []
    start = 0
    for i, w in enumerate([*words, ""]):
        # An author cited ("Wu et al.") is a reference, not the entity a description resolves to.
        cited = i + 1 < len(words) and words[i + 1].lower() == "et"
        like = bool(w) and not cited and _name_like(w, i == 0, lower_words)
        joins = like and _titled(w) and not set(tokenize(w)) <= question
        if joins and run and len(run) < MAX_NAME_WORDS:
            run.append(w)
            continue
        if run:
            out.append((" ".join(run), start))
            run = []
        if joins:
            start, run = i, [w]
        elif like:
            out.append((w, i))
    return out


def bridges(
    question: str, desc: Description | None, pages: Sequence[Any], named: Sequence[str] = (),
) -> list[Bridge]:
    """Names on ``pages`` (a ranking's best, best first) that the question lacks, best first; when the
    question names documents (``named``: their ids), a name on a page of another counts ``OUTSIDE_NAMED``."""
    q_terms = {t for t in tokenize(question) if t not in STOPWORDS}
    d_terms = set(tokenize(desc.text)) & q_terms if desc is not None else set()
    if not q_terms:
        return []
    sentences: list[tuple[int, str]] = []
    for pi, c in enumerate(pages):
        sentences += [(pi, s) for s in _SENTENCE.split(_text(c)) if s.strip()]
    lower_words = {w for _, s in sentences for w in re.findall(r"\b[a-z][a-z'-]+\b", s)}
    spread: dict[str, int] = {}
    parsed = []
    for pi, s in sentences:
        words = [m.group(0) for m in _WORD.finditer(s)]
        where: dict[str, list[int]] = {}
        for i, w in enumerate(words):
            for t in tokenize(w):
                if t in q_terms:
                    where.setdefault(t, []).append(i)
        for t in where:
            spread[t] = spread.get(t, 0) + 1
        parsed.append((pi, s, where))
    best: dict[str, Bridge] = {}
    for pi, s, where in parsed:
        for name, at in _names(s, lower_words, q_terms):
            own = set(tokenize(name)) - q_terms
            if not own:
                continue
            n_words = len(name.split())
            score = 0.0
            for t, positions in where.items():
                d = min(abs(p - at) if p < at else max(0, p - at - n_words + 1) for p in positions)
                w = (DESCRIPTION_BOOST if t in d_terms else 1.0) / spread[t]
                score += w / (1.0 + d / PROXIMITY)
            score *= PAGE_DECAY ** pi
            if named and pages[pi].chunk.doc_id not in named:
                score *= OUTSIDE_NAMED
            if name not in best or score > best[name].score:
                best[name] = Bridge(name, score, pages[pi])
    return sorted(best.values(), key=lambda b: -b.score)


def hop_query(question: str, desc: Description | None, bridge: str) -> str:
    """The second hop's question: the clause holding the description (the asked one when none does)
    with the description replaced by the bridge ("What revenue did *Brightwater Analytics* report?");
    the clause with the bridge appended when nothing else would be left."""
    text = _clause(question, desc)
    if desc is not None and desc.text in text:
        swapped = " ".join(text.replace(desc.text, bridge, 1).split())
        rest = set(tokenize(swapped)) - set(tokenize(bridge))
        if rest:
            return swapped
    return f"{text} {bridge}"


def asked_terms(question: str, desc: Description) -> set[str]:
    """The words of the clause holding the description, outside it: what the question asks about the
    entity described ("what is that person's *job title*?")."""
    clause = _clause(question, desc)
    return {t for t in tokenize(clause) if t not in STOPWORDS} - set(tokenize(desc.text))


def _clause(question: str, desc: Description | None) -> str:
    """The clause of a several-clause question that holds the description (else the last); the
    question itself when it is one clause."""
    q = " ".join(question.split())
    d = decompose(q)
    if d.multi and d.parts[0].kind == "clause":
        holding = [p.text for p in d.parts if desc is not None and desc.text in p.text]
        return holding[-1] if holding else d.parts[-1].text
    return q


def answered_on(question: str, desc: Description, page: Any) -> bool:
    """The page that resolves the description holds the asked thing too (at least ``ASKED_SHARE`` of
    the asked words): the question is answered there, and there is nothing to hop to."""
    asked = asked_terms(question, desc)
    if not asked:
        return True
    return len(asked & _terms(page)) >= ASKED_SHARE * len(asked)


HopSearch = Callable[[str], list[Any]]
"""Retrieves a question: its candidates (deduplicated, merged per page), best first."""
NamesDocuments = Callable[[str], dict[str, set[str]]]
"""The documents a text names (document routing): doc id -> the text's terms in that document's profile."""


def resolve_query(question: str, desc: Description) -> str | None:
    """What resolves the description, asked on its own (None: the question's own ranking will do): a
    demonstrative's antecedent clause ("BERT is pre-trained with a well-known optimizer" for "that
    optimizer's"), else the description itself ("the optimizer used to train Marten"), whose pages
    the asked words of the whole question ("default stepsize") would otherwise outrank."""
    if desc.kind in ("demonstrative", "anaphor"):
        d = decompose(question)
        if d.multi and d.parts[0].kind == "clause":
            others = [p.text for p in d.parts if desc.text not in p.text]
            return " ".join(others) if others else None
        return None
    return desc.text if len({t for t in tokenize(desc.text) if t not in STOPWORDS}) >= 2 else None


def _merge(*found: list[Bridge]) -> list[Bridge]:
    best: dict[str, Bridge] = {}
    for bs in found:
        for b in bs:
            if b.name not in best or b.score > best[b.name].score:
                best[b.name] = b
    return sorted(best.values(), key=lambda b: -b.score)


def _by_identity(
    question: str, desc: Description, found: list[Bridge], names_document: NamesDocuments,
) -> list[Bridge]:
    """Names that name another document whose profile (file name, title, cover, headings) holds a word of the
    description ("Adam" → "Adam: A Method for Stochastic Optimization" for "the optimizer"): a cited
    method, an acquired company with its own report. Their score is ``MIN_BRIDGE`` plus their own."""
    q_terms = set(tokenize(question))
    wanted = {t for t in tokenize(desc.text) if t not in STOPWORDS}
    out = []
    for b in found[:MAX_IDENTITY]:
        own = set(tokenize(b.name)) - q_terms
        named = names_document(f"{b.name} {desc.text}")
        if any(d != b.source.chunk.doc_id and own <= terms and terms & (wanted - own) for d, terms in named.items()):
            out.append(Bridge(b.name, MIN_BRIDGE + b.score, b.source))
    return out


def apply(
    question: str, ordered: Sequence[Any], k: int, search: HopSearch, names_document: NamesDocuments | None = None,
    named: Sequence[str] = (),
) -> list[Any]:
    """``ordered`` with the second hop's page in the top ``k`` (see the module); unchanged when the
    question holds no description, no bridge is found, or the hop finds nothing new. ``named``: the
    documents the question names (its routing), where its description is looked for first."""
    desc = description(question)
    if desc is None or not ordered or k < 3:
        return list(ordered)
    rq = resolve_query(question, desc)
    resolving = search(rq)[:HOP_PAGES] if rq else []
    found = _merge(bridges(question, desc, ordered[:HOP_PAGES], named), bridges(question, desc, resolving, named))
    if found and names_document is not None:
        found = _merge(found, _by_identity(question, desc, found, names_document))
    if not found or found[0].score < MIN_BRIDGE:
        return list(ordered)
    bridge = found[0]
    if answered_on(question, desc, bridge.source):
        return list(ordered)  # the page that resolves the description has the asked thing too
    ranking = search(hop_query(question, desc, bridge.name))
    own = set(tokenize(bridge.name)) - set(tokenize(question))
    source = page_key(bridge.source)
    pages = [c for c in ranking[:HOP_DEPTH] if page_key(c) != source and own <= _terms(c)]
    asked = asked_terms(question, desc)
    sure = [c for c in pages if _terms(c) & asked]
    # The page about the bridge that holds an asked word; when none does (the question paraphrases
    # the page: "in which city … based" for "headquartered in"), the first HOP_UNSURE pages about it.
    hops = (sure[:1] or pages[:HOP_UNSURE])[: k - 2]
    if not hops:
        return list(ordered)
    rank = {page_key(c): i for i, c in reversed(list(enumerate(ranking, 1)))}
    out = list(ordered)
    top = {page_key(c): c for c in out[:k]}
    group = [h for h in [bridge.source, *hops] if page_key(h) not in top]
    keys = {page_key(h) for h in group}
    group = [next((c for c in out if page_key(c) == page_key(h)), h) for h in group]  # its own candidate if ranked
    out = [c for c in out if page_key(c) not in keys]
    if group:
        if source in top:
            at = next(i for i, c in enumerate(out) if page_key(c) == source) + 1
            if at + len(group) > k:
                # No room after the bridge's page: it moves up (never to rank 1) to keep the hop beside it.
                src = out.pop(at - 1)
                at = max(1 if at > 1 else 0, k - 1 - len(group))
                out.insert(at, src)
                at += 1
        else:
            at = max(1, k - len(group))  # the bridge's page and the hop's take the last places
        out[at:at] = group
    placed = {page_key(c): c for c in out[:k]}
    for h in hops:
        c = placed.get(page_key(h))
        if c is not None:
            c.channels["hop2_rank"] = float(rank[page_key(h)])
            _label(c, f"hop 2 via {bridge.name}")
    if source in placed:
        _label(placed[source], f"bridge: {bridge.name}")
    return out


def _label(candidate: Any, label: str) -> None:
    if label not in candidate.parts:
        candidate.parts.append(label)
