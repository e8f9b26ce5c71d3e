"""`pagelens eval` over a folder where one PDF is broken: the questions on it are scored as misses and
listed as "not ingested", the others are scored as usual, and nothing raises (real parser, MiniLM,
qdrant-edge; the PDFs are written by the test)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pymupdf
import pytest
from typer.testing import CliRunner

from pagelens.app import Pagelens
from pagelens.cli.main import app as cli
from pagelens.evaluate import run_eval
from pagelens.settings import Settings


def _good_pdf(path: Path) -> None:
    doc = pymupdf.open()
    for text in ("The lighthouse keeper logs the harbor tide at dawn every day.",
                 "Copper kettles in the mill are polished with vinegar and salt."):
        page = doc.new_page()
        page.insert_textbox(pymupdf.Rect(60, 80, 540, 300), text, fontsize=12)
    doc.save(path)
    doc.close()


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Path, Path]:
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    _good_pdf(pdfs / "good.pdf")
    # A real broken file: a PDF header and then a cut-off object, no xref, no pages.
    (pdfs / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Ty")
    q = tmp_path / "q.jsonl"
    q.write_text("\n".join(json.dumps(r) for r in [
        {"id": "g1", "pdf": "good.pdf", "question": "How are the copper kettles polished?",
         "answers": ["vinegar"], "modality": "text", "pages": [2]},
        {"id": "b1", "pdf": "broken.pdf", "question": "What does the broken report say?",
         "answers": ["x"], "modality": "text", "pages": [1]},
        {"id": "x1", "pdf": ["good.pdf", "broken.pdf"], "question": "When is the harbor tide logged?",
         "answers": ["dawn"], "modality": "cross-doc", "pages": [[1], [1]]},
    ]) + "\n")
    return pdfs, q


def test_cli_eval_scores_around_a_document_that_failed(corpus, tmp_path: Path):
    pdfs, q = corpus
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    env["PAGELENS_CONFIG"] = str(tmp_path / "none.toml")
    result = CliRunner().invoke(
        cli, ["--home", str(tmp_path / "home"), "--quiet", "--ocr", "off", "eval", str(q), "--pdfs", str(pdfs),
              "--no-answers", "--json"], env=env,
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    report = json.loads(result.stdout)
    by = {r["id"]: r for r in report["results"]}
    assert by["g1"]["rank"] == 1 and by["g1"]["doc_rank"] == 1 and by["g1"]["not_ingested"] == []
    assert by["b1"]["not_ingested"] == ["broken.pdf"] and by["b1"]["rank"] is None and by["b1"]["doc_rank"] is None
    # The cross-document question still searches the document that is there; it misses (all pages needed).
    assert by["x1"]["not_ingested"] == ["broken.pdf"] and by["x1"]["doc_rank"] is None and by["x1"]["any_rank"] == 1
    assert any("broken.pdf" in f for f in report["failed_files"])
    assert [(d["name"], d["status"]) for d in report["documents"]] == [("broken.pdf", "failed"), ("good.pdf", "indexed")]


def test_table_lists_each_question_on_a_missing_document(corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """With a reused home that lacks a document (ingest skipped), the filtered search's NotFoundError is
    caught and the question is named on its own line."""
    pdfs, q = corpus
    for key in list(os.environ):
        if key.startswith("PAGELENS_"):
            monkeypatch.delenv(key, raising=False)
    settings = Settings(home=tmp_path / "home2").with_overrides(**{"ingest.ocr": "off"})
    with Pagelens(settings) as app:
        [res] = app.ingest([pdfs / "good.pdf"])
        assert res.status == "indexed"
        report = run_eval(app, [q], pdfs, k=5, answers=False, ingest=False)
    by = {r.id: r for r in report.results}
    assert by["g1"].doc_rank == 1 and by["b1"].not_ingested == ["broken.pdf"] and by["b1"].doc_rank is None
    lines = report.table().splitlines()
    # Both scorings side by side, and the documents the home holds with their pages and tables.
    assert lines[0].split()[:9] == ["modality", "n", "hit@1", "hit@5", "MRR", "doc@1", "doc@5", "docMRR", "any@5"]
    assert [(d.name, d.pages, d.tables) for d in report.documents] == [("good.pdf", 2, 0)]
    assert lines[lines.index(next(ln for ln in lines if ln.startswith("document"))) + 1].split() == ["good.pdf", "2", "0"]
    assert "not ingested: b1 asks about broken.pdf (scored as a miss)" in lines
    assert "not ingested: x1 asks about broken.pdf (scored as a miss)" in lines
    assert not any("g1" in ln for ln in lines)
