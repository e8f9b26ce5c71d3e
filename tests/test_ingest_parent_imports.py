"""The process that runs `pagelens ingest` only hashes files, commits parse results and embeds: the
parser processes open the PDFs, so the parent imports neither PyMuPDF nor the parser modules (about
half a CPU-second it spent beside the embedder on every ingest)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pymupdf

PARSER_ONLY = ("pymupdf", "pdfplumber", "pagelens.ingest.pipeline", "pagelens.ingest.tables", "pagelens.ingest.figures")

PROBE = """
import json, sys
from pagelens.cli.main import app
code = 0
try:
    app(sys.argv[1:], standalone_mode=False)
except SystemExit as exc:
    code = exc.code or 0
print(json.dumps({"code": code, "loaded": sorted(m for m in %r if m in sys.modules)}), file=sys.stderr)
""" % (PARSER_ONLY,)


def test_ingest_parent_process_imports_no_pdf_library(tmp_path: Path) -> None:
    folder = tmp_path / "pdfs"
    folder.mkdir()
    for i, phrase in enumerate(["The depot in zone 3 kept its cost flat in 2024.", "Zone 5 paid eleven percent more."]):
        doc = pymupdf.open()
        for p in range(3):
            doc.new_page().insert_text((72, 72), f"{phrase} Page {p + 1} of memo {i}.")
        doc.save(folder / f"memo{i}.pdf")
    home = tmp_path / "home"
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, "--home", str(home), "-q", "ingest", "--ocr", "off", "--json", str(folder)],
        capture_output=True, text=True, timeout=600,
        env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1", "PAGELENS_CONFIG": str(home / "none.toml"),
             "PYTHONPATH": ":".join(sys.path)},
    )
    res = json.loads(proc.stderr.strip().splitlines()[-1])
    assert res["code"] == 0, proc.stderr[-2000:]
    docs = json.loads(proc.stdout)["documents"]
    assert [d["status"] for d in docs] == ["indexed", "indexed"] and all(d["chunks"] > 0 for d in docs), docs
    assert res["loaded"] == [], f"the ingest's parent process imported {res['loaded']}"
