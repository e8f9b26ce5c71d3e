"""Candidates are ranked by the words they state themselves: the question's words a table row only
inherits from its caption (or a list item from its heading) count half (``lexical.stated_coverage``), and
the asked thing's words (``focus_of``) a candidate states add to its rank. The evidence score the
abstention weighs is not shifted.

Chunks are read with PyMuPDF from a page the test builds: a table whose caption repeats the question's
words, and a headnote sentence that states the asked count.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import lexical as lx
from pagelens.answer import text as tx
from pagelens.answer.candidates import candidates
from pagelens.answer import extractive as ex
from pagelens.answer.extractive import ExtractiveAnswerer
from pagelens.settings import AnswerSettings

from answer_support import hit, minilm, pdf_chunks  # noqa: F401 (minilm: session fixture)

CAPTION = "Table 12. Harbour Arrivals by Vessel Type and Season: 2021"
HEADNOTE = ("The counts cover arrivals logged by 41 pilot stations along the northern coast; "
            "vessels under ten metres are left out.")
ROWS = [("Vessel type", "Spring", "Summer", "Autumn", "Winter"),
        ("Ferries", "1,204", "1,980", "1,115", "874"),
        ("Fishing boats", "3,310", "2,875", "2,902", "1,466"),
        ("Cargo ships", "612", "655", "640", "598")]
QUESTION = "How many pilot stations do the 2021 harbour arrivals by vessel type and season rest on?"


def _page(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), CAPTION, fontsize=12)
    x0, y0, w, h = 72, 100, 95, 20
    for r in range(len(ROWS) + 1):
        page.draw_line((x0, y0 + r * h), (x0 + len(ROWS[0]) * w, y0 + r * h), width=0.8)
    for c in range(len(ROWS[0]) + 1):
        page.draw_line((x0 + c * w, y0), (x0 + c * w, y0 + len(ROWS) * h), width=0.8)
    for r, row in enumerate(ROWS):
        for c, cell in enumerate(row):
            page.insert_text((x0 + c * w + 4, y0 + r * h + 14), cell, fontsize=9)
    page.insert_textbox(pymupdf.Rect(72, 200, 540, 260), HEADNOTE, fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def chunks(tmp_path_factory: pytest.TempPathFactory):
    return pdf_chunks(_page(tmp_path_factory.mktemp("stated") / "arrivals.pdf"), [1])


def _cands(chunks):
    table = next(c for c in chunks if c.kind == "table")
    text = next(c for c in chunks if c.kind == "text" and "pilot stations" in c.text)
    return [c for i, ch in enumerate([table, text]) for c in candidates(hit(ch, i + 1), i)]


def test_words_a_row_only_inherits_from_its_caption_count_half(chunks):
    cands = _cands(chunks)
    q = tx.content_terms(QUESTION)
    idf = lx.idf(q, cands)
    row = next(c for c in cands if c.kind == "row" and c.text.startswith("Ferries"))
    assert "Arrivals" in row.match_text  # the caption is scored with the row
    full, own = lx.coverage(q, idf, row.match_text), lx.coverage(q, idf, row.text)
    assert own < full
    assert lx.stated_coverage(q, idf, row) == pytest.approx(own + lx.INHERITED_WEIGHT * (full - own))
    sentence = next(c for c in cands if c.kind == "sentence" and "pilot stations" in c.text)
    assert lx.stated_coverage(q, idf, sentence) == pytest.approx(lx.coverage(q, idf, sentence.match_text))


def test_the_sentence_that_states_the_asked_count_answers_and_its_evidence_score_is_not_shifted(chunks, minilm, monkeypatch):
    table = next(c for c in chunks if c.kind == "table")
    text = next(c for c in chunks if c.kind == "text" and "pilot stations" in c.text)
    answerer = ExtractiveAnswerer(AnswerSettings(), minilm)
    ev = answerer.evidence(QUESTION, [hit(table, 1), hit(text, 2)])
    assert ev is not None and ev.text.startswith(HEADNOTE[:40]), ev.text
    # The shift only orders the candidates: with every word counted whole and no focus weight the same
    # snippet is chosen with the same evidence score and support features, so abstention is unchanged.
    monkeypatch.setattr(lx, "INHERITED_WEIGHT", 1.0)
    monkeypatch.setattr(ex, "FOCUS_STATED_WEIGHT", 0.0)
    plain = answerer.evidence(QUESTION, [hit(table, 1), hit(text, 2)])
    assert plain is not None and plain.text.split("[")[0] == ev.text.split("[")[0]
    assert plain.score == pytest.approx(ev.score) and plain.features == pytest.approx(ev.features)


def test_a_row_that_states_the_question_words_itself_loses_nothing(chunks):
    cands = _cands(chunks)
    q = tx.content_terms("How many ferries in winter?")
    idf = lx.idf(q, cands)
    row = next(c for c in cands if c.kind == "row" and c.text.startswith("Ferries"))
    full = lx.coverage(q, idf, row.match_text)
    assert full > 0 and lx.stated_coverage(q, idf, row) == pytest.approx(full)


def _two_pages(path: Path, first: str, second: str) -> Path:
    doc = pymupdf.open()
    for text in (first, second):
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 300), text, fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.mark.parametrize("wordiest", [0, 2])
def test_the_candidate_richest_in_the_question_words_gets_its_meaning_compared(tmp_path, minilm, monkeypatch, wordiest):
    # The dated line of the first source outranks the wordier line of the second before meaning is
    # compared (a "when" question); with one embedded candidate by rank, the wordiest one is embedded too.
    pdf = _two_pages(tmp_path / "log.pdf", "On 12 March 2021 the harbour pilot logged arrivals.",
                     "The harbour pilot logged the winter storm arrivals in the east basin.")
    first, second = pdf_chunks(pdf, [1, 2])
    got = []
    real = ex.candidates
    monkeypatch.setattr(ex, "candidates", lambda h, i: (lambda out: (got.extend(out), out)[1])(real(h, i)))
    monkeypatch.setattr(ex, "EMBED_CANDIDATES", 1)
    monkeypatch.setattr(ex, "EMBED_WORDIEST", wordiest)
    ExtractiveAnswerer(AnswerSettings(), minilm).evidence("When did the harbour pilot log the winter storm arrivals?",
                                                          [hit(first, 1), hit(second, 2)])
    dated = next(c for c in got if "12 March" in c.text)
    wordy = next(c for c in got if "storm" in c.text)
    assert wordy.lexical > dated.lexical and dated.semantic > 0
    assert (wordy.semantic > 0) == bool(wordiest)
