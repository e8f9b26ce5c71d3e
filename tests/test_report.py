"""The extraction report (pagelens.export.report) and `pagelens report DOC --html FILE`, on built PDFs."""

from __future__ import annotations

import base64
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pagelens.app import Pagelens
from pagelens.cli.main import app as cli
from pagelens.export.report import document_report
from pagelens.settings import Settings
from webui_pdfs import XSS_TITLE, build_sample_pdf


class Tree(HTMLParser):
    """Tags, text per table cell, image sources and visible text of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.cells: list[str] = []
        self.imgs: list[str] = []
        self.attrs: list[tuple[str, str]] = []
        self.text: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += [(k, v or "") for k, v in attrs]
        if tag in ("td", "th"):
            self._cell = []
        if tag == "img":
            self.imgs.append(dict(attrs)["src"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def _parse(page: str) -> Tree:
    tree = Tree()
    tree.feed(page)
    return tree


@pytest.fixture
def ingested(settings: Settings, tmp_path: Path):
    pdf = build_sample_pdf(tmp_path / "survey <1>.pdf", title=XSS_TITLE, hostile=True)
    with Pagelens(settings.with_overrides(**{"ingest.ocr": "off"})) as app:
        (result,) = app.ingest([pdf], index=False)
        assert result.status != "failed", result.error
        yield app, result


def test_report_lists_metadata_counts_tables_and_figures(ingested) -> None:
    app, result = ingested
    doc, page = document_report(app, result.doc_id[:10])
    tree = _parse(page)
    text = "".join(tree.text)
    # Metadata and outline, read back as text.
    assert XSS_TITLE in text and "Field Team <b>A</b>" in text and "survey <1>.pdf" in text
    assert "Zebrafinch survey results" in text and "Seasonal pattern" in text
    # Counts per page: page 1 holds the table, page 2 the figure; the totals match the catalog.
    counts = app.catalog.element_counts(doc.doc_id)
    assert counts.get("table") == 1 and counts.get("figure") == 1
    assert f"{sum(counts.values())} elements" in text
    # The table rebuilt from its cells; a cell holding markup is text.
    for cell in ("Site", "Birds", "northern marsh", "412", "<b>87</b>"):
        assert cell in tree.cells
    assert "Table 1: Birds counted per site" in text
    # The figure is embedded: its data URL decodes to the stored PNG.
    (fig,) = [e for e in app.catalog.elements(doc.doc_id) if e.figure]
    data_urls = [s for s in tree.imgs if s.startswith("data:image/png;base64,")]
    assert base64.b64decode(data_urls[0].split(",", 1)[1]) == app.images.get(fig.figure.image)
    assert "Figure 1: Quarterly zebrafinch sightings." in text


def test_report_is_inert(ingested) -> None:
    """Hostile title and body stay text: no script element, no event handler, no javascript: URL."""
    app, result = ingested
    _, page = document_report(app, result.doc_id)
    tree = _parse(page)
    assert "script" not in tree.tags and tree.imgs and all(s.startswith("data:") for s in tree.imgs)
    assert "<script" not in page.lower()
    assert not [k for k, _ in tree.attrs if k.startswith("on")]
    assert not [v for _, v in tree.attrs if v.strip().lower().startswith("javascript:")]
    assert XSS_TITLE in "".join(tree.text)  # the <script> and <img onerror> title is there, as text
    assert "default-src 'none'" in page  # the CSP forbids scripts even if something slipped through


def _run(home: Path, *args: str):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    env["PAGELENS_CONFIG"] = str(home / "none.toml")
    return CliRunner().invoke(cli, ["--home", str(home), "--quiet", "--ocr", "off", *args], env=env)


def test_cli_report_writes_the_same_file(ingested, tmp_path: Path) -> None:
    app, result = ingested
    home = Path(app.settings.home)
    _, expected = document_report(app, result.doc_id)
    app.close()
    out = tmp_path / "out" / "report.html"
    r = _run(home, "report", result.name, "--html", str(out))
    assert r.exit_code == 0, r.stderr
    assert out.read_text(encoding="utf-8") == expected
    assert "wrote" in r.stdout and "2 pages" in r.stdout


def test_cli_report_errors_are_one_line(ingested, tmp_path: Path) -> None:
    app, result = ingested
    home = Path(app.settings.home)
    app.close()
    r = _run(home, "report", "no-such.pdf", "--html", str(tmp_path / "x.html"))
    assert r.exit_code == 1 and "no document matches 'no-such.pdf'" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.html").exists()
    r = _run(home, "report", result.name, "--html", str(tmp_path))
    assert r.exit_code == 1 and "is a folder" in r.stderr


def test_report_through_a_running_server_is_the_same(ingested) -> None:
    """With a server owning the home, the CLI reads through its API; the route serves the same file."""
    pytest.importorskip("fastapi", reason="the server dependencies are not installed")
    import httpx

    from pagelens.cli.remote import RemoteApp
    from pagelens.server import create_app
    from server_support import LiveServer

    app, result = ingested
    _, expected = document_report(app, result.doc_id)
    settings = app.settings
    app.close()
    live = LiveServer(create_app(settings)).start()
    try:
        with RemoteApp(settings, live.url) as remote:
            doc, page = document_report(remote, result.name)
        assert doc.doc_id == result.doc_id and page == expected
        r = httpx.get(f"{live.url}/documents/{result.doc_id[:12]}/report.html")
        assert r.status_code == 200 and r.text == expected
        assert "default-src 'none'" in r.headers["content-security-policy"]
        missing = httpx.get(f"{live.url}/documents/nope/report.html")
        assert missing.status_code == 404 and "no document matches 'nope'" in missing.json()["detail"]
    finally:
        live.stop()


def test_figure_ocr_text_is_escaped_and_a_missing_image_is_said(tmp_path: Path) -> None:
    """A figure whose OCR read markup, and whose PNG is gone from the image store."""
    from pagelens.export.report import render_report
    from pagelens.models import Document, Element, ElementKind, FigureData
    from pagelens.store.images import ImageStore

    doc = Document(doc_id="d" * 64, name="scan.pdf", path="/x/scan.pdf", size=10, pages=1,
                   failed_pages={1: "scan.pdf: page 1: ocr: engine crashed <oops>"})
    fig = Element(doc_id=doc.doc_id, page=1, order=0, kind=ElementKind.FIGURE, bbox=(10, 10, 100, 100),
                  figure=FigureData(image="0" * 64, width=90, height=90, source="raster",
                                    caption="Fig. 2 <i>scan</i>", ocr_text="<img src=x onerror=alert(1)>"))
    tree = _parse(render_report(doc, [fig], ImageStore(tmp_path / "images")))
    text = "".join(tree.text)
    assert "<img src=x onerror=alert(1)>" in text and "Fig. 2 <i>scan</i>" in text
    assert tree.imgs == [] and "The image file is missing from the data home." in text
    assert "engine crashed <oops>" in text and "i" not in tree.tags
