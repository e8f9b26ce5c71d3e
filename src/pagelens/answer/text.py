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
_SPACED_THOUSANDS = re.compile(r"\b(\d{1,3})((?: \d{3})+)\b")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
DATE = re.compile(
    rf"\b(?:\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}})(?!\d)",
    re.I,
)
MARKS = frozenset({"x", "✓", "✔", "✗", "yes", "y", "•", "●", "■", "*"})


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
    # Header rows the finder put below the separator ("concentration | (g) | ... | rate (mm/year)"):
    # leading rows without a digit, while later rows have digits, continue the header.
    while len(body) > 1 and not any(ch.isdigit() for c in body[0] for ch in c) and \
            any(ch.isdigit() for c in body[1] for ch in c):
        for i, c in enumerate(body[0]):
            if c and i < width:
                header[i] = f"{header[i]} {c}".strip()
        body = body[1:]
    return header, body


def to_float(cell: str) -> float | None:
    cell = _SPACED_THOUSANDS.sub(lambda m: m.group(1) + m.group(2).replace(" ", ""), cell.replace("−", "-"))  # "98 452" is 98452
    m = NUMBER.search(cell)
    if not m:
        return None
    try:
        return float(normalise_number(m.group(0)).rstrip("%"))
    except ValueError:
        return None


_YEAR = re.compile(r"^(1[89]|20)\d\d$")
MONTHS = frozenset(
    "january february march april may june july august september october november december".split()
)


def key_names(question: str) -> list[list[str]]:
    """The distinctive names a question relies on, each as the stems of its words: runs of
    capitalised words and acronyms ("Global Electronics", "BLEU", "English-to-German") and years.
    The question's first word is skipped (capitalised anyway)."""
    names: list[list[str]] = []
    run: list[str] = []
    tokens = re.findall(r"[A-Za-z0-9][A-Za-z0-9_'’.\-]*|[^\sA-Za-z0-9]", question)
    for i, tok in enumerate(tokens):
        tok = tok.rstrip(".'’").removesuffix("'s").removesuffix("’s")
        parts = [p for p in re.split(r"[-_]", tok) if p]
        capital = i > 0 and bool(parts) and any(p[0].isupper() for p in parts) and tok.lower() not in STOPWORDS
        year = bool(_YEAR.match(tok))
        if capital or year:
            for p in parts:
                lp = p.lower()
                if lp in STOPWORDS or (len(lp) < 2 and not lp.isdigit()):
                    continue
                if lp in MONTHS or _YEAR.match(lp):  # dates stand alone: "October 2015" ≠ "November 2015"
                    if run:
                        names.append(run)
                        run = []
                    names.append([lp])
                else:
                    run.append(lp if lp[0].isdigit() else stem(lp))
            continue
        if run:
            names.append(run)
            run = []
    if run:
        names.append(run)
    return names


def has_date(text: str) -> bool:
    """A calendar date: 08/29/2020, 14/09/16, 2016-09-14, September 14, 2016, 14 Sep 2016."""
    return bool(DATE.search(text))


def is_mark(cell: str) -> bool:
    """A tick-box cell ("X", "✓", "Yes")."""
    return cell.strip().lower() in MARKS


def row_label(cells: list[str]) -> str:
    """The naming cells of a table row: the cells with letters that are not tick marks (the first
    three), e.g. "LTR & No NSP", "Texas", "OTSL" in a row led by layer counts."""
    named = [c for c in cells if re.search(r"[A-Za-z]", c) and not is_mark(c) and to_float(c) is None]
    return " ".join(named[:3])


def window(text: str, terms: set[str], width: int) -> str:
    """The ``width``-character stretch of ``text`` (cut at spaces) holding the most distinct
    ``terms`` (stemmed content words), with "…" where it was cut; ``text`` itself when short enough."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    tokens = flat.split(" ")
    found = [set(content_terms(t)) & terms for t in tokens]
    best: tuple[float, int, int] = (-1.0, 0, 0)
    for start in range(len(tokens)):
        length, end, seen, count = 0, start, set(), 0
        while end < len(tokens) and length + len(tokens[end]) + 1 <= width:
            length += len(tokens[end]) + 1
            seen |= found[end]
            count += bool(found[end])
            end += 1
        score = len(seen) + 0.1 * count
        if score > best[0]:
            best = (score, start, end)
        if end == len(tokens):
            break
    _, start, end = best
    lead = "… " if start > 0 else ""
    tail = " …" if end < len(tokens) else ""
    return f"{lead}{' '.join(tokens[start:end])}{tail}"
