"""The catalog contract (pagelens.store.catalog.conformance) on both engines: the embedded SQLite file
and a real PostgreSQL server started for the session (the ``pg_server`` fixture in conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pagelens.store.catalog import CatalogStore, SqliteCatalog
from pagelens.store.catalog.conformance import CatalogConformance


class TestSqliteCatalog(CatalogConformance):
    @pytest.fixture
    def catalog(self, tmp_path: Path) -> Iterator[SqliteCatalog]:
        c = SqliteCatalog(tmp_path / "catalog.sqlite3")
        yield c
        c.close()

    @pytest.fixture
    def second(self, catalog: SqliteCatalog) -> Callable[[], CatalogStore]:
        return lambda: SqliteCatalog(catalog.path)


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

        url = pg_server.url(catalog._conn._raw.info.dbname)
        return lambda: PostgresCatalog(url)
