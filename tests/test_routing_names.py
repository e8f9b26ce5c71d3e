"""Routing by what a file's name says (form type and period in ``ACME_2019_10K.pdf``), cross-period
questions, and the scoped channels never demoting a page: over report-like PDFs the test builds whose
covers say nothing about company, form or period, so only the file names tell them apart."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.index.bm25 import SparseEncoder
from pagelens.index.indexer import Indexer
from pagelens.index.profile import build_profile
from pagelens.ingest.cover import name_facts
from pagelens.retrieve.retriever import Retriever
from pagelens.retrieve.routing import joined_names
from pagelens.settings import Settings
from pagelens.store.images import ImageStore
from index_support import built_index
from pdf_support import headed_pages

# (file name, capital expenditures $M, interest expense $M)
FILINGS = [
    ("ACME_2018_10K.pdf", 412, 3.8),
    ("ACME_2019_10K.pdf", 515, 4.4),
    ("ACME_2019Q2_10Q.pdf", 128, 1.2),
    ("BESTBUY_2019_10K.pdf", 733, 9.1),
    ("BESTBUY_2018_10K.pdf", 690, 8.7),
]
SECTIONS = [
    ("Results of operations", "Net sales increased as demand recovered in all regions. Gross margin improved because "
     "of lower freight costs and a better product mix."),
    ("Liquidity and capital resources", "Capital expenditures were ${capex} million, primarily for new distribution "
     "centers and store remodels. Cash from operations funded the investments."),
    ("Market risk", "Interest expense was ${interest} million. A one point change in interest rates would change "
     "interest expense by about ten percent."),
]
# A slide deck whose name words are also its subject: the question's naming words are its topic.
DECK = ("orchard-theme-demo.pdf", [
    "Orchard\nA modern slide theme\nDana Reyes",
    "Orchard\nThe orchard theme is a slide theme with minimal visual noise. It was inspired by the older Meadow "
    "theme by Lee Park.",
    "Orchard title formats\nThe orchard theme supports four title formats for the slides of a talk.",
    "Colors\nThe theme comes with a dark and a light palette for the slides.",
    "Lists\nItems, enumerations and descriptions are set with the theme's own markers.",
    "Summary\nGet the source of this theme and the demo slides from the project page.",
])


def _filing(path: Path, capex: int, interest: float) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 90), "Report to shareholders", fontsize=22)  # a cover that names nothing
    for heading, body in SECTIONS:
        page = doc.new_page()
        page.insert_text((72, 80), heading, fontsize=16)
        text = body.replace("{capex}", str(capex)).replace("{interest}", str(interest))
        page.insert_textbox(pymupdf.Rect(72, 100, 540, 400), text, fontsize=11)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("named")
    paths = [_filing(root / n, c, i) for n, c, i in FILINGS] + [headed_pages(root / DECK[0], DECK[1], width=360, height=270, margin=20, title_size=18)]
    with built_index(root / "home", paths) as b:
        yield b.settings, b.store, b.embedder, b.ids, b.catalog


def _retriever(settings: Settings, store, embedder, **overrides) -> Retriever:
    return Retriever(settings.with_overrides(**overrides) if overrides else settings, store, embedder, SparseEncoder())


def _where(hits) -> list[tuple[str, int]]:
    return [(h.chunk.doc_name, h.chunk.page) for h in hits]


def test_a_file_name_spells_form_and_period():
    assert set(name_facts("3M_2018_10K").terms().split()) >= {"10-K", "FY2018", "fiscal", "2018"}
    q = name_facts("AMCOR_2023Q4_10Q")
    assert "10-Q" in q.forms and {"Q4 2023", "4Q23", "fourth quarter 2023"} <= set(q.periods)
    assert "FY2023" not in q.periods  # a quarter's year is not a fiscal year
    assert {"Q2 2023", "second quarter 2023"} <= set(name_facts("kroger-q2-2023").periods)
    assert "FY2019" in name_facts("acme-fy19-annual-report").periods
    assert name_facts("bert").terms() == "" and name_facts("otsl_2305.03393v1_p9").terms() == ""
    assert joined_names("What did Best Buy spend?") == ["bestbuy"]


def test_the_profile_carries_what_the_name_says(home):
    settings, store, embedder, ids, catalog = home
    doc = catalog.get_document(ids["ACME_2019Q2_10Q.pdf"])
    assert doc is not None
    profile = build_profile(doc, [], [])
    assert "second quarter 2019" in profile.identity and "10-Q" in profile.identity


QUESTIONS = [
    # (question, the filing named, the value on its page)
    ("What were Acme's capital expenditures in FY2019?", "ACME_2019_10K.pdf", "515"),
    ("How much interest expense did Acme report in its fiscal 2018 annual report?", "ACME_2018_10K.pdf", "3.8"),
    ("Acme capital expenditures in the second quarter of 2019", "ACME_2019Q2_10Q.pdf", "128"),
    ("What interest expense did Best Buy report for fiscal 2019?", "BESTBUY_2019_10K.pdf", "9.1"),
]


def test_a_question_naming_form_and_period_ranks_that_filing_first(home):
    settings, store, embedder, ids, _ = home
    r = _retriever(settings, store, embedder)
    for q, name, value in QUESTIONS:
        hits = r.search(q, k=8)
        assert hits[0].chunk.doc_name == name and value in hits[0].chunk.text, (q, _where(hits))
        # A prior, not a filter: other documents are still among the sources.
        assert len({h.chunk.doc_name for h in hits}) > 1
    # Without routing the look-alike pages of the other filings take the first place at least once.
    plain = _retriever(settings, store, embedder, **{"retrieval.route": False})
    assert not all(plain.search(q, k=8)[0].chunk.doc_name == name for q, name, _ in QUESTIONS)


def test_a_question_spanning_two_periods_gets_both_filings(home):
    settings, store, embedder, ids, _ = home
    r = _retriever(settings, store, embedder)
    q = "How did Acme's capital expenditures change from FY2018 to FY2019?"
    assert set(r.route(q).covered) == {ids["ACME_2018_10K.pdf"], ids["ACME_2019_10K.pdf"]}
    top = _where(r.search(q, k=3))
    assert ("ACME_2018_10K.pdf", 3) in top and ("ACME_2019_10K.pdf", 3) in top, top


def test_naming_words_that_are_the_topic_do_not_demote_the_page(home):
    """The deck's name words (orchard, theme, slide) are also what its pages are about: the search
    within it must not lose them, and the routed first page is the one the document filter finds."""
    settings, store, embedder, ids, _ = home
    r = _retriever(settings, store, embedder)
    for q, page in (("Which earlier slide theme inspired the Orchard theme?", 2),
                    ("Who is named as the author on the title slide of the Orchard theme demo?", 1)):
        routed = r.search(q, k=5)
        assert _where(routed)[0] == (DECK[0], page), (q, _where(routed))
        # Each channel's rank over all documents and within the named one stays in the explanation.
        assert "dense@route_rank" in routed[0].channels and "dense_rank" in routed[0].channels
    q = "Which earlier slide theme inspired the Orchard theme?"
    assert _where(r.search(q, k=5))[0] == _where(r.search(q, k=5, doc_ids=[ids[DECK[0]]]))[0]


def test_a_profile_of_an_older_version_is_replaced(home, tmp_path: Path):
    """A home indexed with an older PROFILE_VERSION: the next index_profile leaves one profile, the new one."""
    from pagelens.index.profile import PROFILE_VERSION, profile_collection, profile_point_id
    from pagelens.vectors import PointRecord, point_id

    settings, store, embedder, ids, catalog = home
    doc_id = ids["ACME_2018_10K.pdf"]
    coll = profile_collection(settings.index_name())
    store.delete_doc(coll, doc_id)
    old = PointRecord(id=point_id(f"profile:{PROFILE_VERSION - 1}:{doc_id}"), dense={"dense": [0.0] * (embedder.dim - 1) + [1.0]},
                      payload={"doc_id": doc_id, "doc": "ACME_2018_10K.pdf", "identity": "acme", "version": PROFILE_VERSION - 1})
    store.upsert(coll, [old])
    indexer = Indexer(settings, store, embedder, SparseEncoder(), catalog, ImageStore(tmp_path / "images"))
    indexer.index_profile(doc_id)
    assert store.count(coll, doc_id) == 1
    assert store.existing_ids(coll, [profile_point_id(doc_id)]) and not store.existing_ids(coll, [old.id])
