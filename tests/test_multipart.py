"""Questions whose evidence spans several pages or documents (pagelens.retrieve.multipart): the parts a
question is split into, and — on filings and papers the test builds, ingested and indexed for real
(MiniLM, BM25, qdrant-edge) — every evidence page and every document spanned in the top 5, with a
one-part question ranked exactly as without the mechanism."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from multipart_pdfs import HERON, METRIC_PAGE, ZEPHYR, filing, paper
from pagelens.index.bm25 import SparseEncoder
from pagelens.models import Chunk
from pagelens.retrieve.coverage import cover_parts, implied_documents, representative
from pagelens.retrieve.parts import decompose
from pagelens.retrieve.retriever import Retriever
from index_support import built_index


# -- decomposition ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "parts"), [
    ("What were Acme's net revenue and its dividends per share in fiscal 2018?",
     ["What were Acme's net revenue in fiscal 2018?", "What were Acme's dividends per share in fiscal 2018?"]),
    ("How did Acme's capital expenditures change from fiscal 2017 to fiscal 2018?",
     ["How did Acme's capital expenditures change in fiscal 2017?", "How did Acme's capital expenditures change in fiscal 2018?"]),
    ("What were Acme's and Globex's capital expenditures in 2018?",
     ["What were Acme's capital expenditures in 2018?", "What were Globex's capital expenditures in 2018?"]),
    ("What were revenue, net income and capital expenditures in 2019?",
     ["What were revenue in 2019?", "What were net income in 2019?", "What were capital expenditures in 2019?"]),
    ("Which learning rate does Zephyr use vs Heron?", ["Which learning rate does Zephyr use?", "Which learning rate does Heron?"]),
    ("How many people did Acme employ, and what was its revenue?", ["How many people did Acme employ", "what was its revenue?"]),
    ("The example grants the function to a user profile; what is that person's job title?",
     ["The example grants the function to a user profile", "what is that person's job title?"]),
    # Periods and names in an opening context phrase are asks of their own.
    ("In fiscal 2017 and fiscal 2018, what was Acme's capex?",
     ["In fiscal 2017, what was Acme's capex?", "In fiscal 2018, what was Acme's capex?"]),
    ("For Acme and Globex, what was revenue in 2018?",
     ["For Acme, what was revenue in 2018?", "For Globex, what was revenue in 2018?"]),
])
def test_decompose_splits_the_asks(question: str, parts: list[str]) -> None:
    d = decompose(question)
    assert [p.text for p in d.parts] == parts
    assert all(d.own_terms(i) for i in range(len(parts)))  # each part has words of its own


@pytest.mark.parametrize("question", [
    "What were Acme's capital expenditures in fiscal 2018?",
    "In Table 2, what accuracy does the model reach?",  # an opening phrase, not a second question
    "Besides AdaGrad, RMSProp and Adam, which fifth optimizer appears in the chart?",  # a list set aside
    "What were 2018 and 2018 sales?",
    # A coordination in the opening context phrase says which study or table, not what is asked.
    "In the study of speed exercise and nitric oxide in footballers, what was the maximum body weight?",
    "According to the comparison of usage IDs and *JOBCTL authority, which actions are allowed?",
    "In the OLS example with a non-linear curve and 50 samples, what is the t statistic of x3?",
])
def test_decompose_leaves_one_ask_whole(question: str) -> None:
    d = decompose(question)
    assert len(d.parts) == 1 and d.parts[0].text == " ".join(question.split()) and d.parts[0].kind == "whole"


@pytest.mark.parametrize(("question", "spans"), [
    ("How does Acme's revenue compare with the other report?", True),
    ("Which optimizer do both papers use?", True),
    ("What does that optimizer's original paper recommend?", True),
    ("What do the two filings say about leases?", True),
    ("What does the report say about leases?", False),
    ("Which paper introduced the optimizer?", False),
])
def test_spans_documents(question: str, spans: bool) -> None:
    assert decompose(question).spans_documents is spans


# -- coverage (pure) --------------------------------------------------------------------------------
@dataclass
class Cand:
    chunk: Chunk
    fused: float
    channels: dict = field(default_factory=dict)
    merged: list = field(default_factory=list)
    parts: list = field(default_factory=list)


def _cand(doc: str, page: int, fused: float, text: str = "words") -> Cand:
    return Cand(Chunk(id=f"{doc}:{page}", doc_id=doc, doc_name=doc, kind="text", text=text, embed_text=text,
                      pages=[page]), fused)


def test_cover_parts_brings_each_parts_page_in_and_fills_by_fused_order() -> None:
    ordered = [_cand("a", p, 0.05 - p * 0.001) for p in range(1, 9)]
    rev = _cand("a", 7, 0.06, "net revenue was 5")  # the part's own candidate of page 7
    div = _cand("b", 3, 0.045, "dividends per share")  # a page the question never found
    out = cover_parts(ordered, 5, [("net revenue", rev), ("dividends", div)])
    top = [(c.chunk.doc_id, c.chunk.page) for c in out[:5]]
    assert top == [("a", 7), ("a", 1), ("a", 2), ("a", 3), ("b", 3)]
    assert out[0] is ordered[6] and out[0].parts == ["net revenue"] and out[0].fused == 0.06
    assert [(c.chunk.doc_id, c.chunk.page) for c in out[5:]] == [("a", 4), ("a", 5), ("a", 6), ("a", 8)]
    assert cover_parts(ordered, 5, []) == ordered


def test_cover_parts_keeps_a_covered_documents_only_place() -> None:
    ordered = [_cand("a", 1, 0.05), _cand("a", 2, 0.04), _cand("a", 3, 0.03), _cand("c", 1, 0.02), _cand("a", 4, 0.01)]
    out = cover_parts(ordered, 4, [("x", _cand("b", 1, 0.001, "x"))], keep_docs=["c"])
    assert {c.chunk.doc_id for c in out[:4]} == {"a", "b", "c"}


def test_representative_needs_the_parts_own_words() -> None:
    cover = _cand("a", 1, 0.05, "Acme Corporation annual report fiscal 2018")
    page = _cand("a", 5, 0.04, "The board declared dividends of $0.48 per share")
    assert representative([cover, page], {"dividend", "share"}) is page
    assert representative([cover, page], {"capex"}) is None
    assert representative([cover, page], set(), docs=["a"]) is cover  # told apart by its document only
    assert representative([cover, page], set(), docs=["z"]) is None


def test_implied_documents() -> None:
    ranking = [_cand("a", 1, 0.1), _cand("a", 2, 0.09), _cand("b", 4, 0.08), _cand("c", 1, 0.07)]
    assert implied_documents(["a"], [], [ranking], 2) == ["b"]
    assert implied_documents(["a"], [["c"]], [ranking], 2) == ["c"]  # a part's routing names it
    assert implied_documents([], [], [ranking], 3) == ["a", "b", "c"]


# -- on real PDFs -----------------------------------------------------------------------------------
VALUES = {
    ("Acme Corporation", 2017): {"capex": "409", "interest": "3.1", "revenue": "32,509", "dividend": "1.37"},
    ("Acme Corporation", 2018): {"capex": "486", "interest": "5.8", "revenue": "43,586", "dividend": "0.48"},
    ("Globex Corporation", 2018): {"capex": "733", "interest": "9.1", "revenue": "21,432", "dividend": "2.26"},
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("multipart")
    paths = [filing(root / f"{company.split()[0].lower()}-10k-{year}.pdf", company, year, v)
             for (company, year), v in VALUES.items()]
    paths += [paper(root / "zephyr.pdf", *ZEPHYR), paper(root / "heron.pdf", *HERON)]
    with built_index(root / "home", paths) as b:
        yield b.settings, b.store, b.embedder, b.ids


def _search(corpus, question: str, multipart: bool = True, k: int = 5):
    settings, store, embedder, _ = corpus
    s = settings.with_overrides(**{"retrieval.multipart": multipart})
    return Retriever(s, store, embedder, SparseEncoder()).search(question, k=k)


def _pages(hits) -> set[tuple[str, int]]:
    return {(c.doc_name, p) for h in hits for c in h.all_chunks() for p in c.pages}


def test_two_metrics_of_one_filing_both_in_top5(corpus) -> None:
    q = "What were Acme's net revenue and its dividends per share in fiscal 2018?"
    gold = {("acme-10k-2018.pdf", METRIC_PAGE["revenue"]), ("acme-10k-2018.pdf", METRIC_PAGE["dividend"])}
    hits = _search(corpus, q)
    assert gold <= _pages(hits)
    by_page = {(h.chunk.doc_name, h.chunk.page): h for h in hits}
    assert by_page[("acme-10k-2018.pdf", METRIC_PAGE["revenue"])].parts == ["net revenue"]
    assert by_page[("acme-10k-2018.pdf", METRIC_PAGE["dividend"])].parts == ["dividends per share"]
    assert by_page[("acme-10k-2018.pdf", METRIC_PAGE["revenue"])].rank <= 2  # each part's best page leads
    assert by_page[("acme-10k-2018.pdf", METRIC_PAGE["dividend"])].rank <= 2
    assert all(h.channels for h in hits)  # the per-channel explanation stays


def test_a_change_between_two_years_gets_both_filings(corpus) -> None:
    hits = _search(corpus, "How did Acme's capital expenditures change from fiscal 2017 to fiscal 2018?")
    assert {("acme-10k-2017.pdf", METRIC_PAGE["capex"]), ("acme-10k-2018.pdf", METRIC_PAGE["capex"])} <= _pages(hits)


def test_two_named_companies_each_get_their_page(corpus) -> None:
    hits = _search(corpus, "What were Acme's and Globex's interest expenses in fiscal 2018?")
    assert {("acme-10k-2018.pdf", METRIC_PAGE["interest"]), ("globex-10k-2018.pdf", METRIC_PAGE["interest"])} <= _pages(hits)


def test_the_other_paper_is_found_though_never_named(corpus) -> None:
    q = "How does the learning rate used to pre-train Zephyr compare with the one in the other paper?"
    hits = _search(corpus, q)
    assert {"zephyr.pdf", "heron.pdf"} <= {h.chunk.doc_name for h in hits}
    assert ("heron.pdf", 2) in _pages(hits)  # the other paper's training setup
    assert "heron.pdf" not in {h.chunk.doc_name for h in _search(corpus, q, multipart=False)}


@pytest.mark.parametrize("question", [
    "What were Acme's capital expenditures in fiscal 2018?",
    "What batch size does Heron train with?",
    "Globex interest expense",
    "Which learning rate is used for fine-tuning Zephyr?",
])
def test_one_part_questions_rank_exactly_as_before(corpus, question: str) -> None:
    now = _search(corpus, question, k=8)
    before = _search(corpus, question, multipart=False, k=8)
    assert [(h.chunk.id, h.rank, h.score, h.channels) for h in now] == [
        (h.chunk.id, h.rank, h.score, h.channels) for h in before]
    assert not any(h.parts for h in now)


def _answer(corpus, question: str, by_parts: bool = True):
    from pagelens.answer.extractive import ExtractiveAnswerer

    settings, _, embedder, _ = corpus
    hits = _search(corpus, question)
    answerer = ExtractiveAnswerer(settings.answer.model_copy(update={"by_parts": by_parts}), embedder)
    return answerer.answer(question, hits), hits


def _cited_pages(text: str, value: str, hits) -> set[tuple[str, int]]:
    """The (document, page) of the citation that follows ``value`` in the answer."""
    from pagelens.answer.citations import parse_citations

    after = text[text.index(value):]
    n, page = parse_citations(after)[0]
    return {(hits[n - 1].chunk.doc_name, page)}


def test_the_extractive_answer_answers_each_part_with_its_own_citation(corpus) -> None:
    q = "What were Acme's net revenue and its dividends per share in fiscal 2018?"
    (text, abstained, _), hits = _answer(corpus, q)
    assert not abstained and "43,586" in text and "0.48" in text
    assert _cited_pages(text, "43,586", hits) == {("acme-10k-2018.pdf", METRIC_PAGE["revenue"])}
    assert _cited_pages(text, "0.48", hits) == {("acme-10k-2018.pdf", METRIC_PAGE["dividend"])}


def test_a_change_between_two_years_is_answered_from_both_filings(corpus) -> None:
    q = "How did Acme's capital expenditures change from fiscal 2017 to fiscal 2018?"
    (text, abstained, _), hits = _answer(corpus, q)
    assert not abstained and "409" in text and "486" in text
    assert _cited_pages(text, "409", hits) == {("acme-10k-2017.pdf", METRIC_PAGE["capex"])}
    assert _cited_pages(text, "486", hits) == {("acme-10k-2018.pdf", METRIC_PAGE["capex"])}


@pytest.mark.parametrize("question", [
    "What were Acme's capital expenditures in fiscal 2018?",  # one part
    "What were Acme's net revenue and its number of patents in fiscal 2018?",  # one part has no answer
])
def test_answers_are_unchanged_unless_two_parts_are_answered(corpus, question: str) -> None:
    (on, _), (off, _) = _answer(corpus, question), _answer(corpus, question, by_parts=False)
    assert on == off


@pytest.mark.parametrize("question, preamble", [
    ("In the HC and HAC covariance paper's regression, what standard error does HC0 give?", True),
    ("What were Acme's net revenue and its dividends per share in fiscal 2018?", False),
    ("What were Acme's and Globex's interest expenses in fiscal 2018?", False),
])
def test_a_coordination_before_the_question_word_is_not_answered_by_parts(question: str, preamble: bool) -> None:
    from pagelens.answer.by_parts import _in_preamble
    from pagelens.retrieve.parts import decompose

    d = decompose(question)
    assert d.multi and _in_preamble(d.question, d.parts[0].label) is preamble
