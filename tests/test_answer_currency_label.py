"""A form line whose label gives the currency ("Fee paid (EUR): 45") states an amount of money: a question
for a fee or a price is answered by its bare number (the scanned fishing-permit application of
bench/scans_build.py withheld it, as its value had no currency sign of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagelens.answer import kinds
from index_support import ingested_app
from pdf_support import line_form


def _application(path: Path) -> Path:
    return line_form(path, "Glenmore Rowing Club - Application for Boat Storage",
                     ["1. Applicant name: Orla Keaveney", "2. Boat type: Single scull", "3. Rack requested: B-14",
                      "4. Season: April to October", "5. Storage fee paid (EUR): 120", "6. Signature: O. Keaveney"])


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("currency")
    with ingested_app(root, [_application(root / "glenmore-boat-storage.pdf")], answer_cache=False) as app:
        yield app


def test_a_fee_in_a_currency_the_label_names_is_answered(app):
    ans = app.ask("What storage fee was paid with the Glenmore Rowing Club application?")
    assert not ans.abstained and "120" in ans.answer, ans.answer


def test_currency_in_a_label():
    assert kinds.has_kind("money", "5. Storage fee paid (EUR): 120", "")
    assert kinds.has_kind("money", "Price ($): 4.50", "")
    assert not kinds.has_kind("money", "Rack requested: B-14", "")
    assert not kinds.has_kind("money", "Weight (kg): 14", "")
