"""Query-side tricks, each toggled per call, each falling back to the plain question on LLM errors.

* rewrite: a follow-up ("and its F1?") becomes a standalone question using the conversation history.
* HyDE (Gao et al. 2022, "Precise Zero-Shot Dense Retrieval without Relevance Labels"): a hypothetical
  answer passage is retrieved with as an extra query; the real question still drives reranking and the
  prompt.
* multi-query: N paraphrases retrieved and fused with the question.
* short-query expansion: one- or two-word queries get a fuller LLM-written variant (without an LLM the
  retriever's own expansion applies).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pagelens.answer import prompts
from pagelens.answer.llm import ChatLLM
from pagelens.errors import LLMError

log = logging.getLogger(__name__)

# Short generations: rewrites and queries are one line, HyDE a short paragraph.
_QUERY_TOKENS = 96
_HYDE_TOKENS = 200
SHORT_QUERY_WORDS = 2


@dataclass
class QueryPlan:
    question: str  # as asked
    standalone: str  # after rewriting (== question when not rewritten)
    extra_queries: list[str] = field(default_factory=list)
    rewritten: bool = False
    notes: list[str] = field(default_factory=list)  # what fell back and why
    timings_ms: dict[str, float] = field(default_factory=dict)


def rewrite(llm: ChatLLM | None, question: str, history: Sequence[prompts.Turn] | None, turns: int,
            notes: list[str] | None = None, deadline: float | None = None) -> str:
    """A standalone version of ``question`` given ``history``; the question itself without history,
    without an LLM, or when the LLM fails."""
    pairs = prompts.normalise_history(history, turns)
    if not pairs:
        return question
    if llm is None:
        return follow_up_query(question, pairs)
    try:
        out = _one_line(llm.complete(prompts.rewrite_messages(question, pairs), max_tokens=_QUERY_TOKENS, temperature=0,
                                        deadline=deadline))
    except LLMError as exc:
        _note(notes, f"rewrite fell back to the question: {exc}")
        return follow_up_query(question, pairs)
    return out or question


_FOLLOW_UP = re.compile(
    r"^\s*(and|but|also|then|what about|how about|same for|what of)\b"
    r"|\b(it|its|they|their|them|this|that|these|those|he|she|his|her|the same)\b",
    re.IGNORECASE,
)


def follow_up_query(question: str, pairs: Sequence[tuple[str, str]]) -> str:
    """Without an LLM: a short follow-up ("and for the large model?", "what does it cost?") is
    retrieved together with the previous question, which carries the subject it leaves out."""
    words = question.split()
    if pairs and (len(words) <= 3 or (len(words) <= 8 and _FOLLOW_UP.search(question))):
        return f"{pairs[-1][0].strip()} {question.strip()}"
    return question


def hyde_passage(llm: ChatLLM | None, question: str, notes: list[str] | None = None,
                 deadline: float | None = None) -> str | None:
    if llm is None:
        return None
    try:
        text = llm.complete(prompts.hyde_messages(question), max_tokens=_HYDE_TOKENS, temperature=0.3, deadline=deadline)
    except LLMError as exc:
        _note(notes, f"HyDE skipped: {exc}")
        return None
    text = " ".join(text.split())
    return text or None


def multi_queries(llm: ChatLLM | None, question: str, n: int, notes: list[str] | None = None,
                  deadline: float | None = None) -> list[str]:
    if llm is None or n <= 0:
        return []
    try:
        text = llm.complete(prompts.multi_query_messages(question, n), max_tokens=_QUERY_TOKENS * n, temperature=0.5,
                            deadline=deadline)
    except LLMError as exc:
        _note(notes, f"multi-query skipped: {exc}")
        return []
    variants = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", line).strip().strip('"')
        if line and line.lower() != question.lower() and line not in variants:
            variants.append(line)
    return variants[:n]


def expand_short(llm: ChatLLM | None, question: str, notes: list[str] | None = None,
                 deadline: float | None = None) -> list[str]:
    """An LLM-written fuller query for a query of at most ``SHORT_QUERY_WORDS`` words; [] for longer
    ones, without an LLM, or when it fails."""
    words = re.findall(r"\w+", question)
    if not words or len(words) > SHORT_QUERY_WORDS:
        return []
    if llm is None:
        return []  # the retriever's own expansion (retrieve/expand.py) covers the no-LLM case
    try:
        out = _one_line(llm.complete(prompts.expand_short_messages(question), max_tokens=_QUERY_TOKENS, temperature=0,
                                        deadline=deadline))
    except LLMError as exc:
        _note(notes, f"short-query expansion skipped: {exc}")
        return []
    return [out] if out else []


def plan_query(
    llm: ChatLLM | None,
    question: str,
    *,
    history: Sequence[prompts.Turn] | None = None,
    history_turns: int = 3,
    hyde: bool = False,
    multi_query: int = 0,
    expand: bool = True,
    deadline: float | None = None,
) -> QueryPlan:
    """``deadline`` (``time.monotonic()``): the question's LLM budget; steps past it fall back."""
    plan = QueryPlan(question=question, standalone=question)
    t0 = time.perf_counter()
    plan.standalone = rewrite(llm, question, history, history_turns, plan.notes, deadline)
    plan.rewritten = plan.standalone != question
    plan.timings_ms["rewrite"] = _ms(t0)
    t1 = time.perf_counter()
    extra: list[str] = []
    if hyde:
        passage = hyde_passage(llm, plan.standalone, plan.notes, deadline)
        if passage:
            extra.append(passage)
    if multi_query:
        extra.extend(multi_queries(llm, plan.standalone, multi_query, plan.notes, deadline))
    if expand:
        extra.extend(expand_short(llm, plan.standalone, plan.notes, deadline))
    plan.extra_queries = [q for i, q in enumerate(extra) if q and q not in extra[:i] and q != plan.standalone]
    if hyde or multi_query or expand:
        plan.timings_ms["expand"] = _ms(t1)
    return plan


def _one_line(text: str) -> str:
    lines = [ln.strip().strip('"') for ln in text.strip().splitlines() if ln.strip()]
    return lines[0] if lines else ""


def _note(notes: list[str] | None, msg: str) -> None:
    log.warning("%s", msg)
    if notes is not None:
        notes.append(msg)


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 2)
