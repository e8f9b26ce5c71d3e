"""Regenerate docs/chat.png: the chat screen with a cited source highlighted on its page.

    .venv/bin/python scripts/ui_screenshot.py [--pdf samples/otsl-2305.03393v1-p9.pdf] [--question ...]

Starts the real server on 127.0.0.1 over a temporary home, uploads the PDF through the UI, asks,
clicks the first citation and saves the screenshot (1280×800). Needs chromium and playwright.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdf", default=str(REPO / "samples" / "otsl-2305.03393v1-p9.pdf"))
    ap.add_argument("--question", default="What inference time does OTSL reach with 6 encoder and 6 decoder layers?")
    ap.add_argument("--out", default=str(REPO / "docs" / "chat.png"))
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = ap.parse_args()

    import uvicorn
    from playwright.sync_api import expect, sync_playwright

    from pagelens.server import create_app
    from pagelens.settings import Settings

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    home = Path(tempfile.mkdtemp(prefix="pagelens-shot-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(Settings(home=home)), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"http://127.0.0.1:{port}/#library")
            page.get_by_label("Upload PDFs").set_input_files(args.pdf)
            expect(page.locator("li.job").first).to_have_attribute("data-state", "done", timeout=300_000)
            page.goto(f"http://127.0.0.1:{port}/#chat")
            page.get_by_label("Question", exact=True).fill(args.question)
            page.get_by_label("Question", exact=True).press("Enter")
            expect(page.locator(".turn .meta")).to_contain_text("channels", timeout=300_000)
            page.locator("a.cite").first.click()
            page.wait_for_function("() => document.querySelector('#viewer img').naturalWidth > 0")
            page.wait_for_timeout(300)
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=args.out)
            browser.close()
    finally:
        server.should_exit = True
        shutil.rmtree(home, ignore_errors=True)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
