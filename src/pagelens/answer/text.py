"""Small text tools shared by the extractive answerer: content-word stems, numbers, sentence
splitting and markdown table parsing. Pure functions, no model."""

from __future__ import annotations

import re
from functools import lru_cache

# Words that carry no topic: function words plus the vocabulary of asking questions.
STOPWORDS = frozenset(
    """a an the and or but if of to in on at by for with from into onto over under about as than then
    that this these those there here it its is are was were be been being am do does did done doing
    have has had having can could shall should will would may might must not no nor so such too very
    what which who whom whose when where why how much many some any each every all both either
    neither other another same own only just also more most less least few one ones s t
    i me my we our you your he him his she her they them their us per via vs etc e g ie eg
    according given reported reports report listed list shown show shows named name called
    value values number numbers amount kind type use used uses using get gets obtain obtained
    achieve achieves reach reaches give gives appear appears mention mentioned state stated
    document documents paper pdf page""".split()
)

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'’\-]*|\d+(?:[.,]\d+)*%?")
NUMBER = re.compile(r"(?<![\w.])[-−+]?\d+(?:[.,]\d+)*(?:\s?%)?")
_ABBREV = re.compile(r"\b(?:e\.g|i\.e|et al|Fig|Figs|Eq|Eqs|Sec|No|vs|cf|approx|resp|Tab|Ref|Dr|Mr|Ms|Inc|Ltd)\.$", re.I)
_SENT_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[“]?[A-Z0-9])")
MAX_SENTENCE_CHARS = 420


@lru_cache(maxsize=1)
def _stemmer():  # noqa: ANN202 - snowballstemmer has no types
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=50_000)
def stem(word: str) -> str:
    return _stemmer().stemWord(word)


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def content_terms(text: str) -> list[str]:
    """Stemmed, lowercased content words and numbers, in order (duplicates kept)."""
    out = []
    for w in words(text):
        lw = w.lower().strip("'’-")
        if not lw or lw in STOPWORDS:
            continue
        if lw[0].isdigit():
            out.append(normalise_number(lw))
            continue
        for part in re.split(r"[-_]", lw) if ("-" in lw or "_" in lw) else [lw]:
            if part and part not in STOPWORDS:
                out.append(stem(part))
        if "-" in lw or "_" in lw:
            out.append(stem(lw.replace("-", "").replace("_", "")))
    return out


def normalise_number(s: str) -> str:
    s = s.replace("−", "-").replace(" ", "")
    if re.fullmatch(r"[-+]?\d{1,3}(,\d{3})+(\.\d+)?%?", s):
        s = s.replace(",", "")
    return s


def numbers(text: str) -> set[str]:
    return {normalise_number(m.group(0)) for m in NUMBER.finditer(text)}


def split_sentences(text: str) -> list[str]:
    """Sentences of running text (PDF line breaks joined), long ones cut at ';' or into windows."""
    flat = " ".join(text.split())
    if not flat:
        return []
    parts = _SENT_SPLIT.split(flat)
    merged: list[str] = []
    for p in parts:
        if merged and _ABBREV.search(merged[-1]):
            merged[-1] = f"{merged[-1]} {p}"
        else:
            merged.append(p)
    out: list[str] = []
    for s in merged:
        if len(s) <= MAX_SENTENCE_CHARS:
            out.append(s)
            continue
        pieces = [x.strip() for x in re.split(r"(?<=;)\s+", s) if x.strip()]
        for piece in pieces:
            while len(piece) > MAX_SENTENCE_CHARS:
                cut = piece.rfind(" ", 0, MAX_SENTENCE_CHARS)
                cut = cut if cut > MAX_SENTENCE_CHARS // 2 else MAX_SENTENCE_CHARS
                out.append(piece[:cut].strip())
                piece = piece[cut:].strip()
            if piece:
                out.append(piece)
    return out


def is_table_line(line: str) -> bool:
    s = line.strip()
    return s.startswith("|") and s.count("|") >= 2


def _is_separator(cells: list[str]) -> bool:
    return bool(cells) and all(re.fullmatch(r":?-{2,}:?", c.strip()) or not c.strip() for c in cells)


def split_row(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [" ".join(c.split()) for c in s.split("|")]


def parse_markdown_table(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """(header, body rows) of a markdown table; header is [] when the table has no separator line."""
    rows = [split_row(ln) for ln in lines if is_table_line(ln)]
    sep = next((i for i, r in enumerate(rows) if _is_separator(r)), None)
    if sep is None:
        return [], [r for r in rows if any(c for c in r)]
    header_rows = rows[:sep]
    width = max((len(r) for r in rows), default=0)
    header = [""] * width
    for hr in header_rows:  # multi-line headers are joined per column
        for i, c in enumerate(hr):
            if c and i < width and c not in header[i]:
                header[i] = f"{header[i]} {c}".strip()
    body = [r for r in rows[sep + 1 :] if any(c for c in r) and not _is_separator(r)]
    return header, body


def to_float(cell: str) -> float | None:
    m = NUMBER.search(cell.replace("−", "-"))
    if not m:
        return None
    try:
        return float(normalise_number(m.group(0)).rstrip("%"))
    except ValueError:
        return None


_YEAR = re.compile(r"^(1[89]|20)\d\d$")


def key_terms(question: str) -> list[str]:
    """Stems of the distinctive names in a question: capitalised words and acronyms (not the first
    word, which is capitalised anyway) and years; hyphenated names count part by part."""
    out: list[str] = []
    for i, w in enumerate(words(question)):
        for part in re.split(r"[-_]", w):
            lw = part.lower().strip("'’")
            if not lw or lw in STOPWORDS or (i == 0 and not part.isupper()):
                continue
            if _YEAR.match(lw) or (part[0].isupper() and len(lw) >= 2):
                key = lw if lw[0].isdigit() else stem(lw)
                if key not in out:
                    out.append(key)
    return out
