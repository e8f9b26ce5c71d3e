"""Financial statements named in a question ("the cash flow statement", "the statement of financial
position") prefer the pages that title that statement, as a label prior; citations of a statement, a
contents entry and an index of all statements carry nothing. Real parser, MiniLM and qdrant-edge on a
10-K-like filing the test builds (``statement_pdfs``)."""

from __future__ import annotations


import pytest

from pagelens.app import Pagelens
from pagelens.models import Chunk
from pagelens.retrieve.labels import chunk_labels, question_labels
from pagelens.retrieve.statements import question_statements, title_statements

from index_support import ranked_pages
from statement_pdfs import ingested_filing


def test_a_question_names_a_statement_by_any_of_its_names():
    assert question_statements("FY2018 capex according to the cash flow statement?") == ["statement:cashflow"]
    assert question_statements("per the statement of cash flows") == ["statement:cashflow"]
    for name in ("income statement", "statement of income", "statements of operations", "statement of earnings",
                 "P&L statement", "profit and loss account", "consolidated statement of profit or loss"):
        assert question_statements(f"What does the {name} show for 2019?") == ["statement:income"], name
    for name in ("balance sheet", "statement of financial position", "consolidated statements of financial condition"):
        assert question_statements(f"Total assets on the {name}?") == ["statement:balance"], name
    assert question_statements("the statement of changes in stockholders' equity") == ["statement:equity"]
    assert question_statements("the statement of comprehensive income") == ["statement:comprehensive"]
    # Several, in the order asked; none for the words alone.
    assert question_statements("Based on the statement of income and the statement of financial position, "
                               "what is the asset turnover?") == ["statement:income", "statement:balance"]
    assert question_statements("What were net income and cash flows from operations in 2019?") == []
    assert question_labels("What does Table 3 and the balance sheet say?") == ["table:3", "statement:balance"]


def test_a_title_is_short_and_does_not_cite():
    assert title_statements("ACME CORPORATION CONSOLIDATED STATEMENTS OF CASH FLOWS (In millions)") == ["cashflow"]
    assert title_statements("Condensed Consolidated Balance Sheets (Unaudited)") == ["balance"]
    assert title_statements("CONSOLIDATED STATEMENTS OF OPERATIONS Years Ended December 31") == ["income"]
    assert title_statements("Consolidated Statements of Operations and Comprehensive Loss") == ["income"]
    # Cited, not titled: after "these", "the", "see"; a sentence; a contents entry with its page.
    assert title_statements("The accompanying notes are an integral part of these consolidated balance sheets") == []
    assert title_statements("See the consolidated statements of cash flows") == []
    assert title_statements("Consolidated Statements of Cash Flows was revised.") == []
    assert title_statements("Consolidated Statements of Cash Flows .......... 52") == []
    assert title_statements("Consolidated Balance Sheets F-3") == []
    assert title_statements("cash flows improved, as the balance sheet shows") == []


def _chunk(text: str, kind: str = "text") -> Chunk:
    return Chunk(id="c", doc_id="d", doc_name="d.pdf", kind=kind, text=text, embed_text="", pages=[1])


def test_chunk_keys_come_from_titles_and_an_index_carries_none():
    table = _chunk("ACME CONSOLIDATED BALANCE SHEETS (In millions)\n| | 2018 | 2017 |\n|---|---|---|\n| Total assets | 9 | 8 |",
                   "table")
    assert chunk_labels(table) == ["statement:balance"]
    # A row inside the markdown is not a title (a row label may read "Statement of ... equity").
    rows = _chunk("Selected data\n| Statements of operations data | 2018 |\n|---|---|", "table_rows")
    assert chunk_labels(rows) == []
    index = _chunk("Index to Consolidated Financial Statements\nConsolidated Statements of Operations\n"
                   "Consolidated Balance Sheets\nConsolidated Statements of Cash Flows\n")
    assert chunk_labels(index) == []


@pytest.fixture(scope="module")
def filing(tmp_path_factory: pytest.TempPathFactory):
    with ingested_filing(tmp_path_factory.mktemp("statements")) as (app, pages):
        yield app, pages


def _pages(app: Pagelens, query: str, label_weight: float) -> list[tuple[int, dict[str, float]]]:
    return ranked_pages(app, query, "label", label_weight)


def test_the_named_statement_comes_first(filing):
    app, pages = filing
    q = "According to the cash flow statement, what were Acme's purchases of property, plant and equipment in 2018?"
    without = _pages(app, q, 0.0)
    assert without[0][0] != pages["cashflow"]  # the discussion shares every other word of the question
    ranked = _pages(app, q, 1.0)
    assert ranked[0][0] == pages["cashflow"] and ranked[0][1]["label_rank"] == 1
    assert sorted(p for p, _ in ranked) == sorted(p for p, _ in without)  # a prior, not a filter
    # Another name of the same statement.
    q = "What were total assets on Acme's statement of financial position at the end of 2018?"
    assert _pages(app, q, 1.0)[0][0] == pages["balance"]


def test_two_named_statements_both_reach_the_top_five(filing):
    app, pages = filing
    q = "Based on the income statement and the balance sheet, what is Acme's 2018 return on assets?"
    assert pages["income"] not in [p for p, _ in _pages(app, q, 0.0)]
    top = [p for p, _ in _pages(app, q, 1.0)]
    assert {pages["income"], pages["balance"]} <= set(top[:2])


def test_the_index_and_the_notes_gain_nothing(filing):
    app, pages = filing
    hits = _pages(app, "Where is the statement of cash flows?", 1.0)
    labelled = {p for p, ch in hits if "label" in ch}
    assert labelled == {pages["cashflow"]}


def test_a_title_kept_apart_from_its_table_reaches_the_page(filing):
    """The statement pages' notes line ("The accompanying notes…") is its own text chunk: it carries the
    key its page's title gives, so the title need not be in the table's caption."""
    from pagelens.retrieve.statements import page_statements

    app, pages = filing
    doc = app.documents()[0]
    chunks = app.indexer.chunks(doc.doc_id)
    keys = page_statements(chunks)
    assert keys[pages["cashflow"]] == ["statement:cashflow"] and keys[pages["balance"]] == ["statement:balance"]
    assert pages["index"] not in keys
    # Without the caption (a title the parser left as loose text), the table still gets the key.
    [table] = [c for c in chunks if c.kind == "table" and c.page == pages["income"]]
    bare = table.model_copy(update={"text": table.text.split("\n", 1)[1]})
    title = _chunk("CONSOLIDATED STATEMENTS OF OPERATIONS").model_copy(update={"pages": [pages["income"]]})
    assert page_statements([bare]) == {}
    assert page_statements([bare, title]) == {pages["income"]: ["statement:income"]}
