"""Server ingest jobs as catalog rows: one queue for every server that shares the catalog.

A job row moves queued → running → done | failed. A server takes one with ``claim``: on PostgreSQL a
plain transaction (not the catalog-wide writer lock) selects the oldest claimable row ``FOR UPDATE
SKIP LOCKED`` and marks it running under the claimer's name with a lease, so concurrent claimers each
get a different row without waiting for one another; on SQLite ``BEGIN IMMEDIATE`` lets one claimer at
a time look and mark. A running job whose lease ran out (its server died or hung) is claimable again;
after ``max_attempts`` claims it fails instead of killing server after server. The claimer renews the
lease while it works (``renew``); progress and the outcome are written only while it still holds the
job (``owner`` matches), so a server that lost its lease cannot overwrite the new holder's row.

Leases are measured on the catalog's clock (``Dialect.now``), never on each server's own.

``CatalogJobQueue`` works on its own catalog connection (open one per claimer): claims and progress
then never wait for an ingest's document transaction on the facade's connection.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pagelens.store.catalog.base import SqlCatalog

_COLUMNS = (
    "job_id, kind, file, source, doc_id, state, stage, page, pages, error, warnings, result, "
    "submitted_by, owner, lease_until, attempts, created, updated"
)


def _iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(float(epoch), timezone.utc).isoformat(timespec="milliseconds")


@dataclass
class JobRow:
    job_id: str
    kind: str
    file: str
    source: str
    doc_id: str | None = None
    state: str = "queued"
    stage: str = "queued"
    page: int = 0
    pages: int = 0
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    submitted_by: str = ""
    owner: str | None = None
    lease_until: float | None = None
    attempts: int = 0
    created: float = 0.0
    updated: float = 0.0

    @classmethod
    def from_row(cls, r: Any) -> "JobRow":
        return cls(
            job_id=r[0], kind=r[1], file=r[2], source=r[3], doc_id=r[4], state=r[5], stage=r[6],
            page=int(r[7]), pages=int(r[8]), error=r[9], warnings=json.loads(r[10] or "[]"),
            result=json.loads(r[11]) if r[11] else None, submitted_by=r[12], owner=r[13],
            lease_until=None if r[14] is None else float(r[14]), attempts=int(r[15]),
            created=float(r[16]), updated=float(r[17]),
        )


class CatalogJobQueue:
    """The ``jobs`` table of one catalog, through that catalog's connection and lock."""

    def __init__(self, catalog: "SqlCatalog") -> None:
        self.catalog = catalog
        self._conn = catalog._conn
        self._lock = catalog._lock
        self._now = catalog.dialect.now

    def close(self) -> None:
        self.catalog.close()

    def _one(self, sql: str, args: Any = ()) -> Any:
        with self._lock:
            return self._conn.execute(sql, args).fetchone()

    def _all(self, sql: str, args: Any = ()) -> list[Any]:
        with self._lock:
            return list(self._conn.execute(sql, args).fetchall())

    def _change(self, sql: str, args: Any = ()) -> int:
        """One statement in its own (auto-committed) transaction; the rows it changed."""
        with self._lock:
            return int(self._conn.execute(sql, args).rowcount)

    def now(self) -> float:
        """The catalog's clock, epoch seconds."""
        return float(self._one(f"SELECT {self._now}")[0])

    # -- writes ---------------------------------------------------------------------------------
    def submit(self, job_id: str, kind: str, file: str, source: str, submitted_by: str, doc_id: str | None = None) -> JobRow:
        self._change(
            f"INSERT INTO jobs(job_id, kind, file, source, doc_id, state, stage, submitted_by, created, updated) "
            f"VALUES (?,?,?,?,?,'queued','queued',?,{self._now},{self._now})",
            (job_id, kind, file, source, doc_id, submitted_by),
        )
        row = self.get(job_id)
        assert row is not None
        return row

    def claim(self, owner: str, lease_s: float, max_attempts: int = 3) -> JobRow | None:
        """Take the oldest queued job, or a running one whose lease ran out; None when there is none.
        A job claimed ``max_attempts`` times already is failed instead (its servers kept dying)."""
        dialect = self.catalog.dialect
        select = (
            f"SELECT job_id, attempts FROM jobs WHERE state='queued' OR (state='running' AND lease_until < {self._now}) "
            f"ORDER BY created, job_id LIMIT 1{dialect.skip_locked}"
        )
        with self._lock:
            for statement in dialect.queue_begin:
                self._conn.execute(statement)
            try:
                claimed = None
                for _ in range(100):  # skip past jobs that used up their attempts
                    row = self._conn.execute(select).fetchone()
                    if row is None:
                        break
                    job_id, attempts = row[0], int(row[1])
                    if attempts >= max_attempts:
                        self._conn.execute(
                            f"UPDATE jobs SET state='failed', owner=NULL, lease_until=NULL, updated={self._now}, "
                            "error=file || ': ingest: claimed ' || CAST(attempts AS TEXT) || "
                            "' times by servers that stopped before finishing it' WHERE job_id=?",
                            (job_id,),
                        )
                        continue
                    self._conn.execute(
                        f"UPDATE jobs SET state='running', stage='parse', page=0, owner=?, "
                        f"lease_until={self._now} + ?, attempts=attempts+1, updated={self._now} WHERE job_id=?",
                        (owner, float(lease_s), job_id),
                    )
                    claimed = job_id
                    break
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
        return self.get(claimed) if claimed else None

    def renew(self, job_id: str, owner: str, lease_s: float) -> bool:
        """Extend the lease; False when ``owner`` no longer holds the job."""
        return self._change(
            f"UPDATE jobs SET lease_until={self._now} + ? WHERE job_id=? AND owner=? AND state='running'",
            (float(lease_s), job_id, owner),
        ) > 0

    def progress(self, job_id: str, owner: str, stage: str, page: int, pages: int) -> bool:
        return self._change(
            f"UPDATE jobs SET stage=?, page=?, pages=?, updated={self._now} WHERE job_id=? AND owner=? AND state='running'",
            (stage, int(page), int(pages), job_id, owner),
        ) > 0

    def finish(
        self, job_id: str, owner: str, *, error: str | None, doc_id: str | None, result: dict[str, Any] | None,
        warnings: list[str], stage: str, page: int, pages: int,
    ) -> bool:
        """Record the outcome (done, or failed with ``error``) if ``owner`` still holds the job."""
        return self._change(
            f"UPDATE jobs SET state=?, stage=?, page=?, pages=?, error=?, doc_id=?, result=?, warnings=?, "
            f"lease_until=NULL, updated={self._now} WHERE job_id=? AND owner=? AND state='running'",
            (
                "failed" if error else "done", stage, int(page), int(pages), error, doc_id,
                json.dumps(result) if result is not None else None, json.dumps(list(warnings)), job_id, owner,
            ),
        ) > 0

    def prune(self, keep: int) -> int:
        """Forget finished jobs beyond the newest ``keep``."""
        return self._change(
            "DELETE FROM jobs WHERE state IN ('done', 'failed') AND job_id NOT IN "
            "(SELECT job_id FROM jobs WHERE state IN ('done', 'failed') ORDER BY updated DESC, created DESC, job_id DESC LIMIT ?)",
            (int(keep),),
        )

    # -- reads ----------------------------------------------------------------------------------
    def get(self, job_id: str) -> JobRow | None:
        row = self._one(f"SELECT {_COLUMNS} FROM jobs WHERE job_id=?", (job_id,))
        return JobRow.from_row(row) if row else None

    def list(self, limit: int) -> list[JobRow]:
        """Every unfinished job and the newest finished ones, newest first."""
        rows = self._all(
            f"SELECT {_COLUMNS} FROM jobs WHERE state IN ('queued', 'running') OR job_id IN "
            "(SELECT job_id FROM jobs WHERE state IN ('done', 'failed') ORDER BY updated DESC, created DESC, job_id DESC LIMIT ?)",
            (int(limit),),
        )
        return sorted((JobRow.from_row(r) for r in rows), key=lambda j: (j.created, j.job_id), reverse=True)

    def unfinished(self) -> list[JobRow]:
        rows = self._all(f"SELECT {_COLUMNS} FROM jobs WHERE state IN ('queued', 'running')")
        return sorted((JobRow.from_row(r) for r in rows), key=lambda j: (j.created, j.job_id), reverse=True)

    def changed_since(self, since: float) -> list[JobRow]:
        """Jobs written at or after ``since`` (catalog clock), oldest change first."""
        rows = self._all(f"SELECT {_COLUMNS} FROM jobs WHERE updated >= ?", (float(since),))
        return sorted((JobRow.from_row(r) for r in rows), key=lambda j: (j.updated, j.job_id))


def job_json(row: JobRow) -> dict[str, Any]:
    """The shape ``GET /jobs`` has always had, plus the server that holds or held the job."""
    return {
        "job_id": row.job_id, "file": row.file, "kind": row.kind, "state": row.state, "stage": row.stage,
        "page": row.page, "pages": row.pages, "doc_id": row.doc_id, "error": row.error,
        "warnings": row.warnings, "result": row.result, "created_at": _iso(row.created),
        "updated_at": _iso(row.updated), "server": row.owner or row.submitted_by, "attempts": row.attempts,
    }
