"""BM25 tokenizer (pure function) and sparse encoder, checked on strings and on a built paper."""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter

import pytest

from pagelens.index.bm25 import BM25_K1, SparseEncoder, term_index, tokenize

from pdfs import PAPER_QUESTIONS, paper_pdf



# -- tokenizer ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("number", ["41.8", "60.5", "93.2", "3.1.2", "1.5b"])
def test_numbers_stay_whole(number: str) -> None:
    terms = tokenize(f"The score was {number} on the test set.")
    assert number in terms
    assert not ({"41", "8", "60", "5", "93", "2"} & set(terms))  # no fragments of the number


def test_thousands_separator_is_dropped_so_both_spellings_match() -> None:
    assert "2500m" in tokenize("English Wikipedia (2,500M words)")
    assert tokenize("2,500M") == tokenize("2500M") == ["2500m"]
    assert "1,2" in tokenize("sections 1,2")  # not a thousands separator: kept as written


def test_identifiers_keep_whole_form_and_parts() -> None:
    terms = tokenize("BERT_LARGE and ISO-9001 and GPT-3")
    for expected in ["bert_large", "bert", "larg", "iso-9001", "iso", "9001", "gpt-3", "gpt3", "gpt", "3"]:
        assert expected in terms, expected


def test_compound_spellings_share_terms() -> None:
    # "BERT-Large" in a query finds "BERTLARGE", "BERT_LARGE" and "BERT Large" in documents
    query = set(tokenize("BERT-Large"))
    for doc in ["BERTLARGE", "BERT_LARGE", "BERT Large"]:
        assert query & set(tokenize(doc)), doc
    assert "bertlarg" in set(tokenize("BERTLARGE")) & set(tokenize("BERT_LARGE")) & query


def test_stemming_joins_hyphenated_and_closed_forms() -> None:
    assert "pretrain" in tokenize("pre-training")
    assert "pretrain" in tokenize("pretrained")
    assert tokenize("models") == tokenize("model") == ["model"]
    assert "finetun" in set(tokenize("fine-tuning")) & set(tokenize("finetuned"))


def test_unicode_ligatures_quotes_hyphens_and_accents() -> None:
    assert tokenize("ﬁne-tuning") == tokenize("fine-tuning")  # U+FB01 ligature from PDF text layers
    assert tokenize("eﬃcient") == tokenize("efficient")
    assert tokenize("pre\u2010training") == tokenize("pre-training")  # U+2010 hyphen
    assert tokenize("hyphen\u00adation") == tokenize("hyphenation")  # soft hyphen
    assert tokenize("the model’s accuracy") == tokenize("the model's accuracy") == ["model", "accuraci"]
    assert tokenize("naïve") == tokenize("naive")
    assert tokenize("Ελληνικά") == ["ελληνικά"]  # other scripts survive


def test_stopwords_and_punctuation_are_dropped() -> None:
    assert tokenize("What is the and of a?") == []
    assert tokenize("... — ; ()") == []
    assert tokenize("") == []


def test_term_index_is_stable_across_processes() -> None:
    # Python's hash() is salted per process; the index must not be.
    code = "from pagelens.index.bm25 import term_index; print(term_index('bert_large'))"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(other.stdout) == term_index("bert_large")
    assert 0 <= term_index("bert_large") < 2**31


# -- encoder ------------------------------------------------------------------------------------------
def test_encode_document_applies_saturation_and_length_normalisation() -> None:
    enc = SparseEncoder()
    once = enc.encode_document("transformer encoder")
    thrice = enc.encode_document("transformer transformer transformer encoder")
    t = term_index("transform")
    v1 = dict(zip(once.indices, once.values))[t]
    v3 = dict(zip(thrice.indices, thrice.values))[t]
    assert v1 < v3 < 3 * v1  # more occurrences count, with diminishing returns
    assert v3 < BM25_K1 + 1  # saturates below k1 + 1
    long_doc = enc.encode_document("transformer " + " ".join(f"word{i}" for i in range(300)))
    assert dict(zip(long_doc.indices, long_doc.values))[t] < v1  # longer documents weigh a hit less
    assert once.indices == sorted(once.indices)


def test_encode_query_is_unique_terms_with_unit_weights() -> None:
    q = SparseEncoder().encode_query("BERT bert BERT model")
    assert sorted(q.indices) == sorted({term_index("bert"), term_index("model")})
    assert q.values == [1.0, 1.0]
    assert SparseEncoder().encode_document("the of and").indices == []


@pytest.fixture(scope="module")
def passages() -> list[tuple[int, str]]:
    """The built paper's pages as 150-word passages (30 words overlap)."""
    import pymupdf

    out = []
    with pymupdf.open(stream=paper_pdf(), filetype="pdf") as doc:
        for number, page in enumerate(doc, start=1):
            words = page.get_text().split()
            for start in range(0, max(len(words), 1), 120):
                out.append((number, " ".join(words[start : start + 150])))
    return out


def _bm25_rank_pages(passages: list[tuple[int, str]], query: str) -> list[int]:
    """Exact BM25 as Qdrant computes it with Modifier.IDF: IDF(t) * stored document value."""
    enc = SparseEncoder()
    docs = [dict(zip(v.indices, v.values)) for v in (enc.encode_document(t) for _, t in passages)]
    df = Counter(i for d in docs for i in d)
    n = len(docs)
    terms = enc.encode_query(query).indices
    scores = [
        sum(math.log(1 + (n - df[i] + 0.5) / (df[i] + 0.5)) * d[i] for i in terms if i in d) for d in docs
    ]
    ranked: list[int] = []
    for j in sorted(range(n), key=lambda j: -scores[j]):
        if passages[j][0] not in ranked:
            ranked.append(passages[j][0])
    return ranked


def test_bm25_finds_the_pages_that_answer_questions(passages: list[tuple[int, str]]) -> None:
    hits = [bool(set(_bm25_rank_pages(passages, q)[:3]) & set(pages)) for q, pages in PAPER_QUESTIONS]
    assert sum(hits) >= len(PAPER_QUESTIONS) - 2, f"hit@3 {sum(hits)}/{len(PAPER_QUESTIONS)}"


def test_number_query_matches_comma_spelling_in_pdf(passages: list[tuple[int, str]]) -> None:
    # the paper writes "2,500M words" (p. 4); a user types "2500M words"
    assert "2,500M words" in " ".join(t for p, t in passages if p == 4)
    ranked = _bm25_rank_pages(passages, "Wikipedia 2500M words")
    assert ranked[0] == 4
