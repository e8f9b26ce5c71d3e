"""`pagelens check`: compare the catalog with the vector index, repair, prune old indexes."""

from __future__ import annotations

import typer
from rich.markup import escape

from pagelens.cli.output import err_console, handle_errors, open_app, out_console, print_json, safe_markup


def register(app: typer.Typer) -> None:
    app.command("check")(check)


@handle_errors
def check(
    ctx: typer.Context,
    repair: bool = typer.Option(False, "--repair", help="Index the missing chunks and delete orphaned points."),
    prune: bool = typer.Option(False, "--prune", help="Drop indexes built with other settings (older embedder or chunker)."),
    as_json: bool = typer.Option(False, "--json", help="Print the machine-readable report to stdout."),
) -> None:
    """Per document: the chunks the catalog expects vs the points the index holds."""
    from pagelens.index.check import IndexChecker

    with open_app(ctx) as app:
        checker = IndexChecker(app)
        report = checker.check()
        before = report
        if repair and not report.ok:
            report = checker.repair(report)
        if prune and report.other_collections:
            report.pruned = checker.prune(report)
    if as_json:
        data = report.to_dict()
        data["found"] = before.to_dict() if before is not report else None
        print_json(data)
    else:
        _print(before, report)
    if not report.ok:
        raise typer.Exit(1)


def _print(before, after) -> None:  # noqa: ANN001 - CheckReport, imported lazily
    out = out_console()
    total = sum(d.expected for d in before.documents)
    out.print(f"index {before.collection}: {len(before.documents)} documents, {total} chunks expected", markup=False)
    for d in before.problems:
        parts = []
        if d.missing:
            parts.append(f"{len(d.missing)} of {d.expected} chunks missing")
        if d.extra:
            parts.append(f"{len(d.extra)} orphaned points")
        out.print(f"[yellow]{'repaired' if after is not before else 'problem'}[/yellow] "
                  f"{safe_markup(d.name)} ({d.doc_id[:12]}): {', '.join(parts)}")
    for doc_id, n in before.orphan_docs.items():
        out.print(f"[yellow]orphans[/yellow]  {n} points of document {escape(doc_id[:12])}, which the catalog no longer has")
    for doc_id, n in before.orphan_profiles.items():
        out.print(f"[yellow]orphans[/yellow]  routing profile of document {escape(doc_id[:12])}, which the catalog no longer has")
    for doc in before.stale:
        out.print(f"[cyan]stale[/cyan]    {safe_markup(doc.name)} ({doc.doc_id[:12]}): parsed by parser v{doc.parser_version}, "
                  f"this one is v{before.parser_version}; `pagelens ingest` of its file re-parses it (--reparse forces it)")
    for doc_id, op in before.pending:
        out.print(f"[yellow]pending[/yellow]  {op} of document {escape(doc_id[:12])} not confirmed by the index yet")
    if after.repaired:
        out.print(f"repaired: {after.repaired.get('upserted', 0)} chunks indexed, "
                  f"{after.repaired.get('deleted', 0)} orphaned points deleted", markup=False)
    for other in before.other_collections:
        built = other.built_with or {}
        what = (f"embedder {built.get('embedder')}, chunker v{built.get('chunker')}, {built.get('chunk_tokens')} tokens"
                if built else "settings unknown")
        gone = other.name in after.pruned
        out.print(f"{'[dim]dropped[/dim]' if gone else '[cyan]old index[/cyan]'} {escape(other.name)}: "
                  f"{other.points} points ({escape(what)})" + ("" if gone else "; pagelens check --prune drops it"))
    if after.ok:
        out.print("[green]ok[/green]: catalog and index agree")
    elif after is before:
        err_console().print("[yellow]the index does not match the catalog[/yellow]: pagelens check --repair fixes it")
    else:
        err_console().print("[red]some problems remain after the repair[/red] (see above)")
