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

from collections.abc import Callable
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
    if state.startswith(("08", "57P")) or not state and type(exc).__name__ == "OperationalError":
        # connection failures, the server shutting down or ending this session
        return StoreError(f"cannot reach catalog {label} ({msg}); check PAGELENS_CATALOG_URL and that the server runs")
    return StoreError(f"catalog {label}: {msg}")


class PgConnection:
    """A psycopg connection with the sqlite3-like surface ``SqlCatalog`` uses: ``?`` placeholders,
    errors translated to ``StoreError``. A connection the server dropped (a restart, a failover, an
    idle timeout) is opened again for the next statement outside a transaction; inside one the
    transaction is lost, so that statement fails and the caller's transaction rolls back."""

    def __init__(self, connect: Callable[[], Any], label: str, psycopg: Any) -> None:
        self._connect = connect
        self._label = label
        self._error = psycopg.Error
        self._idle = psycopg.pq.TransactionStatus.IDLE
        self._raw = self._open()

    def _open(self) -> Any:
        try:
            return self._connect()
        except self._error as exc:
            raise translate(exc, self._label) from exc

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("%", "%%").replace("?", "%s")

    def _run(self, sql: str, args: Any) -> Any:
        if args:
            return self._raw.execute(self._sql(sql), tuple(args))
        return self._raw.execute(sql)

    def execute(self, sql: str, args: Any = ()) -> Any:
        if self._raw.closed:
            if sql.startswith("ROLLBACK"):  # the transaction died with the connection: nothing to undo
                return None
            self._raw = self._open()
        idle = self._raw.info.transaction_status == self._idle
        try:
            return self._run(sql, args)
        except self._error as exc:
            if not (idle and self._raw.closed):
                raise translate(exc, self._label) from exc
            self._raw = self._open()  # dropped between statements: once more on a new connection
            try:
                return self._run(sql, args)
            except self._error as again:
                raise translate(again, self._label) from again

    def executemany(self, sql: str, rows: Any) -> None:
        if self._raw.closed:
            self._raw = self._open()
        try:
            with self._raw.cursor() as cur:
                cur.executemany(self._sql(sql), [tuple(r) for r in rows])
        except self._error as exc:
            raise translate(exc, self._label) from exc

    @property
    def in_transaction(self) -> bool:
        return not self._raw.closed and self._raw.info.transaction_status != self._idle

    @property
    def backend_pid(self) -> int:
        return int(self._raw.info.backend_pid)

    def close(self) -> None:
        self._raw.close()


class PostgresCatalog(SqlCatalog):
    """The catalog on a PostgreSQL server, shared by every process and machine that names it."""

    def __init__(self, url: str, lock_timeout_s: float = 30.0, connect_timeout_s: float = 10.0) -> None:
        psycopg = _psycopg()
        self.url = url
        label = mask_url(url)

        def connect() -> Any:
            raw = psycopg.connect(url, autocommit=True, connect_timeout=max(1, int(connect_timeout_s)))
            raw.execute(f"SET lock_timeout = {int(lock_timeout_s * 1000)}")
            return raw

        conn = PgConnection(connect, label, psycopg)
        try:
            super().__init__(conn, POSTGRES, label)
        except BaseException:
            conn.close()
            raise
