"""Documents an older parser produced are parsed again at the next ingest (``ingest.version``).

Real PDFs built with PyMuPDF, the real catalog and qdrant-edge; the text embedder is the deterministic
fake. An "old parse" is simulated through the catalog's API: a stored element's text changed to a
phrase the PDF does not contain, the document's ``parser_version`` lowered, and the index repaired to
match (so the index holds the old parse's points, as it would after an upgrade).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from crash_app import UnusedOcr
from pdf_support import write_pdf
from test_crash_consistency import assert_consistent, killed, ok, run
from typer.testing import CliRunner

from pagelens.app import Pagelens
from pagelens.cli.main import app as cli
from pagelens.embed.fake import HashingEmbedder
from pagelens.index.check import IndexChecker
from pagelens.ingest import pipeline, version
from pagelens.ingest.version import PARSER_VERSION
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog

OLD = "stalephrase"


def make_stale(catalog: Catalog, doc_id: str, parser_version: int = 0) -> None:
    """What an older parser left: one element's text differs, and the document records that parser."""
    doc = catalog.get_document(doc_id)
    assert doc is not None
    element = next(e for e in catalog.elements(doc_id) if e.kind.value == "text")
    element.text = f"{OLD} {element.text}"
    with catalog.transaction() as conn:
        catalog.add_elements(conn, [element])
        catalog.update_document(conn, doc.model_copy(update={"parser_version": parser_version}))


def old_index(app: Pagelens, doc_id: str) -> None:
    """Stale the document and bring the index in line with the old parse (points of its chunks)."""
    make_stale(app.catalog, doc_id)
    checker = IndexChecker(app)
    assert checker.repair(checker.check()).ok
    assert {h.chunk.doc_id for h in app.search(OLD, k=20, mode="sparse")} == {doc_id}


def hits(app: Pagelens, query: str) -> set[str]:
    return {h.chunk.doc_id for h in app.search(query, k=50, mode="sparse")}


def open_app(settings: Settings, in_process: bool) -> Pagelens:
    # An injected OCR engine keeps parsing in this process; without one the parser pool parses.
    return Pagelens(settings, embedder=HashingEmbedder(64), ocr=UnusedOcr() if in_process else None)


@pytest.fixture
def home_settings(settings: Settings) -> Settings:
    return settings.with_overrides(**{"ingest.ocr": "off", "ingest.workers": 1, "answer.cache": False})


@pytest.mark.parametrize("in_process", [True, False], ids=["in-process", "parser-pool"])
def test_a_stale_document_is_reparsed_and_its_vectors_replaced(
    home_settings: Settings, tmp_path: Path, in_process: bool
) -> None:
    pdf = tmp_path / "report.pdf"
    write_pdf(pdf, "freshphrase words", pages=3)
    with open_app(home_settings, in_process) as app:
        [first] = app.ingest([pdf])
        assert first.status == "indexed" and first.chunks > 0
        doc_id = first.doc_id
        assert app.catalog.get_document(doc_id).parser_version == PARSER_VERSION
        old_index(app, doc_id)
        assert [s.doc_id for s in IndexChecker(app).check().stale] == [doc_id]

        [again] = app.ingest([pdf])
        assert again.status == "reparsed" and again.doc_id == doc_id and again.error is None
        assert again.replaced is None and again.chunks > 0
        doc = app.catalog.get_document(doc_id)
        assert doc.parser_version == PARSER_VERSION and doc.version == 1 and doc.path == str(pdf.resolve())
        texts = [e.text for e in app.catalog.elements(doc_id)]
        assert texts and not any(OLD in (t or "") for t in texts)  # the elements were made again
        assert hits(app, OLD) == set() and hits(app, "freshphrase") == {doc_id}
        chunks = app.indexer.chunks(doc_id)
        assert app.store.count(app.indexer.collection, doc_id) == len(chunks) == again.chunks  # no leftovers
        report = IndexChecker(app).check()
        assert report.ok and report.stale == [] and not report.pending, report.to_dict()

        [third] = app.ingest([pdf])  # current now: nothing to do
        assert third.status == "unchanged"


def test_reparse_stale_off_keeps_it_and_check_lists_it(home_settings: Settings, tmp_path: Path) -> None:
    pdf = tmp_path / "report.pdf"
    write_pdf(pdf, "freshphrase words", pages=2)
    off = home_settings.with_overrides(**{"ingest.reparse_stale": False})
    with open_app(off, in_process=True) as app:
        [first] = app.ingest([pdf])
        old_index(app, first.doc_id)
        [again] = app.ingest([pdf])
        assert again.status == "unchanged"
        assert hits(app, OLD) == {first.doc_id}  # the old parse stays, as asked
        report = IndexChecker(app).check()
        assert report.ok
        assert [(s.doc_id, s.parser_version) for s in report.stale] == [(first.doc_id, 0)]
        assert report.to_dict()["stale"][0]["name"] == "report.pdf"

        [forced] = app.ingest([pdf], reparse=True)  # --reparse: regardless of the setting
        assert forced.status == "reparsed" and hits(app, OLD) == set()
        report = IndexChecker(app).check()
        assert report.ok and report.stale == []


def test_a_newer_parser_reparses_what_this_one_stored(
    home_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = tmp_path / "report.pdf"
    write_pdf(pdf, "freshphrase words", pages=2)
    with open_app(home_settings, in_process=True) as app:
        [first] = app.ingest([pdf])
        monkeypatch.setattr(version, "PARSER_VERSION", PARSER_VERSION + 1)  # what stale means
        monkeypatch.setattr(pipeline, "PARSER_VERSION", PARSER_VERSION + 1)  # what the parser records
        assert [s.doc_id for s in IndexChecker(app).check().stale] == [first.doc_id]
        [again] = app.ingest([pdf])
        assert again.status == "reparsed"
        assert app.catalog.get_document(first.doc_id).parser_version == PARSER_VERSION + 1
        report = IndexChecker(app).check()
        assert report.ok and report.stale == []


def test_a_failed_commit_keeps_the_old_parse_and_a_rerun_completes(
    home_settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pdf = tmp_path / "report.pdf"
    write_pdf(pdf, "freshphrase words", pages=2)
    with open_app(home_settings, in_process=True) as app:
        [first] = app.ingest([pdf])
        old_index(app, first.doc_id)
        before = [(e.id, e.text) for e in app.catalog.elements(first.doc_id)]

        def boom(conn: object, doc_id: str) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(app.catalog, "commit_staged", boom)
        [failed] = app.ingest([pdf])
        assert failed.status == "failed" and "disk full" in (failed.error or "")
        assert [(e.id, e.text) for e in app.catalog.elements(first.doc_id)] == before  # nothing lost
        assert app.catalog.get_document(first.doc_id).parser_version == 0
        assert IndexChecker(app).check().ok and hits(app, OLD) == {first.doc_id}

        monkeypatch.undo()
        [again] = app.ingest([pdf])
        assert again.status == "reparsed" and hits(app, OLD) == set()
        assert IndexChecker(app).check().ok


@pytest.mark.parametrize(("ingest", "step"), [
    *[("ingest", step) for step in ("forget", "forget-confirm", "upsert", "mark")],
    *[("ingest-inproc", step) for step in ("forget", "upsert")],
])
def test_a_reparse_killed_between_catalog_and_index_is_completed(tmp_path: Path, ingest: str, step: str) -> None:
    home, pdf = tmp_path / "home", tmp_path / "report.pdf"
    write_pdf(pdf, "freshphrase words")
    [first] = ok(run(home, ingest, str(pdf)))["results"]
    doc_id = first["doc_id"]
    catalog = Catalog(home / "catalog.sqlite3")
    make_stale(catalog, doc_id)
    catalog.close()
    assert ok(run(home, "repair"))["check"]["ok"]  # the index holds the old parse's points
    old_hits = ok(run(home, "verify", OLD))["hits"][OLD]
    assert old_hits and set(old_hits) == {doc_id}

    killed(run(home, ingest, str(pdf), fault=step))  # the catalog holds the new parse; the index is behind
    state = ok(run(home, "verify", OLD, "freshphrase"))  # the next open replays what was owed
    assert_consistent(state, stale=None, current=doc_id)
    assert state["hits"][OLD] == [] and set(state["hits"]["freshphrase"]) == {doc_id}
    assert state["check"]["stale"] == []

    [again] = ok(run(home, ingest, str(pdf)))["results"]  # a rerun: nothing left to redo
    assert again["status"] in ("unchanged", "indexed") and again["doc_id"] == doc_id
    assert_consistent(ok(run(home, "verify", OLD)), stale=None, current=doc_id)


def cli_run(home: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    base["PAGELENS_CONFIG"] = str(home / "none.toml")  # the real MiniLM embeds (bundled weights)
    base.update(env or {})
    result = CliRunner().invoke(cli, ["--home", str(home), "--quiet", "--ocr", "off", *args], env=base)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout


def test_cli_ingest_reports_reparsed_and_check_lists_stale(tmp_path: Path) -> None:
    home, pdf = tmp_path / "home", tmp_path / "report.pdf"
    write_pdf(pdf, "freshphrase words", pages=2)
    code, out = cli_run(home, "ingest", "--json", str(pdf))
    assert code == 0, out
    doc_id = json.loads(out)["documents"][0]["doc_id"]
    catalog = Catalog(home / "catalog.sqlite3")
    make_stale(catalog, doc_id, parser_version=1)
    catalog.close()

    code, out = cli_run(home, "check", "--json")
    report = json.loads(out)
    assert [(s["doc_id"], s["parser_version"]) for s in report["stale"]] == [(doc_id, 1)]
    assert report["parser_version"] == PARSER_VERSION
    code, out = cli_run(home, "check")
    assert f"stale    report.pdf ({doc_id[:12]}): parsed by parser v1, this one is v{PARSER_VERSION}" in out

    code, out = cli_run(home, "ingest", "--json", str(pdf), env={"PAGELENS_INGEST__REPARSE_STALE": "false"})
    assert code == 0 and json.loads(out)["documents"][0]["status"] == "unchanged"
    code, out = cli_run(home, "ingest", "--json", str(pdf))
    assert code == 0 and json.loads(out)["documents"][0]["status"] == "reparsed"
    code, out = cli_run(home, "ingest", str(pdf))
    assert code == 0 and out.startswith("unchanged")
    code, out = cli_run(home, "ingest", "--reparse", str(pdf))
    assert code == 0 and out.startswith("reparsed")
    code, out = cli_run(home, "check", "--json")
    assert code == 0 and json.loads(out)["ok"] and json.loads(out)["stale"] == []
