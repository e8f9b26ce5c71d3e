"""The shared catalog on a PostgreSQL server (``PAGELENS_CATALOG_URL=postgresql://user@host/db``).

Same queries, same migrations and the same transactions as the SQLite engine (``SqlCatalog``): a
write transaction first takes one transaction-scoped advisory lock, so writers are serialised as
SQLite's ``BEGIN IMMEDIATE`` serialises them, whichever machine they run on, and readers never wait.
The connection runs in autocommit mode outside those transactions. ``lock_timeout`` bounds how long a
writer waits for another (the SQLite busy timeout's counterpart).

psycopg 3 is an optional extra (``pip install 'pagelens[postgres]'``); psycopg errors are translated
here into ``StoreError`` lines that name the server with its credentials masked.
"""

from __future__ import annotations

from typing import Any

from pagelens.errors import ComponentUnavailable, StoreError
from pagelens.redact import mask_url
from pagelens.store.catalog.base import SqlCatalog
from pagelens.store.catalog.schema import POSTGRES


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError as exc:
        raise ComponentUnavailable(
            "postgresql catalog", str(exc), "pip install 'pagelens[postgres]'  (psycopg[binary])"
        ) from exc
    return psycopg


def translate(exc: Exception, label: str) -> StoreError:
    """The ``StoreError`` that says what a psycopg error means for the catalog at ``label``."""
    msg = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    state = getattr(getattr(exc, "diag", None), "sqlstate", None) or getattr(exc, "sqlstate", None) or ""
    if state in ("55P03", "57014"):  # lock_not_available, query_canceled (lock_timeout)
        return StoreError(f"catalog {label} is busy: another writer holds its lock ({msg}); try again")
    if state.startswith("28") or state == "3D000":  # authentication, unknown database
        return StoreError(f"cannot use catalog {label} ({msg}); check PAGELENS_CATALOG_URL")
    if state == "42501" or state == "25006":  # insufficient privilege, read-only transaction
        return StoreError(f"catalog {label} is read-only for this user ({msg}); grant write access or use another catalog")
    if state == "53100":
        return StoreError(f"catalog {label}: the server's disk is full ({msg}); free some space and run the command again")
    if state.startswith("08") or not state and type(exc).__name__ == "OperationalError":
        return StoreError(f"cannot reach catalog {label} ({msg}); check PAGELENS_CATALOG_URL and that the server runs")
    return StoreError(f"catalog {label}: {msg}")


class PgConnection:
    """A psycopg connection with the sqlite3-like surface ``SqlCatalog`` uses: ``?`` placeholders,
    errors translated to ``StoreError``."""

    def __init__(self, raw: Any, label: str, psycopg: Any) -> None:
        self._raw = raw
        self._label = label
        self._error = psycopg.Error
        self._idle = psycopg.pq.TransactionStatus.IDLE

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("%", "%%").replace("?", "%s")

    def execute(self, sql: str, args: Any = ()) -> Any:
        try:
            if args:
                return self._raw.execute(self._sql(sql), tuple(args))
            return self._raw.execute(sql)
        except self._error as exc:
            raise translate(exc, self._label) from exc

    def executemany(self, sql: str, rows: Any) -> None:
        try:
            with self._raw.cursor() as cur:
                cur.executemany(self._sql(sql), [tuple(r) for r in rows])
        except self._error as exc:
            raise translate(exc, self._label) from exc

    @property
    def in_transaction(self) -> bool:
        return self._raw.info.transaction_status != self._idle

    def close(self) -> None:
        self._raw.close()


class PostgresCatalog(SqlCatalog):
    """The catalog on a PostgreSQL server, shared by every process and machine that names it."""

    def __init__(self, url: str, lock_timeout_s: float = 30.0, connect_timeout_s: float = 10.0) -> None:
        psycopg = _psycopg()
        label = mask_url(url)
        try:
            raw = psycopg.connect(url, autocommit=True, connect_timeout=max(1, int(connect_timeout_s)))
        except psycopg.Error as exc:
            raise translate(exc, label) from exc
        conn = PgConnection(raw, label, psycopg)
        try:
            conn.execute(f"SET lock_timeout = {int(lock_timeout_s * 1000)}")
            super().__init__(conn, POSTGRES, label)
        except BaseException:
            raw.close()
            raise
