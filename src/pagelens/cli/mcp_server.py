"""`pagelens mcp`: the documents as tools for agent clients (Model Context Protocol over stdio).

Tools: list_documents, search, ask, show_page. They call the same facade as the CLI — or, while
`pagelens serve` owns the home, go through its API (see pagelens.cli.remote).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from pagelens.cli.output import handle_errors, open_app
from pagelens.cli.query import answer_json, hit_json
from pagelens.errors import PagelensError

MAX_PAGE_CHARS = 20_000


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp)


@handle_errors
def mcp(ctx: typer.Context) -> None:
    """Serve list_documents, search, ask and show_page as MCP tools on stdin/stdout."""
    logging.basicConfig(level=logging.WARNING)  # stdout is the protocol: logs go to stderr
    with open_app(ctx) as app:
        build_server(app).run("stdio")


def build_server(app: Any) -> Any:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.mcpserver.utilities.types import Image

    server = MCPServer(
        "pagelens", instructions="Search and ask questions about the user's PDF documents; answers cite [n, p.X].",
    )

    def expected(fn: Callable[..., Any]) -> Callable[..., Any]:
        """Bad input and pagelens errors reach the agent as their one-line message (a ToolError)."""

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except (PagelensError, ValueError) as exc:
                raise ToolError(str(exc)) from exc

        return wrapper

    @server.tool(description="The documents in the data home: id, name, pages, title.")
    @expected
    def list_documents() -> list[dict[str, Any]]:
        return [{"doc_id": d.doc_id, "name": d.name, "pages": d.pages, "title": d.title} for d in app.documents()]

    @server.tool(description="Ranked passages for a query, without an LLM (mode: hybrid, dense, sparse).")
    @expected
    def search(query: str, k: int = 5, mode: str = "hybrid", docs: list[str] | None = None) -> dict[str, Any]:
        hits = app.search(query, k=k, mode=mode, docs=docs)
        return {"query": query, "results": [hit_json(h) for h in hits]}

    @server.tool(description="A cited answer to a question about the documents ([n, p.X] refer to sources).")
    @expected
    def ask(question: str, docs: list[str] | None = None) -> dict[str, Any]:
        return answer_json(app.ask(question, docs=docs))

    @server.tool(description="One page of a document: its elements in reading order, and the page image.",
                 structured_output=False)
    @expected
    def show_page(doc: str, page: int) -> list[Any]:
        d = app.document(doc)
        if not 1 <= page <= d.pages:
            raise ValueError(f"{d.name} has pages 1..{d.pages}, not {page}")
        lines = [f"{d.name} page {page} of {d.pages}"]
        for e in app.elements(d.doc_id, page=page):
            body = e.table.markdown if e.table else e.text
            lines.append(f"[{e.kind.value}] {body}")
        text = "\n".join(lines)[:MAX_PAGE_CHARS]
        return [text, Image(data=page_png(app, d, page), format="png")]

    return server


def page_png(app: Any, doc: Any, page: int, scale: float = 1.0) -> bytes:
    if hasattr(app, "page_png"):
        return app.page_png(doc.doc_id, page, scale)
    from pagelens.server.render import PageRenderer

    return PageRenderer(cache_size=0).png(doc.doc_id, Path(doc.path), page, scale)
