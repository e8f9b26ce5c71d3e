"""The `pagelens` command: a thin layer over pagelens.app.Pagelens.

Global options build the Settings once; each command opens the facade, calls it, prints.
Errors become one red line on stderr and exit code 1.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import typer

from pagelens.cli import docs, query, tools
from pagelens.cli import mcp_server, serve
from pagelens.cli import report as report_cmd
from pagelens.cli.output import State

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Cited answers about PDF documents: ingest, search, ask.",
    pretty_exceptions_enable=False,
)


@app.callback()
def _global(
    ctx: typer.Context,
    home: Optional[Path] = typer.Option(None, "--home", help="Data home (env PAGELENS_HOME; default a per-user dir)."),
    config: Optional[Path] = typer.Option(None, "--config", help="pagelens.toml to read (env PAGELENS_CONFIG)."),
    ocr: Optional[str] = typer.Option(None, "--ocr", help="OCR engine: auto|tesseract|easyocr|rapidocr|off."),
    qdrant_url: Optional[str] = typer.Option(None, "--qdrant-url", help="Use a Qdrant server instead of the embedded engine."),
    llm_url: Optional[str] = typer.Option(None, "--llm-url", help="OpenAI-compatible base URL (enables LLM answers)."),
    llm_model: Optional[str] = typer.Option(None, "--llm-model", help="Chat model name."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars or warnings."),
) -> None:
    if config is not None:
        os.environ["PAGELENS_CONFIG"] = str(config)
    ctx.obj = State(
        overrides={
            "home": str(home) if home else None,
            "ingest.ocr": ocr,
            "index.qdrant_url": qdrant_url,
            "answer.llm_base_url": llm_url,
            "answer.llm_model": llm_model,
        },
        quiet=quiet,
    )


docs.register(app)
query.register(app)
tools.register(app)
serve.register(app)
mcp_server.register(app)
report_cmd.register(app)
from pagelens.cli import check as check_cmd  # noqa: E402  (appended: keeps merges local)
check_cmd.register(app)


def main() -> None:
    from pagelens import pdf_layout_import

    pdf_layout_import.defer()  # the process's entry point: PyMuPDF's layout models load on first use
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        app(args=optional_ray_value(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)


def optional_ray_value(args: list[str]) -> list[str]:
    """``ingest --ray [ADDRESS]``: the option's value is optional, which the parser does not know, so
    a bare ``--ray`` (last, before another option, or before a file or folder that exists) becomes
    ``--ray=local``, and ``--ray ADDRESS`` becomes ``--ray=ADDRESS``."""
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--ray":
            nxt = args[i + 1] if i + 1 < len(args) else None
            if nxt is None or nxt.startswith("-") or os.path.exists(nxt):
                out.append("--ray=local")
            else:
                out.append(f"--ray={nxt}")
                i += 1
        elif arg == "--":
            out.extend(args[i:])
            break
        else:
            out.append(arg)
        i += 1
    return out


if __name__ == "__main__":
    main()
