"""A named document that one retrieval channel cannot see (a Portuguese bill asked about in English: no
question word is in it for BM25), and the designators of a file name ("VA Form 21-0966") as naming words
rather than answer words. Over PDFs the test builds with PyMuPDF."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from pagelens.answer.support import naming_terms
from pagelens.index.bm25 import SparseEncoder
from pagelens.models import Chunk, SearchHit
from pagelens.retrieve.fusion import lent_ranks
from pagelens.retrieve.retriever import Retriever
from pagelens.retrieve.routing import designators
from index_support import built_index
from pdf_support import bystander_pdfs, headed_pages

BILL = "electricity-bill-sp.pdf"
BILL_LINES = [
    "COMPANHIA PAULISTA DE ENERGIA", "CONTA DE ENERGIA ELÉTRICA", "Nota fiscal nº 004512",
    "Cliente: Maria Souza  Instalação 7781204", "Consumo faturado: 312 kWh",
    "DATA PREVISTA DA PRÓXIMA LEITURA 23/01/2020", "Vencimento 05/01/2020  Total a pagar R$ 241,37",
]
# An English guide whose page holds the question's words: both channels find it over all documents.
GUIDE = ("household-notes.pdf", [
    "Visits\nThe meter box sits by the door of the house. A technician checks it when the schedule says so.",
    "Saving\nInsulation and efficient appliances lower the consumption of a household over the winter.",
])


def _bill(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(BILL_LINES):
        page.insert_text((60, 80 + 24 * i), line, fontsize=11)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("blind")
    others = bystander_pdfs(root)
    with built_index(root / "home", [_bill(root / BILL), headed_pages(root / GUIDE[0], GUIDE[1]), *others]) as b:
        yield b.settings, b.store, b.embedder, b.ids


def test_a_named_document_bm25_cannot_see_is_not_outranked_by_both_channels(home):
    settings, store, embedder, ids = home
    r = Retriever(settings, store, embedder, SparseEncoder())
    q = "When is the next meter reading expected according to the electricity bill?"
    assert r.route(q).scope == [ids[BILL]]
    hits = r.search(q, k=4)
    assert hits[0].chunk.doc_name == BILL, [(h.chunk.doc_name, h.chunk.page, h.channels) for h in hits]
    # BM25 found nothing in the bill: it holds a place past the channel's depth, not shown as its rank.
    assert hits[0].channels["sparse_lent"] > settings.retrieval.pool and "sparse_rank" not in hits[0].channels
    guide = next(h for h in hits if h.chunk.doc_name == GUIDE[0])
    assert "sparse_rank" in guide.channels and "sparse_lent" not in guide.channels


def test_only_a_channel_blind_to_all_named_documents_lends():
    within = {"dense": {"a1": 1, "b1": 2, "a2": 3}, "sparse": {}}
    assert lent_ranks(within, 40) == {"sparse": {"a1": 41, "b1": 42, "a2": 43}}
    assert lent_ranks({"dense": {"a1": 1}, "sparse": {"b1": 1}}, 40) == {}  # it saw one of them
    assert lent_ranks({"dense": {}, "sparse": {}}, 40) == {}


def test_designators_are_numbered_runs_of_the_file_name():
    q = "What OMB control numbers do DD Form 293 and VA Form 21-0966 carry?"
    assert designators(q, "dd-form-293.pdf") == ["DD", "Form", "293"]
    assert designators(q, "va-form-21-0966.pdf") == ["VA", "Form", "21-0966"]
    assert designators("What changed in Python 3.11?", "python-3.11-whats-new.pdf") == ["Python", "3.11"]
    # Name words without a number are the file's topic, and a lone number is no designator.
    assert designators("When is the next reading according to the electricity bill?", BILL) == []
    assert designators("What was the 2012 total?", "census-abstract-2012-table-324.pdf") == []


def _hit(doc_name: str, doc_terms: list[str]) -> SearchHit:
    chunk = Chunk(id="c", doc_id="d", doc_name=doc_name, kind="text", text="OMB Control No. 2900-0826",
                  embed_text="", pages=[1])
    return SearchHit(rank=1, score=1.0, chunk=chunk, doc_terms=doc_terms)


def test_designators_name_the_document_and_periods_stay_span_words():
    naming = naming_terms([_hit("va-form-21-0966.pdf", ["VA", "Form", "21-0966"]),
                           _hit("acme-10k.pdf", ["Acme", "10-K", "FY2017", "2Q22"])])
    assert {"va", "form", "acm"} <= naming or {"va", "form", "acme"} <= naming
    assert any("0966" in t for t in naming) and not any("2017" in t or "2q22" in t for t in naming)


def _form(path: Path, designator: str, omb: str, other: str) -> Path:
    """A two-page government form: its OMB number once on the cover, its designator on every page and
    in the lines that say what an OMB control number is."""
    doc = pymupdf.open()
    page = doc.new_page()
    lines = [f"{designator} - PLEASE TYPE OR PRINT INFORMATION FOR ALL APPLICABLE ITEMS", f"OMB Control No. {omb}",
             f"APPLICATION FOR {other}", "An agency may not conduct or sponsor, and a person is not required to "
             "respond to, a collection of information unless it displays a currently valid OMB control number.",
             f"{designator}, FEB 2023 SUPERSEDES {designator}, AUG 2018"]
    for i, line in enumerate(lines):
        page.insert_textbox(pymupdf.Rect(60, 60 + 60 * i, 540, 110 + 60 * i), line, fontsize=10)
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(60, 60, 540, 400), f"PAGE 2 {designator}\nINSTRUCTIONS FOR COMPLETION OF "
                        f"{designator}. Valid OMB control numbers are listed on the agency's page.", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_each_part_of_a_two_form_question_is_answered_from_its_own_form(tmp_path: Path):
    from index_support import ingested_app

    paths = [_form(tmp_path / "xy-form-293.pdf", "XY FORM 293", "0704-0004", "THE REVIEW OF DISCHARGE"),
             _form(tmp_path / "zq-form-21-0966.pdf", "ZQ FORM 21-0966", "2900-0826", "INTENT TO FILE A CLAIM")]
    paths += bystander_pdfs(tmp_path)
    with ingested_app(tmp_path, paths, answer_cache=False) as app:
        q = "What OMB control numbers do XY Form 293 and ZQ Form 21-0966 carry?"
        sources = {i + 1: h.chunk.doc_name for i, h in enumerate(app.search(q))}
        answer = app.ask(q).answer
    first, _, second = answer.partition("ZQ Form 21-0966")
    assert first.startswith("XY Form 293:") and second, answer
    # Each form's part quotes its own form only: the other's pages answer the other part.
    cited = [{sources[int(n)] for n in re.findall(r"\[(\d+), p\.\d+\]", part)} for part in (first, second)]
    assert cited == [{"xy-form-293.pdf"}, {"zq-form-21-0966.pdf"}], answer
