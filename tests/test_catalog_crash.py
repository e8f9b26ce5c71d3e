"""The crash tests (tests/test_crash_consistency.py) on a PostgreSQL catalog: a pagelens process killed
(SIGKILL) between the catalog's commit and the vector engine's work leaves a state the next open
repairs, when the pending vector work lives in PostgreSQL instead of the SQLite file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pdf_support import write_pdf
from test_crash_consistency import REPO, RUNNER, assert_consistent, killed, ok


def run(home: Path, url: str, *args: str, fault: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    env.update({
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")]),
        "PAGELENS_CONFIG": str(home / "none.toml"),
        "PAGELENS_INDEX__EMBED_BATCH_SIZE": "2",
        "PAGELENS_CATALOG_URL": url,
        "HF_HUB_OFFLINE": "1",
    })
    if fault:
        env["PAGELENS_FAULT_AT"] = fault
    return subprocess.run([sys.executable, str(RUNNER), str(home), *args], env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("step", ["forget", "upsert", "mark"])
def test_changed_file_reingest_killed_with_a_postgres_catalog(tmp_path: Path, pg_server, step: str) -> None:
    import psycopg

    url = pg_server.new_database()
    home, pdf = tmp_path / "home", tmp_path / "report.pdf"
    write_pdf(pdf, "alphaold phrase")
    v1 = ok(run(home, url, "ingest", str(pdf)))["results"][0]
    write_pdf(pdf, "betanew phrase")
    killed(run(home, url, "ingest", str(pdf), fault=step))
    with psycopg.connect(url) as conn:  # the kill left its owed work in PostgreSQL
        assert conn.execute("SELECT count(*) FROM vector_jobs").fetchone()[0] > 0

    state = ok(run(home, url, "verify", "alphaold", "betanew"))
    assert_consistent(state, stale=v1["doc_id"], current=None)
    assert state["hits"]["alphaold"] == [] and set(state["hits"]["betanew"]) == set(state["docs"])
    assert len(state["docs"]) == 1 and state["docs"][0] != v1["doc_id"]
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM vector_jobs").fetchone()[0] == 0
    assert not (home / "catalog.sqlite3").exists()


def test_rm_killed_between_catalog_and_vectors_with_a_postgres_catalog(tmp_path: Path, pg_server) -> None:
    url = pg_server.new_database()
    home, a, b = tmp_path / "home", tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_pdf(a, "gonephrase here", pages=3)
    write_pdf(b, "keptphrase here", pages=3)
    results = ok(run(home, url, "ingest", str(a), str(b)))["results"]
    doc_a, doc_b = results[0]["doc_id"], results[1]["doc_id"]
    killed(run(home, url, "rm", doc_a, fault="forget"))
    state = ok(run(home, url, "verify", "gonephrase", "keptphrase"))
    assert state["docs"] == [doc_b] and state["hits"]["gonephrase"] == []
    assert_consistent(state, stale=doc_a, current=doc_b)
