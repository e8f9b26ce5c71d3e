"""A 10-K-like filing built with PyMuPDF: discussion pages that use the statements' words in prose, an
index of the financial statements, the four primary statements (titles in capitals over borderless
tables, the way EDGAR filings print them) and notes that cite the statements."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pymupdf

from index_support import ingested_app

if TYPE_CHECKING:
    from pagelens.app import Pagelens

PROSE = (
    "Management discusses cash flows, capital expenditures, purchases of property and equipment, total assets, "
    "net income, revenue and stockholders' equity for fiscal {year} in this part. {extra} The discussion compares "
    "the year with prior years and with the plans of management, and refers to the consolidated financial "
    "statements for the amounts."
)
EXTRAS = [
    "Liquidity depended on operating cash flows and on the revolving credit facility.",
    "Capital expenditures rose because new distribution centers opened in three regions.",
    "Total assets grew with the acquisition of two suppliers, and inventories rose.",
    "Net income benefited from lower freight costs and higher prices in every region.",
    "Equity changed with share repurchases and dividends declared during the year.",
    "Pension plans and currency effects are discussed together with tax matters.",
]

STATEMENTS = {
    "income": ("CONSOLIDATED STATEMENTS OF OPERATIONS", [
        ("Net sales", "12,410", "11,872"), ("Cost of sales", "(7,905)", "(7,611)"),
        ("Selling, general and administrative", "(2,233)", "(2,150)"), ("Operating income", "2,272", "2,111"),
        ("Interest expense", "(181)", "(176)"), ("Net income", "1,604", "1,472")]),
    "balance": ("CONSOLIDATED BALANCE SHEETS", [
        ("Cash and cash equivalents", "1,120", "986"), ("Inventories", "2,045", "1,870"),
        ("Property, plant and equipment, net", "5,310", "4,980"), ("Total assets", "18,932", "17,455"),
        ("Long-term debt", "4,210", "4,400"), ("Total stockholders' equity", "8,877", "8,102")]),
    "cashflow": ("CONSOLIDATED STATEMENTS OF CASH FLOWS", [
        ("Net income", "1,604", "1,472"), ("Depreciation and amortization", "611", "590"),
        ("Net cash provided by operating activities", "2,390", "2,201"),
        ("Purchases of property, plant and equipment (PP&E)", "(1,047)", "(903)"),
        ("Net cash used in investing activities", "(1,311)", "(1,020)"), ("Dividends paid", "(512)", "(488)")]),
    "equity": ("CONSOLIDATED STATEMENTS OF STOCKHOLDERS' EQUITY", [
        ("Balance at beginning of year", "8,102", "7,650"), ("Net income", "1,604", "1,472"),
        ("Dividends declared", "(512)", "(488)"), ("Repurchases of common stock", "(317)", "(532)"),
        ("Balance at end of year", "8,877", "8,102")]),
}


def _table(page: pymupdf.Page, y: float, title: str, rows: list[tuple[str, str, str]], year: int) -> None:
    page.insert_text((72, y), "ACME CORPORATION", fontsize=11, fontname="hebo")
    page.insert_text((72, y + 16), title, fontsize=11, fontname="hebo")
    page.insert_text((72, y + 32), "(In millions of dollars)", fontsize=9)
    page.insert_text((400, y + 56), str(year), fontsize=9, fontname="hebo")
    page.insert_text((480, y + 56), str(year - 1), fontsize=9, fontname="hebo")
    for i, (label, a, b) in enumerate(rows):
        yy = y + 76 + i * 16
        page.insert_text((72, yy), label, fontsize=9)
        page.insert_text((440 - pymupdf.get_text_length(a, fontsize=9), yy), a, fontsize=9)
        page.insert_text((520 - pymupdf.get_text_length(b, fontsize=9), yy), b, fontsize=9)


def build_filing(path: Path, year: int = 2018, discussion_pages: int = 6) -> dict[str, int]:
    """The filing at ``path``; returns each statement's page (1-based) and the index page."""
    doc = pymupdf.open()
    doc.set_metadata({"title": f"Acme Corporation Form 10-K {year}"})
    p = doc.new_page()
    p.insert_text((72, 90), "UNITED STATES SECURITIES AND EXCHANGE COMMISSION", fontsize=12)
    p.insert_text((72, 120), "FORM 10-K", fontsize=16)
    p.insert_text((72, 150), f"ACME CORPORATION - Annual report for the fiscal year ended December 31, {year}", fontsize=10)
    for i in range(discussion_pages):
        p = doc.new_page()
        if i == 0:
            p.insert_text((72, 72), "Item 7. Management's Discussion and Analysis", fontsize=11, fontname="hebo")
        p.insert_textbox(pymupdf.Rect(72, 90, 520, 400), PROSE.format(year=year, extra=EXTRAS[i % len(EXTRAS)]), fontsize=10)
    pages: dict[str, int] = {}
    p = doc.new_page()
    pages["index"] = doc.page_count
    p.insert_text((72, 72), "Item 8. Financial Statements and Supplementary Data", fontsize=11, fontname="hebo")
    p.insert_text((72, 100), "Index to Consolidated Financial Statements", fontsize=10)
    for i, (_, (title, _rows)) in enumerate(STATEMENTS.items()):
        p.insert_text((90, 124 + i * 16), title.title(), fontsize=10)
        p.insert_text((480, 124 + i * 16), str(40 + i), fontsize=10)
    for key, (title, rows) in STATEMENTS.items():
        p = doc.new_page()
        pages[key] = doc.page_count
        _table(p, 72, title, rows, year)
        p.insert_text((72, 400), "The accompanying notes are an integral part of these consolidated statements.", fontsize=8)
    for i in range(2):
        p = doc.new_page()
        p.insert_text((72, 72), f"Note {i + 1}. {'Debt' if i else 'Summary of Accounting Policies'}", fontsize=11, fontname="hebo")
        p.insert_textbox(pymupdf.Rect(72, 90, 520, 400), "The consolidated statements of cash flows, the balance sheets and "
                         "the statements of operations include the accounts of Acme and its subsidiaries. Capital "
                         "expenditures and net income are measured under generally accepted accounting principles.", fontsize=10)
    doc.save(path)
    doc.close()
    return pages


@contextmanager
def ingested_filing(tmp: Path, **app_options: Any) -> Iterator[tuple["Pagelens", dict[str, int]]]:
    """The application over the filing built in ``tmp`` (``index_support.ingested_app``), with its pages."""
    pages = build_filing(tmp / "acme-10k.pdf")
    with ingested_app(tmp, [tmp / "acme-10k.pdf"], **app_options) as app:
        yield app, pages
