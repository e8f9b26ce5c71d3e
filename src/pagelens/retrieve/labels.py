"""Numbered references: a question that names "Figure 2", "Table 3", "Appendix B" or "Section 4.1"
prefers the chunks that carry that label, as a prior in the fusion (never a filter).

Dense and BM25 channels cannot tell "Figure 2" from "Figure 1": both see the word "figure" and a small
number that every page repeats. So labels are read once, at indexing, from what defines them and not
from what cites them:

* a caption line ("Figure 2: ...", "Table 3. ...", "Fig. 4 |", "Algorithm 1 ...") at the start of a line
  of the chunk (its elements each start a line). In body text only the strict form, label and
  number followed by punctuation, counts ("Table 3 shows ..." cites, "Table 3. Results" defines); a
  table or figure chunk opens with its own caption, so there its first line may be the loose form
  ("Figure 13 Speedup over the interpreter");
* the headings the chunk sits under (``Chunk.section``): "4.1 Setup" → section 4.1, "A.2 Optimizer"
  → appendix and section A.2, "Appendix B Proofs", "Chapter 3 ...", "Part II ...", "Item 7. ...";
* the financial statement it titles ("Consolidated Statements of Cash Flows" → ``statement:cashflow``,
  which "the cash flow statement" in a question names: :mod:`pagelens.retrieve.statements`).

Each label is a key such as ``figure:2`` or ``section:4.1``, stored as one term of the sparse vector
``label`` of the chunk's point (:func:`label_vector`). A question's labels (:func:`question_labels`)
are looked up in that vector within the documents the question is about (those routing names, else
those of the best fused chunks), and every chunk that carries one gets ``LABEL_WEIGHT`` times a first
place (channel ``label``, rank 1, in the per-channel explanation), times its document's routing strength
when the question names documents. Routing itself reads the question without its references
(:func:`without_labels`): "Table 1" names a part of a document, and as a bare word "table" would name
a paper titled "... Contingency Tables".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from pagelens.index.bm25 import term_index
from pagelens.models import Chunk
from pagelens.retrieve.statements import chunk_statements, question_statements
from pagelens.vectors import ScoredPoint, SparseVector

C = TypeVar("C", bound=Any)

LABEL_VECTOR = "label"
"""The sparse named vector that holds a chunk's label keys."""
LABEL_WEIGHT = 2.0
"""Fusion weight of the label prior (``retrieval.weights["label"]`` overrides it): a chunk carrying the
asked label gains what a first place in a channel of this weight gives (times its document's routing
strength when the question names documents). At 1.0 a named paper's "Table 1" page whose words match
little of the question stayed behind the paper's pages that repeat them, each of which holds a first
place in the scoped channels and the routing prior (fresh2 hit@1/hit@5 0.76/0.92 → 0.78/0.92 at 2.0; dev,
realdocs, freshdocs, fresh3 and the routing bench unchanged)."""
LABEL_DOC_DEPTH = 10
"""Without routing, the label prior goes to the documents of the first LABEL_DOC_DEPTH fused chunks
(the question's topic picks the paper; its "Figure 2" then picks the figure)."""

# Label words and the kind they name. "fig." and "tab." abbreviate; "§" is a section.
_KINDS = {
    "figure": "figure", "fig": "figure", "fig.": "figure", "table": "table", "tab.": "table",
    "appendix": "appendix", "annex": "appendix", "section": "section", "sec.": "section", "§": "section",
    "chapter": "chapter", "part": "part", "item": "item", "article": "article", "schedule": "schedule",
    "exhibit": "exhibit", "chart": "chart", "algorithm": "algorithm", "listing": "listing",
    "scheme": "scheme", "plate": "plate", "box": "box",
}
_CAPTION_WORDS = r"figure|fig\.?|table|tab\.|exhibit|chart|algorithm|listing|scheme|plate|box"
_HEADING_WORDS = r"section|sec\.|appendix|annex|chapter|part|item|article|schedule|exhibit"
_QUESTION_WORDS = _CAPTION_WORDS + "|" + _HEADING_WORDS + "|§"
# A number: 4, 4.1, 2.4.3, A, A.2, A1, IV (a trailing panel letter, "2a", is dropped).
_NUM = r"(\d+(?:\.\d+)*|[A-Z]\d*(?:\.\d+)*|[IVXL]+)"

_QUESTION = re.compile(rf"(?<![\w.])(?i:({_QUESTION_WORDS}))\s*{_NUM}[a-z]?\b")
_STRICT_CAPTION = re.compile(rf"^\s*(?i:({_CAPTION_WORDS}))\s*{_NUM}[a-z]?\s*(?:[:.|—–]|-\s)")
_LOOSE_CAPTION = re.compile(rf"^\s*(?i:({_CAPTION_WORDS}))\s*{_NUM}[a-z]?(?:\s|$)")
_WORD_HEADING = re.compile(rf"^\s*(?i:({_HEADING_WORDS}))\s+{_NUM}\b")
# Bare numbered headings: "4.1 Setup", "A.2 Optimizer", "A Proofs", "IV. RESULTS" (not "2018 Report").
_BARE_HEADING = re.compile(r"^\s*(\d{1,2}(?:\.\d+)*|[A-H](?:\.\d+)*|[IVX]+\.)\.?\s+[A-Z]")

CAPTIONED_KINDS = frozenset({"table", "table_rows", "figure"})


def _key(word: str, number: str) -> str:
    kind = _KINDS.get(word.lower(), _KINDS.get(word.lower().rstrip("."), word.lower()))
    return f"{kind}:{number.rstrip('.').lower()}"


def question_labels(query: str) -> list[str]:
    """The label keys a question names, in order: "What does Figure 2 show" → ``["figure:2"]``. A
    chapter is also looked up as a numbered section, and an appendix letter as one ("3 Installation",
    "A Proofs" are how many documents head them)."""
    out: list[str] = []
    for m in _QUESTION.finditer(query):
        key = _key(m.group(1), m.group(2))
        out.append(key)
        kind, num = key.split(":", 1)
        if kind == "chapter":
            out.append(f"section:{num}")
    out += question_statements(query)  # "the cash flow statement": pagelens.retrieve.statements
    return list(dict.fromkeys(out))


def without_labels(query: str) -> str:
    """The question without its numbered references ("What does Table 1 of the lme4 paper describe?" →
    "What does of the lme4 paper describe?"): "Table 1" says which part of a document, never which
    document, and as a bare word "table" would name a paper titled "... Contingency Tables"."""
    return " ".join(_QUESTION.sub(" ", query).split())


def heading_labels(heading: str) -> list[str]:
    """Label keys of one heading ("4.1 Setup" → section:4.1; "A.2 Optimizer" → appendix:a.2 and
    section:a.2; "Appendix B: Proofs" → appendix:b; "Item 7. MD&A" → item:7)."""
    m = _WORD_HEADING.match(heading)
    if m:
        return [_key(m.group(1), m.group(2))]
    words = heading.split()
    m = _BARE_HEADING.match(heading)
    if not m or len(words) > 12:
        return []
    num = m.group(1).rstrip(".").lower()
    if num[0].isdigit():
        return [f"section:{num}"]
    if m.group(1).endswith(".") and set(num) <= set("ivx"):
        return [f"section:{num}"]
    return [f"appendix:{num}", f"section:{num}"]


def caption_labels(text: str, captioned: bool) -> list[str]:
    """Label keys of the caption lines of a chunk's text (the first line may be a loose caption when
    ``captioned``: the chunk is a table or figure, which opens with its caption)."""
    out = []
    for i, line in enumerate(text.splitlines()):
        m = _STRICT_CAPTION.match(line) or (_LOOSE_CAPTION.match(line) if captioned and i == 0 else None)
        if m:
            out.append(_key(m.group(1), m.group(2)))
    return out


def chunk_labels(chunk: Chunk) -> list[str]:
    """Every label key the chunk carries: its caption lines, the headings it sits under and the financial
    statements it titles."""
    keys = caption_labels(chunk.text, chunk.kind in CAPTIONED_KINDS)
    for heading in chunk.section:
        keys += heading_labels(heading)
    keys += chunk_statements(chunk)
    return list(dict.fromkeys(keys))


def label_vector(keys: Iterable[str]) -> SparseVector:
    """The sparse vector of label keys (one term each, weight 1)."""
    idx = sorted({term_index("label:" + k) for k in keys})
    return SparseVector(idx, [1.0] * len(idx))


def label_docs(
    routed: Sequence[str], fused_docs: Sequence[str], allowed: Sequence[str] | None = None,
    depth: int = LABEL_DOC_DEPTH,
) -> list[str]:
    """The documents whose labels count: those routing names, else those of the first ``depth`` fused
    chunks (``fused_docs``: their documents, best first); within ``allowed`` (a document filter)."""
    docs = list(routed) if routed else list(dict.fromkeys(fused_docs[:depth]))
    if allowed:
        docs = [d for d in docs if d in allowed] or list(allowed)
    return docs


def add_label_prior(
    candidates: list[C], hits: Sequence[ScoredPoint], prior: float, make: Callable[[ScoredPoint], C],
    cid: Callable[[ScoredPoint], str], strength: Mapping[str, float] | None = None, channel: str = "label",
) -> bool:
    """Each chunk of ``hits`` (the label lookup) gains ``prior`` in its fused score and a first place in
    channel ``label`` (its explanation); one not among ``candidates`` joins them (``make``). With
    ``strength`` (doc id -> routing strength, when the question names documents) a chunk gains
    ``prior`` times its document's strength: every filing has a cash-flow statement and every paper a
    Table 1, and the label must not outweigh which document the question names. ``channel`` names the
    prior in the explanation. True when any did. The caller re-sorts."""
    by_id = {c.chunk.id: c for c in candidates}
    for h in hits:
        gain = prior * (strength.get(str(h.payload.get("doc_id")), 0.0) if strength else 1.0)
        c = by_id.get(cid(h))
        if c is None:
            c = by_id[cid(h)] = make(h)
            candidates.append(c)
        c.channels.update({channel: float(h.score), f"{channel}_rank": 1.0})
        c.fused += gain
        c.channels["fused"] = c.fused
    return bool(hits)
