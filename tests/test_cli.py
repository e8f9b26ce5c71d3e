"""The `pagelens` command end to end on the bundled sample: real parser, MiniLM, qdrant-edge."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pagelens.cli.main import app
from pdfs import hr_form_pdf

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "samples" / "otsl-2305.03393v1-p9.pdf"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli-home")


def run(home: Path, *args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    env["PAGELENS_CONFIG"] = str(home / "none.toml")
    result = CliRunner().invoke(app, ["--home", str(home), "--quiet", *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def ingested(home: Path) -> dict:
    code, out, err = run(home, "ingest", "--json", str(SAMPLE))
    assert code == 0, err
    return json.loads(out)


def test_ingest_json_contract(ingested: dict) -> None:
    (doc,) = ingested["documents"]
    assert set(doc) >= {"doc_id", "name", "pages", "elements", "ocr_pages", "seconds", "status", "error"}
    assert doc["name"] == SAMPLE.name and doc["pages"] == 1 and doc["status"] == "indexed" and doc["error"] is None
    assert doc["elements"]["table"] >= 1 and doc["elements"]["text"] >= 3


def test_reingest_is_unchanged(home: Path, ingested: dict) -> None:
    code, out, _ = run(home, "ingest", "--json", str(SAMPLE))
    assert code == 0 and json.loads(out)["documents"][0]["status"] == "unchanged"


def test_ls_and_show(home: Path, ingested: dict) -> None:
    code, out, _ = run(home, "ls", "--json")
    assert code == 0 and [d["name"] for d in json.loads(out)["documents"]] == [SAMPLE.name]
    code, out, _ = run(home, "show", SAMPLE.name, "--page", "1", "--json")
    els = json.loads(out)["elements"]
    assert [e["order"] for e in els] == sorted(e["order"] for e in els)
    table = next(e for e in els if e["kind"] == "table")
    assert "1.22" in table["table"]["markdown"] and table["bbox"]
    code, _, err = run(home, "show", SAMPLE.name, "--page", "7")
    assert code == 1 and "pages 1..1" in err


def test_search_json_and_batch(home: Path, ingested: dict, tmp_path: Path) -> None:
    code, out, _ = run(home, "search", "inference time of the OTSL model", "--json", "--k", "3")
    res = json.loads(out)["results"]
    assert code == 0 and 1 <= len(res) <= 3
    assert {"rank", "score", "doc", "doc_id", "page", "pages", "kind", "text", "channels"} <= set(res[0])
    batch = tmp_path / "q.jsonl"
    batch.write_text('{"id": "a", "question": "Which CPU was used?"}\n{"id": "b", "question": "HPO data set"}\n')
    code, out, _ = run(home, "search", "--batch", str(batch), "--k", "2")
    lines = [json.loads(x) for x in out.splitlines()]
    # A one-page document: its chunks merge into one hit per page (retrieval.merge_pages).
    assert [x["id"] for x in lines] == ["a", "b"] and all(len(x["results"]) == 1 for x in lines)


def test_ask_extractive_cites_the_page(home: Path, ingested: dict) -> None:
    code, out, _ = run(home, "ask", "Which CPU was used to obtain the inference timing results?", "--json")
    a = json.loads(out)
    assert code == 0 and "EPYC 7763" in a["answer"]
    assert "[1, p.1]" in a["answer"] or "p.1]" in a["answer"]
    assert a["cited"] and a["cited"][0]["page"] == 1 and a["model"] == "extractive"


def test_bad_file_is_one_line_and_exit_1(home: Path, ingested: dict, tmp_path: Path) -> None:
    bad = tmp_path / "notes.pdf"
    bad.write_text("not really a pdf")
    code, out, err = run(home, "ingest", str(bad), str(SAMPLE))
    assert code == 1
    assert len(err.strip().splitlines()) == 1 and "notes.pdf" in err and "Traceback" not in err
    assert "unchanged" in out  # the good file is still reported


def test_second_process_on_the_same_home_is_told_who_owns_it(home: Path, ingested: dict, tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from pathlib import Path
            from pagelens.app import Pagelens
            from pagelens.settings import Settings
            app = Pagelens(Settings(home=Path({str(home)!r})))
            app.store
            print("ready", flush=True)
            time.sleep(60)
        """)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        proc = subprocess.run(
            [sys.executable, "-m", "pagelens.cli.main", "--home", str(home), "search", "CPU"],
            capture_output=True, text=True, timeout=120,
        )
        assert proc.returncode == 1
        assert str(holder.pid) in proc.stderr and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
        other = tmp_path / "hr-form.pdf"
        hr_form_pdf(other)
        proc = subprocess.run(
            [sys.executable, "-m", "pagelens.cli.main", "--home", str(home), "ingest", str(other)],
            capture_output=True, text=True, timeout=120,
        )
        assert proc.returncode == 1 and str(holder.pid) in proc.stderr
        assert other.name not in run(home, "ls")[1]  # nothing parsed behind the index's back
    finally:
        holder.kill()
        holder.wait()
    time.sleep(0.2)


def test_rm_removes_document_and_its_vectors(home: Path, ingested: dict) -> None:
    code, out, _ = run(home, "rm", SAMPLE.name)
    assert code == 0 and "removed" in out
    code, out, _ = run(home, "search", "EPYC", "--json")
    assert json.loads(out)["results"] == []
    code, out, _ = run(home, "ls", "--json")
    assert json.loads(out)["documents"] == []
