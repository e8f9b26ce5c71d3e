"""A document named by its day: a company's 8-Ks look alike but for the day they were filed, which the
file name gives (``ACME_2022_8K_dated-2022-07-01.pdf``) or the cover's "Date of Report" line, and a
question writes in words ("its 8-K dated 1st July 2022"). Real parser, MiniLM and qdrant-edge over
three 8-Ks the test builds whose bodies print no date."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.index.bm25 import SparseEncoder
from pagelens.ingest.cover import cover_facts, name_facts
from pagelens.retrieve.retriever import Retriever

from index_support import built_index

# (file name, the date the cover reports, what the filing announces)
FILINGS = [
    ("ACME_2022_8K_dated-2022-03-14.pdf", "March 10, 2022", "a quarterly dividend of $0.42 per share"),
    ("ACME_2022_8K_dated-2022-07-01.pdf", "June 28, 2022", "the appointment of Dana Reyes as chief financial officer"),
    ("filing-0003.pdf", "November 9, 2022", "the sale of its packaging division to Globex Corporation"),
]


def test_a_file_name_and_a_cover_give_their_day():
    terms = set(name_facts("AMCOR_2022_8K_dated-2022-07-01").periods)
    assert {"July 1, 2022", "1 July 2022", "1st July 2022", "July 2022"} <= terms
    assert "March 14, 2021" in name_facts("board-minutes-20210314").periods
    assert name_facts("report-2019-13-45").periods == ["2019"]  # no month 13
    cover = cover_facts("FORM 8-K CURRENT REPORT Date of Report (Date of earliest event reported): June 28, 2022")
    assert "June 28, 2022" in cover.periods and "28th June 2022" in cover.periods


def _filing(path: Path, reported: str, event: str) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    for i, line in enumerate(["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM 8-K", "CURRENT REPORT",
                              f"Date of Report (Date of earliest event reported): {reported}", "ACME CORPORATION",
                              "(Exact name of registrant as specified in its charter)"]):
        page.insert_text((72, 90 + 24 * i), line, fontsize=11)
    page = doc.new_page()
    page.insert_text((72, 80), "Item 8.01 Other Events", fontsize=13)
    page.insert_textbox(pymupdf.Rect(72, 100, 540, 300), f"Acme Corporation announced {event}. The announcement "
                        "is furnished with this current report and is not deemed filed.", fontsize=11)
    doc.save(path, no_new_id=True)  # the same bytes every run: ties break alike
    doc.close()
    return path


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("dated")
    with built_index(root / "home", [_filing(root / n, d, e) for n, d, e in FILINGS]) as b:
        yield b


QUESTIONS = [
    ("What did Acme announce in its 8-K dated 1st July 2022?", FILINGS[1][0], "Dana Reyes"),
    ("What did Acme's 8-K filed on March 14, 2022 announce?", FILINGS[0][0], "dividend"),
    ("What did Acme announce in the current report of November 9, 2022?", FILINGS[2][0], "packaging"),
]


def test_a_question_naming_the_day_ranks_that_filing_first(home):
    r = Retriever(home.settings, home.store, home.embedder, SparseEncoder())
    for q, name, said in QUESTIONS:
        hits = r.search(q, k=4)
        assert hits[0].chunk.doc_name == name and said in hits[0].chunk.text, (q, [(h.chunk.doc_name, h.chunk.page) for h in hits])
        # The bodies look alike: it is the day in the name or on the cover that routes the question.
        strength = {home.catalog.get_document(d).name: v for d, v in r.route(q).strength.items()}
        assert strength.get(name, 0.0) > max((v for n, v in strength.items() if n != name), default=0.0), (q, strength)
