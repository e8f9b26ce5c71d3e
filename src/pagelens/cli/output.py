"""Shared CLI plumbing: settings from flags, opening the facade, one-line errors, consoles."""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import typer
from typer.exceptions import TyperException
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape

from pagelens.errors import PagelensError

F = TypeVar("F", bound=Callable[..., Any])

_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def terminal_safe(text: str) -> str:
    """Text from a PDF (or a model that read one) made harmless for a terminal: control characters
    (escape sequences, carriage returns, bells) and bidi overrides become U+FFFD; newlines and tabs
    stay. Rich markup must still be escaped where it is printed with markup on (``safe_markup``)."""
    return _UNSAFE.sub("\ufffd", text)


def safe_markup(text: str) -> str:
    """``terminal_safe`` and Rich-escaped: for document text inside a markup string or a table cell."""
    return escape(terminal_safe(text))


def err_console() -> Console:
    """Messages, warnings and progress: stderr (built per use: no module-level state)."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


def out_console() -> Console:
    """Results: stdout."""
    return Console(highlight=False, soft_wrap=True)


@dataclass
class State:
    overrides: dict[str, Any] = field(default_factory=dict)
    quiet: bool = False

    def settings(self, **more: Any) -> Any:
        from pagelens.settings import Settings

        if not self.quiet and not os.environ.get("PAGELENS_CONFIG") and os.path.isfile("pagelens.toml"):
            err_console().print(
                "[yellow]warning:[/yellow] ./pagelens.toml is not read: settings files are read only when named "
                "(--config pagelens.toml or PAGELENS_CONFIG)"
            )
        try:
            base = Settings()
            # A command's own option left unset (None) must not hide the global one (`--ocr off ingest`).
            return base.with_overrides(**{**self.overrides, **{k: v for k, v in more.items() if v is not None}})
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"])
            raise PagelensError(f"invalid setting {loc}: {first['msg']}") from None


def fail(message: str, code: int = 1) -> None:
    err_console().print(f"[red]error:[/red] {safe_markup(message)}", markup=True, highlight=False)
    raise typer.Exit(code)


def handle_errors(fn: F) -> F:
    """Turn pagelens errors into one red line and exit 1 (no traceback)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PagelensError as exc:
            fail(str(exc))
        except (BrokenPipeError, KeyboardInterrupt):
            raise
        except OSError as exc:
            fail(f"{exc.strerror or exc}: {exc.filename}" if getattr(exc, "filename", None) else str(exc))
        except (typer.Exit, typer.Abort, TyperException):
            raise
        except Exception as exc:  # a bug: still one line, the traceback on request
            if os.environ.get("PAGELENS_DEBUG"):
                raise
            fail(f"internal error: {type(exc).__name__}: {exc} (PAGELENS_DEBUG=1 shows the traceback)")

    return wrapper  # type: ignore[return-value]


@contextmanager
def open_app(ctx: typer.Context, **overrides: Any) -> Iterator[Any]:
    from pagelens.app import Pagelens

    state: State = ctx.obj
    settings = state.settings(**overrides)
    from pagelens.cli.remote import find_server

    remote = find_server(settings)  # a server owns this home: go through its API
    if remote is not None:
        with remote:
            yield remote
        return
    warn = (lambda m: None) if state.quiet else (lambda m: err_console().print(f"[yellow]warning:[/yellow] {safe_markup(m)}"))
    app = Pagelens(settings, warn=warn)
    try:
        yield app
    finally:
        app.close()


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str) + "\n")
    sys.stdout.flush()


def read_jsonl(path: str) -> Iterator[dict[str, Any]]:
    """Lines of a JSONL file; a bad line is an error naming the file and line."""
    try:
        fh = open(path, encoding="utf-8")
    except OSError as exc:
        raise PagelensError(f"{path}: cannot read ({exc.strerror})") from None
    with fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise PagelensError(f"{path}: line {lineno}: invalid JSON ({exc.msg})") from None
            if not isinstance(row, dict) or "question" not in row:
                raise PagelensError(f"{path}: line {lineno}: expected an object with 'question'")
            yield row
