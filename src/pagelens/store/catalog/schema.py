"""The catalog's schema as numbered migrations both engines run, and the small dialect layer.

Statements are written once in SQL that SQLite (≥ 3.24) and PostgreSQL both accept: ``?``
placeholders (the PostgreSQL connection turns them into ``%s``), ``INSERT … ON CONFLICT … DO UPDATE /
DO NOTHING`` for upserts, ``TEXT``/``INTEGER``/``DOUBLE PRECISION`` columns. What differs is in
``Dialect``: how a write transaction starts (SQLite ``BEGIN IMMEDIATE`` takes the database's write
lock; PostgreSQL takes one transaction-scoped advisory lock, so writers are serialised the same way
and a document's "latest version by path" read inside its transaction cannot race) and the types a
future migration may need (``{blob}``, ``{serial}``).

A catalog records the migrations it has run in ``schema_version``; opening runs the missing ones in
one transaction. A catalog written by a newer pagelens (a version this code does not know) is refused.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from pagelens.errors import StoreError

# One lock id for every catalog writer on a PostgreSQL server ("pagelens" in ASCII, fits in bigint).
PG_WRITE_LOCK = 0x7061_6765_6C65_6E73 & 0x7FFF_FFFF_FFFF_FFFF


@dataclass(frozen=True)
class Dialect:
    name: str
    begin: tuple[str, ...]  # statements that open a write transaction
    types: dict[str, str]  # placeholders in migration text -> this engine's type
    table_exists: str  # one row when the table named by the parameter exists
    # The job queue (store/catalog/jobs.py): how a claim transaction starts (no catalog-wide writer
    # lock on PostgreSQL: claims lock only the rows they take), the row-lock suffix of its SELECT, and
    # the catalog's own clock in epoch seconds (leases are compared on one clock, not each server's).
    queue_begin: tuple[str, ...] = ("BEGIN",)
    skip_locked: str = ""
    now: str = "0"

    def render(self, statement: str) -> str:
        return statement.format(**self.types)


SQLITE = Dialect(
    name="sqlite",
    begin=("BEGIN IMMEDIATE",),
    types={"blob": "BLOB", "serial": "INTEGER PRIMARY KEY AUTOINCREMENT"},
    table_exists="SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
    queue_begin=("BEGIN IMMEDIATE",),  # one claimer at a time on the file
    skip_locked="",
    now="((julianday('now') - 2440587.5) * 86400.0)",
)
POSTGRES = Dialect(
    name="postgresql",
    begin=("BEGIN", f"SELECT pg_advisory_xact_lock({PG_WRITE_LOCK})"),
    types={"blob": "BYTEA", "serial": "BIGSERIAL PRIMARY KEY"},
    table_exists="SELECT 1 FROM information_schema.tables WHERE table_schema=current_schema() AND table_name=?",
    queue_begin=("BEGIN",),
    skip_locked=" FOR UPDATE SKIP LOCKED",
    now="extract(epoch from clock_timestamp())::double precision",
)

# (version, what it does, statements). Append only: a released migration never changes.
MIGRATIONS: list[tuple[int, str, tuple[str, ...]]] = [
    (
        1,
        "documents, elements, index marks, staged page writes, pending vector work, caches",
        (
            """CREATE TABLE IF NOT EXISTS documents (
                doc_id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                path TEXT NOT NULL,
                version INTEGER NOT NULL DEFAULT 1,
                ingested_at TEXT NOT NULL,
                meta TEXT NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS documents_name ON documents(name)",
            "CREATE INDEX IF NOT EXISTS documents_path ON documents(path)",
            """CREATE TABLE IF NOT EXISTS elements (
                id TEXT PRIMARY KEY,
                doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
                page INTEGER NOT NULL,
                ord INTEGER NOT NULL,
                kind TEXT NOT NULL,
                data TEXT NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS elements_doc_page ON elements(doc_id, page, ord)",
            """CREATE TABLE IF NOT EXISTS indexed (
                doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
                index_name TEXT NOT NULL,
                chunks INTEGER NOT NULL,
                PRIMARY KEY (doc_id, index_name)
            )""",
            """CREATE TABLE IF NOT EXISTS staged_elements (
                id TEXT NOT NULL,
                doc_id TEXT NOT NULL,
                page INTEGER NOT NULL,
                ord INTEGER NOT NULL,
                kind TEXT NOT NULL,
                data TEXT NOT NULL,
                PRIMARY KEY (doc_id, id)
            )""",
            """CREATE TABLE IF NOT EXISTS vector_jobs (
                doc_id TEXT NOT NULL,
                op TEXT NOT NULL CHECK (op IN ('delete', 'upsert')),
                created DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (doc_id, op)
            )""",
            """CREATE TABLE IF NOT EXISTS cache (
                namespace TEXT NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                created DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (namespace, key)
            )""",
        ),
    ),
    (
        2,
        "server ingest jobs, claimed by any server that shares the catalog",
        (
            """CREATE TABLE IF NOT EXISTS jobs (
                job_id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                file TEXT NOT NULL,
                source TEXT NOT NULL,
                doc_id TEXT,
                state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
                stage TEXT NOT NULL,
                page INTEGER NOT NULL DEFAULT 0,
                pages INTEGER NOT NULL DEFAULT 0,
                error TEXT,
                warnings TEXT NOT NULL DEFAULT '[]',
                result TEXT,
                submitted_by TEXT NOT NULL,
                owner TEXT,
                lease_until DOUBLE PRECISION,
                attempts INTEGER NOT NULL DEFAULT 0,
                created DOUBLE PRECISION NOT NULL,
                updated DOUBLE PRECISION NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, created)",
            "CREATE INDEX IF NOT EXISTS jobs_updated ON jobs(updated)",
        ),
    ),
]

LATEST = MIGRATIONS[-1][0]


def applied_versions(conn: Any) -> set[int]:
    return {int(r[0]) for r in conn.execute("SELECT version FROM schema_version").fetchall()}


def up_to_date(conn: Any, dialect: Dialect) -> bool:
    """Whether every known migration is recorded (read only: opening a current catalog takes no
    write lock, so it opens while another process writes)."""
    if conn.execute(dialect.table_exists, ("schema_version",)).fetchone() is None:
        return False
    return applied_versions(conn) == {v for v, _, _ in MIGRATIONS}


def migrate(conn: Any, dialect: Dialect, label: str, migrations: list[tuple[int, str, tuple[str, ...]]] | None = None) -> list[int]:
    """Run the migrations ``conn`` lacks, inside the caller's write transaction; returns their versions.

    ``CREATE … IF NOT EXISTS`` lets version 1 adopt a catalog made before versions were recorded."""
    migrations = MIGRATIONS if migrations is None else migrations
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
        "applied DOUBLE PRECISION NOT NULL, note TEXT NOT NULL)"
    )
    done = applied_versions(conn)
    known = {v for v, _, _ in migrations}
    newer = sorted(done - known)
    if newer:
        raise StoreError(
            f"catalog {label} has schema version {newer[-1]}, newer than this pagelens knows "
            f"({max(known)}); upgrade pagelens or use another catalog"
        )
    ran = []
    for version, note, statements in migrations:
        if version in done:
            continue
        for statement in statements:
            conn.execute(dialect.render(statement))
        conn.execute("INSERT INTO schema_version(version, applied, note) VALUES (?,?,?)", (version, time.time(), note))
        ran.append(version)
    return ran
