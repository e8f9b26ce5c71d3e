"""BM25 as sparse vectors: a tokenizer and an encoder whose IDF half is applied by Qdrant.

BM25 (Robertson & Zaragoza 2009, "The Probabilistic Relevance Framework: BM25 and Beyond") scores a
document d for a query q as  sum over t in q of  IDF(t) * tf(t,d) * (k1 + 1) / (tf(t,d) + k1 * (1 - b +
b * |d| / avgdl)).  The document side (everything but IDF) is stored as the sparse vector's values;
the query is a bag of unique terms with weight 1; Qdrant multiplies in IDF at search time because the
collection's sparse vector is created with ``Modifier.IDF``. ``avgdl`` is a fixed constant close to a
chunk's token count rather than a corpus statistic, so a document's vector never changes when other
documents are added.

The tokenizer is a pure function tuned for technical PDFs: numbers and identifiers stay whole
(``41.8``, ``2,500M`` → ``2500m``, ``bert_large``, ``iso-9001``), compounds also emit their parts and
their joined form (``BERT-Large`` → ``bertlarg``, ``bert``, ``larg``; ``pre-training`` → ``pretrain``,
``pre``, ``train``), words are Snowball-stemmed and a short English stopword list is dropped.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from functools import lru_cache

from pagelens.vectors.protocol import SparseVector

# Okapi BM25 constants (Robertson & Zaragoza 2009, §3.3): the usual k1 in [1.2, 2.0], b = 0.75.
BM25_K1 = 1.2
BM25_B = 0.75
# Fixed average document length in tokens (this tokenizer's count for a ~220-model-token chunk is
# about 100 after stopwords are dropped and compound parts are added).
BM25_AVGDL = 100.0

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most
    my myself no nor not now of off on once only or other our ours ourselves out over own same she
    should so some such than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom why will with
    would you your yours yourself yourselves also et al eg ie etc via""".split()
)

# Hyphen look-alikes that PDFs use inside words; en and em dashes separate words instead.
_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2043": "-", "\u2212": "-", "\u2013": " ", "\u2014": " "})
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'"})
_POSSESSIVE = re.compile(r"(?<=\w)'s\b")
_INNER_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# A run of word characters, possibly joined by . _ - / or (between digits) a comma.
_COMPOUND = re.compile(r"\w+(?:(?:[.\-/]|(?<=\d),(?=\d))\w+)*")
_CONNECTORS = re.compile(r"[._\-/,]+")
_NUMERIC = re.compile(r"\d+(?:[.,]\d+)*[^\W\d_]{0,3}")  # 41.8, 1,2, 2500m, 1.5b, 10k, 3x


@lru_cache(maxsize=1)
def _stemmer():  # type: ignore[no-untyped-def]
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=50_000)
def _stem(word: str) -> str:
    return str(_stemmer().stemWord(word))


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_HYPHENS).translate(_APOSTROPHES)
    text = text.replace("\u00ad", "").lower()  # soft hyphens are line-break hints, not characters
    text = _POSSESSIVE.sub("", text)
    text = _INNER_APOSTROPHE.sub("", text)  # don't -> dont
    return _THOUSANDS.sub("", text)  # 2,500 -> 2500


def _word(part: str) -> str | None:
    """A single connector-free part: stemmed if alphabetic, None if it carries no signal."""
    if part.isalpha():
        if len(part) < 2 or part in STOPWORDS:
            return None
        return _stem(part)
    return part  # has digits (or '_'-free mixed word chars): keep as written


def _compound_terms(token: str) -> list[str]:
    parts = [p for p in _CONNECTORS.split(token) if p]
    if len(parts) <= 1:
        if _NUMERIC.fullmatch(token) or not token.isalpha():
            return [token]
        word = _word(token)
        return [word] if word else []
    if _NUMERIC.fullmatch(token):  # 41.8, 3.1.2, 1,2: a number is one term
        return [token]
    terms: list[str] = []
    joined = "".join(parts)
    has_digit = any(ch.isdigit() for ch in token)
    if has_digit or "_" in token:
        terms.append(token)  # identifiers stay whole: bert_large, iso-9001, gpt-3
    joined_term = _word(joined) if joined.isalpha() else joined
    if joined_term and joined_term not in terms and not all(p in STOPWORDS for p in parts):
        terms.append(joined_term)  # pre-training ~ pretraining, BERT-Large ~ BERTLARGE
    for part in parts:
        word = _word(part)
        if word:
            terms.append(word)
    return terms


def _fold_accents(token: str) -> str:
    """naïve -> naive, Pérez -> perez; tokens in other scripts are left alone."""
    if token.isascii():
        return token
    folded = "".join(ch for ch in unicodedata.normalize("NFD", token) if not unicodedata.combining(ch))
    return folded if folded.isascii() else token


def tokenize(text: str) -> list[str]:
    """BM25 terms of ``text``, in order (repeats kept: they are term frequency)."""
    terms: list[str] = []
    for match in _COMPOUND.finditer(_normalise(text)):
        terms.extend(_compound_terms(_fold_accents(match.group())))
    return terms


def term_index(term: str) -> int:
    """Stable 31-bit index of a term (blake2b; Python's ``hash`` is salted per process)."""
    digest = hashlib.blake2b(term.encode("utf-8"), digest_size=4).digest()
    return int.from_bytes(digest, "little") & 0x7FFFFFFF


class SparseEncoder:
    """Turns texts into BM25 sparse vectors for a collection whose sparse vector uses IDF."""

    name = "bm25"

    def __init__(self, k1: float = BM25_K1, b: float = BM25_B, avgdl: float = BM25_AVGDL) -> None:
        if k1 < 0 or not 0 <= b <= 1 or avgdl <= 0:
            raise ValueError(f"BM25 parameters out of range: k1={k1}, b={b}, avgdl={avgdl}")
        self.k1, self.b, self.avgdl = k1, b, avgdl

    def encode_document(self, text: str) -> SparseVector:
        terms = tokenize(text)
        if not terms:
            return SparseVector(indices=[], values=[])
        tf: Counter[int] = Counter(term_index(t) for t in terms)
        norm = self.k1 * (1.0 - self.b + self.b * len(terms) / self.avgdl)
        indices = sorted(tf)
        values = [tf[i] * (self.k1 + 1.0) / (tf[i] + norm) for i in indices]
        return SparseVector(indices=indices, values=values)

    def encode_query(self, text: str) -> SparseVector:
        indices = sorted({term_index(t) for t in tokenize(text)})
        return SparseVector(indices=indices, values=[1.0] * len(indices))
