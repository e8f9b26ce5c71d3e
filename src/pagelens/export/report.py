"""The per-document extraction report: one self-contained HTML file.

What pagelens read from a PDF, for a person to check: metadata and outline, element counts per page,
every table rendered from its cells, every figure embedded as a data URL with its caption and OCR text,
and the pages that failed. The same file comes from `pagelens report DOC --html FILE` and from the
server's `GET /documents/{doc_id}/report.html`.

Everything that comes from the PDF is data: every string goes through ``html.escape`` and tables are
rebuilt from their cells, never from stored HTML. The page carries a Content-Security-Policy that
allows no scripts, no network and only ``data:`` images, so even a bug here cannot run code.
"""

from __future__ import annotations

import base64
from collections import Counter
from collections.abc import Iterable
from html import escape
from typing import Protocol

from pagelens.models import Document, Element, ElementKind

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"

_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1d232b}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{margin-top:2rem;border-bottom:1px solid #d5dbe3}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #c7cfd9;padding:.2rem .45rem;
vertical-align:top;text-align:left}th{background:#eef2f6}.num{text-align:right}
.muted{color:#5a6573}.item{margin:1rem 0 1.5rem}figure{margin:0}figure img{max-width:100%;height:auto;
border:1px solid #c7cfd9}pre{white-space:pre-wrap;background:#f5f7fa;padding:.5rem;margin:.3rem 0}
.err{color:#a11}ul.toc{list-style:none;padding-left:0}
"""


class ImageSource(Protocol):
    """Where figure PNGs come from (pagelens.store.images.ImageStore fits)."""

    def get(self, sha: str) -> bytes: ...


class DocumentSource(Protocol):
    """What the report reads: the facade (pagelens.app.Pagelens) and the CLI's client of a running
    server (pagelens.cli.remote.RemoteApp) both fit."""

    images: ImageSource

    def document(self, ref: str) -> Document: ...

    def elements(self, ref: str, page: int | None = None) -> list[Element]: ...


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _data_url(images: ImageSource, sha: str) -> str | None:
    try:
        png = images.get(sha)
    except OSError:
        return None
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _metadata(doc: Document) -> str:
    rows: list[tuple[str, object]] = [
        ("File", doc.name), ("Document id", doc.doc_id), ("Pages", doc.pages), ("Size", f"{doc.size:,} bytes"),
        ("Title", doc.title), ("Author", doc.author), ("Subject", doc.subject), ("Keywords", doc.keywords),
        ("Creator", doc.creator), ("Producer", doc.producer), ("Created", doc.created), ("Modified", doc.modified),
        ("Ingested", doc.ingested_at.isoformat(timespec="seconds") if doc.ingested_at else None),
        ("Version", doc.version),
        ("OCR'd pages", ", ".join(map(str, doc.ocr_pages)) or None),
    ]
    body = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in rows if v not in (None, ""))
    return f'<h2 id="metadata">Metadata</h2><table class="meta">{body}</table>'


def _toc(doc: Document) -> str:
    if not doc.outline:
        return '<h2 id="toc">Contents</h2><p class="muted">The PDF has no outline.</p>'
    items = "".join(
        f'<li style="padding-left:{(max(t.level, 1) - 1) * 1.2:.1f}rem">'
        f'<a href="#page-{int(t.page)}">{_e(t.title)}</a> <span class="muted">p.{int(t.page)}</span></li>'
        for t in doc.outline
    )
    return f'<h2 id="toc">Contents</h2><ul class="toc">{items}</ul>'


def _counts(doc: Document, elements: list[Element]) -> str:
    per_page: dict[int, Counter[str]] = {}
    for el in elements:
        per_page.setdefault(el.page, Counter())[el.kind.value] += 1
    kinds = sorted({k for c in per_page.values() for k in c}, key=lambda k: [x.value for x in ElementKind].index(k))
    head = "".join(f"<th>{_e(k)}</th>" for k in kinds)
    rows = []
    for page in range(1, doc.pages + 1):
        c = per_page.get(page, Counter())
        cells = "".join(f'<td class="num">{c[k] or ""}</td>' for k in kinds)
        notes = []
        if page in doc.ocr_pages:
            notes.append("OCR")
        if page in doc.failed_pages:
            notes.append("failed: " + doc.failed_pages[page])
        rows.append(
            f'<tr id="page-{page}"><th>{page}</th>{cells}<td class="num">{sum(c.values())}</td>'
            f'<td class="{"err" if page in doc.failed_pages else "muted"}">{_e("; ".join(notes))}</td></tr>'
        )
    total = Counter(el.kind.value for el in elements)
    foot = "".join(f'<td class="num">{total[k]}</td>' for k in kinds)
    return (
        '<h2 id="counts">Elements per page</h2><table class="counts">'
        f"<thead><tr><th>page</th>{head}<th>all</th><th>notes</th></tr></thead>"
        f'<tbody>{"".join(rows)}</tbody>'
        f'<tfoot><tr><th>all</th>{foot}<td class="num">{len(elements)}</td><td></td></tr></tfoot></table>'
    )


def table_html(header: list[str], rows: list[list[str]]) -> str:
    """A table rebuilt from its cells, every cell escaped."""
    head = "".join(f"<th>{_e(c)}</th>" for c in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table>{f'<thead><tr>{head}</tr></thead>' if head else ''}<tbody>{body}</tbody></table>"


def _tables(elements: list[Element]) -> str:
    tables = [e for e in elements if e.table is not None]
    if not tables:
        return '<h2 id="tables">Tables</h2><p class="muted">No tables found.</p>'
    parts = [f'<h2 id="tables">Tables ({len(tables)})</h2>']
    for i, el in enumerate(tables, 1):
        t = el.table
        assert t is not None
        notes = []
        if t.continued_from_page:
            notes.append(f"continues the table on page {t.continued_from_page}")
        if t.continues_on_page:
            notes.append(f"continues on page {t.continues_on_page}")
        body = table_html(t.header, t.rows) if (t.header or t.rows) else f"<pre>{_e(t.markdown or el.text)}</pre>"
        parts.append(
            f'<section class="item table-item"><h3>Table {i} <span class="muted">page {el.page}'
            f'{" · " + _e(", ".join(notes)) if notes else ""} · {_e(t.finder)}</span></h3>'
            f'{f"<p><b>{_e(t.caption)}</b></p>" if t.caption else ""}{body}</section>'
        )
    return "".join(parts)


def _figures(elements: list[Element], images: ImageSource) -> str:
    figures = [e for e in elements if e.figure is not None]
    if not figures:
        return '<h2 id="figures">Figures</h2><p class="muted">No figures found.</p>'
    parts = [f'<h2 id="figures">Figures ({len(figures)})</h2>']
    for i, el in enumerate(figures, 1):
        f = el.figure
        assert f is not None
        url = _data_url(images, f.image)
        img = (
            f'<img src="{url}" alt="Figure {i}, page {el.page}" width="{int(f.width)}" height="{int(f.height)}">'
            if url else '<p class="err">The image file is missing from the data home.</p>'
        )
        texts = [("Caption", f.caption), ("OCR text", f.ocr_text), ("Text inside", f.inner_text),
                 ("Description", f.description)]
        extra = "".join(f'<p class="muted">{_e(k)}</p><pre>{_e(v)}</pre>' for k, v in texts if v)
        parts.append(
            f'<section class="item figure-item"><h3>Figure {i} <span class="muted">page {el.page} · '
            f'{_e(f.source)} {int(f.width)}×{int(f.height)}</span></h3><figure>{img}'
            f'{f"<figcaption>{_e(f.caption)}</figcaption>" if f.caption else ""}</figure>{extra}</section>'
        )
    return "".join(parts)


def render_report(doc: Document, elements: Iterable[Element], images: ImageSource) -> str:
    """The extraction report of one document as a self-contained HTML page."""
    els = list(elements)
    heading = doc.title or doc.name
    failed = ""
    if doc.failed_pages:
        items = "".join(f"<li>page {int(p)}: {_e(msg)}</li>" for p, msg in sorted(doc.failed_pages.items()))
        failed = f'<h2 id="failed">Failed pages</h2><ul class="err">{items}</ul>'
    return (
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Extraction report: {_e(doc.name)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{_e(heading)}</h1><p class=\"muted\">Extraction report for {_e(doc.name)} · "
        f"{doc.pages} pages · {len(els)} elements · pagelens</p>"
        f"{_metadata(doc)}{_toc(doc)}{_counts(doc, els)}{failed}{_tables(els)}{_figures(els, images)}"
        "</body></html>"
    )


def document_report(app: DocumentSource, ref: str) -> tuple[Document, str]:
    """The document named by ``ref`` (id, prefix, name or path) and its report."""
    doc = app.document(ref)
    return doc, render_report(doc, app.elements(doc.doc_id), app.images)
