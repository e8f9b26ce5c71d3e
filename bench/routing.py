"""Document routing on a pile of look-alike filings: with routing, without, and with the filter.

    .venv/bin/python bench/routing.py                 # 6 companies x 4 fiscal years = 24 10-Ks
    .venv/bin/python bench/routing.py --companies 4 --years 3

Builds report-like PDFs with PyMuPDF (an SEC cover naming company, form and fiscal year, then the
same five sections in every filing with that filing's own numbers; half of the files are named
``filing-NNNN.pdf``, so only the cover tells whose they are), ingests them into one fresh home, and
asks three questions per filing that name it in words ("Globex's capital expenditures in fiscal
2018", "Initech's 2017 10-K", "Acme's FY2019 annual report"), one that needs two pages of it, one that
needs the same page of two fiscal years' filings (cross-doc), and per company one about its 10-Q for a
second quarter (the 10-K of that year looks alike). Prints hit@1 / hit@5 / MRR of the gold page(s)
(all pages needed for multi-page and cross-doc) and extractive answer accuracy (every part's value
needed for multi-page and cross-doc) for routing on,
routing off, and each question scoped to its own filing(s) (the ceiling routing aims at).

``--statements`` adds the four primary financial statements to every 10-K (titles in capitals over
borderless two-year tables, an index of them, notes that cite them, and a discussion page that names
their line items in prose) and per filing five questions that name the statement they want read, by
one of its names ("cash flow statement", "statement of financial position", "P&L statement"…), one of
them naming two statements (both pages needed); a row with the label prior off
(``retrieval.weights["label"] = 0``) shows what the statement titles (``pagelens.retrieve.statements``) add.

``--implied`` (with ``--statements``) adds per 10-K eight questions that ask for a line item or a ratio
without naming its statement ("Acme's cost of goods sold", "operating cash flow", "the FY2018 inventory
turnover ratio": both statements of its parts needed), and a key-figures page that uses their words
without the numbers; the row "implied off" (``retrieval.weights["implied"] = 0``) shows what reading line
items and ratios as statements (``pagelens.retrieve.line_items``) adds. A ratio's answer must quote the
cells of all its parts (no page states the ratio).

``--directions`` asks every statement and line-item question with an answer key once more wrapped in
directions for whoever answers ("... Answer in USD millions.", "Assume that you are a public equities
analyst. Answer the following question by primarily using the information in the filing: ...",
"... Round your answer to two decimal places."), as benchmarks and people write them.

``--style sec`` prints the filings the way EDGAR filings print (issue #10): Item and PART headings in
body-size bold, "Item 7." and its title on two lines, one heading overprinted to fake bold, a
"Table of Contents" link and a running head that alternates between even and odd pages (the
company name on even pages, the form on odd ones, mirrored to the outer edge), page numbers. The
one-side heads sit on fewer pages than ``furniture.repeat_threshold`` asks and stay in the text:
"Form 10-K 2016" is where the year the questions ask for is printed.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import pymupdf  # noqa: E402

from pagelens.app import Pagelens  # noqa: E402
from pagelens.evaluate import answer_correct  # noqa: E402
from pagelens.settings import Settings  # noqa: E402

COMPANIES = ["Acme Corporation", "Globex Corporation", "Initech Inc.", "Umbrella Group", "Hooli Inc.", "Stark Industries Inc."]
SECTIONS = [
    ("Item 1. Business", "We employed approximately {employees} people at the end of the fiscal year. We sell "
     "industrial equipment and services to customers in North America, Europe and Asia."),
    ("Item 7. Liquidity and Capital Resources", "Capital expenditures were ${capex} million, primarily for new "
     "distribution centers and the modernisation of plants. Cash from operations funded the investments."),
    ("Item 7A. Market Risk", "Interest expense was ${interest} million. A one percentage point change in interest "
     "rates would change interest expense by about ten percent."),
    ("Item 8. Results of Operations", "Net revenue was ${revenue} million, as demand recovered in every region and "
     "prices rose. Gross margin improved because of lower freight costs."),
    ("Item 5. Market for Common Equity", "The board declared dividends of ${dividend} per share during the fiscal "
     "year. Shares are listed on the New York Stock Exchange."),
]
# Pages after the sections (--filler): look-alike discussion that uses the questions'
# words without their numbers, so that a long filing's right page has to be found among many.
FILLER = ("Management's discussion, part {i}", "This part discusses {topic} for the fiscal year. Capital "
          "expenditures, interest expense, net revenue, employees and dividends per share are discussed in the "
          "sections that follow; this part compares {topic} with prior years and with the plans of management.")
FILLER_TOPICS = ["segment results", "pricing", "freight", "currency effects", "tax matters", "pension plans",
                 "leases", "inventories", "goodwill", "litigation", "acquisitions", "restructuring"]
QUESTIONS = [  # (template, section index, value key)
    ("What were {short}'s capital expenditures in fiscal {year}?", 1, "capex"),
    ("How much interest expense did {short} report in its {year} 10-K?", 2, "interest"),
    ("How many people did {short} employ according to its FY{year} annual report?", 0, "employees"),
]
# Every evidence page is needed (all-pages recall): two sections of one filing, and one section of two
# filings of the same company (two fiscal years).
MULTI_PAGE = ("What were {short}'s net revenue and its dividends per share in fiscal {year}?", (3, 4), ("revenue", "dividend"))
CROSS_YEAR = ("How did {short}'s capital expenditures change from fiscal {prev} to fiscal {year}?", 1, "capex")
# One 10-Q per company (second quarter of the last year): the same sections, a quarter's numbers.
QUARTER_Q = ("What interest expense did {short} report for the second quarter of {year}?", 2, "interest")


STATEMENT_NAMES = {
    "cashflow": ["cash flow statement", "statement of cash flows", "consolidated statements of cash flows"],
    "balance": ["balance sheet", "statement of financial position", "consolidated balance sheets"],
    "income": ["income statement", "statement of operations", "statement of income", "P&L statement"],
    "equity": ["statement of stockholders' equity", "statement of changes in equity"],
}
STATEMENT_TITLES = {"income": "CONSOLIDATED STATEMENTS OF OPERATIONS", "balance": "CONSOLIDATED BALANCE SHEETS",
                    "cashflow": "CONSOLIDATED STATEMENTS OF CASH FLOWS",
                    "equity": "CONSOLIDATED STATEMENTS OF STOCKHOLDERS' EQUITY"}
STATEMENT_ROWS = {  # statement -> its rows (label, value key)
    "income": [("Net sales", "sales"), ("Cost of sales", "cogs"), ("Operating income", "opinc"),
               ("Other income, net", "other"), ("Net income", "netinc")],
    "balance": [("Cash and cash equivalents", "cash"), ("Inventories", "inv"), ("Total assets", "assets"),
                ("Long-term debt", "debt"), ("Total stockholders' equity", "equity")],
    "cashflow": [("Net income", "netinc"), ("Depreciation and amortization", "da"),
                 ("Net cash provided by operating activities", "cfo"),
                 ("Purchases of property, plant and equipment", "ppe"), ("Dividends paid", "divpaid")],
    "equity": [("Balance at beginning of year", "eqbegin"), ("Net income", "netinc"),
               ("Repurchases of common stock", "buyback"), ("Balance at end of year", "equity")],
}
STATEMENT_QUESTIONS = [  # (template, statements, value keys)
    ("According to {short}'s {cashflow} for fiscal {year}, how much was depreciation and amortization?", ["cashflow"], ["da"]),
    ("What total assets did {short} report on its {balance} at the end of fiscal {year}?", ["balance"], ["assets"]),
    ("What operating income does {short}'s {income} show for fiscal {year}?", ["income"], ["opinc"]),
    ("How much common stock did {short} repurchase in fiscal {year}, per its {equity}?", ["equity"], ["buyback"]),
    ("Based on {short}'s {income} and {balance} for fiscal {year}, what were its net sales and its inventories?",
     ["income", "balance"], ["sales", "inv"]),
]
# --implied: questions that name a line item or a ratio, not the statement that prints it (written before
# pagelens read line items and ratios as statements). A ratio's value keys are its parts' cells, all of
# which the answer must quote (a ratio is computed, and no page states it).
IMPLIED_QUESTIONS = [  # (template, statements needed, value key or the keys of a ratio's parts)
    ("What was {short}'s cost of goods sold in fiscal {year}?", ["income"], "cogs"),
    ("How much operating cash flow did {short} generate in fiscal {year}?", ["cashflow"], "cfo"),
    ("What were {short}'s inventories at the end of fiscal {year}?", ["balance"], "inv"),
    ("What was {short}'s gross profit in fiscal {year}?", ["income"], ("sales", "cogs")),
    ("What is {short}'s FY{year} inventory turnover ratio?", ["income", "balance"], ("cogs", "inv")),
    ("What was {short}'s debt-to-equity ratio at the end of fiscal {year}?", ["balance"], ("debt", "equity")),
    ("What was {short}'s FY{year} cash conversion ratio, defined as cash from operations divided by net income?",
     ["cashflow"], ("cfo", "netinc")),
    ("What was {short}'s operating margin in fiscal {year}?", ["income"], ("opinc", "sales")),
]
# --directions: the same questions wrapped in directions for whoever answers, as benchmarks and people
# write them (units, rounding, a persona, where to look), one wrapper per question in turn.
DIRECTIONS = [
    "{q} Answer in USD millions.",
    "Assume that you are a public equities analyst. Answer the following question by primarily using the "
    "information in the filing: {lower}",
    "{q} Give a response to the question by relying on the details shown in the financial statements.",
    "{q} Round your answer to two decimal places.",
    "{q} Please answer in millions of dollars and say which page the figure is on.",
]
# A key-figures page in every filing with --implied: the words such questions use, without their numbers.
STATEMENT_KPI = (
    "Key performance indicators", "Management monitors gross profit, operating margin, the cost of goods sold, "
    "operating cash flow and the cash conversion ratio, inventory turnover, inventories by region, capital "
    "structure and the debt-to-equity ratio; each measure is compared with the prior year and with our plan.")
STATEMENT_PROSE = (
    "Results of operations, part {i}", "Operating income, net sales, cost of sales, interest expense and net income "
    "are discussed here for the fiscal year, with depreciation and amortization, purchases of property, plant and "
    "equipment, dividends paid, inventories, total assets, long-term debt, repurchases of common stock and "
    "stockholders' equity; the consolidated financial statements in Item 8 give the amounts.")


def _statement_values(ci: int, year: int) -> dict[str, str]:
    """The statements' numbers; purchases of property, plant and equipment are the capital expenditures
    the discussion states, and net sales its net revenue (one filing never says two things)."""
    seed = ci * 53 + (year - 2000) * 17
    keys = sorted({key for rows in STATEMENT_ROWS.values() for _, key in rows})
    values = {key: f"{1 + (seed + 7 * j) % 9},{(seed * (j + 3) * 37) % 900 + 100}" for j, key in enumerate(keys)}
    return values | {"ppe": _values(ci, year)["capex"], "sales": _values(ci, year)["revenue"]}


def _statements(path: Path, company: str, year: int, values: dict[str, str], prior: dict[str, str],
                kpi: bool = False) -> dict[str, int]:
    """Append a discussion page, an index of the statements, the four statements and a note to the filing
    at ``path`` (and a key-figures page before them with ``kpi``); returns each statement's page (1-based)."""
    doc = pymupdf.open(path)
    for i in range(2):
        page = doc.new_page()
        page.insert_text((60, 80), STATEMENT_PROSE[0].format(i=i + 1), fontsize=14)
        page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), STATEMENT_PROSE[1], fontsize=11)
    if kpi:
        page = doc.new_page()
        page.insert_text((60, 80), STATEMENT_KPI[0], fontsize=14)
        page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), STATEMENT_KPI[1], fontsize=11)
    page = doc.new_page()
    page.insert_text((60, 80), "Item 8. Financial Statements and Supplementary Data", fontsize=14)
    for i, title in enumerate(STATEMENT_TITLES.values()):
        page.insert_text((80, 110 + 16 * i), title.title(), fontsize=10)
        page.insert_text((500, 110 + 16 * i), str(doc.page_count + 1 + i), fontsize=10)
    pages = {}
    for kind, title in STATEMENT_TITLES.items():
        page = doc.new_page()
        pages[kind] = doc.page_count
        for i, line in enumerate((company.upper(), title, "(In millions of dollars)")):
            page.insert_text((60, 70 + 15 * i), line, fontsize=11 if i < 2 else 9, fontname="hebo" if i < 2 else "helv")
        for x, label in ((400, str(year)), (480, str(year - 1))):
            page.insert_text((x, 130), label, fontsize=9, fontname="hebo")
        for r, (label, key) in enumerate(STATEMENT_ROWS[kind]):
            y = 150 + 16 * r
            page.insert_text((60, y), label, fontsize=9)
            for x, vals in ((430, values), (510, prior)):
                page.insert_text((x - pymupdf.get_text_length(vals[key], fontsize=9), y), vals[key], fontsize=9)
        page.insert_text((60, 260), "The accompanying notes are an integral part of these consolidated statements.", fontsize=8)
    page = doc.new_page()
    page.insert_text((60, 80), "Note 1. Summary of Significant Accounting Policies", fontsize=14)
    page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), "The consolidated statements of operations, the balance sheets, "
                        "the statements of cash flows and the statements of stockholders' equity include the accounts of "
                        f"{company} and its subsidiaries.", fontsize=11)
    doc.save(str(path) + ".tmp", no_new_id=True)  # not over the open file
    doc.close()
    Path(str(path) + ".tmp").replace(path)
    return pages


def _values(ci: int, year: int) -> dict[str, str]:
    seed = ci * 37 + (year - 2000) * 11
    return {"capex": str(300 + seed * 7 % 600), "interest": f"{2 + seed % 13}.{seed % 10}",
            "employees": f"{10 + seed % 80},{seed * 13 % 900 + 100}", "revenue": f"{5 + seed % 40},{seed * 7 % 900 + 100}",
            "dividend": f"{seed % 3}.{10 + seed % 80}"}


def _sec_page(page: pymupdf.Page, title: str, company: str, form: str, part: str | None, split: bool, overprint: bool) -> None:
    """A section page printed like an EDGAR filing (``--style sec``): the title in body-size bold."""
    width = page.rect.width
    page.insert_text((60, 30), "Table of Contents", fontsize=8, color=(0, 0, 1))
    if page.number % 2:  # even page number: company name on the outer (left) edge
        page.insert_text((60, 44), company, fontsize=8)
        page.insert_text((60, 800), str(page.number + 1), fontsize=8)
    else:
        page.insert_text((width - 60 - pymupdf.get_text_length(form, "helv", 8), 44), form, fontsize=8)
        page.insert_text((width - 66, 800), str(page.number + 1), fontsize=8)
    if part:
        page.insert_text((60, 62), part, fontsize=11, fontname="hebo")
    number, _, name = title.partition(". ")
    lines = [number + ".", name] if split else [title]
    for i, line in enumerate(lines):
        for dx in (0.0, 0.3) if overprint else (0.0,):
            page.insert_text((60 + dx, 80 + 14 * i), line, fontsize=11, fontname="hebo")


def _filing(path: Path, company: str, year: int, values: dict[str, str], quarter: bool, filler: int = 0,
            style: str = "plain") -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    period = f"For the quarterly period ended June 30, {year}" if quarter else f"For the fiscal year ended December 31, {year}"
    lines = ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "Washington, D.C. 20549",
             "FORM 10-Q" if quarter else "FORM 10-K",
             f"{'QUARTERLY' if quarter else 'ANNUAL'} REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
             period, company, "(Exact name of registrant as specified in its charter)"]
    for i, line in enumerate(lines):
        page.insert_text((60, 90 + 26 * i), line, fontsize=18 if line == company else 10)
    form = f"{'Form 10-Q' if quarter else 'Form 10-K'} {year}"
    for i, (title, body) in enumerate(SECTIONS):
        page = doc.new_page()
        if style == "sec":
            _sec_page(page, title, company, form, {0: "PART I", 1: "PART II"}.get(i), split=i == 1, overprint=i == 2)
        else:
            page.insert_text((60, 80), title, fontsize=14)
        page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), body.format(**values), fontsize=11)
    for i in range(filler):
        topic = FILLER_TOPICS[i % len(FILLER_TOPICS)]
        page = doc.new_page()
        page.insert_text((60, 80), FILLER[0].format(i=i + 1), fontsize=14)
        page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), FILLER[1].format(topic=topic), fontsize=11)
    doc.save(path, no_new_id=True)  # the same bytes every run: doc ids (and tie-breaks by chunk id) repeat
    doc.close()


def build(root: Path, companies: int, years: list[int], filler: int = 0, style: str = "plain",
          statements: bool = False, implied: bool = False) -> list[dict]:
    """Questions: ``pdf``/``pages`` lists of gold (file, page) pairs, ``kind``, ``all``: every page needed."""
    docs = []
    n = 0
    for ci, company in enumerate(COMPANIES[:companies]):
        short = company.split()[0]
        names: dict[int, str] = {}
        for year in years:
            n += 1
            name = f"filing-{n:04d}.pdf" if n % 2 else f"{short.lower()}-10k-{year}.pdf"
            names[year] = name
            values = _values(ci, year)
            _filing(root / name, company, year, values, quarter=False, filler=filler, style=style)
            if statements:
                docs += _statement_questions(root / name, ci, company, year, len(docs), implied)
            for template, section, key in QUESTIONS:
                docs.append({"gold": [(name, section + 2)], "question": template.format(short=short, year=year),
                             "kind": "named", "all": False, "answer": values[key].lstrip("$")})
            template, sections, keys = MULTI_PAGE
            docs.append({"gold": [(name, s + 2) for s in sections], "question": template.format(short=short, year=year),
                         "kind": "multi-page", "all": True, "answer": [values[k].lstrip("$") for k in keys]})
            if year - 1 in names:
                template, section, key = CROSS_YEAR
                docs.append({"gold": [(names[year - 1], section + 2), (name, section + 2)],
                             "question": template.format(short=short, year=year, prev=year - 1),
                             "kind": "cross-doc", "all": True,
                             "answer": [_values(ci, year - 1)[key].lstrip("$"), values[key].lstrip("$")]})
        n += 1
        year = years[-1]
        name = f"filing-{n:04d}.pdf" if n % 2 else f"{short.lower()}-10q-q2-{year}.pdf"
        values = _values(ci + 17, year)
        _filing(root / name, company, year, values, quarter=True, filler=filler, style=style)
        template, section, key = QUARTER_Q
        docs.append({"gold": [(name, section + 2)], "question": template.format(short=short, year=year),
                     "kind": "quarter", "all": False, "answer": values[key]})
    return docs


def _statement_questions(path: Path, ci: int, company: str, year: int, n: int, implied: bool = False) -> list[dict]:
    values = _statement_values(ci, year)
    pages = _statements(path, company, year, values, _statement_values(ci, year - 1), kpi=implied)
    out = []
    for template, kinds, key in IMPLIED_QUESTIONS if implied else ():
        out.append({"gold": [(path.name, pages[k]) for k in kinds], "all": len(kinds) > 1,
                    "question": template.format(short=company.split()[0], year=year),
                    "kind": "implied (ratio)" if isinstance(key, tuple) else "implied",
                    "answer": [values[k] for k in key] if isinstance(key, tuple) else values[key]})
    for j, (template, kinds, keys) in enumerate(STATEMENT_QUESTIONS):
        names = {kind: STATEMENT_NAMES[kind][(n + j) % len(STATEMENT_NAMES[kind])] for kind in STATEMENT_NAMES}
        out.append({"gold": [(path.name, pages[k]) for k in kinds], "all": len(kinds) > 1,
                    "question": template.format(short=company.split()[0], year=year, **names),
                    "kind": "statement" if len(kinds) == 1 else "statements×2", "answer": [values[k] for k in keys]})
    return out


def measure(app: Pagelens, questions: list[dict], scoped: bool, answers: bool, k: int = 5) -> dict[str, list[float]]:
    """kind -> [hit@1, hit@5, MRR, answer accuracy (of the questions with an answer key; nan if none), n]
    (and "all")."""
    from pagelens.evaluate import hit_rank

    rows: dict[str, list[float]] = {}
    for q in questions:
        docs = sorted({d for d, _ in q["gold"]}) if scoped else None
        hits = app.search(q["question"], k=k, docs=docs)
        rank = hit_rank(q["gold"], hits, q["all"])
        ok = 0.0
        keyed = answers and q["answer"] is not None
        if keyed:
            ans = app.ask(q["question"], docs=docs)
            wanted = q["answer"] if isinstance(q["answer"], list) else [q["answer"]]  # every part's value
            ok = float(not ans.abstained and all(answer_correct(ans.answer, [v]) for v in wanted))
        for key in (q["kind"], "all"):
            r = rows.setdefault(key, [0.0] * 6)
            r[0] += rank == 1
            r[1] += rank is not None
            r[2] += 1 / rank if rank else 0.0
            r[3] += ok
            r[4] += 1
            r[5] += keyed
    return {key: [v / r[4] for v in r[:3]] + [r[3] / r[5] if r[5] else float("nan"), r[4]] for key, r in rows.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--companies", type=int, default=6)
    ap.add_argument("--years", type=int, default=4)
    ap.add_argument("--root", type=Path, help="folder to build into (and reuse: PDFs and home are kept)")
    ap.add_argument("--no-answers", action="store_true", help="retrieval only")
    ap.add_argument("--filler", type=int, default=0, help="look-alike pages added after each filing's sections")
    ap.add_argument("--statements", action="store_true", help="add financial statements and questions naming them")
    ap.add_argument("--implied", action="store_true",
                    help="with --statements: questions naming a line item or ratio, not its statement, and a "
                         "key-figures page that uses their words")
    ap.add_argument("--directions", action="store_true",
                    help="also ask every statement and line-item question with an answer key wrapped in "
                         "directions (units, rounding, a persona)")
    ap.add_argument("--style", choices=("plain", "sec"), default="plain",
                    help="plain: 14 pt headings; sec: printed like EDGAR filings (see above)")
    args = ap.parse_args()
    root = args.root or Path(tempfile.mkdtemp(prefix="pagelens-routing-"))
    (root / "pdfs").mkdir(parents=True, exist_ok=True)
    questions = build(root / "pdfs", args.companies, list(range(2016, 2016 + args.years)), args.filler, args.style,
                      args.statements, args.implied)
    if args.directions:
        questions += [{**q, "kind": "directions", "question": DIRECTIONS[i % len(DIRECTIONS)].format(
            q=q["question"], lower=q["question"][0].lower() + q["question"][1:])}
            for i, q in enumerate(q for q in questions if q["kind"] in ("statement", "implied"))]
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    t0 = time.perf_counter()
    with Pagelens(settings) as app:
        app.ingest([root / "pdfs"])
    n_docs = len(list((root / "pdfs").glob("*.pdf")))
    print(f"{n_docs} filings, {len(questions)} questions, ingested in {time.perf_counter() - t0:.0f} s\n")
    print(f"{'setting':<22}{'questions':<12}{'n':>4}{'hit@1':>8}{'hit@5':>8}{'MRR':>7}{'answers':>9}")
    no_labels = {**settings.retrieval.weights, "label": 0.0, "implied": 0.0}
    no_implied = {**settings.retrieval.weights, "implied": 0.0}
    for label, overrides, scoped in (
        *((("label prior off", {"retrieval.weights": no_labels}, False),) if args.statements else ()),
        *((("implied off", {"retrieval.weights": no_implied}, False),) if args.implied else ()),
        ("routing off", {"retrieval.route": False}, False),
        ("multipart off", {"retrieval.multipart": False}, False),
        ("answers by parts off", {"answer.by_parts": False}, False),
        ("routing on (default)", {}, False),
        ("own filing as filter", {}, True),
    ):
        with Pagelens(settings.with_overrides(**overrides)) as app:
            rows = measure(app, questions, scoped, not args.no_answers)
        for kind, (h1, h5, mrr, ok, n) in rows.items():
            ans = "" if args.no_answers or ok != ok else f"{ok:>9.2f}"
            print(f"{label:<22}{kind:<12}{int(n):>4}{h1:>8.2f}{h5:>8.2f}{mrr:>7.2f}{ans}")
            label = ""


if __name__ == "__main__":
    main()
