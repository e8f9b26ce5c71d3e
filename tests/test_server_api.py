"""REST API through FastAPI's TestClient, on a real home (MiniLM, qdrant-edge, SQLite)."""

from __future__ import annotations

import io

import pytest

from server_support import make_pdf, wait_job

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
        chunks = (b"x" * 65536 for _ in range(40))  # no Content-Length: cut while streaming
        r = c.post("/documents", content=chunks, headers={"content-type": "multipart/form-data; boundary=b"})
        assert r.status_code == 413 and c.get("/health").status_code == 200
        r = c.post("/documents", files=[("files", ("big.pdf", big.read_bytes(), "application/pdf"))])
        assert r.status_code == 422 and "5 pages" in r.json()["detail"] and "big.pdf" in r.json()["detail"]
        small = make_pdf(tmp_path / "s.pdf")
        r = c.post("/documents", files=[("files", ("../../etc/evil name?.pdf", small.read_bytes(), "application/pdf"))])
        job = wait_job(c, r.json()["jobs"][0]["job_id"])
        assert job["state"] == "done" and job["file"] == "evil name_.pdf"
        stored = list((s.home / "uploads").rglob("*.pdf"))
        assert len(stored) == 1 and stored[0].is_relative_to(s.home / "uploads")
        assert c.get("/config").json()["max_pages"] == 4


def _pdf_with_figure(path):
    import pymupdf
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (400, 300), "white")
    draw = ImageDraw.Draw(img)
    for i in range(6):
        draw.rectangle([30 + i * 60, 280 - 30 * (i + 1), 70 + i * 60, 280], fill=(40, 80, 200))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), "Harvest report", fontsize=18)
    page.insert_textbox(pymupdf.Rect(72, 100, 520, 160), "Barley yields rose every year from 2018 to 2023.", fontsize=11)
    page.insert_image(pymupdf.Rect(72, 180, 472, 480), stream=buf.getvalue())
    page.insert_text((72, 500), "Figure 1: barley yield per year", fontsize=10)
    doc.save(path)
    return path


def test_reprocess_clears_document_caches_and_reparses_in_place(client, tmp_path, settings):
    from pagelens.store.catalog import Catalog

    pdf = _pdf_with_figure(tmp_path / "harvest.pdf")
    r = client.post("/documents", files=[("files", ("harvest.pdf", pdf.read_bytes(), "application/pdf"))])
    job = wait_job(client, r.json()["jobs"][0]["job_id"])
    assert job["state"] == "done", job
    doc_id = job["doc_id"]
    figures = [e for e in client.get(f"/documents/{doc_id}").json()["elements"] if e["kind"] == "figure"]
    assert figures and figures[0]["image_id"]
    sha = figures[0]["image_id"]
    png = client.get(f"/figures/{sha}.png")
    assert png.status_code == 200 and png.content[:4] == b"\x89PNG"

    cat = Catalog(settings.home / "catalog.sqlite3")
    cat.cache_put("ocr-figure", f"{sha}|tesseract-5", "stale words")
    cat.cache_put("ocr-figure", "f" * 64 + "|tesseract-5", "another document's figure")
    r = client.post(f"/documents/{doc_id}/reprocess")
    assert r.status_code == 202 and r.json()["job"]["kind"] == "reprocess"
    again = wait_job(client, r.json()["job"]["job_id"])
    assert again["state"] == "done" and again["doc_id"] == doc_id
    assert again["result"]["status"] == "reparsed"  # in place: the document was never removed
    assert cat.cache_get("ocr-figure", f"{sha}|tesseract-5") is None
    assert cat.cache_get("ocr-figure", "f" * 64 + "|tesseract-5") == "another document's figure"
    cat.close()
    assert [d["doc_id"] for d in client.get("/documents").json()] == [doc_id]
    hits = client.post("/search", json={"query": "barley yields", "k": 2}).json()["hits"]
    assert hits and hits[0]["doc_id"] == doc_id
    assert client.post("/documents/nope/reprocess").status_code == 404


def test_conversations_stats_components_cache(client, ingested):
    first = client.post("/query", json={"question": "How long is the Oresund bridge?"}).json()
    conv = first["conversation_id"]
    second = client.post("/query", json={"question": "And where does coffee grow?", "conversation_id": conv}).json()
    assert second["conversation_id"] == conv
    turns = client.get(f"/conversations/{conv}").json()["turns"]
    assert [t["question"] for t in turns] == ["How long is the Oresund bridge?", "And where does coffee grow?"]
    assert turns[0]["sources"][0]["page"] == 2
    assert client.delete(f"/conversations/{conv}").status_code == 204
    assert client.get(f"/conversations/{conv}").status_code == 404

    stats = client.get("/stats").json()
    assert stats["documents"] == 1 and stats["pages"] == 3 and stats["chunks"]["total"] > 0
    assert stats["elements"]["heading"] == 3 and "dense" in stats["channels"] and stats["models"]["llm"] is None
    names = [c["name"] for c in client.get("/components").json()]
    assert "embedder" in names and "vector engine" in names

    q = {"question": "Where do Arabica coffee plants grow best?"}
    assert client.post("/query", json=q).json()["cached"] is False
    assert client.post("/query", json=q).json()["cached"] is True
    assert client.post("/cache/clear").json()["cleared"] >= 1
    assert client.post("/query", json=q).json()["cached"] is False


def test_static_ui_is_served_when_present(settings, tmp_path, monkeypatch):
    from fastapi.testclient import TestClient

    from pagelens.server import app as server_app

    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>pagelens</title>")
    (static / "app.js").write_text("console.log('hi')")
    monkeypatch.setattr(server_app, "static_dir", lambda: static)
    s = settings.with_overrides(**{"server.api_key": "k"})
    with TestClient(server_app.create_app(s, open_home=False)) as c:
        assert "<title>pagelens</title>" in c.get("/").text  # no key needed for the UI itself
        assert c.get("/static/app.js").text == "console.log('hi')"
        assert c.get("/documents").status_code == 401
        assert c.get("/openapi.json").status_code == 401 and c.get("/docs").status_code == 401
        assert c.get("/openapi.json", headers={"Authorization": "Bearer k"}).json()["info"]["title"] == "pagelens"


def test_cors_origins(settings):
    from fastapi.testclient import TestClient

    from pagelens.server import create_app

    s = settings.with_overrides(**{"server.cors_origins": ["http://localhost:5173"]})
    with TestClient(create_app(s, open_home=False)) as c:
        ok = c.options("/health", headers={"Origin": "http://localhost:5173", "Access-Control-Request-Method": "GET"})
        assert ok.headers.get("access-control-allow-origin") == "http://localhost:5173"
        other = c.get("/health", headers={"Origin": "http://evil.example"})
        assert "access-control-allow-origin" not in other.headers


def test_owed_vector_work_is_done_by_the_first_job(settings, tmp_path):
    """A home whose documents were parsed but whose vectors are still owed (a run killed before
    indexing): the server
    indexes them as its first job, and they become searchable."""
    from fastapi.testclient import TestClient

    from pagelens.app import Pagelens
    from pagelens.server import create_app

    s = settings.with_overrides(**{"ingest.ocr": "off"})
    with Pagelens(s) as app:
        r = app.ingest([make_pdf(tmp_path / "facts.pdf")], index=False)[0]
        assert r.chunks == 0
        with app.catalog.transaction() as conn:  # as a run killed between parse and index leaves it
            app.catalog.add_vector_job(conn, r.doc_id, "upsert")
    with TestClient(create_app(s)) as c:
        jobs = c.get("/jobs").json()
        assert [j["kind"] for j in jobs] == ["recover"]
        assert wait_job(c, jobs[0]["job_id"])["state"] == "done"
        assert c.get("/documents").json()[0]["status"] == "indexed"
        assert c.post("/search", json={"query": "Oresund bridge", "k": 1}).json()["hits"][0]["page"] == 2


def test_config_masks_llm_credentials(settings):
    from fastapi.testclient import TestClient

    from pagelens.server import create_app

    s = settings.with_overrides(**{"answer.llm_base_url": "http://bob:hunter2@127.0.0.1:9/v1?api_key=hunter2",
                                   "answer.llm_model": "m"})
    with TestClient(create_app(s, open_home=False)) as c:
        cfg = c.get("/config").json()
    assert "hunter2" not in str(cfg) and cfg["llm_base_url"].startswith("http://***@127.0.0.1:9/v1")
    assert cfg["llm_model"] == "m" and cfg["api_key_required"] is False
