"""Document routing on a pile of look-alike filings: with routing, without, and with the filter.

    .venv/bin/python bench/routing.py                 # 6 companies x 4 fiscal years = 24 10-Ks
    .venv/bin/python bench/routing.py --companies 4 --years 3

Builds report-like PDFs with PyMuPDF (an SEC cover naming company, form and fiscal year, then the
same five sections in every filing with that filing's own numbers; half of the files are named
``filing-NNNN.pdf``, so only the cover tells whose they are), ingests them into one fresh home, and
asks three questions per filing that name it in words ("Globex's capital expenditures in fiscal
2018", "Initech's 2017 10-K", "Acme's FY2019 annual report"). Prints hit@1 / hit@5 / MRR of the
gold page and extractive answer accuracy for routing on, routing off, and each question scoped to
its own filing (the ceiling routing aims at).
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
QUESTIONS = [  # (template, section index, value key)
    ("What were {short}'s capital expenditures in fiscal {year}?", 1, "capex"),
    ("How much interest expense did {short} report in its {year} 10-K?", 2, "interest"),
    ("How many people did {short} employ according to its FY{year} annual report?", 0, "employees"),
]


def _values(ci: int, year: int) -> dict[str, str]:
    seed = ci * 37 + (year - 2000) * 11
    return {"capex": str(300 + seed * 7 % 600), "interest": f"{2 + seed % 13}.{seed % 10}",
            "employees": f"{10 + seed % 80},{seed * 13 % 900 + 100}", "revenue": f"{5 + seed % 40},{seed * 7 % 900 + 100}",
            "dividend": f"{seed % 3}.{10 + seed % 80}"}


def build(root: Path, companies: int, years: list[int]) -> list[dict]:
    docs = []
    n = 0
    for ci, company in enumerate(COMPANIES[:companies]):
        short = company.split()[0]
        for year in years:
            n += 1
            name = f"filing-{n:04d}.pdf" if n % 2 else f"{short.lower()}-10k-{year}.pdf"
            values = _values(ci, year)
            doc = pymupdf.open()
            page = doc.new_page()
            lines = ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "Washington, D.C. 20549", "FORM 10-K",
                     "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
                     f"For the fiscal year ended December 31, {year}", company,
                     "(Exact name of registrant as specified in its charter)"]
            for i, line in enumerate(lines):
                page.insert_text((60, 90 + 26 * i), line, fontsize=18 if line == company else 10)
            for title, body in SECTIONS:
                page = doc.new_page()
                page.insert_text((60, 80), title, fontsize=14)
                page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), body.format(**values), fontsize=11)
            doc.save(root / name)
            doc.close()
            for template, section, key in QUESTIONS:
                docs.append({"pdf": name, "question": template.format(short=short, year=year),
                             "page": section + 2, "answer": values[key].lstrip("$")})
    return docs


def measure(app: Pagelens, questions: list[dict], scoped: bool, k: int = 5) -> tuple[float, float, float, float]:
    h1 = h5 = mrr = ok = 0.0
    for q in questions:
        docs = [q["pdf"]] if scoped else None
        hits = app.search(q["question"], k=k, docs=docs)
        rank = next((i for i, h in enumerate(hits, 1)
                     if h.chunk.doc_name == q["pdf"] and any(q["page"] in c.pages for c in h.all_chunks())), None)
        h1 += rank == 1
        h5 += rank is not None
        mrr += 1 / rank if rank else 0.0
        ans = app.ask(q["question"], docs=docs)
        ok += not ans.abstained and answer_correct(ans.answer, [q["answer"]])
    n = len(questions)
    return h1 / n, h5 / n, mrr / n, ok / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--companies", type=int, default=6)
    ap.add_argument("--years", type=int, default=4)
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="pagelens-routing-"))
    (root / "pdfs").mkdir()
    questions = build(root / "pdfs", args.companies, list(range(2016, 2016 + args.years)))
    settings = Settings(home=root / "home").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    t0 = time.perf_counter()
    with Pagelens(settings) as app:
        app.ingest([root / "pdfs"])
    print(f"{args.companies * args.years} filings, {len(questions)} questions, ingested in {time.perf_counter() - t0:.0f} s\n")
    print(f"{'setting':<22}{'hit@1':>8}{'hit@5':>8}{'MRR':>7}{'answers':>9}")
    for label, overrides, scoped in (
        ("routing off", {"retrieval.route": False}, False),
        ("routing on (default)", {}, False),
        ("own filing as filter", {}, True),
    ):
        with Pagelens(settings.with_overrides(**overrides)) as app:
            h1, h5, mrr, ok = measure(app, questions, scoped)
        print(f"{label:<22}{h1:>8.2f}{h5:>8.2f}{mrr:>7.2f}{ok:>9.2f}")


if __name__ == "__main__":
    main()
