"""REST API through FastAPI's TestClient, on a real home (MiniLM, qdrant-edge, SQLite)."""

from __future__ import annotations

import io

import pytest

from server_support import FACTS, make_pdf, wait_job

pytest.importorskip("fastapi")


@pytest.fixture
def client(settings):
    from fastapi.testclient import TestClient

    from pagelens.server import create_app

    s = settings.with_overrides(**{"ingest.ocr": "off"})
    with TestClient(create_app(s)) as c:
        yield c


@pytest.fixture
def ingested(client, tmp_path):
    pdf = make_pdf(tmp_path / "facts.pdf")
    r = client.post("/documents", files=[("files", ("facts.pdf", pdf.read_bytes(), "application/pdf"))])
    assert r.status_code == 202, r.text
    job = wait_job(client, r.json()["jobs"][0]["job_id"])
    assert job["state"] == "done", job
    return job


def test_health_and_empty_lists(client):
    assert client.get("/health").json() == {"status": "ok", "version": "0.1.0"}
    assert client.get("/documents").json() == []
    assert client.get("/jobs").json() == []
    stats = client.get("/stats").json()
    assert stats["documents"] == 0 and stats["pages"] == 0


def test_upload_ingest_list_show_search_query_delete(client, ingested):
    doc_id = ingested["doc_id"]
    assert ingested["stage"] == "done" and ingested["pages"] == 3 and ingested["page"] == 3
    docs = client.get("/documents").json()
    assert [d["name"] for d in docs] == ["facts.pdf"] and docs[0]["status"] == "indexed"
    assert docs[0]["pages"] == 3 and docs[0]["counts"]["heading"] >= 3

    detail = client.get(f"/documents/{doc_id}", params={"page": 2}).json()
    assert {e["page"] for e in detail["elements"]} == {2}
    assert any("Oresund" in e["text"] for e in detail["elements"])
    assert all(len(e["bbox"]) == 4 for e in detail["elements"] if e["kind"] != "metadata")
    assert client.get(f"/documents/{doc_id}", params={"page": 9}).status_code == 404

    r = client.post("/search", json={"query": "How long is the Oresund bridge?", "k": 3})
    hits = r.json()["hits"]
    assert hits[0]["page"] == 2 and "7,845" in hits[0]["text"]
    assert 0 < hits[0]["relevance"] <= 1 and hits[0]["relevance"] >= hits[-1]["relevance"]
    assert hits[0]["channels"]["dense"] >= 1 and hits[0]["score"] > 0
    sparse = client.post("/search", json={"query": "Arabica altitudes", "mode": "sparse", "k": 2}).json()["hits"]
    assert sparse[0]["page"] == 3 and set(sparse[0]["channels"]) == {"sparse"}

    q = client.post("/query", json={"question": "How long is the Oresund bridge?"}).json()
    assert "7,845" in q["answer"] and q["sources"][0]["page"] == 2
    assert q["citations"] and q["citations"][0]["valid"]
    assert set(q["timings"]) >= {"rewrite", "embed", "search", "fuse", "rerank", "generate", "total"}
    conv = client.get(f"/conversations/{q['conversation_id']}").json()
    assert conv["turns"][0]["question"] == "How long is the Oresund bridge?"

    assert client.delete(f"/documents/{doc_id}").status_code == 204
    assert client.get("/documents").json() == []
    assert client.post("/search", json={"query": "Oresund bridge"}).json()["hits"] == []


def test_page_png_highlight_and_figures(client, ingested):
    from PIL import Image

    doc_id = ingested["doc_id"]
    size = client.get(f"/documents/{doc_id}/pages/1/size").json()
    assert size == {"width": 595.0, "height": 842.0}
    plain = client.get(f"/documents/{doc_id}/pages/1.png", params={"scale": 1})
    assert plain.headers["content-type"] == "image/png"
    img = Image.open(io.BytesIO(plain.content)).convert("RGB")
    assert img.size == (595, 842)
    lit = client.get(f"/documents/{doc_id}/pages/1.png", params={"scale": 1, "highlight": "300,400,400,500"})
    hi = Image.open(io.BytesIO(lit.content)).convert("RGB")
    assert hi.getpixel((350, 450)) != img.getpixel((350, 450))  # inside the box: tinted
    assert hi.getpixel((100, 700)) == img.getpixel((100, 700))  # outside: unchanged
    assert client.get(f"/documents/{doc_id}/pages/1.png", params={"highlight": "1,2,3"}).status_code == 422
    assert client.get(f"/documents/{doc_id}/pages/7.png").status_code == 404
    assert client.get("/figures/" + "0" * 64 + ".png").status_code == 404
    assert client.get("/figures/..%2f..%2fcatalog.sqlite3.png").status_code == 404


def test_bad_uploads_are_refused_and_nothing_else_changes(client, ingested, tmp_path, settings):
    before = client.get("/documents").json()
    r = client.post("/documents", files=[("files", ("notes.txt", b"just some text", "text/plain"))])
    assert r.status_code == 422 and "notes.txt" in r.json()["detail"] and "not a PDF" in r.json()["detail"]
    locked = make_pdf(tmp_path / "locked.pdf", password="secret")
    r = client.post("/documents", files=[("files", ("locked.pdf", locked.read_bytes(), "application/pdf"))])
    assert r.status_code == 422 and "locked.pdf" in r.json()["detail"] and "password" in r.json()["detail"]
    # one bad file in a batch: nothing from the batch is stored
    good = make_pdf(tmp_path / "good.pdf", facts=[("Tea", "Green tea is steamed or pan-fired soon after picking.")])
    r = client.post("/documents", files=[("files", ("good.pdf", good.read_bytes(), "application/pdf")),
                                         ("files", ("bad.pdf", b"%PDF-1.7 garbage", "application/pdf"))])
    assert r.status_code == 422 and "bad.pdf" in r.json()["detail"]
    assert client.get("/documents").json() == before
    assert client.get("/jobs").json()[0]["job_id"] == ingested["job_id"]
    assert client.post("/search", json={"query": "Oresund bridge", "k": 1}).json()["hits"][0]["page"] == 2


def test_limits_and_sanitised_names(settings, tmp_path):
    from fastapi.testclient import TestClient

    from pagelens.server import create_app

    s = settings.with_overrides(**{"ingest.ocr": "off", "server.max_upload_mb": 0.05, "server.max_pages": 4})
    big = make_pdf(tmp_path / "big.pdf", pages=5)
    with TestClient(create_app(s)) as c:
        r = c.post("/documents", files=[("files", ("big.pdf", big.read_bytes() + b"\0" * 60_000, "application/pdf"))])
        assert r.status_code == 413 and "MB" in r.json()["detail"]
        r = c.post("/documents", files=[("files", ("big.pdf", big.read_bytes(), "application/pdf"))])
        assert r.status_code == 422 and "5 pages" in r.json()["detail"] and "big.pdf" in r.json()["detail"]
        small = make_pdf(tmp_path / "s.pdf")
        r = c.post("/documents", files=[("files", ("../../etc/evil name?.pdf", small.read_bytes(), "application/pdf"))])
        job = wait_job(c, r.json()["jobs"][0]["job_id"])
        assert job["state"] == "done" and job["file"] == "evil name_.pdf"
        stored = list((s.home / "uploads").rglob("*.pdf"))
        assert len(stored) == 1 and stored[0].is_relative_to(s.home / "uploads")
        assert c.get("/config").json()["max_pages"] == 4
