"""Document commands: ingest, ls, rm, show."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pagelens.cli.output import (
    err_console, fail, handle_errors, open_app, out_console, print_json, safe_markup, terminal_safe,
)
from pagelens.models import IngestResult


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest)
    app.command("ls")(ls)
    app.command("rm")(rm)
    app.command("show")(show)


@handle_errors
def ingest(
    ctx: typer.Context,
    paths: list[Path] = typer.Argument(..., help="PDF files or folders (searched recursively for *.pdf)."),
    as_json: bool = typer.Option(False, "--json", help="Print the machine-readable summary to stdout."),
    no_index: bool = typer.Option(False, "--no-index", help="Parse and store elements only; skip embedding."),
    reparse: bool = typer.Option(
        False, "--reparse", help="Parse the given files again even if stored and current (their elements, chunks "
        "and vectors are replaced; stale ones are re-parsed without it)."
    ),
    ocr: Optional[str] = typer.Option(None, "--ocr", help="OCR engine: auto|tesseract|easyocr|rapidocr|off."),
    sync: bool = typer.Option(False, "--sync", help="Also remove the documents whose files left the given folders."),
    ray: Optional[str] = typer.Option(
        None, "--ray", metavar="[ADDRESS]",
        help="Parse on Ray: a local Ray without ADDRESS, else 'auto', host:6379 or ray://host:10001. "
        "Needs pagelens\\[ray].",
    ),
) -> None:
    """Parse PDFs into typed elements, store them, and index them for search."""
    overrides: dict = {"ingest.ocr": ocr}
    if ray is not None:
        overrides.update({"ingest.executor": "ray", "ingest.ray_address": _ray_address(ray)})
    with open_app(ctx, **overrides) as app:
        show_bars = not ctx.obj.quiet and err_console().is_terminal
        with Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=err_console(), disable=not show_bars, transient=True,
        ) as bars:
            tasks: dict[tuple[str, str], int] = {}

            def progress(name: str, stage: str, done: int, total: int) -> None:
                key = (name, stage)
                if key not in tasks:
                    tasks[key] = bars.add_task(f"{stage:5} {safe_markup(name)}", total=total)
                bars.update(tasks[key], completed=done, total=total)

            results = app.ingest(paths, progress=progress, index=not no_index, reparse=reparse)
        removed = app.coordinator.sync(paths, keep=[r.doc_id for r in results]) if sync else []
    if not results and not sync:
        fail("no PDF files found in " + ", ".join(map(str, paths)))
    if as_json:
        data = {"documents": [_result_json(r) for r in results]}
        if sync:
            data["removed"] = [{"doc_id": d.doc_id, "name": d.name, "path": d.path} for d in removed]
        print_json(data)
    else:
        for d in removed:
            out_console().print(f"[green]removed  [/green] {safe_markup(d.name)} ({d.doc_id[:12]}): its file left the folder")
        for r in results:
            _print_result(r)
    if any(r.status == "failed" for r in results):
        raise typer.Exit(1)


def _ray_address(value: str) -> str | None:
    """The Ray address of ``--ray`` (None: a local Ray; see ``main.optional_ray_value``); fails with
    one line when Ray is not installed."""
    from pagelens.ingest.ray_executor import require_ray

    require_ray()
    return None if value in ("", "local") else value


def _result_json(r: IngestResult) -> dict:
    return {
        "doc_id": r.doc_id, "name": r.name, "pages": r.pages, "elements": r.elements, "ocr_pages": r.ocr_pages,
        "seconds": r.seconds, "status": r.status, "error": r.error, "page_errors": r.page_errors, "chunks": r.chunks,
    }


def _print_result(r: IngestResult) -> None:
    if r.status == "failed":
        err_console().print(f"[red]failed[/red]    {safe_markup(r.error or '')}")
        return
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(r.elements.items(), key=lambda kv: -kv[1]))
    total = sum(r.elements.values())
    ocr = f", {r.ocr_pages} OCR'd" if r.ocr_pages else ""
    out_console().print(
        f"[green]{r.status:9}[/green] {safe_markup(r.name)}: {r.pages} pages{ocr}, {total} elements ({kinds})"
        f"{f', {r.chunks} chunks' if r.chunks else ''} in {r.seconds:.1f}s"
    )
    for line in r.page_errors:
        err_console().print(f"[yellow]page failed[/yellow] {safe_markup(line)}")


@handle_errors
def ls(ctx: typer.Context, as_json: bool = typer.Option(False, "--json")) -> None:
    """List stored documents."""
    with open_app(ctx) as app:
        docs = app.documents()
    if as_json:
        print_json({"documents": [d.model_dump(mode="json", exclude={"outline"}) for d in docs]})
        return
    if not docs:
        out_console().print("no documents yet: pagelens ingest PATH")
        return
    table = Table("doc id", "name", "pages", "elements", "OCR pages", "version", "title", box=None)
    for d in docs:
        table.add_row(
            d.doc_id[:12], safe_markup(d.name), str(d.pages), str(sum(d.element_counts.values())),
            str(len(d.ocr_pages)), str(d.version), safe_markup((d.title or "")[:60]),
        )
    out_console().print(table)


@handle_errors
def rm(ctx: typer.Context, doc: str = typer.Argument(..., help="Doc id (or prefix), file name or path.")) -> None:
    """Remove a document, its elements and its vectors."""
    with open_app(ctx) as app:
        removed = app.remove(doc)
    out_console().print(f"removed {terminal_safe(removed.name)} ({removed.doc_id[:12]})", markup=False)


@handle_errors
def show(
    ctx: typer.Context,
    doc: str = typer.Argument(..., help="Doc id (or prefix), file name or path."),
    page: Optional[int] = typer.Option(None, "--page", "-p", help="Only this 1-based page."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Show a document's elements in reading order."""
    with open_app(ctx) as app:
        d = app.document(doc)
        if page is not None and not 1 <= page <= d.pages:
            fail(f"{d.name} has pages 1..{d.pages}, not {page}")
        els = app.elements(doc, page=page)
        images = app.images
    if as_json:
        print_json({"document": d.model_dump(mode="json"), "elements": [e.model_dump(mode="json") for e in els]})
        return
    out_console().print(f"[bold]{safe_markup(d.name)}[/bold] {d.doc_id[:12]} · {d.pages} pages · {safe_markup(d.title or '')}")
    current = None
    for e in els:
        if e.page != current:
            current = e.page
            out_console().print(f"\n[bold]── page {e.page} ──[/bold]")
        body = e.table.markdown if e.table else e.text
        if e.figure:
            png = images.location(e.figure.image)
            body = f"[{e.figure.source} image {e.figure.width}x{e.figure.height}: {png}]\n{e.figure.caption or ''}\n{e.text}".strip()
        box = ",".join(f"{c:.0f}" for c in e.bbox) if e.bbox else "-"
        section = " > ".join(e.section)
        out_console().print(f"[cyan]{e.order:3} {e.kind.value:11}[/cyan] [dim]({box}) {safe_markup(section)}[/dim]", markup=True)
        out_console().print("    " + terminal_safe(body).replace("\n", "\n    "), markup=False)
