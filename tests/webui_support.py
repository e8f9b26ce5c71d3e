"""Browser-test plumbing: find chromium, start a real server over a temp home, record page problems."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from server_support import LiveServer

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = os.environ.get("PAGELENS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def require_browser() -> Any:
    """playwright.sync_api, or skip the module saying what is missing."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install -y chromium, or set PAGELENS_CHROMIUM)",
                    allow_module_level=True)
    pytest.importorskip("fastapi", reason="the server dependencies are not installed")
    return pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")


@contextmanager
def live_server(home: Path, **overrides: Any) -> Iterator[LiveServer]:
    """uvicorn with create_app over ``home`` (OCR off), settings isolated from the environment."""
    from pagelens.server import create_app
    from pagelens.settings import Settings

    with pytest.MonkeyPatch.context() as mp:
        for key in list(os.environ):
            if key.startswith("PAGELENS_"):
                mp.delenv(key, raising=False)
        mp.setenv("PAGELENS_CONFIG", str(home / "none.toml"))
        settings = Settings(home=home).with_overrides(**{"ingest.ocr": "off", **overrides})
        live = LiveServer(create_app(settings)).start()
        try:
            yield live
        finally:
            live.stop()


@contextmanager
def chromium(sync_api: Any) -> Iterator[Any]:
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


def watch(page: Any) -> Any:
    """Record dialogs, page errors, console errors and HTTP errors in ``page.problems``."""
    page.problems = []
    page.on("dialog", lambda d: (page.problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.on("pageerror", lambda e: page.problems.append(f"page error: {e}"))
    page.on("console", lambda m: m.type == "error" and page.problems.append(f"console: {m.text} at {m.location}"))
    page.on("response", lambda r: r.status >= 400 and page.problems.append(f"HTTP {r.status} {r.url}"))
    return page


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
