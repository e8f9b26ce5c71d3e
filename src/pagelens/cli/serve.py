"""`pagelens serve`: the HTTP server (REST, WebSocket, OpenAI-compatible, web UI) over one data home.

While it runs, ``<home>/server.json`` holds its URL and pid: CLI commands on that home go through it
(pagelens.cli.remote) instead of failing on the home lock.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Optional

import typer

from pagelens.cli.output import err_console, handle_errors

SERVER_FILE = "server.json"


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


@handle_errors
def serve(
    ctx: typer.Context,
    host: Optional[str] = typer.Option(None, "--host", help="Bind address (server.host; default 127.0.0.1)."),
    port: Optional[int] = typer.Option(None, "--port", help="Port (server.port; default 8000)."),
    api_key: Optional[str] = typer.Option(None, "--api-key", envvar="PAGELENS_API_KEY",
                                          help="Require 'Authorization: Bearer KEY' (server.api_key)."),
) -> None:
    """Serve the data home over HTTP: upload and ingest in the background, search and ask meanwhile."""
    import uvicorn

    from pagelens.server import create_app

    settings = ctx.obj.settings(**{"server.host": host, "server.port": port, "server.api_key": api_key})
    home = Path(settings.home).expanduser()
    s = settings.server
    logging.basicConfig(level=logging.WARNING if ctx.obj.quiet else logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(settings, open_home=False)
    app.state.pagelens.open()  # a home owned by another process fails here, as one line
    url = f"http://{_url_host(s.host)}:{s.port}"
    config = uvicorn.Config(app, host=s.host, port=s.port, log_level="warning" if ctx.obj.quiet else "info")
    server = uvicorn.Server(config)
    marker = home / SERVER_FILE
    started = server.startup

    async def startup_and_mark(sockets=None):  # type: ignore[no-untyped-def]
        await started(sockets=sockets)
        if server.started:
            write_server_file(marker, url)
            if not ctx.obj.quiet:
                err_console().print(f"pagelens serving {home} at {url} (API docs: {url}/docs)")

    server.startup = startup_and_mark  # type: ignore[method-assign]
    stopped = server.shutdown

    async def unmark_and_shutdown(sockets=None):  # type: ignore[no-untyped-def]
        # here, not only in `finally`: uvicorn re-raises a caught SIGTERM/SIGINT once it has shut down
        remove_server_file(marker)
        await stopped(sockets=sockets)

    server.shutdown = unmark_and_shutdown  # type: ignore[method-assign]
    try:
        server.run()
    finally:
        remove_server_file(marker)


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def write_server_file(path: Path, url: str) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"url": url, "pid": os.getpid()}) + "\n")
    tmp.replace(path)


def remove_server_file(path: Path) -> None:
    try:
        info = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    if info.get("pid") == os.getpid():
        path.unlink(missing_ok=True)
