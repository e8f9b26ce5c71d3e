"""Numbered references ("Figure 2", "Table 3", "Appendix B", "Section 4.1"): parsed from questions, read
from captions and headings at indexing, and fed to the fusion as a prior; a table captioned "Figure 3"
keeps that caption. Real parser, MiniLM and qdrant-edge on a PDF the test builds."""

from __future__ import annotations

import os
from pathlib import Path

import pymupdf
import pytest

from pagelens.app import Pagelens
from pagelens.models import Chunk
from pagelens.retrieve.labels import caption_labels, chunk_labels, heading_labels, question_labels, without_labels
from pagelens.settings import Settings
from index_support import ingested_app, ranked_pages
from pdf_support import draw_ruled_table, titled_pdf


def test_question_labels():
    assert question_labels("What does Figure 2 show?") == ["figure:2"]
    assert question_labels("In Fig. 4b, which curve is lowest?") == ["figure:4"]
    assert question_labels("the total in Table 1.13 of the abstract") == ["table:1.13"]
    assert question_labels("Which epsilon does Appendix A.2 give?") == ["appendix:a.2"]
    assert question_labels("What does Section 4.1 and § 5 say?") == ["section:4.1", "section:5"]
    assert question_labels("Chapter 3: how to install?") == ["chapter:3", "section:3"]
    assert question_labels("Part II of the form, Item 7, Table IV") == ["part:ii", "item:7", "table:iv"]
    # No number, or a lower-case word after "section": no label.
    assert question_labels("Which table lists the figures for 2018?") == []
    assert question_labels("in section a of the report") == []


def test_heading_and_caption_labels():
    assert heading_labels("4.1 Setup") == ["section:4.1"]
    assert heading_labels("A.2 Pre-training Procedure") == ["appendix:a.2", "section:a.2"]
    assert heading_labels("Appendix B: Proofs") == ["appendix:b"]
    assert heading_labels("Item 7. Management's Discussion") == ["item:7"]
    assert heading_labels("IV. RESULTS") == ["section:iv"]
    assert heading_labels("2018 Annual Report") == [] and heading_labels("Introduction") == []
    # A caption defines its label; a sentence that cites one does not.
    text = "As Figure 2 shows, flow rises.\nFigure 2: Flow at high pressure.\nTable 3 shows the costs.\nTable 4. Hours"
    assert caption_labels(text, captioned=False) == ["figure:2", "table:4"]
    # A table or figure chunk opens with its caption, which may lack punctuation.
    assert caption_labels("Figure 13 Speedup over the interpreter\n| a | b |", captioned=True) == ["figure:13"]
    assert caption_labels("Figure 13 Speedup over the interpreter", captioned=False) == []
    chunk = Chunk(id="c", doc_id="d", doc_name="d.pdf", kind="table", text="Table 2: Costs\n| a |", embed_text="",
                  pages=[4], section=["3 Maintenance", "3.2 Parts"])
    assert chunk_labels(chunk) == ["table:2", "section:3", "section:3.2"]


def _chart(page: pymupdf.Page, y0: float, seed: int) -> None:
    page.draw_rect(pymupdf.Rect(80, y0, 520, y0 + 200), color=(0, 0, 0), width=0.8)
    for i in range(8):
        h = 30 + ((i * 37 + seed * 53) % 140)
        page.draw_rect(pymupdf.Rect(100 + i * 50, y0 + 200 - h, 130 + i * 50, y0 + 200), color=(0, 0, 0),
                       fill=(0.4, 0.5, 0.8))
        page.insert_text((105 + i * 50, y0 + 214), f"{i * 10}", fontsize=7)


def _pump_report(path: Path) -> None:
    """Two look-alike charts: Figure 1's caption repeats the question's words, Figure 2's does not; a
    ruled table whose caption reads "Figure 3"; numbered sections."""
    doc = pymupdf.open()
    p = doc.new_page()
    p.insert_text((72, 72), "Field Report on the Harbor Pump Station", fontsize=16)
    p.insert_text((72, 110), "1 Introduction", fontsize=12)
    p.insert_textbox(pymupdf.Rect(72, 120, 520, 300), "This report describes pump throughput measured at the harbor "
                     "station during the spring trials. The pump throughput curve is shown for two pressures.", fontsize=10)
    p = doc.new_page()
    p.insert_text((72, 72), "2 Measurements", fontsize=12)
    _chart(p, 100, 1)
    p.insert_textbox(pymupdf.Rect(72, 320, 520, 360), "Figure 1: Pump throughput curve at low pressure over the "
                     "spring trials.", fontsize=9)
    p = doc.new_page()
    _chart(p, 100, 2)
    p.insert_textbox(pymupdf.Rect(72, 320, 520, 360), "Figure 2: Flow measured at high pressure.", fontsize=9)
    p = doc.new_page()
    p.insert_text((72, 72), "3 Maintenance", fontsize=12)
    draw_ruled_table(p, [72, 250, 380, 500], 100, 22,
                     [("Part", "Hours", "Cost"), ("Seal", "12", "340"), ("Impeller", "30", "1,200"), ("Bearing", "8", "95")])
    p.insert_textbox(pymupdf.Rect(72, 195, 520, 230), "Figure 3: Maintenance hours and cost per part.", fontsize=9)
    doc.save(path)
    doc.close()


@pytest.fixture(scope="module")
def pump(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("labels")
    _pump_report(tmp / "pump.pdf")
    with ingested_app(tmp, [tmp / "pump.pdf"]) as app:
        yield app


def _pages(app: Pagelens, query: str, label_weight: float) -> list[tuple[int, dict[str, float]]]:
    return ranked_pages(app, query, "label", label_weight)


def test_the_named_figure_wins_over_its_look_alike(pump: Pagelens):
    q = "What does Figure 2 show about the pump throughput curve?"
    without = _pages(pump, q, 0.0)
    assert without[0][0] == 2  # Figure 1's caption has the question's words; nothing else tells them apart
    ranked = _pages(pump, q, 1.0)
    assert ranked[0][0] == 3
    channels = ranked[0][1]
    assert channels["label_rank"] == 1 and channels["label"] > 0  # the per-channel explanation says why
    assert "label" not in ranked[1][1]
    # Every page that was there is still there: a prior, not a filter.
    assert sorted(p for p, _ in ranked) == sorted(p for p, _ in without)


def test_a_label_nothing_carries_changes_nothing(pump: Pagelens):
    q = "What does Figure 9 show about the pump throughput curve?"
    assert [p for p, _ in _pages(pump, q, 1.0)] == [p for p, _ in _pages(pump, q, 0.0)]


def test_a_section_number_finds_its_section(pump: Pagelens):
    ranked = _pages(pump, "What is covered in Section 3?", 1.0)
    assert ranked[0][0] == 4 and ranked[0][1]["label_rank"] == 1


def test_a_table_captioned_figure_keeps_its_caption(pump: Pagelens):
    doc = pump.documents()[0]
    [table] = [e for e in pump.elements(doc.doc_id) if e.kind == "table"]
    assert table.table is not None and table.table.caption == "Figure 3: Maintenance hours and cost per part."
    assert table.page == 4
    ranked = _pages(pump, "Which part costs the most in Figure 3?", 1.0)
    assert ranked[0][0] == 4 and ranked[0][1]["label_rank"] == 1


def _twin_report(path: Path, title: str, thing: str) -> None:
    """A report with two look-alike charts, Figure 1 and Figure 2, about ``thing``."""
    doc = pymupdf.open()
    doc.set_metadata({"title": title})
    p = doc.new_page()
    p.insert_text((72, 72), title, fontsize=16)
    p.insert_textbox(pymupdf.Rect(72, 100, 520, 300), f"This report measures {thing} flow in the spring trials.", fontsize=10)
    for n, (seed, words) in enumerate(((1, "flow curve at low pressure"), (2, "readings at high pressure")), 1):
        p = doc.new_page()
        _chart(p, 100, seed + len(thing))
        p.insert_textbox(pymupdf.Rect(72, 320, 520, 360), f"Figure {n}: {thing.capitalize()} {words}.", fontsize=9)
    doc.save(path)
    doc.close()


def test_figure_2_of_the_named_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Every report has a Figure 2: the one of the report the question names comes first."""
    for key in list(os.environ):
        if key.startswith("PAGELENS_"):
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PAGELENS_CONFIG", str(tmp_path / "none.toml"))
    _twin_report(tmp_path / "valve-trials.pdf", "Valve Trials Report", "valve")
    _twin_report(tmp_path / "turbine-trials.pdf", "Turbine Trials Report", "turbine")
    _pump_report(tmp_path / "pump.pdf")
    with Pagelens(Settings(home=tmp_path / "home").with_overrides(**{"ingest.ocr": "off"})) as app:
        assert all(r.status == "indexed" for r in app.ingest(sorted(tmp_path.glob("*.pdf"))))
        for name, thing in (("valve-trials.pdf", "valve"), ("turbine-trials.pdf", "turbine")):
            hits = app.search(f"What does Figure 2 of the {thing.capitalize()} Trials Report show about the flow curve?", k=5)
            top = hits[0]
            assert (top.chunk.doc_name, top.chunk.page) == (name, 3), [(h.chunk.doc_name, h.chunk.page) for h in hits]
            assert top.channels["label_rank"] == 1
            # Other reports' Figure 2 gains nothing: the label counts within the named report.
            assert not any("label" in h.channels for h in hits if h.chunk.doc_name != name)


def test_without_labels():
    assert without_labels("What does Table 1 of the lme4 paper describe?") == "What does of the lme4 paper describe?"
    assert without_labels("Item 7 and Section 4.1 of the Acme 10-K") == "and of the Acme 10-K"
    assert without_labels("Which table lists the figures for 2018?") == "Which table lists the figures for 2018?"


def test_table_1_of_the_namedtitled_pdf(tmp_path: Path):
    """Every document has a Table 1. "Table 1 of the lmfit paper" names the lmfit paper (a paper titled
    "... Contingency Tables" is not named by the word "Table"), and the label then picks lmfit's Table 1
    page over its pages that repeat the question's other words."""
    titled_pdf(tmp_path / "lmfit-mixed-models.pdf", "Fitting Mixed Models with lmfit", [
        "The lmfit paper describes fitting mixed models. This paper describes the modules in detail and "
        "describes how the paper's examples are fitted.",
        "The structure of the code is summarised below.",
        "The lmfit paper describes the optimizer and describes how each module of the paper is tested.",
    ], (1, "Table 1: The modular structure of the fitting code.",
        [("Module", "Function", "Role"), ("Formula", "parse", "reads input"), ("Objective", "devfun", "deviance"),
         ("Output", "pack", "results")]))
    titled_pdf(tmp_path / "contingency-tables.pdf", "Visualizing Contingency Tables with Mosaics", [
        "This paper describes mosaic displays for contingency tables and describes shading of tables.",
        "Software for mosaic plots of tables is compared below.",
        "Two-way tables and three-way tables: the paper describes how tables of counts are split.",
        "Large tables need other displays; the paper describes sieve plots for such tables.",
    ], (1, "Table 1: Comparison of software environments.",
        [("Software", "Language", "Platform"), ("Mondrian", "Java", "any"), ("MANET", "C", "Mac")]))
    titled_pdf(tmp_path / "harbor-pumps.pdf", "Harbor Pump Trials", [
        "This report describes pump throughput at the harbor station.",
        "Seal and impeller hours were logged by the station crew.",
    ])
    titled_pdf(tmp_path / "river-survey.pdf", "River Survey Notes", [
        "The survey describes water levels along the river in spring.",
        "Gauges were read twice a day by the survey crew.",
    ])
    with ingested_app(tmp_path, sorted(tmp_path.glob("*.pdf"))) as app:
        q = "What does Table 1 of the lmfit paper describe?"
        by_id = {d.doc_id: d.name for d in app.documents()}
        named = {by_id[d] for d in app.retriever.route(q).strength}
        assert named == {"lmfit-mixed-models.pdf"}
        hits = app.search(q, k=5)
        assert (hits[0].chunk.doc_name, hits[0].chunk.page) == ("lmfit-mixed-models.pdf", 2), \
            [(h.chunk.doc_name, h.chunk.page, h.channels) for h in hits]
        assert hits[0].channels["label_rank"] == 1
