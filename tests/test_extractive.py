"""The extractive answerer on real sources: text and table chunks read from the built QUILL paper,
form fields read from a built HR form's widgets, a committed IBM Redpaper table, the real MiniLM
embedder."""

from __future__ import annotations

import re

import pytest

from pagelens.answer.answerer import Answerer
from pagelens.answer.extractive import ExtractiveAnswerer
from pagelens.answer.prompts import ABSTAIN_TEXT
from pagelens.models import Chunk
from pagelens.settings import AnswerSettings, RetrievalSettings, Settings

from answer_support import ListSearcher, hit, minilm, pdf_chunks  # noqa: F401 (minilm: session fixture)
from pdfs import DATA, hr_form_pdf


@pytest.fixture(scope="module")
def bert(paper):
    """Chunks of the built paper's pages 3-6 (input representation, Table 1, Tables 2-4, Table 5)."""
    return pdf_chunks(paper, [3, 4, 5, 6])


@pytest.fixture(scope="module")
def searcher(bert, minilm):
    return ListSearcher(bert, minilm)


@pytest.fixture(scope="module")
def answerer(minilm):
    return ExtractiveAnswerer(AnswerSettings(), minilm)


def cited_page(text: str) -> set[int]:
    return {int(p) for p in re.findall(r"\[\d+, p\.(\d+)\]", text)}


def test_table_cell_with_its_row_and_citation(answerer, searcher):
    hits = searcher.search("What CoLA score does QUILL-Large obtain on the GLUE test set?", k=8)
    text, abstained, score = answerer.answer("What CoLA score does QUILL-Large obtain on the GLUE test set?", hits)
    assert not abstained and score >= AnswerSettings().abstain_threshold
    assert "CoLA: 61.3" in text  # the cell, named by its column
    n = next(i for i, h in enumerate(hits, 1) if h.chunk.kind == "table" and "61.3" in h.chunk.text)
    assert f"[{n}, p.4]" in text


def test_sentence_answer_from_running_text(answerer, searcher):
    q = "How large is the WordPiece vocabulary that QUILL uses?"
    text, abstained, _ = answerer.answer(q, searcher.search(q, k=8))
    assert not abstained and "30,000" in text and 3 in cited_page(text)


def test_superlative_picks_the_extreme_row(answerer, bert):
    table = next(c for c in bert if c.kind == "table" and "CoLA" in c.text)
    text, abstained, _ = answerer.answer("Which system has the lowest CoLA score?", [hit(table)])
    assert not abstained and text.startswith("Prior SOTA — CoLA: 33.6")


@pytest.mark.parametrize("question", [
    "What is the boiling point of liquid nitrogen in Kelvin?",
    "What BLEU score does QUILL achieve on WMT 2014 English-to-German translation?",
])
def test_abstains_when_the_sources_do_not_answer(answerer, searcher, question):
    text, abstained, _ = answerer.answer(question, searcher.search(question, k=8))
    assert abstained and text == ABSTAIN_TEXT


def test_form_fields_answer_by_label(answerer, hr_form):
    text, abstained, _ = answerer.answer("In which city does the employee live?", [hit(hr_form)])
    assert not abstained and text.startswith("City: Kalamazoo [1, p.1]")
    text, _, _ = answerer.answer("How is the emergency contact related to the employee?", [hit(hr_form)])
    assert "Older Brother" in text


def test_answerer_without_llm_is_extractive_with_checked_citations(tmp_path, bert, minilm):
    settings = Settings(home=tmp_path, answer=AnswerSettings(cache=False), retrieval=RetrievalSettings(k=6))
    answer = Answerer(settings, ListSearcher(bert, minilm), minilm).ask(
        "How many words does the English Wikipedia part of QUILL's pre-training corpus contain?")
    assert answer.model == "extractive" and not answer.abstained
    assert "2,500M" in answer.answer
    assert answer.cited and all(c.valid for c in answer.cited) and answer.invalid_citations == []
    assert any(c.page == 4 and c.doc == "quill.pdf" for c in answer.cited)
    assert {"retrieve", "generate", "total"} <= set(answer.timings_ms)


@pytest.fixture(scope="module")
def hr_form():
    import pymupdf

    with pymupdf.open(stream=hr_form_pdf(), filetype="pdf") as doc:
        lines = [f"{w.field_name.replace('_', ' ')}: {w.field_value}" for w in doc[0].widgets()
                 if w.field_type_string == "Text" and w.field_value]
    return Chunk(id="form", doc_id="f", doc_name="hr-form.pdf", kind="form", text="\n".join(lines),
                 embed_text="\n".join(lines), pages=[1], bboxes=[(1, (0, 0, 600, 800))])


def test_form_date_and_phone_fields_by_answer_type_and_label(answerer, hr_form):
    text, abstained, _ = answerer.answer("What date of birth is entered on the HR employee form?", [hit(hr_form)])
    assert not abstained and "03/14/1990" in text.split("[1, p.1]")[0]  # the date field comes first
    text, abstained, _ = answerer.answer("What work telephone number is given on the HR employee form?", [hit(hr_form)])
    assert not abstained and "5559876543" in text and "5551230000" not in text


def test_tick_mark_column_lists_the_marked_rows(answerer):
    table = next(c for c in pdf_chunks(DATA / "redp5110_sampled.pdf", [9]) if c.kind == "table")
    q = "According to the comparison of function usage IDs and *JOBCTL authority, which user actions are " \
        "allowed even for a user with no authority?"
    text, abstained, _ = answerer.answer(q, [hit(table)])
    assert not abstained and text.startswith("No Authority is marked for:")
    marked = text.split("[1, p.9]")[0]
    assert "Visual Explain within Run SQL scripts" in marked and "ANALYZE PLAN CACHE" not in marked


def test_answer_is_short_and_every_snippet_cited(answerer, searcher):
    q = "How is QUILL pre-trained, and on which corpora?"
    text, abstained, _ = answerer.answer(q, searcher.search(q, k=8))
    assert not abstained and len(text) <= 600 + 20
    assert 1 <= len(re.findall(r"\[\d+, p\.\d+\]", text)) <= 3


def test_row_label_is_glossed_by_its_caption_definition(paper):
    from pagelens.answer import markdown as md
    from pagelens.answer import text as tx

    table = next(c for c in pdf_chunks(paper, [6]) if c.kind == "table")
    caption = " ".join(ln for ln in table.text.splitlines() if not md.is_table_line(ln))
    assert tx.gloss("LTR & No NSP", caption).startswith("“LTR & No NSP” is trained as a left-to-right LM")
    assert tx.gloss("No NSP", caption).startswith("“No NSP” is trained without")  # the quoted name wins
    assert tx.row_label(["4", "2", "OTSL", "0.952", "1.22"]) == "OTSL"  # counts lead, the name follows
