"""Extractive answers to questions that ask for several things, one part at a time.

A question that asks for several facts ("Acme's capital expenditures in 2017 and 2018", "the learning
rate of BERT, and what epsilon does the Adam paper recommend?") is split into the same parts retrieval
uses (``pagelens.retrieve.parts``), whose evidence the retriever already keeps in the top k. The
whole question's best snippet answers one part at most; here each part is answered from the same
numbered sources on its own, with its own abstention, and the answer lists the parts that have one:

    2017: Capital expenditures — 2017: $412 million [1, p.3]. 2018: Capital expenditures — 2018: $515 million [2, p.3].

It is used only when at least two parts are answered with different snippets; otherwise the whole
question is answered as before (so a one-part question, or one whose parts all read the same
passage, is answered exactly as without this module). Parts that find nothing are named in one
closing sentence, so the reader sees what is missing rather than a silent half answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pagelens.answer import text as tx
from pagelens.models import SearchHit
from pagelens.retrieve.line_items import other_names, ratio_parts
from pagelens.retrieve.parts import decompose
from pagelens.retrieve.routing import designators

if TYPE_CHECKING:
    from pagelens.answer.extractive import Evidence, ExtractiveAnswerer

MIN_ANSWERED = 2
_WH = re.compile(r"\b(?:what|which|how|who|whom|whose|when|where|why)\b", re.I)
_CITATION = re.compile(r"\[(\d+), p\.(\d+)\]")  # as pagelens.answer.citations.format_citation writes them
_CHANGE_VERB = r"(?:change|evolve|develop|move|grow|increase|decrease|decline|fall|rise|compare)d?"
# "How did X change from A to B?" asks, of each end, for the value of X: "What was X in A?".
_HOW_CHANGE = re.compile(rf"^how\s+(?:much\s+)?(?:did|do|does|has|have|had)\s+(?P<x>.+?)\s+{_CHANGE_VERB}\b\s*(?P<rest>.*)$", re.I)
_CHANGE_IN = re.compile(r"^what\s+(?:was|were|is)\s+the\s+(?:change|increase|decrease|growth|decline|difference)\s+in\s+(?P<x>.+?)\s+(?P<rest>(?:in|for|during|at)\b.*)$", re.I)


def answer_by_parts(
    answerer: "ExtractiveAnswerer", question: str, hits: Sequence[SearchHit]
) -> tuple[str, float] | None:
    """(answer text, the weakest answered part's evidence score), or None when the question is one
    part, or fewer than two of its parts are answered by distinct snippets."""
    d = decompose(question)
    if not d.multi or (d.parts[0].kind == "coordination" and _in_preamble(d.question, d.parts[0].label)):
        return None
    answered: list[tuple[str, "Evidence"]] = []
    missing: list[str] = []
    for part in d.parts:
        view = _own_documents(hits, part.label, _part_view(hits, part.label))
        question_of_part = _value_question(part.text) if part.kind == "range" else part.text
        own = [hits[i] for i in view[:1] if part.label in hits[i].parts]
        ev = answerer.evidence(_unnamed(question_of_part, part.label, own),
                               [hits[i] for i in view])
        if ev is not None:
            ev.text = _renumber(ev.text, view)
        if ev is None or answerer.abstains(ev):
            missing.append(part.label)
        else:
            answered.append((part.label, ev))
    if len(answered) < MIN_ANSWERED or len({ev.text for _, ev in answered}) < len(answered):
        return None
    lines = [f"{label}: {_sentence(ev.text)}" for label, ev in answered]
    if missing:
        lines.append(f"The documents do not say: {'; '.join(missing)}.")
    return " ".join(lines), min(ev.score for _, ev in answered)


def answer_by_components(
    answerer: "ExtractiveAnswerer", question: str, hits: Sequence[SearchHit], answered_with: str = ""
) -> tuple[str, float] | None:
    """A ratio no source states, answered by the cells of its parts (``line_items.ratio_parts``):

        inventory turnover ratio = cost of sales / inventory; the sources give: cost of sales: Cost of
        sales — 2018: 7,905 [2, p.9]. inventory: Inventories — 2018: 2,045 [3, p.10].

    (answer text, the weakest part's evidence score); None when the question names no ratio, or the
    answer the whole question got (``answered_with``) states it ("Gross margin 46.2%"), or any part is
    withheld, or two parts read the same snippet: a ratio needs every part, and the reader does the
    arithmetic with the cited numbers in front of them. An answer that quotes one part as if it were
    the ratio ("Inventories — 2018: 2,045" for the inventory turnover) states no ratio."""
    ratio = ratio_parts(question)
    if ratio is None:
        return None
    name, formula, parts = ratio
    said = set(tx.content_terms(answered_with))
    if answered_with and all(t in said for t in tx.content_terms(name) if t != "ratio"):
        return None
    answered: list[tuple[str, "Evidence"]] = []
    for label, text in parts:
        ev = answerer.evidence(text, hits)
        if ev is None or answerer.abstains(ev):
            return None
        answered.append((label, ev))
    if len({ev.text for _, ev in answered}) < len(answered):
        return None
    lines = [f"{label}: {_sentence(ev.text)}" for label, ev in answered]
    return f"{name} = {formula}; the sources give: " + " ".join(lines), min(ev.score for _, ev in answered)


def _in_preamble(question: str, label: str) -> bool:
    """The coordinated words come before the question word: they set the scene ("According to the
    comparison of X and Y, which actions …?"), the question asks one thing."""
    wh = _WH.search(question)
    first = label.split()[0].lower() if label.split() else ""
    at = question.lower().find(first) if first else -1
    return wh is not None and 0 <= at < wh.start()


def _part_view(hits: Sequence[SearchHit], label: str) -> list[int]:
    """Indexes of ``hits`` with the part's own evidence (the retriever's ``parts`` label) first."""
    mine = [i for i, h in enumerate(hits) if label in h.parts]
    return mine + [i for i in range(len(hits)) if i not in mine]


def _own_documents(hits: Sequence[SearchHit], label: str, view: list[int]) -> list[int]:
    """``view`` kept to the documents the part's label designates ("DD Form 293" of dd-form-293.pdf:
    ``routing.designators``), when it designates any: the other part's form is no source for this one."""
    own = [i for i in view if designators(label, hits[i].chunk.doc_name)]
    return own or view


def _unnamed(question: str, label: str, own: Sequence[SearchHit]) -> str:
    """The part's question without its label when the label named the document, not the page: the
    part's evidence page does not contain it ("fiscal 2018" is the filing's period, not on its
    capital-expenditure page), so the answer is not held to words the page cannot have. A label the page
    prints by another name of the same line item ("Net sales" for "net revenue": ``line_items.other_names``)
    names the page's row and stays."""
    if not own:
        return question
    text = " ".join(c.text for c in own[0].all_chunks()).lower()
    if any(all(w in text for w in name.lower().split()) for name in (label, *other_names(label))):
        return question
    out = re.sub(rf"\s*\b(?:in|for|during|of|at|on)?\s*{re.escape(label)}\b", "", question, flags=re.I)
    return out if out.strip(" ?") else question


def _renumber(text: str, view: list[int]) -> str:
    """Citations numbered in the part's view of the sources, numbered as the sources are."""
    def fix(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return f"[{view[n - 1] + 1}, p.{m.group(2)}]" if 1 <= n <= len(view) else m.group(0)

    return _CITATION.sub(fix, text)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _value_question(text: str) -> str:
    """One end of a range asked as a value: "How did capex change in fiscal 2017?" → "What was capex in
    fiscal 2017?" (a change has no value at one end; the end's value answers that part)."""
    for pattern in (_HOW_CHANGE, _CHANGE_IN):
        m = pattern.match(text.strip())
        if m:
            return f"What was {m.group('x')} {m.group('rest')}".strip()
    return text
