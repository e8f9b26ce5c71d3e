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

from index_support import ingested_app, ranked_pages
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


def _continued_balance_sheet(path) -> None:
    """A balance sheet whose title and assets fill the bottom of one page and whose liabilities continue
    at the top of the next, under no title of their own (as a printed 10-K breaks it)."""
    import pymupdf

    def rows(page, y0, items):
        for i, (label, a, b) in enumerate(items):
            page.insert_text((72, y0 + i * 16), label, fontsize=9)
            page.insert_text((440 - pymupdf.get_text_length(a, fontsize=9), y0 + i * 16), a, fontsize=9)
            page.insert_text((520 - pymupdf.get_text_length(b, fontsize=9), y0 + i * 16), b, fontsize=9)

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 90), "ACME CORPORATION FORM 10-K 2018", fontsize=14)
    doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 300), "Management discusses total liabilities, current "
                                  "liabilities, accounts payable and stockholders' equity in this part; the balance "
                                  "sheet gives the amounts.", fontsize=10)
    page = doc.new_page()
    for i, line in enumerate(("ACME CORPORATION", "CONSOLIDATED BALANCE SHEETS")):
        page.insert_text((72, 430 + 16 * i), line, fontsize=11, fontname="hebo")
    page.insert_text((400, 486), "2018", fontsize=9, fontname="hebo")
    page.insert_text((480, 486), "2017", fontsize=9, fontname="hebo")
    rows(page, 506, [("Cash and cash equivalents", "1,120", "986"), ("Accounts receivable", "1,410", "1,302"),
                     ("Inventories", "2,045", "1,870"), ("Total current assets", "4,575", "4,158"),
                     ("Property, plant and equipment, net", "5,310", "4,980"), ("Goodwill", "3,200", "3,150"),
                     ("Other assets", "5,847", "5,167"), ("Total assets", "18,932", "17,455")])
    rows(doc.new_page(), 80, [("Accounts payable", "1,980", "1,744"), ("Accrued liabilities", "1,210", "1,105"),
                              ("Total current liabilities", "3,190", "2,849"), ("Long-term debt", "4,210", "4,400"),
                              ("Total liabilities", "10,055", "9,353"), ("Total stockholders' equity", "8,877", "8,102")])
    doc.save(path)
    doc.close()


def test_a_statement_continued_on_the_next_page_keeps_its_name(tmp_path):
    """The liabilities page carries the balance sheet's key through its table's continuation, so the page
    that holds "Total current liabilities" is the balance sheet's, not only the assets page above it."""
    from pagelens.retrieve.statements import continued_statements

    assert continued_statements({3: ["statement:balance"]}, [(3, 4), (4, 5)]) == {
        3: ["statement:balance"], 4: ["statement:balance"], 5: ["statement:balance"]}
    assert continued_statements({3: ["statement:balance"], 4: ["statement:income"]}, [(3, 4)])[4] == ["statement:income"]
    _continued_balance_sheet(tmp_path / "acme-10k.pdf")
    with ingested_app(tmp_path, [tmp_path / "acme-10k.pdf"]) as app:
        ranked = app.search("According to the balance sheet, what were Acme's total current liabilities in 2018?", k=3)
        assert ranked[0].chunk.page == 4 and ranked[0].channels.get("label_rank") == 1, \
            [(h.chunk.page, h.channels) for h in ranked]


def test_a_formal_title_in_the_first_header_cell_titles_the_table():
    """EDGAR's financial-report pages print a statement's title as its table's first header cell."""
    xbrl = _chunk("| CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited) - USD ($) shares in Thousands, $ in "
                  "Millions | 3 Months Ended Mar. 29, 2025 |\n|---|---|\n| Net sales | $ 95,359 |", "table")
    assert chunk_labels(xbrl) == ["statement:income"]
    sheet = _chunk("| Consolidated Balance Sheets - USD ($) $ in Millions | Sep. 28, 2024 |\n|---|---|", "table_rows")
    assert chunk_labels(sheet) == ["statement:balance"]
    # A row label that names a statement's data is no title.
    assert chunk_labels(_chunk("| Statements of operations data | 2018 |\n|---|---|", "table_rows")) == []
