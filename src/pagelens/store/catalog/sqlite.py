"""The embedded catalog: one SQLite file under the data home, in WAL mode (the default engine).

WAL lets readers (the server, the parent of a parser child) read while one writer commits;
``BEGIN IMMEDIATE`` takes the write lock at the start of a transaction, so a document's transaction
never fails half-way on a lock. SQLite errors become ``StoreError`` lines (``sqlite_errors``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pagelens.store.catalog.base import SqlCatalog
from pagelens.store.catalog.schema import SQLITE
from pagelens.store.sqlite_errors import TranslatingConnection, translate


class SqliteCatalog(SqlCatalog):
    """The catalog in one SQLite file (``<home>/catalog.sqlite3``)."""

    def __init__(self, path: Path, busy_timeout_s: float = 30.0) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            raw = sqlite3.connect(self.path, check_same_thread=False, timeout=busy_timeout_s, isolation_level=None)
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc
        conn = TranslatingConnection(raw, self.path)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            super().__init__(conn, SQLITE, str(self.path))
        except BaseException:
            raw.close()
            raise
