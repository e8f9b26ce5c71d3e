"""A short line (a bill's item, a heading, a label) states the name it holds whole, though the sentence
splitter cuts it after an abbreviation's period: "Contrib. Custeio Ilum Pública" states the question's
"Contrib. Custeio Ilum Pública" (fresh2: the electricity bill's public lighting charge had
``distinct_names`` 0, which leaves nothing of the support score). Words of a name spread over a
paragraph's sentences still do not state it."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import distinct as ds
from pagelens.answer import support as sp
from pagelens.answer.focus import focus_of
from index_support import ingested_app

ITEMS = [("Energia Elétrica kWh", "612,44"), ("Contrib. Custeio Ilum Pública", "861,60"), ("Multa por atraso", "12,30")]
QUESTION = "How much is the Contrib. Custeio Ilum Pública on the energy bill?"


def _bill(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "CONTA DE ENERGIA ELÉTRICA", fontsize=13)
    y = 100
    for label, value in ITEMS:
        page.insert_text((72, y), f"{label}: R$ {value}", fontsize=10)
        y += 20
    page.insert_textbox(pymupdf.Rect(72, 200, 540, 300), "Leitura anterior em Contrib. Municipal. Custeio da rede "
                        "pago pelo cliente. Ilum externa desligada.", fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("shortline")
    with ingested_app(root, [_bill(root / "conta-energia.pdf")], answer_cache=False) as app:
        yield app


def test_a_bill_item_after_an_abbreviation_states_its_name(app):
    hits = app.search(QUESTION)
    ev = app.answerer.extractive.evidence(QUESTION, hits)
    assert ev is not None
    assert dict(zip(sp.FEATURES, ev.features))["distinct_names"] == 1.0


def test_words_spread_over_sentences_do_not(tmp_path):
    with pymupdf.open(_bill(tmp_path / "bill.pdf")) as d:
        text = d[0].get_text()
    paragraph = text[text.index("Leitura"):]
    units = [u for u in ds.units(QUESTION, ["conta-energia.pdf"], focus_of(QUESTION), {}) if not u.focus]
    assert units and all(u.found(ds.Sources.of([text])) for u in units)
    assert not all(u.found(ds.Sources.of([paragraph])) for u in units)  # "Contrib." "Custeio" "Ilum" apart
