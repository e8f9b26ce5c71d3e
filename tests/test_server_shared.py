"""Two `pagelens serve` apps on one collection: real uvicorn servers on 127.0.0.1, one real PostgreSQL
catalog (each server with its own connections and its own job claimer), a shared uploads folder, and one
qdrant-client engine both talk to as they would to a Qdrant server.

No Qdrant server binary exists here, so both apps hold the same ``QdrantClient(":memory:")``; its local
engine is not thread-safe (a server is), so calls through it take turns. Claims still race through
separate PostgreSQL connections. Real parser and MiniLM."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_support import LiveServer, make_pdf

pytest.importorskip("psycopg", reason="shared servers need the PostgreSQL catalog: pip install 'pagelens[postgres]'")

TOPICS = [
    ("Glaciers", "The Perito Moreno glacier advances about two metres per day across Lake Argentino."),
    ("Violins", "Stradivari varnished his violins with a mineral ground layer that fills the spruce pores."),
    ("Tea", "Darjeeling first flush tea is picked in March after the plants wake from winter dormancy."),
    ("Satellites", "Geostationary satellites orbit at 35,786 kilometres above the equator once per sidereal day."),
    ("Bees", "Honeybee foragers perform a waggle dance whose angle points toward the nectar source."),
    ("Printing", "Gutenberg's press used oil-based ink and a screw mechanism borrowed from wine presses."),
]


class SharedQdrant:
    """One qdrant-client engine for both servers; calls take turns (a Qdrant server serialises its own)."""

    def __init__(self) -> None:
        from qdrant_client import QdrantClient

        self._client = QdrantClient(":memory:")
        self._lock = threading.RLock()

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._client, name)
        if not callable(target):
            return target

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return target(*args, **kwargs)

        return call


@pytest.fixture
def cluster(settings, tmp_path: Path, pg_server):
    """Two live servers (A, B) sharing catalog, uploads, images and vectors; yields them and the PG URL."""
    from pagelens.app import Pagelens
    from pagelens.server import create_app
    from pagelens.vectors.remote import QdrantServerStore

    url = pg_server.new_database()
    shared = tmp_path / "shared"
    qdrant = SharedQdrant()
    servers, clients, apps = [], [], []
    for name in ("a", "b"):
        s = settings.with_overrides(**{
            "home": str(tmp_path / f"home-{name}"), "catalog_url": url, "uploads_dir": str(shared / "uploads"),
            "images_dir": str(shared / "images"), "ingest.ocr": "off", "ingest.workers": 1,
            "server.job_lease_s": 3.0, "server.job_poll_s": 0.2,
        })
        facade = Pagelens(s, store=QdrantServerStore(qdrant, label=f"shared qdrant ({name})"))
        app = create_app(s, pagelens=facade)
        live = LiveServer(app).start()
        servers.append(live)
        apps.append(app)
        clients.append(httpx.Client(base_url=live.url, timeout=120))
    yield servers, clients, apps, url, shared
    for c in clients:
        c.close()
    for live in servers:
        live.stop()
    qdrant.close()


def upload(client: httpx.Client, pdf: Path) -> dict:
    r = client.post("/documents", files=[("files", (pdf.name, pdf.read_bytes(), "application/pdf"))])
    assert r.status_code == 202, r.text
    return r.json()["jobs"][0]


def wait_all(client: httpx.Client, ids: list[str], timeout: float = 300) -> dict[str, dict]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        jobs = {j["job_id"]: j for j in client.get("/jobs").json()}
        if all(i in jobs and jobs[i]["state"] in ("done", "failed") for i in ids):
            return jobs
        time.sleep(0.2)
    raise AssertionError(f"jobs not finished in {timeout}s: {client.get('/jobs').json()}")


def test_uploads_spread_over_two_servers_are_ingested_once_and_searchable_on_both(cluster, tmp_path: Path) -> None:
    import psycopg

    (a, b), (ca, cb), apps, url, shared = cluster
    calls: Counter[str] = Counter()  # every ingest either server's coordinator runs, by file
    for app in apps:
        coordinator = app.state.pagelens.app.coordinator
        real = coordinator.ingest

        def counted(paths, progress=None, index=True, _real=real, **kwargs):  # type: ignore[no-untyped-def]
            paths = list(paths)
            calls.update(Path(p).name for p in paths)
            return _real(paths, progress=progress, index=index, **kwargs)

        coordinator.ingest = counted

    pdfs = [make_pdf(tmp_path / f"{t.lower()}.pdf", [(t, fact)]) for t, fact in TOPICS]
    submitted = [upload((ca, cb)[i % 2], pdf) for i, pdf in enumerate(pdfs)]  # alternately to A and B
    ids = [j["job_id"] for j in submitted]
    assert {j["server"] for j in submitted} == {apps[0].state.pagelens.jobs.name, apps[1].state.pagelens.jobs.name}

    jobs = wait_all(ca, ids)
    assert {j["job_id"] for j in cb.get("/jobs").json()} >= set(ids)  # B lists A's jobs too
    assert all(jobs[i]["state"] == "done" and jobs[i]["attempts"] == 1 for i in ids), jobs
    assert sorted(jobs[i]["result"]["status"] for i in ids) == ["indexed"] * len(ids)
    assert calls == Counter(p.name for p in pdfs)  # each file ingested exactly once, by one server
    for i in ids:  # any server answers for any job
        assert cb.get(f"/jobs/{i}").json()["state"] == ca.get(f"/jobs/{i}").json()["state"] == "done"

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT name, version FROM documents").fetchall()
        assert sorted(rows) == sorted((p.name, 1) for p in pdfs)
        assert conn.execute("SELECT count(*) FROM vector_jobs").fetchone()[0] == 0
        owners = Counter(r[0] for r in conn.execute("SELECT owner FROM jobs"))
    assert sum(owners.values()) == len(ids) and set(owners) <= {apps[0].state.pagelens.jobs.name,
                                                               apps[1].state.pagelens.jobs.name}

    store = apps[0].state.pagelens.app.store
    collection = apps[0].state.pagelens.app.indexer.collection
    for d in ca.get("/documents").json():  # every document's points are there once
        expected = apps[1].state.pagelens.catalog.indexed_chunks(d["doc_id"], collection)
        assert expected and store.count(collection, d["doc_id"]) == expected

    for title, fact in TOPICS:
        for client in (ca, cb):
            r = client.post("/search", json={"query": fact, "k": 3})
            assert r.status_code == 200, r.text
            assert r.json()["hits"][0]["doc_name"] == f"{title.lower()}.pdf"

    # a page of a document B never ingested renders on B (the upload lies in the shared folder)
    doc = next(d for d in cb.get("/documents").json() if d["name"] == "glaciers.pdf")
    page = cb.get(f"/documents/{doc['doc_id']}/pages/1.png")
    assert page.status_code == 200 and page.content[:8] == b"\x89PNG\r\n\x1a\n"


def test_ws_jobs_on_one_server_shows_a_job_submitted_to_the_other(cluster, tmp_path: Path) -> None:
    from websockets.sync.client import connect

    (a, b), (ca, cb), apps, url, shared = cluster
    pdf = make_pdf(tmp_path / "bees.pdf", [TOPICS[4]])
    seen: list[dict] = []
    with connect(b.url.replace("http", "ws") + "/ws/jobs", open_timeout=30) as ws:
        job = upload(ca, pdf)
        deadline = time.time() + 180
        while time.time() < deadline:
            ev = json.loads(ws.recv(timeout=180))
            if ev["job"]["job_id"] == job["job_id"]:
                seen.append(ev["job"])
                if ev["job"]["state"] in ("done", "failed"):
                    break
    states = [j["state"] for j in seen]
    assert states[-1] == "done", seen
    assert "queued" in states or "running" in states


def test_reprocess_through_the_shared_queue_reparses_in_place(cluster, tmp_path: Path) -> None:
    """A reprocess submitted to B, run by whichever server claims it: the document stays listed and
    searchable on both servers while the job waits, and is re-parsed in place (same id, fresh elements)."""
    _, (ca, cb), apps, _, _ = cluster
    wait_all(ca, [upload(ca, make_pdf(tmp_path / "tea.pdf", [TOPICS[2]]))["job_id"]])
    [doc] = ca.get("/documents").json()
    doc_id = doc["doc_id"]
    catalog = apps[0].state.pagelens.app.catalog
    element = next(e for e in catalog.elements(doc_id) if e.kind.value == "text" and "Darjeeling" in (e.text or ""))
    element.text = f"stalephrase {element.text}"
    with catalog.transaction() as conn:
        catalog.add_elements(conn, [element])

    entered, release = threading.Event(), threading.Event()
    reals = []
    for app in apps:  # whichever server claims the job waits before it parses
        coordinator = app.state.pagelens.app.coordinator
        reals.append((coordinator, coordinator.ingest))

        def held(*args, _real=coordinator.ingest, **kwargs):  # type: ignore[no-untyped-def]
            entered.set()
            assert release.wait(60)
            return _real(*args, **kwargs)

        coordinator.ingest = held
    try:
        r = cb.post(f"/documents/{doc_id}/reprocess")
        assert r.status_code == 202 and r.json()["job"]["kind"] == "reprocess"
        job_id = r.json()["job"]["job_id"]
        assert entered.wait(60)
        try:
            for c in (ca, cb):
                assert [d["doc_id"] for d in c.get("/documents").json()] == [doc_id]
                hits = c.post("/search", json={"query": "Darjeeling first flush tea", "k": 3}).json()["hits"]
                assert hits and hits[0]["doc_id"] == doc_id
        finally:
            release.set()
        job = wait_all(ca, [job_id])[job_id]
    finally:
        for coordinator, real in reals:
            coordinator.ingest = real
    assert job["state"] == "done" and job["doc_id"] == doc_id and job["result"]["status"] == "reparsed", job
    for c in (ca, cb):
        assert [d["doc_id"] for d in c.get("/documents").json()] == [doc_id]
        texts = [e["text"] for e in c.get(f"/documents/{doc_id}").json()["elements"]]
        assert texts and not any("stalephrase" in (t or "") for t in texts)
        hits = c.post("/search", json={"query": "Darjeeling first flush tea", "k": 3}).json()["hits"]
        assert hits and hits[0]["doc_id"] == doc_id


def test_a_job_whose_server_died_is_run_by_another(settings, tmp_path: Path, pg_server) -> None:
    """A claimer takes a job and dies (its connection closes, no heartbeat); a live server runs the job
    once the lease is over."""
    from pagelens.app import Pagelens
    from pagelens.server import create_app
    from pagelens.store.catalog.jobs import CatalogJobQueue
    from pagelens.store.catalog.postgres import PostgresCatalog
    from pagelens.vectors.remote import QdrantServerStore

    url = pg_server.new_database()
    uploads = tmp_path / "shared" / "uploads"
    uploads.mkdir(parents=True)
    pdf = make_pdf(uploads / "violins.pdf", [TOPICS[1]])
    ghost = CatalogJobQueue(PostgresCatalog(url))
    job = ghost.submit("ghostjob00000001", "ingest", pdf.name, str(pdf), "ghost")
    assert ghost.claim("ghost", lease_s=2.0) is not None
    ghost.close()  # the server that held it is gone

    s = settings.with_overrides(**{
        "catalog_url": url, "uploads_dir": str(uploads), "ingest.ocr": "off", "ingest.workers": 1,
        "server.job_lease_s": 3.0, "server.job_poll_s": 0.2,
    })
    qdrant = SharedQdrant()
    app = create_app(s, pagelens=Pagelens(s, store=QdrantServerStore(qdrant)))
    live = LiveServer(app).start()
    try:
        with httpx.Client(base_url=live.url, timeout=120) as client:
            assert client.get(f"/jobs/{job.job_id}").json()["server"] == "ghost"
            deadline = time.time() + 180
            while (j := client.get(f"/jobs/{job.job_id}").json())["state"] not in ("done", "failed"):
                assert time.time() < deadline, j
                time.sleep(0.2)
            assert j["state"] == "done" and j["attempts"] == 2 and j["server"] == app.state.pagelens.jobs.name, j
            hits = client.post("/search", json={"query": "Stradivari varnish", "k": 3}).json()["hits"]
            assert hits[0]["doc_name"] == "violins.pdf"
    finally:
        live.stop()
        qdrant.close()
