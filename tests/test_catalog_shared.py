"""The whole CLI on a PostgreSQL catalog (PAGELENS_CATALOG_URL): the same search results as the embedded
SQLite default on the same folder, the rows in PostgreSQL and no SQLite file; a shared image folder;
an unreachable server as one line with the password masked. Real parser, MiniLM, qdrant-edge."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pdf_support import write_pdf
from typer.testing import CliRunner

from pagelens.cli.main import app
from pagelens.errors import StoreError
from pagelens.settings import Settings
from pagelens.store.catalog import SqliteCatalog, open_catalog


def run(home: Path, *args: str, catalog_url: str | None = None, images: str | None = None) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    env["PAGELENS_CONFIG"] = str(home / "none.toml")
    if catalog_url:
        env["PAGELENS_CATALOG_URL"] = catalog_url
    if images:
        env["PAGELENS_IMAGES_DIR"] = str(images)
    result = CliRunner().invoke(app, ["--home", str(home), "--quiet", "--ocr", "off", *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def ranking(home: Path, query: str, catalog_url: str | None = None, mode: str = "hybrid") -> list[tuple[str, int, str, float]]:
    code, out, err = run(home, "search", "--json", "-k", "8", "--mode", mode, query, catalog_url=catalog_url)
    assert code == 0, err
    return [(h["doc"], h["page"], h["text"], round(h["score"], 4)) for h in json.loads(out)["results"]]


def test_the_cli_on_a_postgres_catalog_ranks_as_the_embedded_default(tmp_path: Path, pg_server) -> None:
    import psycopg

    folder = tmp_path / "docs"
    folder.mkdir()
    write_pdf(folder / "heron.pdf", "heronphrase wading birds of the estuary", pages=3)
    write_pdf(folder / "turbine.pdf", "turbinephrase blade pitch control", pages=2)
    write_pdf(folder / "ledger.pdf", "ledgerphrase quarterly accounts receivable", pages=2)
    url = pg_server.new_database()
    lite, shared = tmp_path / "lite", tmp_path / "shared"
    for home, catalog_url in ((lite, None), (shared, url)):
        code, out, err = run(home, "ingest", "--json", str(folder), catalog_url=catalog_url)
        assert code == 0, err
        assert sorted(d["status"] for d in json.loads(out)["documents"]) == ["indexed"] * 3

    assert not (shared / "catalog.sqlite3").exists() and (lite / "catalog.sqlite3").exists()
    with psycopg.connect(url) as conn:
        assert sorted(r[0] for r in conn.execute("SELECT name FROM documents")) == ["heron.pdf", "ledger.pdf", "turbine.pdf"]
        assert conn.execute("SELECT count(*) FROM elements").fetchone()[0] > 0
        assert conn.execute("SELECT count(*) FROM vector_jobs").fetchone()[0] == 0  # every upsert confirmed
        assert conn.execute("SELECT count(*) FROM indexed").fetchone()[0] == 3

    for query, doc in (("heronphrase estuary birds", "heron.pdf"), ("blade pitch", "turbine.pdf"),
                       ("accounts receivable ledgerphrase", "ledger.pdf")):
        # Dense scores never tie: the same chunks (built from the catalog's elements) rank identically.
        expected = ranking(lite, query, mode="dense")
        assert expected[0][0] == doc and ranking(shared, query, url, mode="dense") == expected
        # BM25 ties between these repetitive pages may fuse in either order: same hits, same top document.
        lite_hits, shared_hits = ranking(lite, query), ranking(shared, query, url)
        assert shared_hits[0][0] == lite_hits[0][0] == doc
        assert {h[0] for h in shared_hits} == {h[0] for h in lite_hits}

    code, out, err = run(shared, "rm", "turbine.pdf", catalog_url=url)
    assert code == 0, err
    with psycopg.connect(url) as conn:
        assert sorted(r[0] for r in conn.execute("SELECT name FROM documents")) == ["heron.pdf", "ledger.pdf"]
        assert conn.execute("SELECT count(*) FROM vector_jobs").fetchone()[0] == 0  # the vectors went too
    assert all(hit[0] != "turbine.pdf" for hit in ranking(shared, "turbinephrase blade pitch", url))
    code, out, _ = run(shared, "check", "--json", catalog_url=url)
    assert code == 0 and json.loads(out)["ok"], out


def test_an_unreachable_catalog_server_is_one_line_without_the_password(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql://alice:hunter2@127.0.0.1:{port}/pagelens"
    with pytest.raises(StoreError) as info:
        open_catalog(Settings(home=tmp_path, catalog_url=url))
    msg = str(info.value)
    assert "cannot reach catalog postgresql://***@127.0.0.1" in msg and "PAGELENS_CATALOG_URL" in msg
    assert "hunter2" not in msg and "\n" not in msg
    code, out, err = run(tmp_path / "home", "ls", catalog_url=url)
    assert code == 1 and "hunter2" not in out + err and "cannot reach catalog" in err
    from pagelens.errors import ConfigError

    with pytest.raises(ConfigError, match=r"catalog_url mysql://\*\*\*@db/x: only postgresql://"):
        open_catalog(Settings(home=tmp_path, catalog_url="mysql://bob:pw@db/x"))
    code, out, err = run(tmp_path / "home", "doctor", "--json", catalog_url=url)  # reports, needs no server
    [status] = [c for c in json.loads(out)["components"] if c["name"] == "catalog"]
    assert code == 0 and status["detail"] == f"PostgreSQL at postgresql://***@127.0.0.1:{port}/pagelens"


def test_settings_read_the_catalog_url_and_image_folder_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PAGELENS_CATALOG_URL", "postgresql://u@db.example/pl")
    monkeypatch.setenv("PAGELENS_IMAGES_DIR", str(tmp_path / "figs"))
    monkeypatch.setenv("PAGELENS_CONFIG", str(tmp_path / "none.toml"))
    s = Settings(home=tmp_path / "home")
    assert s.catalog_url == "postgresql://u@db.example/pl" and s.images_dir == str(tmp_path / "figs")
    monkeypatch.delenv("PAGELENS_CATALOG_URL")
    default = open_catalog(Settings(home=tmp_path / "home"))
    assert isinstance(default, SqliteCatalog) and default.path == tmp_path / "home" / "catalog.sqlite3"
    default.close()


def figure_pdf(path: Path) -> None:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Figure 1. A red square drawn as an image.")
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 120, 120), False)
    pix.set_rect(pix.irect, (200, 30, 30))
    page.insert_image(pymupdf.Rect(72, 100, 272, 300), pixmap=pix)
    doc.save(path)
    doc.close()


@pytest.mark.parametrize("as_url", [False, True], ids=["folder", "fsspec-url"])
def test_figure_images_go_to_the_shared_image_folder(tmp_path: Path, as_url: bool) -> None:
    pdf = tmp_path / "fig.pdf"
    figure_pdf(pdf)
    home, images = tmp_path / "home", tmp_path / "nfs" / "images"
    target = images.as_uri() if as_url else str(images)
    code, out, err = run(home, "ingest", "--json", str(pdf), images=target)
    assert code == 0, err
    stored = list(images.rglob("*.png"))
    assert len(stored) == 1 and not (home / "images").exists() and not list(images.rglob("*.tmp"))
    code, out, err = run(home, "show", "fig.pdf", images=target)
    assert code == 0 and (target.rstrip("/") + "/" + stored[0].parent.name + "/" + stored[0].name) in out.replace("\n", "")


def test_an_fsspec_image_store_is_content_addressed() -> None:
    import hashlib

    from pagelens.store.images import FsspecImageStore

    store = FsspecImageStore(f"memory://pagelens-test-{os.getpid()}/images")
    png = b"\x89PNG\r\n\x1a\n" + os.urandom(64)
    sha = store.put(png)
    assert sha == hashlib.sha256(png).hexdigest() and store.exists(sha) and store.get(sha) == png
    assert store.put(png) == sha and len(store.fs.find(f"/pagelens-test-{os.getpid()}")) == 1
    assert store.location(sha) == f"memory://pagelens-test-{os.getpid()}/images/{sha[:2]}/{sha}.png"
    assert not store.exists("0" * 64)


def test_an_unknown_image_url_scheme_says_so() -> None:
    from pagelens.errors import ComponentUnavailable
    from pagelens.store.images import FsspecImageStore

    with pytest.raises(ComponentUnavailable, match="cannot use nosuchfs://x"):
        FsspecImageStore("nosuchfs://x/images")


def test_eval_keeps_its_documents_out_of_a_shared_catalog(tmp_path: Path, pg_server) -> None:
    import psycopg
    from pdfs import SAMPLE

    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    (pdfs / "otsl.pdf").write_bytes(SAMPLE.read_bytes())
    qfile = tmp_path / "q.jsonl"
    qfile.write_text(json.dumps({"id": "o1", "pdf": "otsl.pdf", "question": "Which CPU was used for the inference timing?",
                                 "answers": ["epyc 7763"], "modality": "text", "pages": [1]}))
    url = pg_server.new_database()
    code, out, err = run(tmp_path / "home", "eval", str(qfile), "--pdfs", str(pdfs), "--no-answers", "--json", catalog_url=url,
                         images=str(tmp_path / "shared-images"))
    assert code == 0, err
    assert json.loads(out)["pages"] == 1
    with psycopg.connect(url) as conn:  # never opened: not even the tables were made
        assert conn.execute("SELECT count(*) FROM information_schema.tables WHERE table_name='documents'").fetchone()[0] == 0
    assert not (tmp_path / "shared-images").exists()
