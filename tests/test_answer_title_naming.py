"""A question for a value of a titled document names the document by its title: the answer is the line
that labels the value by the asked thing ("OMB Number: 4040-0004"), not the title line that repeats the
question's other words.

A one-page form the test builds with PyMuPDF (its file properties carry the title); real ingest, index
and MiniLM.
"""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from pagelens.app import Pagelens
from pagelens.settings import Settings

TITLE = "Application for Harbour Mooring Assistance HM-512"


def _form(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 70), f"{TITLE} Version 03", fontsize=14)
    page.insert_text((72, 95), "Prepared by Andrea Castellan, Kestrel Bay Harbour Office", fontsize=10)
    page.insert_textbox(pymupdf.Rect(72, 120, 540, 300),
                        "Applicants describe the vessel, its berth and the season of mooring. The harbour office "
                        "answers within thirty days. Incomplete applications are returned to the applicant.",
                        fontsize=10)
    page.insert_text((72, 760), "OMB Number: 4711-0815 Expiration Date: 03/31/2027", fontsize=8)
    doc.set_metadata({"title": TITLE, "author": "Kestrel Bay Harbour Office"})
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("titled-form")
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    with Pagelens(settings) as a:
        results = a.ingest([_form(root / "hm512.pdf")])
        assert results[0].status == "indexed", results[0].error
        yield a


def test_a_value_of_a_titled_document_is_the_line_that_labels_it(app):
    ans = app.ask("What is the OMB number of the HM-512 application for harbour mooring assistance?")
    first = re.split(r"\[\d+, p\.\d+\]", ans.answer)[0]
    assert not ans.abstained and "4711-0815" in first, ans.answer

