"""The CLI beside a running `pagelens serve` (a real subprocess on 127.0.0.1): commands find it through
<home>/server.json and go through its API with the same --json shapes; a server killed with SIGKILL
leaves a home that the CLI opens directly again (the stale server file is removed)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from server_support import free_port, make_pdf

ROOT = Path(__file__).resolve().parent.parent


def _env(settings) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    src = str(ROOT / "src")
    env.update(PAGELENS_CONFIG=os.environ["PAGELENS_CONFIG"], PAGELENS_HOME=str(settings.home), PAGELENS_OCR="off",
               PYTHONPATH=src + os.pathsep + env.get("PYTHONPATH", ""), HF_HUB_OFFLINE="1")
    return env


def cli(settings, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run([sys.executable, "-m", "pagelens.cli.main", *args], env=_env(settings), capture_output=True,
                       text=True, timeout=300)
    if check and p.returncode != 0:
        raise AssertionError(f"pagelens {' '.join(args)} failed: {p.stderr}")
    return p


@pytest.fixture
def served(settings):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "pagelens.cli.main", "serve", "--port", str(port)],
                            env=_env(settings), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    marker = Path(settings.home) / "server.json"
    deadline = time.time() + 120
    while not marker.exists():
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            raise AssertionError(f"serve did not start: {proc.stderr.read() if proc.stderr else ''}")
        time.sleep(0.1)
    yield proc, marker, port
    if proc.poll() is None:
        proc.terminate()
        proc.wait(30)


def test_cli_goes_through_server_then_opens_home_after_sigkill(settings, served, tmp_path):
    proc, marker, port = served
    assert json.loads(marker.read_text()) == {"url": f"http://127.0.0.1:{port}", "pid": proc.pid}
    pdf = make_pdf(tmp_path / "facts.pdf")
    locked = make_pdf(tmp_path / "locked.pdf", password="pw")
    notpdf = tmp_path / "notes.pdf"
    notpdf.write_text("plain text, not a PDF")

    ing = cli(settings, "ingest", str(pdf), "--json")
    row = json.loads(ing.stdout)["documents"][0]
    assert row["name"] == "facts.pdf" and row["status"] == "indexed" and row["pages"] == 3 and row["chunks"] > 0
    bad = cli(settings, "ingest", str(locked), str(notpdf), check=False)
    assert bad.returncode == 1 and "locked.pdf: open: encrypted" in bad.stderr and "notes.pdf" in bad.stderr
    assert "Traceback" not in bad.stderr

    ls = json.loads(cli(settings, "ls", "--json").stdout)["documents"]
    assert [d["name"] for d in ls] == ["facts.pdf"]
    hits = json.loads(cli(settings, "search", "Oresund bridge length", "--json", "-k", "2").stdout)
    assert hits["results"][0]["page"] == 2 and set(hits["results"][0]) >= {"rank", "score", "doc", "channels", "bboxes"}
    ans = json.loads(cli(settings, "ask", "How long is the Oresund bridge?", "--json").stdout)
    assert "7,845" in ans["answer"] and ans["sources"][0]["page"] == 2
    show = json.loads(cli(settings, "show", "facts.pdf", "--page", "3", "--json").stdout)
    assert {e["page"] for e in show["elements"]} == {3}
    text = cli(settings, "ask", "How long is the Oresund bridge?").stdout
    assert "7,845" in text and "Sources" in text
    assert proc.poll() is None  # all of that went through the server, which still owns the home

    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    assert marker.exists()  # a killed server leaves its file behind ...
    after = json.loads(cli(settings, "search", "Oresund bridge length", "--json", "-k", "2").stdout)
    assert not marker.exists()  # ... which the next command finds stale and removes
    same = [(h["doc_id"], h["page"], h["kind"], h["text"], h["score"]) for h in after["results"]]
    assert same == [(h["doc_id"], h["page"], h["kind"], h["text"], h["score"]) for h in hits["results"]]
    assert json.loads(cli(settings, "ls", "--json").stdout)["documents"] == ls
    removed = cli(settings, "rm", "facts.pdf")
    assert "removed facts.pdf" in removed.stdout


def test_rm_through_server_and_a_clean_stop_removes_the_server_file(settings, served, tmp_path):
    proc, marker, _ = served
    pdf = make_pdf(tmp_path / "facts.pdf")
    cli(settings, "ingest", str(pdf))
    forced = cli(settings, "ingest", "--reparse", str(pdf), check=False)  # the server's Reprocess does that
    assert forced.returncode != 0 and "Reprocess" in forced.stderr, forced.stderr
    out = cli(settings, "rm", "facts.pdf").stdout
    assert "removed facts.pdf" in out
    assert json.loads(cli(settings, "ls", "--json").stdout)["documents"] == []
    missing = cli(settings, "rm", "facts.pdf", check=False)
    assert missing.returncode == 1 and "no document matches" in missing.stderr
    proc.send_signal(signal.SIGTERM)
    proc.wait(60)
    assert not marker.exists()


def test_sigkill_during_an_ingest_job_leaves_a_usable_home(settings, served, tmp_path):
    import httpx

    proc, marker, port = served
    small = make_pdf(tmp_path / "facts.pdf")
    cli(settings, "ingest", str(small))
    big = make_pdf(tmp_path / "long.pdf", pages=60)
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        job = http.post("/documents", files=[("files", ("long.pdf", big.read_bytes(), "application/pdf"))]).json()["jobs"][0]
        deadline = time.time() + 120
        while job["state"] == "queued" or (job["state"] == "running" and job["page"] < 2):
            assert time.time() < deadline, job
            time.sleep(0.05)
            job = http.get(f"/jobs/{job['job_id']}").json()
    assert job["state"] == "running", job  # killed in the middle of the job
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)

    docs = json.loads(cli(settings, "ls", "--json").stdout)["documents"]
    assert "facts.pdf" in [d["name"] for d in docs]
    hits = json.loads(cli(settings, "search", "Oresund bridge", "--json", "-k", "1").stdout)["results"]
    assert hits[0]["doc"] == "facts.pdf"
    again = json.loads(cli(settings, "ingest", str(big), "--json").stdout)["documents"][0]
    assert again["status"] in ("indexed", "unchanged") and again["pages"] == 60 and not marker.exists()
    found = json.loads(cli(settings, "search", "topic number 41", "--json", "-k", "3").stdout)["results"]
    assert any(h["doc"] == "long.pdf" for h in found)
