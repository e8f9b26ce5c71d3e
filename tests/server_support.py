"""Helpers for the server tests: PDFs built with PyMuPDF, a real uvicorn on a free loopback port."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import pymupdf

FACTS = [
    ("Solar farms", "The Nevada solar farm produces 4,200 megawatt hours of electricity every month in summer."),
    ("Bridges", "The Oresund bridge connects Copenhagen and Malmo and is 7,845 metres long."),
    ("Coffee", "Arabica coffee plants grow best at altitudes between 1,000 and 2,000 metres."),
]


def make_pdf(path: Path, facts: list[tuple[str, str]] | None = None, pages: int | None = None,
             password: str | None = None) -> Path:
    """A small text PDF: one heading and paragraph per page (facts), or ``pages`` filler pages."""
    doc = pymupdf.open()
    items = list(facts or FACTS)
    if pages is not None:
        items = [(f"Section {i + 1}", f"Page {i + 1} discusses topic number {i + 1} of the report in plain words. "
                  "Wind turbines, river deltas and library catalogues appear in varied order here. " * 3)
                 for i in range(pages)]
    for title, text in items:
        page = doc.new_page()
        page.insert_text((72, 80), title, fontsize=18)
        page.insert_textbox(pymupdf.Rect(72, 110, 520, 700), text, fontsize=11)
    kw: dict[str, Any] = {}
    if password:
        kw = {"encryption": pymupdf.PDF_ENCRYPT_AES_256, "user_pw": password, "owner_pw": password}
    doc.save(path, **kw)
    doc.close()
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """uvicorn serving ``app`` on 127.0.0.1 in a thread (stopped by ``stop``)."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    ws="websockets-sansio" if _has_sansio() else "auto"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> "LiveServer":
        self.thread.start()
        deadline = time.time() + 60
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)


def _has_sansio() -> bool:
    try:
        import uvicorn.protocols.websockets.websockets_sansio_impl  # noqa: F401
    except ImportError:
        return False
    return True


def wait_job(client: Any, job_id: str, timeout: float = 180.0, headers: dict | None = None) -> dict[str, Any]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        job = client.get(f"/jobs/{job_id}", headers=headers or {}).json()
        if job["state"] in ("done", "failed"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish in {timeout}s")
