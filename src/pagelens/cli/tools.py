"""Diagnostics and measurement: doctor, eval."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape
from rich.table import Table

from pagelens.cli.output import err_console, handle_errors, open_app, out_console, print_json
from pagelens.errors import PagelensError


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)
    app.command("eval")(eval_cmd)


@handle_errors
def doctor(ctx: typer.Context, as_json: bool = typer.Option(False, "--json")) -> None:
    """Which components are available (embedder, BM25, CLIP, reranker, OCR, vector engine, LLM) and why not."""
    with open_app(ctx) as app:
        statuses = app.doctor()
        home = app.home
    if as_json:
        print_json({"home": str(home), "components": [s.__dict__ for s in statuses]})
        return
    out_console().print(f"data home: {home}")
    table = Table("component", "status", "detail", box=None)
    for s in statuses:
        table.add_row(escape(s.name), "[green]ok[/green]" if s.available else "[yellow]off[/yellow]", escape(s.detail))
    out_console().print(table)


@handle_errors
def eval_cmd(
    ctx: typer.Context,
    questions: list[Path] = typer.Argument(..., help="Questions JSONL files (id, pdf, question, answers, modality, pages)."),
    pdfs: Path = typer.Option(..., "--pdfs", help="Folder with the PDFs the questions refer to."),
    k: int = typer.Option(5, "--k", "-k", help="hit@k cut-off."),
    no_answers: bool = typer.Option(False, "--no-answers", help="Retrieval metrics only."),
    no_doc_filter: bool = typer.Option(
        False, "--no-doc-filter", help="Skip the second retrieval pass scoped to each question's own documents."
    ),
    eval_home: Optional[Path] = typer.Option(None, "--eval-home", help="Reuse this home instead of a fresh temp one."),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Ingest --pdfs into an isolated home and report hit@1/hit@k/MRR and answer accuracy per modality."""
    from pagelens.evaluate import run_eval

    if not pdfs.is_dir():
        raise PagelensError(f"--pdfs {pdfs}: not a folder")
    with tempfile.TemporaryDirectory(prefix="pagelens-eval-") as tmp:
        home = eval_home or Path(tmp)
        # Isolated means its own catalog and images too, never a shared PostgreSQL catalog or image folder.
        with open_app(ctx, home=str(home), catalog_url="", images_dir="") as app:
            if not ctx.obj.quiet:
                err_console().print(f"evaluating in {home} …")
            report = run_eval(app, list(questions), pdfs, k=k, answers=not no_answers, doc_filter=not no_doc_filter)
    if as_json:
        print_json(report.to_dict())
    else:
        out_console().print(report.table(), markup=False)
