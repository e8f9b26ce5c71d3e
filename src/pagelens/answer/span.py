"""The shortest span that answers: a table cell named by its row and column, the clauses of a sentence
that carry the answer.

* A table answer is the asked cell with its row label and column header ("Interest expense — 2009:
  $3.8 million"), plus the cells of the same row that the question's own numbers name ("6 layers,
  768 hidden": "#L: 6; #H: 768; LM (ppl): 5.24"), never the whole row.
* A long sentence is cut at its clause boundaries (";", ":", ",", dashes) to the run of clauses
  holding the most question words and, when the question asks for a type of value (a number, a
  date, a name...), a value of that type, or for a reason ("why ..."), a clause that gives one
  ("because", "due to"); "…" marks what was left out.
* A long snippet is cut to the stretch richest in question words (``window``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pagelens.answer import support as sp
from pagelens.answer import text as tx
from pagelens.row_sections import SEP

CLAUSE_FROM_CHARS = 160  # sentences up to this length are shown whole
CLAUSE_MAX_CHARS = 200  # a run of clauses is kept within this length (or one clause, if longer)
MAX_LABEL_CHARS = 60  # a longer row label is cut to its first naming cell

_CLAUSE_SPLIT = re.compile(r"(?<=[;:,])\s+(?=\D)|(?<![\d%])\s+[–—]\s+(?![$€£\d])")
"""Clause boundaries: after ";", ":" or "," (not inside "1, 2"), and dashes not inside a range ("$3.4 – $3.6")."""


WHY_Q = re.compile(r"^\s*(why|for what reason)\b|,\s*why\b|\bwhat\s+(is|was|are|were)\s+the\s+"
                   r"(?:(?:main|primary|chief|principal|likely)\s+)?(reasons?|causes?)\s+(for|why|of)\b|"
                   r"\bwhat\s+(caused|led\s+to)\b", re.I)
REASON = re.compile(r"\b(because|due to|owing to|as a result of|on account of|in order to|so that|"
                     r"thanks to|caused by|for fear|to avoid|to prevent)\b", re.I)
"""A question for a reason ("Why was X withdrawn?") is answered by the clause that gives one ("Due to
difficulty in constructing ..."), not by the clause that repeats the question's words ("X has been withdrawn")."""


def cell_span(header: list[str], cells: list[str], label: str, col: int, question: str) -> str:
    """``label — [named cells; ]column: value`` for the cell in column ``col``."""
    name = _short_label(label, cells)
    if name and not re.search(r"[A-Za-z]", name) and header and header[0]:
        name = f"{header[0]}: {name}"  # a row named by a number ("6") gets its column's name ("#L: 6")
    q_numbers = tx.numbers(question)
    named = [f"{header[j]}: {v}" for j, v in enumerate(cells)
             if 0 < j < len(header) and j != col and header[j] and v and v != name and tx.numbers(v) & q_numbers]
    value = f"{header[col]}: {cells[col]}"
    return f"{name} — {'; '.join([*named, value])}" if name else "; ".join([*named, value])


def _short_label(label: str, cells: list[str]) -> str:
    label = label or (cells[0] if cells else "")
    parts = label.split(SEP)
    while len(parts) > 1 and len(SEP.join(parts)) > MAX_LABEL_CHARS:
        parts.pop(0)  # outer sections go first: "Current liabilities › Accounts payable"
    label = SEP.join(parts)
    if len(label) <= MAX_LABEL_CHARS:
        return label
    first = next((c for c in cells if re.search(r"[A-Za-z]", c)), label)
    return first if len(first) <= MAX_LABEL_CHARS else window(first, set(), MAX_LABEL_CHARS)


def clauses(text: str) -> list[str]:
    return [c for c in _CLAUSE_SPLIT.split(" ".join(text.split())) if c and c.strip()]


FOCUS_CLAUSE_BONUS = 1.0
"""A run of clauses that names the thing asked for (``focus``: "which *paragraph* ...") counts its terms twice:
the answer stands beside the thing asked ("limited by paragraph 431"), not only among the question's other words."""


def clause_span(text: str, terms: set[str], question: str, focus: Sequence[str] = ()) -> str:
    """The run of ``text``'s clauses that carries the answer: most distinct question ``terms`` (stems), the
    terms of the thing asked (``focus``) counted twice, holding a value of the question's answer type when one
    does; ``text`` itself when short."""
    flat = " ".join(text.split())
    parts = clauses(flat)
    if len(flat) <= CLAUSE_FROM_CHARS or len(parts) < 2:
        return flat
    kind = sp.answer_type(question)
    reason = bool(WHY_Q.search(question))
    found = [set(tx.content_terms(p)) & terms for p in parts]
    best: tuple[float, int, int] | None = None
    for i in range(len(parts)):
        seen: set[str] = set()
        length = 0
        for j in range(i, len(parts)):
            length += len(parts[j]) + 1
            if j > i and length > CLAUSE_MAX_CHARS:
                break
            seen |= found[j]
            joined = " ".join(parts[i : j + 1])
            typed = REASON.search(joined) is not None if reason else not kind or sp.has_type(kind, joined, question)
            named = sum(t in seen for t in focus) / len(focus) if focus else 0.0
            score = len(seen) + FOCUS_CLAUSE_BONUS * named + (2.0 if typed else 0.0) - 0.001 * length
            if best is None or score > best[0]:
                best = (score, i, j)
    assert best is not None
    _, i, j = best
    while j + 1 < len(parts) and parts[j].rstrip().endswith(":"):
        j += 1  # a clause ending in ":" introduces the next one ("a single outlier: Alaska")
    if i == 0 and j == len(parts) - 1:
        return flat
    span = _rejoin(flat, parts, i, j)
    return f"{'… ' if i > 0 else ''}{span}{' …' if j < len(parts) - 1 else ''}"


_BACK_REFERENCE = re.compile(
    r"^\W*(these|this|they|those|such|both|namely|the\s+(two|three|four|five|latter|former|same))\b", re.I)
"""A sentence that opens by pointing back at the one before ("These are X and Y.", "The two sections are
connected with a spring") continues it."""
CONTINUATION_CHARS = 200  # the next sentence shown after an answer sentence it continues


def continuation(shown: str, after: str, question: str, kind: str = "", focus: Sequence[str] = ()) -> str:
    """The next sentence ``after``, to be quoted after the answer sentence ``shown``, when it continues it:
    ``shown`` ends in ":" (it introduces what follows), ``after`` opens by pointing back at it, or the
    question asks for a value of a ``kind`` (``support.answer_type``, ``focus.Focus.kind``) that ``shown``
    lacks and ``after`` states beside a word of the thing asked (``focus``); "" otherwise."""
    if not after:
        return ""
    if shown.rstrip(" …").endswith(":") or _BACK_REFERENCE.match(after):
        return after
    if kind and not sp.has_type(kind, shown, question) and sp.has_type(kind, after, question):
        terms = set(tx.content_terms(after))
        if any(t in terms for t in focus):
            return after
    return ""


def _rejoin(flat: str, parts: list[str], i: int, j: int) -> str:
    """Clauses i..j as they stand in ``flat`` (with the commas and dashes between them)."""
    start = flat.find(parts[i])
    end = flat.find(parts[j], start) + len(parts[j])
    return flat[start:end].rstrip(" ,;:–—") if start >= 0 and end >= start else " ".join(parts[i : j + 1])


WINDOW_ROOM = 6  # words after the last question term that ``window`` keeps when it can


def window(text: str, terms: set[str], width: int) -> str:
    """The ``width``-character stretch of ``text`` (cut at spaces) holding the most distinct
    ``terms`` (stemmed content words), with "…" where it was cut; ``text`` itself when short enough."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    tokens = flat.split(" ")
    found = [set(tx.content_terms(t)) & terms for t in tokens]
    best: tuple[float, int, int, int] = (-1.0, 0, 0, 0)
    for start in range(len(tokens)):
        length, end, seen, count, last = 0, start, set(), 0, start
        while end < len(tokens) and length + len(tokens[end]) + 1 <= width:
            length += len(tokens[end]) + 1
            seen |= found[end]
            count += bool(found[end])
            last = end if found[end] else last
            end += 1
        score = len(seen) + 0.1 * count
        # Of stretches holding as many of the terms, the one that leaves room after them: the value
        # follows the words that name it ("FlowDirection: CL_DirectionFlag").
        room = min(WINDOW_ROOM, end - 1 - last)
        if (score, room) > best[:2]:
            best = (score, room, start, end)
        if end == len(tokens):
            break
    _, _, start, end = best
    lead = "… " if start > 0 else ""
    tail = " …" if end < len(tokens) else ""
    return f"{lead}{' '.join(tokens[start:end])}{tail}"
