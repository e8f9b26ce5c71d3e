"""SemanticCache over a real qdrant-client ':memory:' engine and the real MiniLM embedder."""

from __future__ import annotations

import time

import pytest

from pagelens.answer.cache import SemanticCache
from pagelens.models import Answer, Chunk, Citation, SearchHit
from pagelens.settings import AnswerSettings, Settings

from answer_support import minilm  # noqa: F401 (session fixture)


@pytest.fixture
def store():
    from qdrant_client import QdrantClient

    from pagelens.vectors.remote import QdrantServerStore

    s = QdrantServerStore(QdrantClient(":memory:"))
    yield s
    s.close()


def make_settings(tmp_path, **answer) -> Settings:
    return Settings(home=tmp_path, answer=AnswerSettings(**answer))


def answer_from(doc_id: str, text: str = "BERT uses a 30,000 token WordPiece vocabulary [1, p.4].") -> Answer:
    chunk = Chunk(id="c1", doc_id=doc_id, doc_name="bert.pdf", kind="text", text="We use WordPiece embeddings "
                  "with a 30,000 token vocabulary.", embed_text="x", pages=[4], bboxes=[(4, (10, 10, 100, 20))])
    return Answer(question="q", answer=text, sources=[SearchHit(rank=1, score=1.0, chunk=chunk)],
                  cited=[Citation(n=1, doc="bert.pdf", doc_id=doc_id, page=4)])


Q = "How large is the WordPiece vocabulary that BERT uses?"
PARAPHRASE = "How big is the WordPiece vocabulary used by BERT?"
OTHER = "Which optimizer was used to pre-train BERT?"


def test_paraphrase_hits_unrelated_question_misses(tmp_path, store, minilm):
    settings = make_settings(tmp_path, cache_threshold=0.9)
    cache = SemanticCache(store, minilm, settings)
    assert cache.lookup(Q) is None  # empty cache, collection not created yet
    cache.put(Q, answer_from("docA"))
    sim = float(minilm.embed([Q])[0] @ minilm.embed([PARAPHRASE])[0])
    assert sim >= 0.9, sim  # the premise of the test
    hit = cache.lookup(PARAPHRASE)
    assert hit is not None and hit.cached and "30,000" in hit.answer and hit.question == PARAPHRASE
    assert hit.cited[0].page == 4
    assert cache.lookup(OTHER) is None


def test_doc_filter_and_settings_fingerprint_must_match(tmp_path, store, minilm):
    settings = make_settings(tmp_path)
    cache = SemanticCache(store, minilm, settings)
    cache.put(Q, answer_from("docA"), doc_ids=["docA"], options={"k": 8})
    assert cache.lookup(Q, doc_ids=["docA"], options={"k": 8}) is not None
    assert cache.lookup(Q, options={"k": 8}) is None  # no filter ≠ filter on docA
    assert cache.lookup(Q, doc_ids=["docA"], options={"k": 5}) is None
    other_model = settings.model_copy(update={"answer": settings.answer.model_copy(update={"llm_model": "x"})})
    assert SemanticCache(store, minilm, other_model).lookup(Q, doc_ids=["docA"], options={"k": 8}) is None


def test_invalidation_by_document_and_ttl(tmp_path, store, minilm):
    cache = SemanticCache(store, minilm, make_settings(tmp_path))
    cache.put(Q, answer_from("docA"))
    cache.put(OTHER, answer_from("docB", "Adam [1]."))
    assert len(cache) == 2
    assert cache.invalidate_docs(["docA"]) == 1
    assert cache.lookup(Q) is None and cache.lookup(OTHER) is not None
    assert cache.invalidate_unfiltered() == 1 and len(cache) == 0

    short = SemanticCache(store, minilm, make_settings(tmp_path, cache_ttl_s=1))
    short.put(Q, answer_from("docA"))
    assert short.lookup(Q) is not None
    time.sleep(1.1)
    assert short.lookup(Q) is None


def test_max_entries_evicts_oldest(tmp_path, store, minilm):
    cache = SemanticCache(store, minilm, make_settings(tmp_path, cache_max_entries=3))
    questions = [Q, OTHER, "What is the learning rate of Adam?", "Who wrote the BERT paper?"]
    for q in questions:
        cache.put(q, answer_from("docA"))
    assert len(cache) <= 3
    assert cache.lookup(Q) is None  # the oldest went first
    assert cache.lookup(questions[-1]) is not None


def test_close_questions_that_differ_in_a_key_term_do_not_share_an_answer() -> None:
    from pagelens.answer.cache import key_terms

    nov = "How many NICS firearm background checks were recorded for Texas in November 2015?"
    assert key_terms(nov) != key_terms(nov.replace("November", "October"))
    assert key_terms(nov) != key_terms(nov.replace("Texas", "Alaska"))
    assert key_terms("What CoLA score does BERT-Large obtain?") == key_terms("Which CoLA score does BERT-Large get?")
    assert key_terms("Which model has the highest F1?") != key_terms("Which model has the lowest F1?")
    # Counts and ordinals in words: a near-miss twin must not get its twin's answer.
    six = "What was net income for the six-month period ended June 30?"
    assert key_terms(six) != key_terms(six.replace("six-month", "nine-month"))
    assert key_terms("Revenue in the second quarter?") != key_terms("Revenue in the third quarter?")
