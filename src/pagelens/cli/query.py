"""Question commands: search (no LLM), ask (cited answer), chat (multi-turn)."""

from __future__ import annotations

import sys
from typing import Any, Optional

import typer
from rich.markup import escape

from pagelens.cli.output import (
    err_console, handle_errors, open_app, out_console, print_json, read_jsonl, terminal_safe,
)
from pagelens.models import Answer, SearchHit

MODES = ("hybrid", "dense", "sparse", "image")


def register(app: typer.Typer) -> None:
    app.command("search")(search)
    app.command("ask")(ask)
    app.command("chat")(chat)


def hit_json(h: SearchHit) -> dict[str, Any]:
    c = h.chunk
    return {
        "rank": h.rank, "score": round(h.score, 6), "doc": c.doc_name, "doc_id": c.doc_id, "page": c.page,
        "pages": c.pages, "kind": c.kind, "text": c.text, "channels": h.channels,
        "rerank_score": h.rerank_score, "bboxes": c.bboxes, "parts": h.parts,
    }


def answer_json(a: Answer) -> dict[str, Any]:
    return {
        "question": a.question,
        "answer": a.answer,
        "abstained": a.abstained,
        "sources": [
            {"n": i, "doc": h.chunk.doc_name, "doc_id": h.chunk.doc_id, "page": h.chunk.page, "pages": h.chunk.pages,
             "kind": h.chunk.kind, "text": h.chunk.text, "score": round(h.score, 6), "bboxes": h.chunk.bboxes}
            for i, h in enumerate(a.sources, 1)
        ],
        "cited": [c.model_dump(mode="json") for c in a.cited],
        "invalid_citations": a.invalid_citations,
        "model": a.model,
        "cached": a.cached,
        "timings_ms": a.timings_ms,
        "notes": a.notes,
    }


@handle_errors
def search(
    ctx: typer.Context,
    query: Optional[str] = typer.Argument(None, help="The query (omit with --batch)."),
    k: Optional[int] = typer.Option(None, "--k", "-k", help="Number of results."),
    mode: str = typer.Option("hybrid", "--mode", help="hybrid | dense | sparse | image"),
    doc: Optional[list[str]] = typer.Option(None, "--doc", help="Only these documents (name or id); repeatable."),
    as_json: bool = typer.Option(False, "--json"),
    batch: Optional[str] = typer.Option(None, "--batch", help="JSONL with 'id' and 'question'; one JSON line out each."),
    explain: bool = typer.Option(False, "--explain", help="Per hit: each channel's score and rank, and the question part it answers."),
) -> None:
    """Ranked sources for a query, without any LLM."""
    if mode not in MODES:
        raise typer.BadParameter(f"--mode must be one of {', '.join(MODES)}")
    if not query and not batch:
        raise typer.BadParameter("give a QUERY or --batch FILE")
    with open_app(ctx) as app:
        if batch:
            for row in read_jsonl(batch):
                hits = app.search(row["question"], k=k, mode=mode, docs=doc or row.get("docs"))
                print_json({"id": row.get("id"), "query": row["question"], "results": [hit_json(h) for h in hits]})
            return
        hits = app.search(query, k=k, mode=mode, docs=doc)
    if as_json:
        print_json({"query": query, "results": [hit_json(h) for h in hits]})
        return
    if not hits:
        out_console().print("no results (is anything ingested? pagelens ls)")
    for h in hits:
        c = h.chunk
        chans = " ".join(f"{n}={v:.3g}" for n, v in h.channels.items() if not n.endswith("_rank"))
        out_console().print(f"[bold]{h.rank}.[/bold] {escape(terminal_safe(c.doc_name))} p.{c.page} [cyan]{c.kind}[/cyan] "
                          f"score {h.score:.4f} [dim]{chans}[/dim]")
        if explain:
            _explain(h)
        out_console().print("   " + _snippet(c.text), markup=False)


def _explain(h: SearchHit) -> None:
    """Each channel that found the hit with its rank there, and the parts of the question it answers."""
    ranks = " ".join(f"{n[:-5]}#{int(v)}" for n, v in h.channels.items() if n.endswith("_rank"))
    out_console().print(f"   channels: {ranks or '-'}", markup=False, style="dim")
    if h.parts:
        out_console().print("   answers part: " + "; ".join(terminal_safe(p) for p in h.parts), markup=False)


def _snippet(text: str, n: int = 300) -> str:
    t = " ".join(terminal_safe(text).split())
    return t if len(t) <= n else t[: n - 1] + "…"


def _print_sources(a: Answer) -> None:
    if not a.sources:
        return
    out_console().print("\n[bold]Sources[/bold]")
    cited = {c.n for c in a.cited}
    for i, h in enumerate(a.sources, 1):
        c = h.chunk
        mark = "*" if i in cited else " "
        out_console().print(f"{mark}[{i}] {terminal_safe(c.doc_name)} p.{c.page} {c.kind} (score {h.score:.3f})  ", end="", markup=False)
        out_console().print(_snippet(c.text, 120), markup=False, style="dim")
    if a.invalid_citations:
        err_console().print(f"[yellow]warning:[/yellow] the answer cites sources that do not exist: {a.invalid_citations}")


def _stream_answer(app: Any, question: str, **kw: Any) -> Answer:
    answer: Answer | None = None
    streamed = False
    for event in app.ask_stream(question, **kw):
        kind = event.get("type")
        if kind == "token":
            streamed = True
            sys.stdout.write(terminal_safe(event["text"]))
            sys.stdout.flush()
        elif kind == "reset":  # the LLM ran out of time mid-answer: the extractive answer follows
            sys.stdout.write("\n")
            err_console().print(f"[yellow]note:[/yellow] {escape(terminal_safe(event.get('reason', '')))}")
        elif kind == "done":
            answer = event["answer"]
    assert answer is not None, "answer stream ended without a 'done' event"
    if not streamed:
        sys.stdout.write(terminal_safe(answer.answer))
    sys.stdout.write("\n")
    for note in answer.notes:
        err_console().print(f"[yellow]note:[/yellow] {escape(terminal_safe(note))}")
    return answer


@handle_errors
def ask(
    ctx: typer.Context,
    question: Optional[str] = typer.Argument(None, help="The question (omit with --batch)."),
    doc: Optional[list[str]] = typer.Option(None, "--doc", help="Only these documents; repeatable."),
    hyde: bool = typer.Option(False, "--hyde", help="Retrieve with a hypothetical answer passage (LLM)."),
    multi_query: int = typer.Option(0, "--multi-query", help="Extra LLM query variants."),
    no_rerank: bool = typer.Option(False, "--no-rerank", help="Skip the cross-encoder."),
    k: Optional[int] = typer.Option(None, "--k", "-k", help="Sources given to the answerer."),
    as_json: bool = typer.Option(False, "--json"),
    batch: Optional[str] = typer.Option(None, "--batch", help="JSONL with 'id' and 'question'; one JSON line out each."),
) -> None:
    """A cited answer from the ingested documents (LLM if configured, else extractive)."""
    if not question and not batch:
        raise typer.BadParameter("give a QUESTION or --batch FILE")
    opts = dict(hyde=hyde or None, multi_query=multi_query or None, rerank=not no_rerank, k=k)
    with open_app(ctx) as app:
        if batch:
            for row in read_jsonl(batch):
                a = app.ask(row["question"], docs=doc or row.get("docs"), **opts)
                print_json({"id": row.get("id"), **answer_json(a)})
            return
        if as_json:
            print_json(answer_json(app.ask(question, docs=doc, **opts)))
            return
        a = _stream_answer(app, question, docs=doc, **opts)
        _print_sources(a)


@handle_errors
def chat(
    ctx: typer.Context,
    doc: Optional[list[str]] = typer.Option(None, "--doc", help="Only these documents; repeatable."),
    hyde: bool = typer.Option(False, "--hyde"),
) -> None:
    """Interactive multi-turn questions (/reset clears the history, /exit or Ctrl-D quits)."""
    history: list[tuple[str, str]] = []
    with open_app(ctx) as app:
        while True:
            try:
                line = input("you> ").strip()
            except EOFError:
                break
            if not line:
                continue
            if line in ("/exit", "/quit"):
                break
            if line == "/reset":
                history.clear()
                out_console().print("history cleared")
                continue
            sys.stdout.write("pagelens> ")
            a = _stream_answer(app, line, history=list(history), docs=doc, hyde=hyde or None)
            _print_sources(a)
            history.append((line, a.answer))
