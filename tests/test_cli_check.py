"""`pagelens check` and `pagelens ingest --sync` end to end: real parser, MiniLM, qdrant-edge."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pdf_support import write_pdf
from typer.testing import CliRunner

from pagelens.cli.main import app
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.vectors.edge import EdgeVectorStore


def run(home: Path, *args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    env["PAGELENS_CONFIG"] = str(home / "none.toml")
    result = CliRunner().invoke(app, ["--home", str(home), "--quiet", "--ocr", "off", *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_check_repair_and_sync(tmp_path: Path) -> None:
    home, folder = tmp_path / "home", tmp_path / "docs"
    folder.mkdir()
    write_pdf(folder / "keep.pdf", "keepphrase words", pages=8)
    write_pdf(folder / "leave.pdf", "leavephrase words", pages=1)
    code, out, err = run(home, "ingest", "--json", str(folder))
    assert code == 0, err
    keep = next(d for d in json.loads(out)["documents"] if d["name"] == "keep.pdf")

    code, out, err = run(home, "check", "--json")
    assert code == 0 and json.loads(out)["ok"], out + err

    collection = Settings(home=home).index_name()
    store = EdgeVectorStore(home / "qdrant", home=home)
    ids = sorted(store.doc_point_ids(collection)[keep["doc_id"]])
    lost = ids[: max(1, len(ids) // 10)]
    store.delete_ids(collection, lost)
    store.close()

    code, out, _ = run(home, "check", "--json")
    report = json.loads(out)
    assert code == 1 and not report["ok"]
    [problem] = [d for d in report["documents"] if d["missing"] or d["extra"]]
    assert problem["doc_id"] == keep["doc_id"] and len(problem["missing"]) == len(lost)
    assert problem["present"] == len(ids) - len(lost)

    code, out, err = run(home, "check", "--repair")
    assert code == 0, out + err
    assert f"{len(lost)} of {len(ids)} chunks missing" in out and f"repaired: {len(lost)} chunks indexed" in out
    code, out, _ = run(home, "check", "--json")
    assert code == 0 and json.loads(out)["ok"]

    (folder / "leave.pdf").unlink()
    code, out, err = run(home, "ingest", "--sync", "--json", str(folder))
    assert code == 0, err
    assert [d["name"] for d in json.loads(out)["removed"]] == ["leave.pdf"]
    assert [d.name for d in Catalog(home / "catalog.sqlite3").documents()] == ["keep.pdf"]
    code, out, _ = run(home, "check", "--json")
    assert code == 0 and json.loads(out)["ok"]
