"""A question that asks for a line item or a ratio without naming its statement ("Acme's capital
expenditures", "the inventory turnover") prefers the pages of the statements that print its parts, as a
weaker prior than a named statement's (channel ``implied``); a question that names a statement keeps to
its own words. Real parser, MiniLM and qdrant-edge on the 10-K-like filing of ``statement_pdfs``, whose
discussion pages use the questions' words without the numbers."""

from __future__ import annotations

import pytest

from pagelens.retrieve.line_items import implied_kinds, implied_statements

from index_support import ranked_pages
from statement_pdfs import ingested_filing


def test_line_items_imply_the_statement_that_prints_them():
    assert implied_kinds("What was Acme's cost of goods sold in 2018?") == ["income"]
    assert implied_kinds("What is the FY2018 capital expenditure amount for 3M?") == ["cashflow"]
    assert implied_kinds("How much cash did operating activities provide in 2019?") == ["cashflow"]
    assert implied_kinds("What were total current liabilities at year end?") == ["balance"]
    assert implied_kinds("Diluted earnings per share for the quarter?") == ["income"]
    assert implied_statements("What did Acme pay in dividends paid last year?") == ["statement:cashflow"]


def test_a_ratio_implies_the_statements_of_its_parts_read_once():
    # Cost of sales over inventory: both statements, and "inventory" is not read again as the balance sheet.
    assert implied_kinds("What is Acme's FY2018 inventory turnover ratio?") == ["income", "balance"]
    assert implied_kinds("Return on assets in 2019?") == ["income", "balance"]
    assert implied_kinds("What was the quick ratio at the end of Q2?") == ["balance"]
    assert implied_kinds("What was the operating margin in fiscal 2020?") == ["income"]
    assert implied_kinds("What is the dividend payout ratio?") == ["cashflow", "income"]


def test_a_named_statement_or_no_figure_implies_nothing():
    assert implied_kinds("According to the cash flow statement, what was net income?") == []
    assert implied_kinds("What were total assets on the statement of financial position?") == []
    assert implied_kinds("How many parameters does BERT-large have?") == []
    assert implied_kinds("Who chairs the audit committee?") == []
    # Words that only look like items: a company's "sales team", "cash" alone, "equity research".
    assert implied_kinds("Where is the sales team based?") == []
    assert implied_kinds("How much cash did the founders invest?") == []


@pytest.fixture(scope="module")
def filing(tmp_path_factory: pytest.TempPathFactory):
    with ingested_filing(tmp_path_factory.mktemp("line-items")) as (app, pages):
        yield app, pages


def test_a_line_item_reaches_its_statement_page_first(filing):
    """The discussion says "capital expenditures" in so many words; the cash flow statement prints
    "Purchases of property, plant and equipment" with the number."""
    app, pages = filing
    q = "What were Acme's capital expenditures in 2018?"
    without = ranked_pages(app, q, "implied", 0.0)
    assert without[0][0] != pages["cashflow"]
    ranked = ranked_pages(app, q, "implied", 1.0)
    assert ranked[0][0] == pages["cashflow"] and ranked[0][1]["implied_rank"] == 1
    assert "label" not in ranked[0][1]  # the question named no statement
    # A prior, not a filter: the discussion pages keep their order behind it.
    assert [p for p, _ in ranked[1:]] == [p for p, _ in without if p != pages["cashflow"]][:4]


def test_a_ratio_brings_both_statements_into_the_top_five(filing):
    app, pages = filing
    q = "What was Acme's inventory turnover in 2018?"
    without = [p for p, _ in ranked_pages(app, q, "implied", 0.0)]
    assert not {pages["income"], pages["balance"]} <= set(without)
    top = [p for p, _ in ranked_pages(app, q, "implied", 1.0)]
    assert {pages["income"], pages["balance"]} <= set(top)


def test_a_named_statement_outranks_an_implied_one(filing):
    """"Net income" implies the income statement, but the question asks for the cash flow statement's."""
    app, pages = filing
    ranked = ranked_pages(app, "According to the cash flow statement, what was Acme's net income in 2018?", "implied", 1.0)
    assert ranked[0][0] == pages["cashflow"]
    assert not any("implied" in ch for _, ch in ranked)


def test_other_names_are_the_names_a_statement_prints():
    from pagelens.retrieve.line_items import other_names

    assert "net sales" in other_names("What was Acme's net revenue in 2018?")
    assert "cost of sales" in other_names("What was the cost of goods sold?")
    assert "net cash provided by operating activities" in other_names("How much operating cash flow was there?")
    assert other_names("How many parameters does BERT-large have?") == []
    # What the question said itself is not repeated, nor a shorter name inside it.
    assert "revenue" not in other_names("What was Acme's net revenue in 2018?")


def test_a_statement_row_answers_by_another_name_of_the_item(filing):
    """"Cost of goods sold" is printed "Cost of sales", "operating cash flow" "Net cash provided by operating
    activities": the row is read for the question, not another row that shares a word ("Net income")."""
    app, _ = filing
    ans = app.ask("What was Acme's cost of goods sold in 2018?")
    assert not ans.abstained and "7,905" in ans.answer.split("[")[0], ans.answer
    ans = app.ask("How much operating cash flow did Acme generate in 2018?")
    assert not ans.abstained and "2,390" in ans.answer.split("[")[0], ans.answer


def test_a_part_named_by_another_name_keeps_its_words(filing):
    """A two-part question: the part "net revenue" is answered from the income statement's "Net sales" row;
    its label is not dropped as if it named the document (``by_parts._unnamed``)."""
    app, _ = filing
    ans = app.ask("What were Acme's net revenue and its total assets in 2018?")
    revenue = ans.answer.split("total assets:")[0]
    assert "12,410" in revenue, ans.answer
    assert "18,932" in ans.answer, ans.answer


def test_a_row_named_more_fully_by_another_name_answers(filing):
    """"Capital expenditures" are printed "Purchases of property, plant and equipment" on the cash flow
    statement, the discussion says "capital expenditures" without a number."""
    app, _ = filing
    ans = app.ask("What were Acme's capital expenditures in 2018?")
    assert not ans.abstained and "1,047" in ans.answer.split("[")[0], ans.answer


def test_ratio_parts_ask_each_part_in_the_question_s_words():
    from pagelens.retrieve.line_items import ratio_parts

    name, formula, parts = ratio_parts("What is Acme's FY2018 inventory turnover ratio?")
    assert (name, formula) == ("inventory turnover ratio", "cost of sales / inventory")
    assert parts == [("cost of sales", "What is Acme's FY2018 cost of sales?"), ("inventory", "What is Acme's FY2018 inventory?")]
    # The definition the question gives is no part of what each part asks.
    _, _, parts = ratio_parts("What was the FY2018 cash conversion ratio, defined as cash from operations divided by net income?")
    assert [q for _, q in parts] == ["What was the FY2018 operating cash flow?", "What was the FY2018 net income?"]
    assert ratio_parts("What was Acme's revenue in 2018?") is None


def test_a_ratio_no_page_states_is_answered_by_its_parts_cells(filing):
    app, pages = filing
    ans = app.ask("What was Acme's inventory turnover in 2018?")
    assert not ans.abstained, ans.answer
    assert ans.answer.startswith("inventory turnover = cost of sales / inventory")
    assert "7,905" in ans.answer and "2,045" in ans.answer, ans.answer
    assert {pages["income"], pages["balance"]} <= {c.page for c in ans.cited}, ans.cited


def test_a_ratio_the_answer_states_is_not_taken_apart():
    from pagelens.answer.by_parts import answer_by_components

    stated = "Gross margin was 36.3% in 2018 [1, p.4]"
    assert answer_by_components(None, "What was Acme's gross margin in 2018?", [], stated) is None  # type: ignore[arg-type]


def test_a_fiscal_year_names_its_column(filing):
    app, _ = filing
    ans = app.ask("What is Acme's FY2018 cost of sales?")
    assert not ans.abstained and "7,905" in ans.answer.split("[")[0], ans.answer
    assert "7,611" not in ans.answer.split("[")[0]  # FY2017's column
