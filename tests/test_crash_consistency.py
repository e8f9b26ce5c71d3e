"""Catalog and vectors never disagree for long: a process killed (SIGKILL) at each step of a changed
file's re-ingest and of `rm` leaves a home that the next open repairs: no stale hit, no missing chunk.

Each case runs real pagelens processes (tests/crash_app.py: the parser child, qdrant-edge, the
catalog) on PDFs built here with PyMuPDF; only the text embedder is the deterministic fake.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from pdf_support import write_pdf

REPO = Path(__file__).resolve().parent.parent
RUNNER = Path(__file__).resolve().parent / "crash_app.py"


def run(home: Path, *args: str, fault: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    env.update({
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")]),
        "PAGELENS_CONFIG": str(home / "none.toml"),
        "PAGELENS_INDEX__EMBED_BATCH_SIZE": "2",  # upsert rounds of 8 chunks: a kill can fall between two
        "HF_HUB_OFFLINE": "1",
    })
    if fault:
        env["PAGELENS_FAULT_AT"] = fault
    return subprocess.run([sys.executable, str(RUNNER), str(home), *args], env=env, capture_output=True,
                          text=True, timeout=300)


def ok(proc: subprocess.CompletedProcess) -> dict:
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def killed(proc: subprocess.CompletedProcess) -> None:
    assert proc.returncode == -signal.SIGKILL, f"expected a SIGKILL, got {proc.returncode}: {proc.stderr[-1500:]}"


def assert_consistent(state: dict, stale: str | None, current: str | None) -> None:
    check = state["check"]
    assert check["ok"], check
    assert all(d["present"] == d["expected"] > 0 and not d["missing"] for d in check["documents"])
    if stale is not None:
        assert stale not in state["docs"]
        assert all(doc != stale for hits in state["hits"].values() for doc in hits), "a removed version is searchable"
    if current is not None:
        assert current in state["docs"]


@pytest.mark.parametrize(("ingest", "step"), [
    *[("ingest", step) for step in ("forget", "forget-confirm", "upsert", "mark")],  # parsed by the child process
    *[("ingest-inproc", step) for step in ("forget", "upsert")],  # parsed in process (all files, then indexing)
])
def test_changed_file_reingest_killed_at_each_step(tmp_path: Path, step: str, ingest: str) -> None:
    home, pdf = tmp_path / "home", tmp_path / "report.pdf"
    write_pdf(pdf, "alphaold phrase")
    v1 = ok(run(home, ingest, str(pdf)))["results"][0]
    assert v1["status"] == "indexed" and v1["chunks"] > 8
    write_pdf(pdf, "betanew phrase")
    killed(run(home, ingest, str(pdf), fault=step))

    state = ok(run(home, "verify", "alphaold", "betanew"))  # the next open replays what was owed
    assert_consistent(state, stale=v1["doc_id"], current=None)
    new_ids = state["docs"]
    assert len(new_ids) == 1 and new_ids[0] != v1["doc_id"]
    assert state["hits"]["alphaold"] == []
    assert state["hits"]["betanew"] and set(state["hits"]["betanew"]) == set(new_ids)

    again = ok(run(home, ingest, str(pdf)))["results"][0]  # the file is unchanged now: nothing to redo
    assert again["doc_id"] == new_ids[0] and again["status"] in ("unchanged", "indexed")
    assert_consistent(ok(run(home, "verify", "alphaold")), stale=v1["doc_id"], current=new_ids[0])


@pytest.mark.parametrize("step", ["forget", "forget-confirm"])
def test_rm_killed_between_catalog_and_vectors(tmp_path: Path, step: str) -> None:
    home, a, b = tmp_path / "home", tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_pdf(a, "gonephrase here", pages=3)
    write_pdf(b, "keptphrase here", pages=3)
    results = ok(run(home, "ingest", str(a), str(b)))["results"]
    doc_a, doc_b = results[0]["doc_id"], results[1]["doc_id"]
    killed(run(home, "rm", doc_a, fault=step))

    state = ok(run(home, "verify", "gonephrase", "keptphrase"))
    assert state["docs"] == [doc_b]
    assert state["hits"]["gonephrase"] == [] and set(state["hits"]["keptphrase"]) == {doc_b}
    assert_consistent(state, stale=doc_a, current=doc_b)
