"""Document routing over several report-like PDFs the test builds (different companies, years and
forms, the same generic content): a question naming a report is answered from it, a question naming
none searches all, a question naming two gets both, and routing never filters."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.index.bm25 import SparseEncoder
from pagelens.index.indexer import Indexer
from pagelens.ingest.cover import cover_facts
from pagelens.ingest.pipeline import Ingestor
from pagelens.retrieve.retriever import Retriever
from pagelens.retrieve.routing import score_documents
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore
from pagelens.vectors.edge import EdgeVectorStore
from index_support import built_index

# (file name, cover lines, capex $M, interest expense $M, a sentence only this report has)
REPORTS = [
    ("acme_annual_report_2009.pdf",
     ["Acme Corporation", "Annual Report 2009", "For the fiscal year ended December 31, 2009"],
     412, 3.8, "The Springfield plant was modernised during the year."),
    ("acme_annual_report_2010.pdf",
     ["Acme Corporation", "Annual Report 2010", "For the fiscal year ended December 31, 2010"],
     515, 4.4, "The Shelbyville warehouse opened in the spring."),
    ("filing-0001.pdf",
     ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM 10-K",
      "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
      "For the fiscal year ended December 31, 2018", "Globex Corporation",
      "(Exact name of registrant as specified in its charter)"],
     733, 9.1, "Globex acquired Zentrix Labs, a maker of industrial sensors."),
    ("filing-0002.pdf",
     ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM 10-Q",
      "QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
      "For the quarterly period ended June 30, 2023", "Initech Inc.",
      "(Exact name of registrant as specified in its charter)"],
     128, 1.2, "Initech renegotiated its office lease in Austin."),
]

GENERIC = [
    ("Results of operations",
     "Net sales increased as demand recovered in all regions. Gross margin improved because of lower freight "
     "costs and a better product mix. Selling and administrative expenses rose with the number of stores."),
    ("Liquidity and capital resources",
     "Capital expenditures were ${capex} million, primarily for new distribution centers and store remodels. "
     "Interest expense was ${interest} million. Cash from operations funded the investments."),
    ("Risk factors",
     "Competition, changes in consumer spending, supply chain disruptions and cyber attacks could affect "
     "results. {unique}"),
]


def _report(path: Path, cover: list[str], capex: int, interest: float, unique: str) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    y = 90
    for i, line in enumerate(cover):
        size = 22 if i == 0 and "SECURITIES" not in line else 12
        page.insert_text((72, y), line, fontsize=size)
        y += 34 if size > 12 else 22
    for heading, body in GENERIC:
        page = doc.new_page()
        page.insert_text((72, 80), heading, fontsize=16)
        text = body.replace("{capex}", str(capex)).replace("{interest}", str(interest)).replace("{unique}", unique)
        page.insert_textbox(pymupdf.Rect(72, 100, 540, 400), text, fontsize=11)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("reports")
    paths = [_report(root / name, cover, capex, interest, unique) for name, cover, capex, interest, unique in REPORTS]
    with built_index(root / "home", paths) as b:
        yield b.settings, b.store, b.embedder, b.ids


def _retriever(settings: Settings, store, embedder, **overrides) -> Retriever:
    s = settings.with_overrides(**overrides) if overrides else settings
    return Retriever(s, store, embedder, SparseEncoder())


def _docs(hits) -> list[str]:
    return [h.chunk.doc_name for h in hits]


def test_cover_facts_spell_issuer_form_and_period():
    sec = cover_facts(" ".join(REPORTS[2][1]))
    assert sec.issuer == "Globex Corporation"
    assert "10-K" in sec.forms and "annual report" in sec.forms
    assert {"FY2018", "fiscal 2018", "2018"} <= set(sec.periods)
    q = cover_facts(" ".join(REPORTS[3][1]))
    assert q.issuer == "Initech Inc." and "10-Q" in q.forms
    assert {"Q2 2023", "2Q23", "second quarter 2023"} <= set(q.periods)
    annual = cover_facts("Acme Corporation Annual Report 2009")
    assert "FY2009" in annual.periods and annual.issuer == "Acme Corporation"


def _answered_from(hits, name: str, value: str) -> bool:
    """The first source is ``name``'s page that holds ``value``: it outranks the same generic page of
    every other report."""
    return bool(hits) and hits[0].chunk.doc_name == name and value in hits[0].chunk.text


NAMED = [
    ("What were capital expenditures in Acme's 2009 annual report?", "acme_annual_report_2009.pdf", "412"),
    # Named by its cover only (the file name says "filing-0001"): issuer, form and fiscal year.
    ("How much interest expense did Globex report in its FY2018 10-K?", "filing-0001.pdf", "9.1"),
    ("Initech capital expenditures in the second quarter of 2023", "filing-0002.pdf", "128"),
    ("What interest expense does the 2010 annual report of Acme show?", "acme_annual_report_2010.pdf", "4.4"),
]


def test_a_question_naming_its_report_is_answered_from_it(reports):
    settings, store, embedder, ids = reports
    r = _retriever(settings, store, embedder)
    for q, name, value in NAMED:
        hits = r.search(q, k=5)
        assert _answered_from(hits, name, value), (q, [(h.chunk.doc_name, h.chunk.page) for h in hits])
        assert hits[0].channels["route"] == pytest.approx(1.0)
        routing = r.route(q)
        assert max(routing.strength, key=routing.strength.__getitem__) == ids[name]
    # Without routing the same generic pages of the other reports crowd in: routing made the difference.
    plain = _retriever(settings, store, embedder, **{"retrieval.route": False})
    assert not all(_answered_from(plain.search(q, k=5), name, value) for q, name, value in NAMED)


def test_a_document_filter_keeps_the_naming_words_off_the_page_ranking(reports):
    """Filtered to the report a question names, its answering page still leads: the naming words
    ("Globex", "FY2018", "10-K") say which document, and would otherwise pull its cover page up."""
    settings, store, embedder, ids = reports
    r = _retriever(settings, store, embedder)
    for q, name, value in NAMED:
        hits = r.search(q, k=5, doc_ids=[ids[name]])
        assert _answered_from(hits, name, value), (q, [(h.chunk.doc_name, h.chunk.page) for h in hits])
        assert {h.chunk.doc_name for h in hits} == {name}


def test_a_question_naming_no_report_searches_all(reports):
    settings, store, embedder, ids = reports
    r = _retriever(settings, store, embedder)
    q = "What were capital expenditures primarily used for?"
    assert r.route(q).strength == {}
    hits = r.search(q, k=8)
    assert len(set(_docs(hits))) == len(REPORTS)
    assert not any("route" in h.channels for h in hits)


def test_a_cross_document_question_gets_every_named_report(reports):
    settings, store, embedder, ids = reports
    r = _retriever(settings, store, embedder)
    q = "Compare the interest expense of Globex with that of Initech."
    routing = r.route(q)
    assert set(routing.covered) == {ids["filing-0001.pdf"], ids["filing-0002.pdf"]}
    hits = r.search(q, k=3)
    assert {"filing-0001.pdf", "filing-0002.pdf"} <= set(_docs(hits))


def test_routing_is_a_prior_not_a_filter(reports):
    settings, store, embedder, ids = reports
    r = _retriever(settings, store, embedder)
    # Names Acme's 2009 report, but only Globex's filing knows about Zentrix Labs.
    hits = r.search("In the Acme 2009 annual report, who acquired Zentrix Labs?", k=8)
    assert "filing-0001.pdf" in _docs(hits)
    assert any("Zentrix" in h.chunk.text for h in hits)
    # An explicit document filter still filters, and routing stays out of it.
    only = r.search("Acme capital expenditures 2009", k=5, doc_ids=[ids["filing-0002.pdf"]])
    assert only and set(_docs(only)) == {"filing-0002.pdf"} and not any("route" in h.channels for h in only)


def test_profiles_follow_the_documents(tmp_path: Path):
    """A removed document leaves the routing; a home indexed before routing gets its profiles."""
    from pagelens.embed.fake import HashingEmbedder
    from pagelens.index.profile import profile_collection

    settings = Settings(home=tmp_path / "home").with_overrides(**{"ingest.ocr": "off"})
    catalog = Catalog(tmp_path / "home" / "catalog.sqlite3")
    images = ImageStore(tmp_path / "home" / "images")
    ingestor = Ingestor(settings.ingest, catalog, images)
    with EdgeVectorStore(tmp_path / "home" / "qdrant") as store:
        embedder = HashingEmbedder(dim=64)
        indexer = Indexer(settings, store, embedder, SparseEncoder(), catalog, images)
        ids = []
        for name, cover, capex, interest, unique in REPORTS[1:4]:
            doc_id = ingestor.ingest_file(_report(tmp_path / name, cover, capex, interest, unique)).doc_id
            indexer.index_document(doc_id)
            ids.append(doc_id)
        coll = profile_collection(settings.index_name())
        router = Retriever(settings, store, embedder, SparseEncoder())
        assert store.count(coll) == 3 and set(router.route("Globex interest expense").strength) == {ids[1]}
        indexer.remove_document(ids[1])
        assert store.count(coll) == 2 and store.count(coll, ids[1]) == 0
        assert router.route("Globex interest expense").strength == {}
        store.delete_doc(coll, ids[2])  # as in a home indexed before document routing existed
        indexer.index_profile(ids[2])
        assert store.count(coll, ids[2]) == 1 and set(router.route("Initech 10-Q").strength) == {ids[2]}
    catalog.close()


def test_scores_follow_distinctiveness():
    # "acme" names two of four documents, "2009" one of them: the 2009 report is strongest; a word
    # in most profiles ("report") names none; a word found only in cover text names nothing alone.
    docs = {
        "acme": ({"a9", "a10"}, set()),
        "2009": ({"a9"}, set()),
        "report": ({"a9", "a10", "g", "i"}, set()),
    }
    r = score_documents(docs, 4)
    assert r.strength["a9"] == 1.0 and 0.25 <= r.strength["a10"] < 0.9 and set(r.strength) == {"a9", "a10"}
    assert r.terms["a9"] == ["acme", "2009"]
    assert score_documents({"warehous": (set(), {"a10"})}, 4).strength == {}
    # A term that runs through other documents' text (low concentration) names nothing.
    assert score_documents({"tabl": ({"g"}, set())}, 4, concentration={"tabl": 0.1}).strength == {}


def test_replaced_and_removed_documents_leave_no_routing_profile(settings, tmp_path: Path):
    """Re-ingesting a changed file replaces its profile (one per document, not one per version), and
    `rm` takes the profile with the chunks: a stale profile would route questions to a gone version."""
    from pagelens.app import Pagelens
    from pagelens.embed.fake import HashingEmbedder
    from pagelens.index.profile import profile_collection

    settings = settings.with_overrides(**{"ingest.ocr": "off"})
    name, cover, capex, interest, unique = REPORTS[2]
    path = _report(tmp_path / name, cover, capex, interest, unique)
    with Pagelens(settings, embedder=HashingEmbedder(64)) as app:
        first = app.ingest([path])[0].doc_id
        coll = profile_collection(settings.index_name())
        assert app.store.count(coll) == 1 and app.store.count(coll, first) == 1
        _report(path, cover, capex + 1, interest, unique + " Restated.")  # the file changes
        second = app.ingest([path])[0].doc_id
        assert second != first
        assert app.store.count(coll) == 1 and app.store.count(coll, first) == 0
        app.remove(second)
        assert app.store.count(coll) == 0


def test_a_title_word_every_document_uses_names_none(tmp_path: Path):
    """A long paper titled "... Contingency Tables" says "tables" on every page, so the chunks that
    match "table" best are nearly all its own; but the other documents use the word too, and "the
    Engel food expenditure table" names no document (the notes that hold it are not named by it)."""
    from index_support import ingested_app
    from pdf_support import titled_pdf

    titled_pdf(tmp_path / "contingency-tables.pdf", "Visualizing Contingency Tables", [
        f"Section {i}: mosaic displays split contingency tables of counts; tables with {i + 2} ways need "
        "other tables and displays." for i in range(24)])
    for name, topic in (("harbor", "pump trials"), ("river", "water levels"), ("orchard", "apple yields")):
        titled_pdf(tmp_path / f"{name}-survey.pdf", f"{name.capitalize()} Survey", [
            f"This survey reports {topic} measured in the spring.",
            *(f"Site {j} was visited by the crew in week {j}; {topic} were noted by hand." for j in range(1, 5)),
            f"The results table lists the {topic} for every site; a second table lists the crews.",
        ])
    titled_pdf(tmp_path / "vignette-3.pdf", "Notes on a Method", [
        "Quantile regression estimates conditional quantiles of household food expenditure.",
        "Table 1: Engel food expenditure. At the 0.95 quantile the intercept is 760.7 with interval "
        "(751.1, 771.9).",
    ])
    with ingested_app(tmp_path, sorted(tmp_path.glob("*.pdf"))) as app:
        by_id = {d.doc_id: d.name for d in app.documents()}
        q = "What intercept does the Engel food expenditure table give at the 0.95 quantile?"
        assert {by_id[d] for d in app.retriever.route(q).strength} == set()
        hits = app.search(q, k=5)
        assert (hits[0].chunk.doc_name, hits[0].chunk.page) == ("vignette-3.pdf", 2)
