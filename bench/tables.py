"""Table recall on labelled pages: the reports subset of the dev corpus and statements built here.

    PYTHONPATH=src .venv/bin/python bench/tables.py --before /work/main/src

prints, for the code on PYTHONPATH ("after") and the code under ``--before`` (run in a subprocess, same
machine state), per set: pages labelled, tables expected / found, tables found on pages with none,
row labels and (row, column, value) cells recovered, answer cells reachable, pages sent to the ONNX
layout model and milliseconds per page in the table stage. Only APIs both versions have are used
(``PageContext.build``, ``tables.is_hard_page``, ``tables.extract_tables``).

A cell is recovered when a table on its page has a row whose label starts with the expected label and,
in a column whose header contains the expected column name, the expected value. An answer cell is
reachable when a reports table question's answer is a cell of a table on its gold page (any row and
column: what an answerer can quote), and *named* when it is recovered as a cell with its row and column.
A body row that only repeats its table's header (a year row kept as header and as first row) is counted
as a header row repeated in the body. A table without a header names every column "" (a label whose
expected column is "" matches any column).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

CORPUS = Path(os.environ.get("PAGELENS_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))

# -- labels: the reports subset (pages read by eye; cells from the PDFs' text layer) -----------------
REPORTS: dict[tuple[str, int], list[tuple[str, str, str]]] = {
    ("rep-meta-q2-2023.pdf", 1): [
        ("Revenue", "2023", "31,999"), ("Revenue", "2022", "28,822"), ("Costs and expenses", "2022", "20,464"),
        ("Income from operations", "2022", "8,358"), ("Operating margin", "2023", "29 %"),
        ("Provision for income taxes", "2023", "1,505"), ("Effective tax rate", "2023", "16 %"),
        ("Net income", "2022", "6,687"), ("Diluted earnings per share", "2022", "2.46"),
        ("Diluted earnings per share", "change", "21%"),
    ],
    ("rep-kroger-q2-2023.pdf", 1): [],
    ("rep-kroger-q2-2023.pdf", 2): [
        ("ID Sales", "2Q22", "5.8%"), ("ID Sales", "2Q23", "1.0%"), ("Earnings (Loss) Per Share", "2Q23", "(0.25)"),
        ("Adjusted EPS", "2Q22", "0.90"), ("Operating (Loss) Profit", "2Q23", "(479)"),
        ("Adjusted FIFO Operating Profit", "2Q22", "1,110"), ("Adjusted FIFO Operating Profit", "2Q23", "989"),
    ],
    ("rep-kroger-q2-2023.pdf", 3): [],
    ("rep-alphabet-2022-annual-p56-59.pdf", 1): [],
    ("rep-alphabet-2022-annual-p56-59.pdf", 2): [],
    ("rep-alphabet-2022-annual-p56-59.pdf", 3): [
        ("October 1 - 31", "Class A Shares", "8,585"), ("November 1 - 30", "Class C Shares", "55,374"),
        ("December 1 - 31", "per Class A Share", "91.93"), ("December 1 - 31", "per Class C Share", "93.93"),
        ("October 1 - 31", "Yet Be Purchased", "38,069"), ("November 1 - 30", "Publicly Announced", "57,342"),
        ("Total", "Class C Shares", "146,082"),
    ],
    ("rep-alphabet-2022-annual-p56-59.pdf", 4): [],
}
# The reports table questions: (question id, pdf, page, row, column, answer).
QUESTIONS = [
    ("rep-001", "rep-meta-q2-2023.pdf", 1, "Income from operations", "2022", "8,358"),
    ("rep-002", "rep-meta-q2-2023.pdf", 1, "Effective tax rate", "2023", "16 %"),
    ("rep-003", "rep-meta-q2-2023.pdf", 1, "Diluted earnings per share", "2022", "2.46"),
    ("rep-005", "rep-kroger-q2-2023.pdf", 2, "Adjusted FIFO Operating Profit", "2Q22", "1,110"),
    ("rep-006", "rep-kroger-q2-2023.pdf", 2, "ID Sales", "2Q22", "5.8%"),
    ("rep-009", "rep-alphabet-2022-annual-p56-59.pdf", 3, "November 1 - 30", "Class C Shares", "55,374"),
    ("rep-010", "rep-alphabet-2022-annual-p56-59.pdf", 3, "December 1 - 31", "per Class A Share", "91.93"),
    ("rep-011", "rep-alphabet-2022-annual-p56-59.pdf", 3, "October 1 - 31", "Yet Be Purchased", "38,069"),
]


# -- built statements ---------------------------------------------------------------------------------
def _right(page: pymupdf.Page, x1: float, y: float, text: str, size: float = 9) -> None:
    page.insert_text((x1 - pymupdf.get_text_length(text, "helv", size), y), text, fontsize=size)


def _statement(
    doc: pymupdf.Document, title: str, scale: str, group: str, years: list[str],
    rows: list[tuple[str, list[str]]], dollars: bool = False, leaders: bool = False, pitch: float = 13,
) -> list[tuple[str, str, str]]:
    """One statement page; returns its (label, column, value) cells. A row label with "|" wraps: the
    part before it on the line above the values, the rest with the values."""
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "The company's results for the period are set out below, with comparisons to the prior periods.",
                     fontsize=10)
    page.insert_text((54, 96), title, fontsize=11)
    page.insert_text((54, 110), scale, fontsize=9)
    xs = [400 + 70 * i for i in range(len(years))]
    page.insert_text((xs[0] - 10, 128), group, fontsize=9)
    for x, year in zip(xs, years):
        _right(page, x, 142, year)
    y, cells = 160.0, []
    for label, values in rows:
        first, _, rest = label.partition("|")
        if rest:
            page.insert_text((54, y), first.strip(), fontsize=9)
            y += 11
            shown, name = "   " + rest.strip(), f"{first.strip()} {rest.strip()}"
        else:
            shown, name = label, label.strip()
        if leaders and values:
            shown += " " + ". " * int((270 - pymupdf.get_text_length(shown, "helv", 9)) / 5)
        page.insert_text((54, y), shown.rstrip(), fontsize=9)
        for i, (x, v) in enumerate(zip(xs, values)):
            if dollars and i == 0 or dollars and name.startswith("Total"):
                page.insert_text((x - 60, y), "$", fontsize=9)
            _right(page, x, y, v)
            cells.append((name, years[i], v))
        y += pitch
    return cells


def _prose(doc: pymupdf.Document, columns: int) -> None:
    page = doc.new_page(width=612, height=792)
    text = ("Revenue rose 12% to 4,210 million in 2019 and fell 3% in 2020, when 14 stores closed; margins held "
            "at 21% as freight costs fell by 310 million. ") * 6
    width = (504 - 20 * (columns - 1)) / columns
    for c in range(columns):
        x0 = 54 + c * (width + 20)
        page.insert_textbox(pymupdf.Rect(x0, 72, x0 + width, 720), text, fontsize=10)


def _ruled(doc: pymupdf.Document, caption: str, header: list[str] | None, rows: list[list[str]],
           first: float = 190.0) -> list[tuple[str, str, str]]:
    """One page with a ruled grid (every rule drawn) under a "Table N" caption; returns its filled
    cells. The stub cell of the header is left empty, as statements printed as grids leave it; with
    no header (``None``) every column's name is "" (any column matches)."""
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "The balances at the end of the period are summarised in the table below.", fontsize=10)
    page.insert_text((72, 112), caption, fontsize=9)
    lines = [header, *rows] if header else rows
    xs = [72.0, 72.0 + first] + [72.0 + first + 90 * (i + 1) for i in range(len(lines[0]) - 1)]
    top, pitch = 120.0, 18.0
    for i in range(len(lines) + 1):
        page.draw_line((xs[0], top + i * pitch), (xs[-1], top + i * pitch), width=0.6)
    for x in xs:
        page.draw_line((x, top), (x, top + len(lines) * pitch), width=0.6)
    for i, row in enumerate(lines):
        for j, text in enumerate(row):
            page.insert_text((xs[j] + 4, top + i * pitch + 12), text, fontsize=9)
    names = header or [""] * len(lines[0])
    return [(row[0], names[j], row[j]) for row in rows for j in range(1, len(names)) if row[j]]


def _described(doc: pymupdf.Document, rows: list[tuple[str, str, str, str]]) -> list[tuple[str, str, str]]:
    """A borderless table with two columns of text before the amounts ("Segment | Description | 2023 |
    2022"), each titled, a gutter between them; returns its cells (the description as one)."""
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "Revenue by segment is set out below, with comparisons to the prior year.", fontsize=10)
    page.insert_text((54, 96), "Segment revenue", fontsize=11)
    page.insert_text((54, 110), "(in millions)", fontsize=9)
    page.insert_text((54, 142), "Segment", fontsize=9)
    page.insert_text((150, 142), "Description", fontsize=9)
    _right(page, 400, 142, "2023")
    _right(page, 470, 142, "2022")
    cells = []
    for i, (name, text, a, b) in enumerate(rows):
        y = 160 + 13 * i
        page.insert_text((54, y), name, fontsize=9)
        page.insert_text((150, y), text, fontsize=9)
        _right(page, 400, y, a)
        _right(page, 470, y, b)
        cells += [(name, "Description", text), (name, "2023", a), (name, "2022", b)]
    return cells


def built(path: Path) -> dict[tuple[str, int], list[tuple[str, str, str]]]:
    doc = pymupdf.open()
    labels: dict[tuple[str, int], list[tuple[str, str, str]]] = {}
    years3 = ["2018", "2017", "2016"]
    labels[(path.name, 1)] = _statement(doc, "CONSOLIDATED STATEMENTS OF CASH FLOWS", "(in millions)",
                                        "Year Ended December 31,", years3, [
        ("Cash flows from operating activities:", []),
        ("  Net income", ["5,349", "4,858", "5,050"]),
        ("  Depreciation and amortization", ["1,488", "1,544", "1,474"]),
        ("Net cash provided by|operating activities", ["6,439", "6,240", "6,662"]),
        ("Cash flows from investing activities:", []),
        ("  Purchases of property, plant and equipment (PP&E)", ["(1,577)", "(1,373)", "(1,420)"]),
        ("  Acquisitions, net of cash acquired", ["13", "(2,023)", "(16)"]),
        ("Net cash used in investing activities", ["(222)", "(3,086)", "(1,403)"]),
    ])
    labels[(path.name, 2)] = _statement(doc, "CONSOLIDATED BALANCE SHEETS", "(Dollars in thousands)",
                                        "As of December 31,", ["2023", "2022"], [
        ("Cash and cash equivalents", ["$ 1,204", "$ 998"]),
        ("Accounts receivable, net", ["3,412", "3,105"]),
        ("Inventories", ["2,876", "2,455"]),
        ("Total current assets", ["7,492", "6,558"]),
        ("Property, plant and equipment, net of|accumulated depreciation", ["9,101", "8,738"]),
        ("Total assets", ["16,593", "15,296"]),
    ], leaders=True)
    labels[(path.name, 3)] = _statement(doc, "Segment Results", "(in millions)", "Three Months Ended March 31,",
                                        ["2024", "2023"], [
        ("Net sales", ["8,011", "7,690"]),
        ("Operating income (loss)", ["(45)", "312"]),
        ("Interest expense", ["3.8", "2.9"]),
        ("Income before income taxes", ["1,120", "1,004"]),
        ("Effective tax rate", ["21.5%", "22.0%"]),
    ], dollars=True, pitch=15)
    _prose(doc, 1)
    labels[(path.name, 4)] = []
    _prose(doc, 2)
    labels[(path.name, 5)] = []
    # Ruled grids whose first body row prints dollar signs ("$ 1,204"): a row of data, not the header.
    labels[(path.name, 6)] = _ruled(doc, "Table 1: Cash position (in thousands)", ["", "Actual", "Budget", "Forecast"], [
        ["Cash and equivalents", "$ 1,204", "$ 1,150", "$ 1,300"],
        ["Receivables", "3,412", "3,300", "3,500"],
        ["Inventories", "2,876", "2,900", "2,850"],
        ["Total current assets", "$ 7,492", "$ 7,350", "$ 7,650"],
    ])
    labels[(path.name, 7)] = _ruled(doc, "Table 2: Other assets (in thousands)", ["", "Amount"], [
        ["Prepaid expenses", "$ 410"], ["Deposits", "215"], ["Goodwill", "1,930"], ["Total other assets", "$ 2,555"],
    ])
    # Ruled grids titled by years ("| 2023 | 2022"): the year row is the header, not a first body row.
    labels[(path.name, 8)] = _ruled(doc, "Table 3: Capital expenditure (in millions)", ["", "2023", "2022", "2021"], [
        ["Property and equipment", "1,204", "998", "870"],
        ["Acquisitions", "", "310", ""],
        ["Software", "412", "", "95"],
        ["Total capital expenditure", "1,616", "1,308", "965"],
    ])
    labels[(path.name, 9)] = _ruled(doc, "Table 4: Quarterly results (in millions)", ["Three months ended June 30,", "2023", "2022"], [
        ["Revenue", "31,999", "28,822"], ["Net income", "7,788", "6,687"],
    ])
    labels[(path.name, 10)] = _ruled(doc, "Table 5: Segment revenue (in millions)", ["Item", "2023", "2022"], [
        ["Retail", "1,204", ""], ["Wholesale", "", "3,105"], ["Services", "2,876", "2,455"],
    ])
    # Years as row labels are data: a grid without a header whose first row starts "2019".
    labels[(path.name, 11)] = _ruled(doc, "Table 6: Milestones", None, [
        ["2019", "Product launch", "1,200"], ["2020", "Berlin office", "340"],
        ["2021", "Acquisition", "2,950"], ["2022", "Listing", "410"],
    ], first=60.0)
    # Two columns of text before the amounts: the row label and a description stay apart.
    labels[(path.name, 12)] = _described(doc, [
        ("Cloud", "Hosted services for business", "1,204", "998"), ("Devices", "Phones and tablets", "877", "901"),
        ("Gaming", "Consoles and content", "2,310", "2,118"), ("Search", "Advertising on search pages", "5,402", "4,990"),
    ])
    labels[(path.name, 13)] = _ruled(doc, "Table 7: Segment revenue (in millions)", ["Segment", "Description", "2023", "2022"], [
        ["Cloud", "Hosted services", "1,204", "998"], ["Devices", "Phones, tablets", "877", "901"],
        ["Gaming", "Consoles, games", "2,310", "2,118"], ["Search", "Search ads", "5,402", "4,990"],
    ], first=80.0)
    doc.save(path)
    return labels


# -- measuring ----------------------------------------------------------------------------------------
def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9%().,/-]+", " ", text.lower().replace("$", "")).strip()


def _value(text: str) -> str:
    return re.sub(r"[\s$]", "", text)


def _tables(path: Path, pno: int, img: object) -> tuple[list[object], bool, float]:
    from pagelens.ingest import tables
    from pagelens.ingest.context import PageContext
    from pagelens.settings import IngestSettings

    data = path.read_bytes()
    doc = pymupdf.open(stream=data, filetype="pdf")
    ctx = PageContext.build(doc[pno - 1], doc_id="d", file_name=path.name, settings=IngestSettings(),
                            images=img, pdf_bytes=data)
    t0 = time.perf_counter()
    ctx.use_layout = tables.is_hard_page(ctx)
    els = tables.extract_tables(ctx)
    return els, ctx.use_layout, time.perf_counter() - t0


def _cell(els: list[object], label: str, column: str, value: str) -> bool:
    for el in els:
        t = el.table  # type: ignore[attr-defined]
        names = t.header or [""] * max((len(r) for r in t.rows), default=0)  # no header: "" names every column
        cols = [j for j, h in enumerate(names) if _norm(column) in _norm(h)]
        for row in t.rows:
            if row and _norm(row[0]).startswith(_norm(label)):
                if any(j < len(row) and _value(row[j]) == _value(value) for j in cols):
                    return True
    return False


def _row(els: list[object], label: str) -> bool:
    return any(row and _norm(row[0]).startswith(_norm(label)) for el in els for row in el.table.rows)  # type: ignore[attr-defined]


def _echoes(els: list[object]) -> int:
    """Body rows that repeat their table's header (each filled cell's words among its column title's):
    a header row printed twice."""
    n = 0
    for el in els:
        t = el.table  # type: ignore[attr-defined]
        head = [set(_norm(h).split()) for h in t.header]
        for row in t.rows:
            filled = [(j, c) for j, c in enumerate(row) if c.strip()]
            if head and filled and all(j < len(head) and set(_norm(c).split()) <= head[j] for j, c in filled):
                n += 1
    return n


def measure(pages: dict[tuple[str, int], list[tuple[str, str, str]]], pdf_dir: Path, questions: bool) -> dict[str, float]:
    from pagelens.store.images import ImageStore

    img = ImageStore(Path(tempfile.mkdtemp(prefix="bench-tables-")))
    m = {"pages": 0, "expected": 0, "found": 0, "false": 0, "rows": 0, "rows_ok": 0, "cells": 0, "cells_ok": 0,
         "layout": 0, "seconds": 0.0, "answers": 0, "reachable": 0, "named": 0, "echoes": 0}
    found: dict[tuple[str, int], list[object]] = {}
    for (name, pno), cells in pages.items():
        els, layout, seconds = _tables(pdf_dir / name, pno, img)
        found[(name, pno)] = els
        m["pages"] += 1
        m["layout"] += int(layout)
        m["seconds"] += seconds
        m["expected"] += int(bool(cells))
        m["found"] += len(els) if cells else 0
        m["false"] += 0 if cells else len(els)
        labels = sorted({c[0] for c in cells})
        m["rows"] += len(labels)
        m["rows_ok"] += sum(_row(els, lab) for lab in labels)
        m["cells"] += len(cells)
        m["cells_ok"] += sum(_cell(els, *c) for c in cells)
        m["echoes"] += _echoes(els)
    if questions:
        for _, name, pno, label, column, answer in QUESTIONS:
            els = found[(name, pno)]
            m["answers"] += 1
            m["reachable"] += any(_value(answer) == _value(c) for el in els for r in el.table.rows for c in r)  # type: ignore[attr-defined]
            m["named"] += _cell(els, label, column, answer)
    return m


def run() -> dict[str, dict[str, float]]:
    out = {"reports": measure(REPORTS, CORPUS / "pdfs", True)}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "built-statements.pdf"
        out["built"] = measure(built(path), path.parent, False)
    return out


ROWS = [
    ("pages labelled", lambda m: f"{m['pages']}"),
    ("tables expected / found", lambda m: f"{m['expected']} / {m['found']}"),
    ("tables on pages with none", lambda m: f"{m['false']}"),
    ("row labels recovered", lambda m: f"{m['rows_ok']}/{m['rows']}"),
    ("cells (row, column, value)", lambda m: f"{m['cells_ok']}/{m['cells']}"),
    ("header rows repeated in body", lambda m: f"{m.get('echoes', 0)}"),
    ("answer cells reachable", lambda m: f"{m['reachable']}/{m['answers']}" if m["answers"] else "-"),
    ("... with row and column", lambda m: f"{m['named']}/{m['answers']}" if m["answers"] else "-"),
    ("pages to the layout model", lambda m: f"{m['layout']}"),
    ("table stage ms/page", lambda m: f"{1000 * m['seconds'] / max(m['pages'], 1):.0f}"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, help="src folder of the code to compare with (e.g. /work/main/src)")
    ap.add_argument("--json", action="store_true", help="print this code's numbers as JSON only")
    args = ap.parse_args()
    after = run()
    if args.json:
        print(json.dumps(after))
        return
    runs = {"after": after}
    if args.before:
        env = dict(os.environ, PYTHONPATH=str(args.before))
        proc = subprocess.run([sys.executable, __file__, "--json"], env=env, capture_output=True, text=True, check=True)
        runs = {"before": json.loads(proc.stdout.strip().splitlines()[-1]), "after": after}
    names = list(runs)
    print(f"{'':30}" + "".join(f"{f'{s} {n}':>20}" for s in after for n in names))
    for title, fmt in ROWS:
        print(f"{title:30}" + "".join(f"{fmt(runs[n][s]):>20}" for s in after for n in names))


if __name__ == "__main__":
    main()
