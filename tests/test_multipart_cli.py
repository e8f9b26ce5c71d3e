"""`pagelens search --explain` shows which part of a multi-part question each hit answers (built
filings, real ingest and index through the command)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from multipart_pdfs import METRIC_PAGE, filing
from pagelens.cli.main import app

QUESTION = "What were Acme's net revenue and its dividends per share in fiscal 2018?"


def run(home: Path, *args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    env["PAGELENS_CONFIG"] = str(home / "none.toml")
    env["COLUMNS"] = "200"
    result = CliRunner().invoke(app, ["--home", str(home), "--quiet", *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("multipart-cli")
    pdfs = root / "pdfs"
    pdfs.mkdir()
    filing(pdfs / "acme-10k-2018.pdf", "Acme Corporation", 2018,
           {"capex": "486", "interest": "5.8", "revenue": "43,586", "dividend": "0.48"})
    filing(pdfs / "globex-10k-2018.pdf", "Globex Corporation", 2018,
           {"capex": "733", "interest": "9.1", "revenue": "21,432", "dividend": "2.26"})
    home = root / "home"
    code, _, err = run(home, "ingest", str(pdfs))
    assert code == 0, err
    return home


def test_explain_names_the_part_each_hit_answers(home: Path) -> None:
    code, out, err = run(home, "search", QUESTION, "-k", "5", "--explain")
    assert code == 0, err
    assert "answers part: net revenue" in out and "answers part: dividends per share" in out
    assert "channels: " in out and "dense#" in out  # each hit's channels with their ranks


def test_json_carries_the_parts(home: Path) -> None:
    code, out, err = run(home, "search", QUESTION, "-k", "5", "--json")
    assert code == 0, err
    results = json.loads(out)["results"]
    parts = {(r["doc"], r["page"]): r["parts"] for r in results}
    assert parts[("acme-10k-2018.pdf", METRIC_PAGE["revenue"])] == ["net revenue"]
    assert parts[("acme-10k-2018.pdf", METRIC_PAGE["dividend"])] == ["dividends per share"]
    code, out, _ = run(home, "search", "Globex interest expense", "-k", "5", "--json")
    assert code == 0 and not any(r["parts"] for r in json.loads(out)["results"])
