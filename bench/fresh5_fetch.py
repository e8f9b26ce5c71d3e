"""Fetch the fresh5 set: a sixth held-out set of real public PDFs (issue #10), nearest of the local
sets to the held-out kinds the issue quotes: long real reports (an 82-page corporate sustainability
report with charts and tables, a 155-page WHO guideline with dosing tables, a 34-page NIST special
publication), a technical report with benchmark tables, a clinical paper, a printed Wikipedia page, a
bank's annual-report table page, finance web pages, a filled 18-page claim form with AcroForm fields,
spec-sheet tables and two scans without a text layer (an Indonesian bank statement, German typewritten
pipeline forms).

    .venv/bin/python bench/fresh5_fetch.py                     # into ~/.cache/pagelens-fresh5/pdfs
    .venv/bin/python bench/realdocs.py --pdfs ~/.cache/pagelens-fresh5/pdfs \\
        --questions bench/data/fresh5-questions.jsonl --answers --misses

Every PDF is a test resource of PyMuPDF's source distribution (pymupdf 2.1 on PyPI, AGPL-3.0; the
files come from its bug reports), taken from the sdist as published and checked against the sha256 it
had when the questions were written. None is used by another set. The questions
(bench/data/fresh5-questions.jsonl) were written from PyMuPDF's text of the pages (and, for the scans,
from page images) by writers who did not run pagelens, and committed before pagelens ran on these
documents.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from realdocs_fetch import Doc, fetch_main  # noqa: E402

DEFAULT_CACHE = Path.home() / ".cache" / "pagelens-fresh5"

PYMUPDF = "pymupdf==2.1"
RES = "pymupdf-2.1/tests/resources/"
NOTE = ("a test resource of PyMuPDF's sdist (AGPL-3.0), from one of its bug reports. DOUBT: the document "
        "is its publisher's; used here only as a local test input, as PyMuPDF redistributes it")


def doc(name: str, kind: str, member: str, what: str, digest: str) -> Doc:
    return Doc(name, kind, "sdist", PYMUPDF, RES + member, f"{what}; {NOTE}", digest)


DOCS = [
    doc("amazon-sustainability-report-2022.pdf", "report", "test_3594.pdf",
        "Amazon, '2022 Amazon Sustainability Report' (82 pages: prose, charts, metric tables)",
        "07ef245377a4e02ef49cf5a17cee03f93b79b20fb720482432216caa94047669"),
    doc("who-hcv-adolescents-children-guidelines-2022.pdf", "report", "test-3820.pdf",
        "WHO, 'Updated recommendations on treatment of adolescents and children with chronic HCV infection, "
        "and HCV simplified service delivery and diagnostics' (2022, 155 pages; CC BY-NC-SA 3.0 IGO)",
        "86f1e02c48c7adc4fd38a248f0235796e923bd14b7c5e4138d73929fb4fc7180"),
    doc("nist-sp-800-223-hpc-security.pdf", "report", "test_3842.pdf",
        "NIST SP 800-223, 'High-Performance Computing Security: Architecture, Threat Analysis, and Security "
        "Posture' (34 pages; a U.S. government work, public domain)",
        "ccc9f0d80145c1e380fdf3f3394257545e0876b1b72379c826af091d2facf43a"),
    doc("qwen2-technical-report.pdf", "paper", "test_4751.pdf",
        "Yang et al., 'Qwen2 Technical Report' (arXiv 2407.10671, 26 pages, benchmark tables)",
        "32d7276673eec39636207cfedd54f8275220b219e6b2ea74d6e33169a19df64d"),
    doc("ki67-breast-cancer-cap-recommendation.pdf", "paper", "test_4026.pdf",
        "Faragalla et al., 'Ki67 in Breast Cancer Assay: An Ad Hoc Testing Recommendation from the Canadian "
        "Association of Pathologists Task Force' (Curr. Oncol. 2023, 12 pages; CC BY 4.0)",
        "70d44256c61f8e8e7ab80e3e8b612edf6e79208312762fc0012875b8d6d6c376"),
    doc("bart-simpson-wikipedia.pdf", "web", "test_4245.pdf",
        "the Wikipedia article 'Bart Simpson' printed to PDF (16 pages; CC BY-SA 4.0)",
        "5604e7d19e6b93b86ee3539269d1f4f38064c07428a9033ba76aad4b249ffa14"),
    doc("annual-report-2022-tdr-modifications-table.pdf", "table", "test_3725.pdf",
        "one page of a bank's 2022 Annual Report: 'Table 5.14: TDR Modifications' ($ in millions, borderless)",
        "c882b29b3a53db41bec0551f54870b5afb3e7a221a3d8cae62d98dede4166975"),
    doc("ford-motor-stock-quote-page.pdf", "web", "test_3197.pdf",
        "a finance web page of Ford Motor Company's stock quote and key statistics, printed (2 pages)",
        "aef41038647fe2ba060a85dafa94e84c5a59fc7c925566df4fe27424fa0a1c28"),
    doc("ocp-clo-2024-32-deal-summary.pdf", "table", "test_4017.pdf",
        "'Deal Summary OCP CLO 2024-32, LTD.' (one landscape page of parties and tranche terms)",
        "69edaad1740229c7c3fdae7dcaa2cbd150a92871172b018b325c04b9678a72e5"),
    doc("cms-1490s-filled-claim-form.pdf", "form", "cms-etc-filled.pdf",
        "CMS form 1490S 'Patient's Request for Medical Payment', filled in (18 pages, AcroForm fields; a U.S. "
        "government form)",
        "c09d9b2b905785b1d666551186b85d3e835c9abaf522bec8eb7af37281203870"),
    doc("case-cx57c-mini-excavator-specs.pdf", "table", "test_3848.pdf",
        "CASE 'CX57C Mini Excavator' specification sheet (4 pages of spec tables)",
        "207635c97cd795d419a9e7ef9487902f68a3af3459d29f877b79d4fae3fedd7f"),
    doc("bca-bank-statement-scan.pdf", "scan", "test_4090.pdf",
        "an Indonesian bank account statement (BCA), 5 scanned pages without a text layer",
        "721ee82609d58bf5776f13db34f004e81251f74f4b257b384eb251e690bd7b0e"),
    doc("ruhrgas-rohrbuch-pipeline-scan.pdf", "scan", "test_3863.pdf",
        "Ruhrgas AG 'Rohrbuch' pipeline record (1967-72; 8 scanned German typewritten form pages without a "
        "text layer)",
        "6f8c3cbd5291143916394253c49234b972c74f3f5aa1ea3df7f289346f332a8b"),
]


def main() -> None:
    fetch_main(__doc__, DEFAULT_CACHE, DOCS, {})


if __name__ == "__main__":
    main()
