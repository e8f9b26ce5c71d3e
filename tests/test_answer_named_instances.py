"""A thing the question names by its own name and its kind ("Black Moss Reservoir") is not the one a span
names by another name of that kind ("Hollins Reservoir"): the span is about another instance, and its value
is no answer (the scanned water-board report of bench/scans_build.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.answer import kinds
from index_support import ingested_app


def _report(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Annual report of the Orrin Valley Water Board 2006", fontsize=14)
    page.insert_textbox(pymupdf.Rect(72, 90, 540, 220), (
        "Kelda Reservoir, the largest of the Board's four impounding reservoirs, has a capacity of 3.4 million "
        "cubic metres. Its spillway was rebuilt in the spring. Stock at Fenby Reservoir was low in August, and "
        "water was pumped from Kelda for six weeks. Leakage fell to 9.8 per cent of water put into supply."),
        fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("instances")
    with ingested_app(root, [_report(root / "orrin-valley-water-2006.pdf")], answer_cache=False) as app:
        yield app


def test_the_named_instance_gets_its_own_value(app):
    ans = app.ask("What is the capacity of Kelda Reservoir?")
    assert not ans.abstained and "3.4 million" in ans.answer, ans.answer


def test_another_instance_of_the_kind_gives_no_value(app):
    ans = app.ask("What is the capacity of Fenby Reservoir?")
    assert "3.4 million" not in ans.answer, ans.answer


def test_named_instance_conflict():
    q = "What is the capacity of Black Moss Reservoir?"
    assert kinds.named_instance_conflict(q, "Hollins Reservoir has a capacity of 2.6 million cubic metres")
    assert not kinds.named_instance_conflict(q, "Stock at Black Moss Reservoir was low")
    assert not kinds.named_instance_conflict(q, "The Reservoir holds 2 million cubic metres")  # a bare kind
    assert not kinds.named_instance_conflict("Who chairs the Audit Committee?",
                                             "The Audit Committee is chaired by X; the Remuneration Committee by Y")


def test_a_quantity_no_page_gives_for_the_instance_is_withheld(app):
    # "capacity" asks for a number: "pumped from Kelda for six weeks" beside Fenby is no capacity of it
    ans = app.ask("What is the capacity of Fenby Reservoir?")
    assert ans.abstained, ans.answer
