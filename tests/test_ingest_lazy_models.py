"""Parsing loads no model a page does not need: PyMuPDF's ONNX layout models stay unloaded (and
onnxruntime unimported) until the page tier sends a page to them; then they load and run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

PROBE = """
import json, sys
from pathlib import Path
from pagelens import pdf_layout_import
pdf_layout_import.defer()  # as the CLI's and the parser process's entry points do
from pagelens.app import Pagelens
from pagelens.settings import Settings
layout, home, pdf = sys.argv[1:4]
settings = Settings(home=Path(home)).with_overrides(**{"ingest.ocr": "off", "ingest.layout_model": layout})
with Pagelens(settings) as app:
    [result] = app.ingest([Path(pdf)], index=False)
    kinds = sorted({e.kind.value for e in app.catalog.iter_elements(result.doc_id)})
print(json.dumps({"status": result.status, "kinds": kinds, "pages": result.pages,
                  "loaded": sorted(m for m in ("pymupdf.layout", "onnxruntime", "torch") if m in sys.modules)}))
"""


def _run(layout: str, home: Path, pdf: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, layout, str(home), str(pdf)], capture_output=True, text=True, timeout=300,
        env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1", "PYTHONPATH": ":".join(sys.path)},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def memo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pdf = tmp_path_factory.mktemp("lazy") / "memo.pdf"
    doc = pymupdf.open()
    for i in range(2):
        page = doc.new_page()
        page.insert_text((72, 72), f"Section {i + 1}. Depot operations", fontsize=14)
        page.insert_textbox(pymupdf.Rect(72, 90, 520, 300), "The depot in zone 3 kept its cost flat in 2024. " * 8)
    doc.save(pdf)
    return pdf


def test_text_pages_load_no_layout_model(memo: Path, tmp_path: Path) -> None:
    res = _run("auto", tmp_path / "home", memo)
    assert res["status"] == "indexed" and res["pages"] == 2
    assert "text" in res["kinds"] or "heading" in res["kinds"]
    assert res["loaded"] == [], f"parsing two text pages loaded {res['loaded']}"


def test_layout_model_still_loads_when_a_page_needs_it(memo: Path, tmp_path: Path) -> None:
    res = _run("always", tmp_path / "home", memo)
    assert res["status"] == "indexed" and res["pages"] == 2
    assert "pymupdf.layout" in res["loaded"] and "onnxruntime" in res["loaded"]


def test_pymupdf_loads_its_layout_models_on_first_use_after_pagelens() -> None:
    """``page.get_layout()`` (and ``find_tables()``'s default, which calls it) behaves as without pagelens."""
    code = (
        "import sys, pagelens.pdf_layout_import as d\n"
        "d.defer()\n"
        "import pymupdf\n"
        "assert 'pymupdf.layout' not in sys.modules\n"
        "page = pymupdf.open().new_page()\n"
        "page.insert_text((72, 72), 'Quarterly report', fontsize=14)\n"
        "page.get_layout()\n"
        "assert 'pymupdf.layout' in sys.modules and page.layout_information, page.layout_information\n"
        "print('ok')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)})
    assert proc.stdout.strip() == "ok", proc.stderr[-2000:]


def test_text_extraction_is_the_same_as_with_pymupdfs_own_imports(memo: Path) -> None:
    """PyMuPDF imports pymupdf4llm, which changes MuPDF's text settings for the process; the deferred
    import keeps those settings, so every extracted character, box and space is the same."""
    code = (
        "import sys, json\n"
        "if sys.argv[1] == 'pagelens':\n"
        "    import pagelens.pdf_layout_import as d\n"
        "    d.defer()\n"
        "import pymupdf\n"
        "page = pymupdf.open(sys.argv[2])[0]\n"
        "print(json.dumps([page.get_text('dict', flags=pymupdf.TEXT_PRESERVE_WHITESPACE), page.get_text('words')]))\n"
    )
    outs = []
    for mode in ("plain", "pagelens"):
        proc = subprocess.run([sys.executable, "-c", code, mode, str(memo)], capture_output=True, text=True, timeout=120,
                              env={"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)})
        assert proc.returncode == 0, proc.stderr[-2000:]
        outs.append(proc.stdout)
    assert outs[0] == outs[1]


def test_importing_pagelens_changes_no_import_machinery() -> None:
    """Only pagelens's own entry points defer the layout models; a program importing the library keeps
    PyMuPDF's import as it is."""
    code = "import sys\nbefore = list(sys.meta_path)\nimport pagelens.app, pymupdf\nprint(sys.meta_path == before, 'pymupdf.layout' in sys.modules)\n"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)})
    assert proc.stdout.split() == ["True", str(_layout_installed())], proc.stderr[-2000:]


def _layout_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("pymupdf.layout") is not None
