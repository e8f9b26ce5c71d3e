"""A bill's or statement's items: a label at the left and its amounts set on the same line far to the
right, as separate blocks of the text layer ("Contrib. Custeio Ilum Pública ........ 861,60"). The
parser joins them into one ``label: amounts`` line (``ingest.label_values.join_label_values``), which the
answerer reads as a field, so "what is the energy charge" quotes the energy line with its amounts rather
than a run of bare numbers. Found on fresh2's Brazilian electricity bill (bench/realdocs.py). Also: a
column's name counts each word once ("fm_pois" beside "Poisson"), so the question's distinguishing word
("quasi-Poisson") names its column (fresh2's pscl Table 2)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from index_support import ingested_app
from pagelens.answer import text as tx
from pagelens.answer.candidates import candidates
from pagelens.ingest.label_values import join_label_values
from pagelens.models import Chunk, Element, ElementKind, SearchHit

ITEMS = [("Energy charge kWh", ["5.253", "17.880", "0,96383639", "17.233,37"]),
         ("Public lighting contribution", ["861,60"]),
         ("Late payment interest", ["-757,15"])]


def _bill(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=400)
    page.insert_text((40, 40), "Harbor Power Company - monthly electricity invoice for account 4471-2", fontsize=11)
    page.insert_text((40, 80), "Invoice items", fontsize=12)
    y = 110.0
    for label, values in ITEMS:
        page.insert_text((40, y), label, fontsize=9)
        x = 560.0 - 90 * len(values)
        for v in values:
            page.insert_text((x, y), v, fontsize=9)
            x += 90
        y += 16
    page.insert_textbox(pymupdf.Rect(40, 200, 560, 260),
                        "Amounts are in reais. Payment is due within ten days of the reading date.", fontsize=9)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("label_amounts")
    with ingested_app(root, [_bill(root / "power-bill.pdf")], answer_cache=False) as a:
        yield a


def test_the_parser_joins_a_label_and_the_amounts_on_its_line(app):
    doc = app.documents()[0]
    texts = [e.text for e in app.catalog.elements(doc.doc_id)]
    assert "Public lighting contribution: 861,60" in texts, texts
    assert "Energy charge kWh: 5.253 17.880 0,96383639 17.233,37" in texts, texts


def test_the_amount_of_a_named_item_is_quoted(app):
    ans = app.ask("How much is charged for the public lighting contribution on the power bill?")
    assert not ans.abstained, ans.answer
    assert "861,60" in ans.answer, ans.answer
    assert "17.233,37" not in ans.answer.split("[")[0], ans.answer


def test_an_item_line_keeps_all_its_amounts(app):
    ans = app.ask("What is the energy charge (Energy charge kWh) on the power bill?")
    assert not ans.abstained, ans.answer
    assert "17.233,37" in ans.answer.split("[")[0], ans.answer


def _el(text: str, bbox: tuple[float, float, float, float], kind: ElementKind = ElementKind.TEXT) -> Element:
    return Element(doc_id="d", page=1, order=0, kind=kind, text=text, bbox=bbox, attrs={"size": 9})


def _items(y0: float = 100) -> list[Element]:
    return [x for i, (label, value) in enumerate([("Water", "12,50"), ("Sewage", "8,10"), ("Waste fee", "-2,40")])
            for x in (_el(label, (40, y0 + 12 * i, 80, y0 + 9 + 12 * i)), _el(value, (400, y0 + 12 * i, 420, y0 + 9 + 12 * i)))]


def test_items_whose_amounts_line_up_are_joined():
    assert [e.text for e in join_label_values(_items())] == ["Water: 12,50", "Sewage: 8,10", "Waste fee: -2,40"]


def test_a_value_with_other_words_between_it_and_the_label_is_not_joined():
    els = [_el("Quantity", (40, 60, 80, 69)), _el("Unit price", (200, 60, 240, 69)), _el("12,50", (400, 60, 420, 69)),
           *_items()]
    assert [e.text for e in join_label_values(els)][:2] == ["Quantity", "Unit price: 12,50"]


def test_a_lone_label_and_number_on_one_line_are_not_joined():
    # a heading beside a chart's tick label, a note beside a count: no list of items
    els = [_el("Revenue by region", (40, 100, 120, 109)), _el("500", (400, 100, 415, 109))]
    assert [e.text for e in join_label_values(els)] == ["Revenue by region", "500"]


def test_prose_lines_and_values_on_other_lines_stay_apart():
    els = [_el("The reading was taken on the date shown above.", (40, 100, 300, 109)),
           _el("12,50", (400, 140, 420, 149)), _el("Total due", (40, 160, 80, 169)), _el("3 pages", (400, 160, 430, 169))]
    assert [e.text for e in join_label_values(els)] == [e.text for e in els]


def test_a_text_chunk_line_of_label_and_amounts_is_a_field_candidate():
    chunk = Chunk(id="c", doc_id="d", doc_name="bill.pdf", pages=[1], kind="text", embed_text="",
                  text="Invoice items\nEnergy charge kWh: 5.253 17.880\nThe meter was read on 3 May: see below.")
    hit = SearchHit(rank=1, chunk=chunk, score=1.0)
    kinds = {c.text: c.kind for c in candidates(hit, 0)}
    assert kinds.get("Energy charge kWh: 5.253 17.880") == "field", kinds
    assert all(k == "sentence" for t, k in kinds.items() if t != "Energy charge kWh: 5.253 17.880"), kinds


def test_a_word_and_its_joined_or_clipped_forms_count_once_in_a_column_name():
    header = ["", "ML fm_pois", "GLM Poisson adjusted fm_pois", "quasi fm_qpois", "NB ML fm_nbin"]
    q = "What is the standard error of the intercept in the quasi-Poisson model?"
    assert header[tx.best_column(header, tx.content_terms(q), tx.ask_terms(q))] == "quasi fm_qpois"
    assert tx.header_terms("GLM Poisson adjusted fm_pois") == ["glm", "poisson", "adjust", "fm"]


def test_one_line_of_values_under_titles_names_its_first_value_too():
    # a printout's fit statistics ("AIC AICc BIC" over one line of values): the first value is AIC's
    chunk = Chunk(id="c", doc_id="d", doc_name="paper.pdf", pages=[1], kind="table", embed_text="",
                  text="etsfit\n\n| AIC | AICc | BIC |\n|---|---|---|\n| 634.0437 | 635.2682 | 644.0803 |")
    rows = [c for c in candidates(SearchHit(rank=1, chunk=chunk, score=1.0), 0) if c.kind == "row"]
    assert [r.text for r in rows] == ["AIC: 634.0437; AICc: 635.2682; BIC: 644.0803"], [r.text for r in rows]
    q = "What AIC does the model report?"
    col = tx.best_column(rows[0].header, tx.content_terms(q), tx.ask_terms(q))
    assert rows[0].cells[col] == "634.0437"


def test_rows_led_by_a_number_keep_it_as_their_key():
    chunk = Chunk(id="c", doc_id="d", doc_name="report.pdf", pages=[1], kind="table", embed_text="",
                  text="| Year | Revenue | Cost |\n|---|---|---|\n| 2019 | 100 | 80 |\n| 2020 | 120 | 90 |")
    rows = [c for c in candidates(SearchHit(rank=1, chunk=chunk, score=1.0), 0) if c.kind == "row"]
    assert rows[0].text == "2019; Revenue: 100; Cost: 80", rows[0].text
