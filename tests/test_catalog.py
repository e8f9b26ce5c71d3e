"""The catalog contract (pagelens.store.catalog.conformance) on both engines: the embedded SQLite file
and a real PostgreSQL server started for the session (the ``pg_server`` fixture in conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import threading

import pytest

from pagelens.errors import StoreError
from pagelens.store.catalog import CatalogStore, SqliteCatalog
from pagelens.store.catalog.conformance import CatalogConformance, doc, ingest, page_elements
from pagelens.store.catalog.schema import MIGRATIONS


class TestSqliteCatalog(CatalogConformance):
    @pytest.fixture
    def catalog(self, tmp_path: Path) -> Iterator[SqliteCatalog]:
        c = SqliteCatalog(tmp_path / "catalog.sqlite3")
        yield c
        c.close()

    @pytest.fixture
    def second(self, catalog: SqliteCatalog) -> Callable[[], CatalogStore]:
        return lambda: SqliteCatalog(catalog.path)

    def test_a_catalog_from_before_schema_versions_is_adopted_with_its_data(self, tmp_path: Path) -> None:
        import sqlite3

        path = tmp_path / "old.sqlite3"
        raw = sqlite3.connect(path)  # the tables as pagelens made them before migrations were recorded
        raw.executescript(
            "CREATE TABLE documents (doc_id TEXT PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL, "
            "version INTEGER NOT NULL DEFAULT 1, ingested_at TEXT NOT NULL, meta TEXT NOT NULL);"
            "CREATE TABLE vector_jobs (doc_id TEXT NOT NULL, op TEXT NOT NULL CHECK (op IN ('delete', 'upsert')), "
            "created REAL NOT NULL, PRIMARY KEY (doc_id, op));"
        )
        d = doc("30" * 32)
        raw.execute("INSERT INTO documents VALUES (?,?,?,?,?,?)", (d.doc_id, d.name, d.path, 1, "2026-01-01", d.model_dump_json()))
        raw.execute("INSERT INTO vector_jobs VALUES (?,?,?)", (d.doc_id, "upsert", 1.0))
        raw.commit()
        raw.close()
        c = SqliteCatalog(path)
        try:
            assert c.migrated == [v for v, _, _ in MIGRATIONS] and c.doc_ids() == {d.doc_id} and c.vector_jobs() == [(d.doc_id, "upsert")]
            c.cache_put("ocr", "k", "v")  # the tables it lacked are there now
            assert c.cache_get("ocr", "k") == "v"
        finally:
            c.close()


class TestPostgresCatalog(CatalogConformance):
    @pytest.fixture
    def catalog(self, pg_server) -> Iterator[CatalogStore]:
        from pagelens.store.catalog.postgres import PostgresCatalog

        c = PostgresCatalog(pg_server.new_database())
        yield c
        c.close()

    @pytest.fixture
    def second(self, catalog, pg_server) -> Callable[[], CatalogStore]:
        from pagelens.store.catalog.postgres import PostgresCatalog

        return lambda: PostgresCatalog(catalog.url)

    # -- what only a server does -------------------------------------------------------------------
    @staticmethod
    def _drop_connection(pg_server, catalog) -> None:
        import psycopg

        with psycopg.connect(pg_server.url(), autocommit=True) as admin:
            assert admin.execute("SELECT pg_terminate_backend(%s)", (catalog._conn.backend_pid,)).fetchone()[0]

    def test_a_connection_the_server_dropped_is_opened_again(self, catalog, pg_server) -> None:
        ingest(catalog, doc("20" * 32), {1: ["x"]})
        before = catalog._conn.backend_pid
        self._drop_connection(pg_server, catalog)
        assert catalog.doc_ids() == {"20" * 32} and catalog._conn.backend_pid != before

    def test_a_connection_dropped_inside_a_document_transaction_leaves_nothing(self, catalog, pg_server) -> None:
        d = doc("21" * 32)
        catalog.stage_elements(d.doc_id, page_elements(d.doc_id, 1, ["x"]))
        with pytest.raises(StoreError, match="cannot reach catalog"):
            with catalog.transaction() as conn:
                catalog.begin_document(conn, d)
                self._drop_connection(pg_server, catalog)
                catalog.commit_staged(conn, d.doc_id)
        assert catalog.get_document(d.doc_id) is None and catalog.vector_jobs() == []
        ingest(catalog, d, {1: ["x"]})  # and the next document goes through
        assert [e.text for e in catalog.elements(d.doc_id)] == ["x"]

    def test_processes_opening_a_new_catalog_at_once_migrate_it_once(self, pg_server) -> None:
        from pagelens.store.catalog.postgres import PostgresCatalog

        url = pg_server.new_database()
        opened: list[PostgresCatalog] = []
        errors: list[BaseException] = []
        start = threading.Barrier(4)

        def open_one() -> None:
            try:
                start.wait(10)
                opened.append(PostgresCatalog(url))
            except BaseException as exc:  # noqa: BLE001  (reported below)
                errors.append(exc)

        threads = [threading.Thread(target=open_one) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert errors == [] and len(opened) == 4
        assert sorted(len(c.migrated) for c in opened) == [0, 0, 0, len(MIGRATIONS)]
        with opened[0].transaction() as conn:
            assert conn.execute("SELECT count(*) FROM schema_version").fetchone()[0] == len(MIGRATIONS)
        for c in opened:
            c.close()
