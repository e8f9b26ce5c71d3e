"""Global options reach the command: `pagelens --ocr off ingest` parses with OCR off (the ingest
command's own `--ocr`, left unset, used to replace the global value with the default)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pymupdf
from typer.testing import CliRunner

from pagelens.cli.main import app
from pagelens.cli.output import State


def test_unset_command_option_keeps_the_global_one() -> None:
    state = State(overrides={"ingest.ocr": "off"})
    assert state.settings(**{"ingest.ocr": None}).ingest.ocr == "off"
    assert state.settings(**{"ingest.ocr": "auto"}).ingest.ocr == "auto"  # the command's own value wins
    assert State().settings(**{"ingest.ocr": None}).ingest.ocr == "auto"


def _scanned(path: Path) -> Path:
    """One page with no text layer: a picture of words."""
    src = pymupdf.open()
    page = src.new_page(width=300, height=120)
    page.insert_text((20, 60), "Scanned words here", fontsize=20)
    pix = page.get_pixmap(dpi=150)
    doc = pymupdf.open()
    doc.new_page(width=300, height=120).insert_image(pymupdf.Rect(0, 0, 300, 120), pixmap=pix)
    doc.save(path)
    return path


def test_global_ocr_off_reaches_ingest(tmp_path: Path) -> None:
    pdf = _scanned(tmp_path / "scan.pdf")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    env["PAGELENS_CONFIG"] = str(tmp_path / "none.toml")
    args = ["--home", str(tmp_path / "home"), "--quiet", "--ocr", "off", "ingest", "--no-index", "--json", str(pdf)]
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == 0, result.stderr
    (doc,) = json.loads(result.stdout)["documents"]
    assert doc["status"] == "indexed" and doc["ocr_pages"] == 0
