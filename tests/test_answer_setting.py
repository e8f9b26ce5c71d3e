"""A paragraph states its setting once and reports on it after: "The panel scored 30 carcinomas on 7
scanners. [...] The agreement for average scores was 0.83." A question that names the setting's counts
("with 30 carcinomas and 7 scanners") is answered by the later sentence, which inherits the counts its
paragraph stated before it (as inherited words: ``candidates.Candidate.setting``), not only by the
sentence that restates the question. Counts only: a designator's digits ("2Q22") and years are no setting."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from index_support import ingested_app
from pagelens.models import Chunk, SearchHit

PARAGRAPH = ("The IKWG Ki67 image analysis study scored 30 breast carcinomas on 7 scanners and 10 platforms. "
             "Automated assessments of average and maximum counts were calculated. "
             "The ICC for average scores was 0.83, and for maximum scores 0.63.")
OTHER = ("A second study by the group looked at glass slides from 12 laboratories. Its scorers reached an "
         "agreement of 0.71 after calibration.")


def _pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Image analysis systems", fontsize=13)
    page.insert_textbox(pymupdf.Rect(72, 90, 540, 220), PARAGRAPH, fontsize=10)
    page.insert_textbox(pymupdf.Rect(72, 240, 540, 320), OTHER, fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_a_later_sentence_of_a_paragraph_holds_the_counts_stated_before_it():
    from pagelens.answer.candidates import candidates

    chunk = Chunk(id="c", doc_id="d", doc_name="ki67.pdf", kind="text", text=PARAGRAPH, embed_text=PARAGRAPH, pages=[1])
    sents = [c for c in candidates(SearchHit(rank=1, chunk=chunk, score=1.0), 0) if c.kind == "sentence"]
    icc = next(c for c in sents if "ICC" in c.text)
    assert {"30", "7", "10"} <= icc.setting and "0.83" not in icc.setting
    assert not sents[0].setting  # the first sentence inherits nothing


def test_only_the_question_s_own_counts_are_a_setting():
    from pagelens.answer.extractive import _counts_of

    assert _counts_of("In the study with 30 breast carcinomas and 7 scanners, what ICC was found?") == {"30", "7"}
    assert _counts_of("By how much did identical sales grow in 2Q22?") == set()  # a quarter's digits
    assert _counts_of("What SVR12 rate was reached in 2021 among children aged 3–5?") == {"3", "5"}


def test_the_setting_s_counts_reach_the_sentence_that_reports_on_them(tmp_path):
    q = "In the Ki67 image analysis study of 30 breast carcinomas on 7 scanners, what ICC was found for average scores?"
    with ingested_app(tmp_path, [_pdf(tmp_path / "ki67-image-analysis.pdf")], answer_cache=False) as app:
        ans = app.ask(q)
    assert not ans.abstained and "0.83" in ans.answer, ans.answer
