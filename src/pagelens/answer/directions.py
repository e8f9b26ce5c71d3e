"""What a question says about its answer, apart from what it asks.

People and benchmarks wrap a question in directions for whoever answers it: the unit and rounding
("Answer in USD millions.", "(in USD millions)", "Round your answer to two decimal places."), a persona
("Assume that you are a public equities analyst."), where to look ("Answer the following question by
primarily using information that is shown in the balance sheet: what is ..."), what to do when the
question does not fit ("If operating margin is not a useful metric ..., then please state that and
explain why."). They are meant for a reader who writes an answer, and an LLM gets them whole. The
extractive answerer quotes a span instead, and reads every word of the question as something the span
or its page should hold: "USD" became a name the sources never state, "decimal places" words a table
row lacks, and a question its sources answer was withheld.

:func:`asked` keeps what is asked: the sentences that ask (end in "?"), after a direction that leads
into them with a colon; the other sentences unless they direct (open with an imperative such as
"answer", "round", "assume", "calculate", "use", "give", or say "please"); and drops a parenthesised unit
("(in USD millions)", "(in %)"). A question of one sentence keeps it, and a question that is all
directions is left as it was: nothing here guesses at meaning, it only sets aside the parts that say how
to answer.
"""

from __future__ import annotations

import re

_LEAD = re.compile(
    r"^(?:please\s+)?(?:answer|respond|reply|round|give|provide|calculate|compute|use|using|utili[sz]e|approach"
    r"|assume|express|report\s+(?:your|the\s+answer)|state|show\s+your|base|rely|focus|consider|return|format"
    r"|write|present|limit|make\s+sure|ensure|do\s+not|don['’]t|keep|think|be\s+(?:concise|brief|precise)"
    r"|explain\s+(?:your|why)|only\s+(?:use|answer)|note\s+that|if\s+.*\bthen\s+please)\b",
    re.IGNORECASE,
)
_PLEASE = re.compile(r"\bplease\b", re.IGNORECASE)
_UNIT = re.compile(
    r"\s*\(\s*(?:in|as|expressed\s+in|answer\s+in)\s+(?:(?:usd|us\$|\$|eur|€|£|gbp|jpy|dollars?|euros?|"
    r"millions?|billions?|thousands?|percent(?:age)?s?|%|units?\s+of\s+\w+)\b\s*)+\)",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.?!])\s+(?=[A-Z(\"'])")


def _directs(sentence: str) -> bool:
    return bool(_LEAD.match(sentence.strip().lstrip("(["))) or bool(_PLEASE.search(sentence))


def _after_lead(sentence: str) -> str:
    """A direction that leads into the question with a colon is dropped ("Answer the following question
    by primarily using ... the balance sheet: what is the year end FY2018 net PPNE for 3M?")."""
    head, sep, tail = sentence.rpartition(":")
    return tail.strip() if sep and tail.strip() and _directs(head) else sentence


def asked(question: str) -> str:
    """``question`` without its directions about the answer (see the module's text)."""
    text = " ".join(_UNIT.sub("", question).split())
    sentences = [s for s in _SENTENCE.split(text) if s.strip()]
    if not sentences:
        return question
    asking = [i for i, s in enumerate(sentences) if s.rstrip().endswith("?")]
    if not asking:
        asking = [0]
    kept = []
    for i, s in enumerate(sentences):
        if i in asking:
            kept.append(_after_lead(s))
        elif not _directs(s):
            kept.append(s)
    out = " ".join(kept).strip()
    return out or question
