"""How pages spell what a question says otherwise: an acronym for the question's phrase ("MAE" for "mean
absolute error"), a US state's postal code for its name ("Oakland, CA 94612" states California)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pagelens.answer import text as tx

_ACRONYM = re.compile(r"(?<![\w-])([A-Z]{2,6})s?(?![\w-])")
_ACRONYM_GLUE = frozenset("of on per the and to under for in at over".split())


def spelled_acronyms(question: str, text: str) -> list[str]:
    """The question's phrases whose initials are an acronym ``text`` prints: "mean absolute error" for "MAE",
    "earnings per share" for "EPS" (a small word inside may count or not: "return on investment", "ROI")."""
    return list(dict.fromkeys(phrase for phrase, _ in _spelled(question, text, r"[A-Za-z][A-Za-z'’-]*")))


def acronyms_spelled(question: str, text: str) -> set[str]:
    """The acronyms ``text`` prints that the question spells out, each word of a compound counting
    ("left-to-right" for "LTR", "next-sentence prediction" for "NSP"), in lower case: a table's row
    "LTR & No NSP" is the one a question about the left-to-right model without next-sentence
    prediction names."""
    return {acronym.lower() for _, acronym in _spelled(question, text, r"[A-Za-z][A-Za-z'’]*")}


def _spelled(question: str, text: str, word: str) -> list[tuple[str, str]]:
    found = {m.group(1) for m in _ACRONYM.finditer(text)}
    if not found:
        return []
    words = re.findall(word, question)
    out: list[tuple[str, str]] = []
    for i in range(len(words)):
        if words[i].lower() in _ACRONYM_GLUE:
            continue
        for j in range(i + 2, min(len(words), i + 6) + 1):
            run = words[i:j]
            if run[-1].lower() in _ACRONYM_GLUE:
                continue
            for initials in ("".join(w[0] for w in run), "".join(w[0] for w in run if w.lower() not in _ACRONYM_GLUE)):
                if len(initials) >= 2 and initials.upper() in found and initials.upper() != " ".join(run).upper():
                    out.append((" ".join(run), initials.upper()))
    return out


def spelled_by_name(question: str, doc_name: str) -> list[str]:
    """The question's phrases whose initials are a word of a document's file name: "International Council of
    Containership Operators" for icco-agreement-members.pdf names the document, as its title would."""
    stem = doc_name.rsplit(".", 1)[0]
    words = [w.upper() for w in re.split(r"[_\W\d]+", stem) if 3 <= len(w) <= 6]
    return spelled_acronyms(question, " ".join(words)) if words else []


def terms_named_by(question: str, doc_names: Iterable[str]) -> set[str]:
    """The content terms of the question's phrases that the documents' file names abbreviate
    (``spelled_by_name``): said by the document as a whole, as its name is."""
    return {t for d in doc_names for t in tx.content_terms(" ".join(spelled_by_name(question, d)))}


_STATES = dict(zip(
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR "
    "PA RI SC SD TN TX UT VT VA WA WV WI WY DC".split(),
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho|Illinois|"
    "Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|"
    "Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma|"
    "Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|"
    "West Virginia|Wisconsin|Wyoming|District of Columbia".split("|"), strict=True))
_STATE_ZIP = re.compile(r"\b(" + "|".join(_STATES) + r")\.?\s+(\d{5}(?:-\d{4})?)\b")


def spell_states(text: str) -> str:
    """A US state's postal code before a ZIP code ("Oakland, CA 94612") followed by the state's name: an
    address states its state ("California"), though it spells it in two letters. Without a ZIP code two
    capitals are no state ("CA" of calcium, of a certificate authority)."""
    return _STATE_ZIP.sub(lambda m: f"{m.group(1)} {_STATES[m.group(1)]} {m.group(2)}", text)
