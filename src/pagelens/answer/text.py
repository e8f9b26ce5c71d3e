"""Small text tools shared by the extractive answerer: content-word stems, numbers, dates, sentence
splitting, markdown table parsing, row labels and column matching. Pure functions, no model."""

from __future__ import annotations

import re
from functools import lru_cache

from pagelens.answer import stat_terms as st
from pagelens.answer.letters import fold

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
YEARLIKE = re.compile(r"(?:1[5-9]|20)\d\d")  # a number that may be a year (with ``fullmatch``)
_ABBREV = re.compile(r"\b(?:e\.g|i\.e|et al|Fig|Figs|Eq|Eqs|Sec|No|Nos|vs|cf|approx|resp|Tab|Ref|Dr|Mr|Ms|Mrs|Messrs|Inc|Ltd|"
                     r"Vol|Vols|pp|Prof|Capt|Rev|Jr|Sr|St|Gen|Col|Lt|Sgt|Gov|Hon|Dept|Univ|Corp|Jan|Feb|Mar|Apr|Jun|"
                     r"Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.$", re.I)
"""Abbreviations no sentence ends with ("Journal of Freshwater Ecology, Vol. 12", "Capt. H. Rudge", "Jan. 5")."""
_INITIAL = re.compile(r"(?:^|[\s(])[A-Z]\.$")
"""A name's initial ("decreed by C. E. De Long", "Diederik P. Kingma"): no sentence ends there."""
_SENT_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[“]?[A-Z0-9])")
MAX_SENTENCE_CHARS = 420
MAX_ROW_CELLS = 14  # cells of a table row written into an answer
_SPACED_THOUSANDS = re.compile(r"\b(\d{1,3})((?: \d{3})+)\b")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
DATE = re.compile(
    rf"\b(?:\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}|\d{{4}}-\d{{2}}-\d{{2}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}})(?!\d)",
    re.I,
)
_SPEECH_END = re.compile(r"\b(says|said|asks|asked|replies|replied|cries|cried|calls|called|shouts|shouted|"
                         r"exclaims|exclaimed|answers|answered)\s*[,:]$", re.I)
_WH = re.compile(r"\b(what|which|who|whom|how)\b|^\s*(when|where)\b", re.I)  # "when"/"where" later is a conjunction
WORDED_NUMBER = re.compile(
    r"\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|"
    r"eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|"
    r"dozen)\b", re.I)
"""A number written in words ("*thirteen* dollars a month", "*forty* thousand"); "one" is left out (a pronoun too)."""
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


_GREEK = {ord(ch): f" {name} " for chars, name in (
    ("αΑ", "alpha"), ("βΒ", "beta"), ("γΓ", "gamma"), ("δΔ", "delta"), ("εϵΕ", "epsilon"), ("ζ", "zeta"),
    ("η", "eta"), ("θϑΘ", "theta"), ("κ", "kappa"), ("λΛ", "lambda"), ("ρ", "rho"), ("σΣ", "sigma"), ("τ", "tau"),
    ("φϕΦ", "phi"), ("χ", "chi"), ("ψΨ", "psi"), ("ωΩ", "omega")) for ch in chars}
"""Greek letters as the words a question names them by ("what *epsilon* ...": "ε= 10−8")."""


def content_terms(text: str) -> list[str]:
    """Stemmed, lowercased content words and numbers, in order (duplicates kept); a Greek letter counts as
    its name."""
    out = []
    for w in words(fold(text).translate(_GREEK)):  # "Málaga" is "malaga", as a question may spell it
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
        if merged and (_ABBREV.search(merged[-1]) or (_INITIAL.search(merged[-1]) and p[:1].isupper())):
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
    capitalised words and acronyms ("Global Electronics", "BLEU", "English-to-German"), words with a
    capital inside ("iPhone", "eBay") and years. The question's first word is skipped (capitalised
    anyway) unless it has a capital inside. Accents are off (``fold``): "Özen" is the name "Ozen"."""
    question = fold(question)
    names: list[list[str]] = []
    run: list[str] = []
    tokens = re.findall(r"[A-Za-z0-9][A-Za-z0-9_'’.\-]*|[^\sA-Za-z0-9]", question)
    for i, tok in enumerate(tokens):
        tok = tok.rstrip(".'’").removesuffix("'s").removesuffix("’s")
        parts = [p for p in re.split(r"[-_]", tok) if p]
        # a capital inside a word names a thing too: "iPhone", "eBay", "macOS" (first word included)
        camel = any(p[0].islower() and any(ch.isupper() for ch in p[1:]) for p in parts)
        capital = (i > 0 or camel) and bool(parts) and any(p[0].isupper() or camel for p in parts) \
            and tok.lower() not in STOPWORDS
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
    named = [c for c in cells if re.search(r"[A-Za-z]", c) and not is_mark(c)
             and (to_float(c) is None or _NAMING_CODE.match(c))]
    return " ".join(named[:3])


_NAMING_CODE = re.compile(r"^[^\dA-Za-z\s]*[A-Za-z][^\s]*$")
"""A one-word cell that opens with a letter names its row whatever digits it holds: a model term or a
code ("I(Income^2)", "log(x)2", "Q3"); cells of several words with numbers ("November 1 - 30", "10 g")
are read as before."""


# -- labels, columns and rows (the extractive answerer's table reading) --------------------------

def label_score(label: str, q_terms: list[str] | set[str]) -> float:
    """Share of a label's content words the question uses (abbreviations and joined spellings count)."""
    terms = set(content_terms(label))
    qs = set(q_terms)
    if not terms:
        return 0.0
    return sum(1 for t in terms if t in qs or prefix_match(t, qs)) / len(terms)


def prefix_match(term: str, terms: set[str]) -> bool:
    """Tolerate abbreviations and joined spellings: 'ens' ~ 'ensembl', 'bertlarg' ~ 'bertlargeen'; and a word
    kept unstemmed (``key_names`` keeps months whole) against stemmed ``terms``: 'january' ~ 'januari'."""
    if len(term) < 3:
        return False
    if (st := stem(term)) != term and st in terms:
        return True
    return any(len(t) >= 3 and (t.startswith(term) or term.startswith(t)) for t in terms)


def best_column(header: list[str], q_terms: list[str], ask_terms: list[str] | None = None) -> int | None:
    """The column the question asks for: named by the words after its wh-word when they name one
    ("..., which actions are allowed for a user with *no authority*"), else by any of its words."""
    for terms in (ask_terms, q_terms):
        if terms and (col := _column_named(header, _with_digits(list(terms)))) is not None:
            return col
    return None


_COUNT_WORDS = {w: str(i) for i, w in
                enumerate("two three four five six seven eight nine ten eleven twelve".split(), 2)}


_FISCAL_YEAR = re.compile(r"^fy'?((?:19|20)?\d\d)$")


def fiscal_year(term: str) -> str | None:
    """The year a fiscal-year term names ("fy2018", "fy18" → "2018"); None for any other term."""
    m = _FISCAL_YEAR.match(term)
    return None if m is None else m.group(1) if len(m.group(1)) == 4 else f"20{m.group(1)}"


def _with_digits(terms: list[str]) -> list[str]:
    """Question terms with the digit of each count word beside it: "six months" names the column
    "6 Months Ended"; and the year of a fiscal year beside it: "FY2018" and "FY18" name the column
    "2018"."""
    out = []
    for t in terms:
        out.append(t)
        if t in _COUNT_WORDS:
            out.append(_COUNT_WORDS[t])
        elif year := fiscal_year(t):
            out.append(year)
    return out


def header_terms(name: str) -> list[str]:
    """A column name's content words, each word once: the joined form of a compound ("fm_pois" gives
    "fm", "poi" and "fmpoi") and a word that begins another of the name ("poi" of "fm_pois" beside
    "Poisson") are one word, so a question word that covers both does not count twice ("the
    *quasi-Poisson* model" names "quasi fm_qpois", not "GLM Poisson adjusted fm_pois")."""
    terms = list(dict.fromkeys(content_terms(re.sub(r"(?<=\w)[-_](?=\w)", " ", name)))) or content_terms(name)
    return [t for t in terms if not any(u != t and len(t) >= 3 and u.startswith(t) for u in terms)]


def column_match(name: str, q_terms: list[str] | set[str]) -> float:
    """Share of a column name's content words the question uses (0 for a name without any); the
    titles of statistical printouts count for the quantity they name (``stat_synonyms``)."""
    terms = content_terms(name)
    qs = st.stat_synonyms(q_terms)
    return sum(1 for t in terms if t in qs or prefix_match(t, qs)) / len(terms) if terms else 0.0


def own_name(header: list[str], i: int) -> str:
    """Column ``i``'s name less the words it shares with a neighbour's name at the start (the spanning
    group header a two-level header repeats over its columns: "Financial effects of modifications |
    Weighted average interest rate reduction") and at the end (the words parallel names repeat around
    what tells them apart: "Average Price Paid per Class *C* Share" beside "... Class A Share"). Those
    words say which columns, not which of them; the whole name when nothing is shared or nothing would
    be left."""
    words = header[i].split()
    best = (0, 0)
    for j in (i - 1, i + 1):
        if 0 < j < len(header) and header[j]:
            other = header[j].split()
            n = min(len(words), len(other))
            k = 0
            while k < n and words[k].lower() == other[k].lower():
                k += 1
            m = 0
            while m < n - k and words[-1 - m].lower() == other[-1 - m].lower():
                m += 1
            if k + m > sum(best):
                best = (k, m)
    k, m = best
    own = words[k:len(words) - m]
    return " ".join(own) if own and k + m else header[i]


def _column_named(header: list[str], asked: list[str]) -> int | None:
    """The column whose name the question's words cover best (the share of its own words, past a group
    header it shares with a neighbour: ``own_name``; each word of the whole name it uses adds a little, so
    "Weighted average interest rate reduction" is named more fully than "Interest rate reduction" by a
    question that says it all); between columns covered equally, the
    one named by the word nearest the question's start ("What *speedup* does the trace table list"
    asks for Speedup, not Traces), since the asked thing follows the wh-word. A statistical printout's
    titles are named by the quantity they stand for (``stat_synonyms``)."""
    asked = st.with_stat_synonyms(asked)
    qs = set(asked)
    best, best_key = None, (0.0, 0)
    for i, name in enumerate(header):
        if i == 0 or not name:
            continue
        terms = header_terms(name)
        if not terms:
            continue
        hit = sum(1 for t in terms if t in qs or prefix_match(t, qs))
        if not hit:
            continue
        own = header_terms(own_name(header, i)) or terms
        own_hit = sum(1 for t in own if t in qs or prefix_match(t, qs))
        first = min(j for j, q in enumerate(asked) if any(q == t or prefix_match(t, {q}) for t in terms))
        key = (round(own_hit / len(own) + 0.01 * hit, 9), -first)
        if key > best_key:
            best, best_key = i, key
    return best


def ask_part(question: str) -> str:
    """The question from its last wh-word on: what it asks, without the context before ("In the table
    of the largest cities, *what population is listed for Shanghai?*")."""
    last = None
    for last in _WH.finditer(question):
        pass
    return question[last.start():] if last else ""


def ask_terms(question: str) -> list[str]:
    """Content words of ``ask_part``."""
    return content_terms(ask_part(question))


def gloss(label: str, caption: str) -> str:
    """The caption sentence that names ``label`` (quoted first), or ""."""
    if not label or len(label) > 40 or not caption:
        return ""
    sentences = split_sentences(caption)
    for pattern in (f"“{label}”", f'"{label}"', label):
        hit = next((s for s in sentences if pattern in s), None)
        if hit:
            return hit
    return ""


def join_speech(sentences: list[str]) -> list[str]:
    """A sentence ending in "he says," is joined with the quoted words that follow it."""
    out: list[str] = []
    for s in sentences:
        if out and _SPEECH_END.search(out[-1]):
            out[-1] = f"{out[-1]} {s}"
        else:
            out.append(s)
    return out


def row_text(header: list[str], cells: list[str]) -> str:
    """ "label; Column A: v1; Column B: v2" for the first MAX_ROW_CELLS cells."""
    parts = []
    for i, cell in enumerate(cells[:MAX_ROW_CELLS]):
        if not cell:
            continue
        name = header[i] if i < len(header) else ""
        parts.append(f"{name}: {cell}" if name and i > 0 else cell)
    text = "; ".join(parts)
    return text + (" …" if len(cells) > MAX_ROW_CELLS else "")


# -- abstention checks ------------------------------------------------------------------------------
DO_AUX = frozenset("do does did can could will would shall should may might must has have had".split())
"""Auxiliaries that, right after "what" / "which", make the noun after them the verb's subject: "What *does the
applicant* propose to build" asks for what is proposed, not for the applicant ("what *is* the capital" still
names its thing)."""
_FOCUS = re.compile(
    r"^(?:.*?,\s*)?(?:what|which)\s+(?!(?:" + "|".join(sorted(DO_AUX)) + r")\b)"
    r"(?:is\s+|are\s+|was\s+|were\s+)?(?:the\s+)?((?:[\w-]+\s+){0,3}?[\w-]+)\s+"
    r"(?:of|for|in|on|does|do|did|is|are|was|were|has|have|had|that|to|at|by)\b",
    re.I,
)


def focus_words(question: str) -> list[list[str]]:
    """The content words of the thing asked for ("what *license price* does ..."), each as its terms."""
    m = _FOCUS.match(question)
    return [ts for w in m.group(1).split() if (ts := content_terms(w))] if m else []


def missing_names(question: str, corpus: set[str]) -> list[str]:
    """The question's names (see ``key_names``) none of whose words is in ``corpus`` (source terms)."""
    return [" ".join(name) for name in key_names(question)
            if not any(t in corpus or prefix_match(t, corpus) for t in name)]


def missing_focus(question: str, corpus: set[str]) -> bool:
    """True when the thing asked for has two or more content words and none is in ``corpus``."""
    words = focus_words(question)
    return len(words) >= 2 and not any(t in corpus or prefix_match(t, corpus) for ts in words for t in ts)


def abstain_on_names(missing: list[str]) -> bool:
    """Two missing names, or one missing date word (a month or a year)."""
    if len(missing) >= 2:
        return True
    return any(w in MONTHS or w.isdigit() for name in missing for w in name.split())
