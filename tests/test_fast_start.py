"""Commands that need no model import none: `ls`, `show`, `rm`, `doctor` never load torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

HEAVY = ("torch", "sentence_transformers", "transformers", "onnxruntime")

PROBE = """
import json, sys
from pagelens.cli.main import app
code = 0
try:
    app(sys.argv[1:], standalone_mode=False)
except SystemExit as exc:
    code = exc.code or 0
print(json.dumps({"code": code, "heavy": sorted(m for m in %r if m in sys.modules)}), file=sys.stderr)
""" % (HEAVY,)


def run(home: Path, *args: str) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, "--home", str(home), "-q", *args],
        capture_output=True, text=True, timeout=180, env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1",
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
