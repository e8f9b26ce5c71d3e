"""Rank 1 over several PDFs the test builds (no document filter): the page that answers comes first,
not the named document's title slide or metadata record, and not the paragraph that cites a figure
when the question asks about the figure; rankings that were right stay right."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.index.bm25 import SparseEncoder
from pagelens.retrieve.fusion import scoped_ranks
from pagelens.retrieve.intent import FIGURE_BOOST, asks_for_figure, figure_query_weights
from pagelens.retrieve.retriever import Retriever
from index_support import built_index

# Two slide decks whose names are in the questions (title, then slides: "heading\nbody").
DECKS = {
    "metropolis-demo.pdf": ("Metropolis - A modern beamer theme", [
        "Metropolis\nA modern beamer theme\nMatthias Vogelgesang\nDecember 2015",
        "Table of contents\n1. Introduction\n2. Title formats\n3. Elements\n4. Conclusion",
        "Metropolis\nThe metropolis theme is a Beamer theme with minimal visual noise inspired by the hsrm Beamer "
        "Theme by Benjamin Weiss.",
        "Sections\nSections group slides of the same topic.",
        "Lists\nItems: Milk, Eggs, Potatoes\nEnumerations: 1. First, 2. Second and 3. Last.\nDescriptions: "
        "PowerPoint Meeh. Beamer Yeeeha.",
        "Blocks\nThree different block environments are pre-defined and may be styled with an optional background "
        "color.",
        "Summary\nGet the source of this theme and the demo presentation from the project page.",
    ]),
    "aurora-demo.pdf": ("Aurora - A calm slide template", [
        "Aurora\nA calm slide template\nKim Lindqvist\nMarch 2019",
        "Agenda\n1. Motivation\n2. Colours\n3. Layouts\n4. Outlook",
        "Colours\nAurora uses a teal accent on a white background and a dark mode for projectors.",
        "Layouts\nTwo-column layouts put a figure beside bullet points.",
        "Outlook\nA version for posters is planned for next year.",
    ]),
}
SURVEY = "marsh-survey.pdf"


def _deck(path: Path, title: str, slides: list[str]) -> Path:
    doc = pymupdf.open()
    for text in slides:
        page = doc.new_page(width=360, height=270)
        head, _, body = text.partition("\n")
        page.insert_text((20, 40), head, fontsize=18)
        page.insert_textbox(pymupdf.Rect(20, 60, 340, 250), body, fontsize=11)
    doc.set_metadata({"title": title, "author": f"{title.split()[0]} authors"})
    doc.save(path)
    doc.close()
    return path


def _report(path: Path, company: str, year: int) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 90), f"{company} Annual Report {year}", fontsize=22)
    for heading, body in (("Results of operations", "Net sales increased as demand recovered in all regions."),
                          ("Liquidity", f"Capital expenditures were {year % 100 * 7} million, for new stores.")):
        page = doc.new_page()
        page.insert_text((72, 80), heading, fontsize=16)
        page.insert_textbox(pymupdf.Rect(72, 100, 540, 400), body, fontsize=11)
    doc.save(path)
    doc.close()
    return path


def _survey(path: Path) -> Path:
    """Page 2 discusses Figure 2 in prose; page 3 is the bar chart itself (drawn, with its caption)."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Marsh bird survey", fontsize=16)
    page.insert_textbox(pymupdf.Rect(72, 100, 540, 300), "Observers walked the same transect at the northern marsh "
                        "every morning for a year and counted finches, warblers and herons.", fontsize=11)
    page = doc.new_page()
    page.insert_text((72, 72), "Seasonal pattern", fontsize=16)
    page.insert_textbox(pymupdf.Rect(72, 100, 540, 400), "Figure 2 shows the sightings per quarter. Sightings of "
                        "finches rose through the year while herons were seen mostly in spring; the bars of the figure "
                        "compare the four quarters of the survey year.", fontsize=11)
    page = doc.new_page()
    page.draw_line((100, 600), (100, 400))
    page.draw_line((100, 600), (400, 600))
    for y in range(420, 600, 40):
        page.draw_line((96, y), (100, y))
    page.insert_text((60, 500), "Birds", fontsize=9)
    for i, (h, label) in enumerate(zip([120, 60, 160, 90], ["Winter", "Spring", "Summer", "Autumn"], strict=True)):
        page.draw_rect(pymupdf.Rect(120 + i * 70, 600 - h, 160 + i * 70, 600), color=(0, 0, 0), fill=(0.2, 0.4, 0.8))
        page.insert_text((120 + i * 70, 615), label, fontsize=9)
    page.insert_text((100, 640), "Figure 2: Sightings per quarter of the survey year.", fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("rank-first")
    paths = [_deck(root / name, title, slides) for name, (title, slides) in DECKS.items()]
    paths += [_report(root / f"{c.lower()}-{y}.pdf", c, y) for c, y in (("Globex", 2019), ("Initech", 2020))]
    paths.append(_survey(root / SURVEY))
    with built_index(root / "home", paths) as b:
        yield Retriever(b.settings, b.store, b.embedder, SparseEncoder()), b.ids


def _where(hits) -> list[tuple[str, int, str]]:
    return [(h.chunk.doc_name, h.chunk.page, h.chunk.kind) for h in hits]


def test_the_answering_slide_outranks_the_named_decks_title_slide(home):
    """'Metropolis' names the deck, and over all documents it lifts the title slide (and the metadata
    record) that repeat the name; within the deck, without the name, the slide that answers is first."""
    r, ids = home
    q = "Which earlier Beamer theme inspired the Metropolis theme?"
    assert r.route(q).scope == [ids["metropolis-demo.pdf"]]
    hits = r.search(q, k=5)
    assert _where(hits)[0][:2] == ("metropolis-demo.pdf", 3), _where(hits)
    assert "hsrm" in hits[0].chunk.text
    # Decisively: the title slide keeps only its dense place (its BM25 place came from the name).
    assert hits[0].score > 1.5 * hits[1].score
    # The title slide is still a source, one place down: a prior moved, nothing filtered.
    assert ("metropolis-demo.pdf", 1) in [w[:2] for w in _where(hits)]
    # The explanation keeps the search within the deck.
    assert {"dense@route_rank", "sparse@route_rank"} <= set(hits[0].channels)


def test_the_figure_outranks_the_paragraph_that_cites_it(home):
    r, _ = home
    q = "In the bar chart of sightings per quarter, which quarter has the tallest bar?"
    hits = r.search(q, k=5)
    assert _where(hits)[0] == (SURVEY, 3, "figure"), _where(hits)
    assert "Sightings per quarter" in hits[0].chunk.text
    assert hits[0].channels["caption_rank"] == 1
    # The paragraph about the figure is the next source.
    assert _where(hits)[1][:2] == (SURVEY, 2)


@pytest.mark.parametrize(
    ("question", "first"),
    [
        # The title slide is what the question asks for: it stays first.
        ("Who is named as the author on the title slide of the Metropolis beamer theme demo?",
         ("metropolis-demo.pdf", 1)),
        ("On the Lists slide of the Metropolis demo, what one-word description is given for PowerPoint?",
         ("metropolis-demo.pdf", 5)),
        ("In the Aurora template, what accent colour is used?", ("aurora-demo.pdf", 3)),
        # No figure word: the prose page that answers stays first.
        ("How did sightings of finches and herons change through the year?", (SURVEY, 2)),
        ("What were Initech's capital expenditures?", ("initech-2020.pdf", 3)),
    ],
)
def test_rankings_that_stay(home, question: str, first: tuple[str, int]):
    r, _ = home
    hits = r.search(question, k=5)
    assert _where(hits)[0][:2] == first, _where(hits)


def test_scoped_ranks_replace_the_named_documents_ranks_only():
    over_all = {"cover": 1, "answer": 4, "other-doc": 2, "metadata": 3}
    within = {"answer": 1, "notes": 2}
    in_scope = {"cover", "answer", "metadata", "notes"}.__contains__
    assert scoped_ranks(over_all, within, in_scope) == {"other-doc": 2, "answer": 1, "notes": 2}
    assert scoped_ranks(over_all, {}, lambda _: False) == over_all  # nothing named: unchanged


def test_figure_questions_weigh_the_figure_channels():
    for q in ("In the stacked bar chart of Figure 1, which category is smallest?", "On the map, what is DA1?",
              "In the diagram of existing controls, what colour marks the rows?", "Which nut is pictured?",
              "What does Fig. 3 show?"):
        assert asks_for_figure(q), q
    for q in ("Which quarter had the most bird sightings?", "What were capital expenditures in fiscal 2019?",
              "Who configured the figurehead role?", "Which graph neural network was used?",
              "How many images are in the training set?", "What is the plot of the film?"):
        assert not asks_for_figure(q), q
    base = {"dense": 1.0, "sparse": 1.0, "caption": 0.7}
    assert figure_query_weights(base) == {"dense": 1.0, "sparse": 1.0, "caption": 0.7 * FIGURE_BOOST}
    assert base["caption"] == 0.7  # not modified in place
