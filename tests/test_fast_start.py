"""Commands that need no model import none (`ls`, `show`, `rm`, `doctor` never load torch), and the ingest's parent process imports no PDF library."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

HEAVY = ("torch", "sentence_transformers", "transformers", "onnxruntime")
PARSER_ONLY = ("pymupdf", "pdfplumber", "pagelens.ingest.pipeline", "pagelens.ingest.tables", "pagelens.ingest.figures")

PROBE = """
import json, sys
from pagelens.cli.main import app
code = 0
try:
    app(sys.argv[1:], standalone_mode=False)
except SystemExit as exc:
    code = exc.code or 0
print(json.dumps({"code": code, "heavy": sorted(m for m in %r if m in sys.modules),
                  "parser": sorted(m for m in %r if m in sys.modules)}), file=sys.stderr)
""" % (HEAVY, PARSER_ONLY)


def run(home: Path, *args: str, timeout: int = 180) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, "--home", str(home), "-q", *args],
        capture_output=True, text=True, timeout=timeout, env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1",
                                                          "PAGELENS_CONFIG": str(home / "none.toml"),
                                                          "PYTHONPATH": ":".join(sys.path)},
    )
    return json.loads(proc.stderr.strip().splitlines()[-1]) | {"out": proc.stdout}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fast")
    pdf = root / "memo.pdf"
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "The depot in zone 3 kept its cost flat in 2024.")
    doc.save(pdf)
    home = root / "home"
    res = run(home, "ingest", "--no-index", "--ocr", "off", str(pdf))
    assert res["code"] == 0, res
    return home


@pytest.mark.parametrize("args", [("ls",), ("show", "memo.pdf"), ("doctor",)])
def test_commands_without_a_model_import_no_model_library(home: Path, args: tuple[str, ...]) -> None:
    res = run(home, *args)
    assert res["code"] == 0, res
    assert res["heavy"] == [], f"`pagelens {' '.join(args)}` imported {res['heavy']}"


def test_rm_imports_no_model_library(home: Path) -> None:
    res = run(home, "rm", "memo.pdf")
    assert res["code"] == 0, res
    assert res["heavy"] == []
    assert "memo.pdf" not in run(home, "ls")["out"]


def test_ingest_parent_process_imports_no_pdf_library(tmp_path: Path) -> None:
    """The parser processes open the PDFs; the ingest's parent only hashes them and embeds."""
    folder = tmp_path / "pdfs"
    folder.mkdir()
    for i, phrase in enumerate(["The depot in zone 3 kept its cost flat in 2024.", "Zone 5 paid eleven percent more."]):
        doc = pymupdf.open()
        for p in range(3):
            doc.new_page().insert_text((72, 72), f"{phrase} Page {p + 1} of memo {i}.")
        doc.save(folder / f"memo{i}.pdf")
    res = run(tmp_path / "home", "ingest", "--ocr", "off", "--json", str(folder), timeout=600)
    assert res["code"] == 0, res
    docs = json.loads(res["out"])["documents"]
    assert [d["status"] for d in docs] == ["indexed", "indexed"] and all(d["chunks"] > 0 for d in docs), docs
    assert res["parser"] == [], f"the ingest's parent process imported {res['parser']}"
