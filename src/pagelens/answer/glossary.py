"""What a document's list of variables says its table's column names stand for.

A data set's documentation, a codebook or a paper's printout names its columns in short ("wt", "hp",
"qsec", "PERSPENK") and spells each out once in a list of its variables: R's "[, 6] wt Weight (1000
lbs)", a codebook's "PERSPENK - Per-pupil spending (in thousands)". A question asks in the long words
("the *weight* of the Mazda RX4 Wag", "the *quarter mile time*"), which no header holds, so no column is
named and the whole row, or nothing, is quoted.

``definitions`` reads such entries for the column names of the retrieved tables from the sources'
text: a name that opens an entry (after a list mark "[, 6]", at a line's start, or before a dash or
colon) and the words after it, up to the next entry or the sentence's end (a type word such as
"numeric" or "factor" left out). ``named_by`` gives the column names whose definition the question
states (half or more of its words, numbers and units aside): they join the question's terms, so the
table read names the column and the row's words count as the question's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from pagelens.answer import text as tx

MAX_WORDS = 8  # words of a definition kept
SHARE = 0.5  # share of a definition's words a question must state to name its column
_NAME = re.compile(r"^[A-Za-z][\w.]{0,14}$")
_TYPE = r"(?:(?:numeric|factor|integer|character|logical|double|num|int|chr)\s+)?"
_END = re.compile(r"\s*\[|;|\n|\.\s|\.$|\s>\s|\s\S+\s+[-–—]\s")
"""Where a definition ends: the next list mark ("[, 7]"), a sentence's end, a printout's prompt, the
next codebook entry ("PTRATIO - ...")."""


def definitions(texts: Sequence[str], names: Iterable[str]) -> dict[str, str]:
    """``{column name: what the sources' variable lists say it is}`` for the ``names`` that are short
    codes (one word of letters, digits, "." or "_") and open an entry in ``texts``."""
    out: dict[str, str] = {}
    for name in dict.fromkeys(names):
        if not _NAME.match(name):
            continue
        if not any(name in text for text in texts):
            continue
        n = re.escape(name)
        entry = re.compile(rf"(?:(?:^|\]|\n)\s*{n}\s+(?:[-–—:=]\s+)?|(?<!\S){n}\s+[-–—:=]\s+){_TYPE}(?=[A-Za-z0-9])")
        for text in texts:
            if name in text and (m := entry.search(text)):
                rest = text[m.end():]
                cut = _END.search(rest)
                words = (rest[:cut.start()] if cut else rest).split()[:MAX_WORDS]
                if any(re.search(r"[A-Za-z]{3}", w) for w in words):  # "1/4 mile time", not "1 2"
                    out[name] = " ".join(words).rstrip(",:")
                    break
    return out


def named_by(q_terms: Sequence[str], defs: Mapping[str, str]) -> list[str]:
    """The terms of the column names whose definition the question states best (``SHARE`` of its words
    or more, numbers and units aside; "quarter *mile time*" states "1/4 mile time" fully and "*Miles*/(US)
    gallon" in half: qsec, not mpg) and whose name it does not use itself."""
    qs = set(q_terms)
    shares: dict[str, float] = {}
    for name, definition in defs.items():
        words = [t for t in tx.content_terms(definition) if not t[0].isdigit() and t not in _UNITS]
        own = tx.content_terms(name)
        if not words or not own or any(t in qs for t in own):
            continue
        said = sum(1 for t in words if t in qs or tx.prefix_match(t, qs))
        if said and said >= SHARE * len(words):
            shares[name] = said / len(words)
    top = max(shares.values(), default=0.0)
    return list(dict.fromkeys(t for name, share in shares.items() if share == top for t in tx.content_terms(name)))


_UNITS = frozenset(tx.content_terms("lbs lb kg g mg cm mm km in ft inch inches thousands millions percent per cent "
                                     "us usd dollars cu"))
