"""`pagelens report DOC --html FILE`: the extraction report of one document."""

from __future__ import annotations

from pathlib import Path

import typer

from pagelens.cli.output import fail, handle_errors, open_app, out_console


def register(app: typer.Typer) -> None:
    app.command("report")(report)


@handle_errors
def report(
    ctx: typer.Context,
    doc: str = typer.Argument(..., help="Doc id (or prefix), file name or path."),
    html: Path = typer.Option(..., "--html", help="Write the HTML report to this file."),
) -> None:
    """Write a document's extraction report: metadata, outline, element counts, tables, figures."""
    from pagelens.export.report import document_report

    if html.is_dir():
        fail(f"{html} is a folder; pass a file name such as {html / 'report.html'}")
    with open_app(ctx) as app:
        d, page = document_report(app, doc)
    html.parent.mkdir(parents=True, exist_ok=True)
    html.write_text(page, encoding="utf-8")
    out_console().print(f"wrote {html} ({d.name}, {d.pages} pages, {len(page) // 1024} KiB)", markup=False)
