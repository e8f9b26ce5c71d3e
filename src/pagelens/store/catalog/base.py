"""The catalog's queries, written once for both engines (``SqlCatalog``; see ``schema`` for the dialect).

A document becomes visible only when its ingest transaction commits, so a killed ingest leaves
nothing half-written: the next run starts that file again from scratch. While a document parses, its
elements are staged page by page in short transactions (``stage_elements``: memory stays flat and the
write lock is free between pages) and moved in one short transaction at the end (``commit_staged``).

The vector index is a second store that cannot join these transactions, so the work it still owes
the catalog is written down here, in the same transaction as the change that causes it
(``vector_jobs``): ``delete`` for a document version that left the catalog (replaced or removed),
``upsert`` for a parsed document whose vectors are not confirmed yet. A job is cleared only when the
engine has done it (``confirm_delete``, ``mark_indexed``); until then every open replays it
(``IngestCoordinator.replay_pending``).

Engine errors are translated at each engine's connection into ``StoreError`` lines a user can act on.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any

from pagelens.errors import NotFoundError
from pagelens.models import Document, Element
from pagelens.store.catalog.schema import Dialect, migrate, up_to_date

INDEX_IDENTITY_NAMESPACE = "index-identity"
"""Cache rows: collection name -> the index identity (settings) that built it in this home."""

_ELEMENT_UPSERT = (
    "ON CONFLICT (id) DO UPDATE SET doc_id=excluded.doc_id, page=excluded.page, ord=excluded.ord, "
    "kind=excluded.kind, data=excluded.data"
)


class SqlCatalog:
    """Thread-safe access to one catalog database through one connection (``conn``: execute,
    executemany, in_transaction, close; statements use ``?`` placeholders)."""

    dialect: Dialect
    label: str

    def __init__(self, conn: Any, dialect: Dialect, label: str) -> None:
        self._conn = conn
        self.dialect = dialect
        self.label = label
        self._lock = threading.RLock()
        self.migrated: list[int] = []
        if not up_to_date(conn, dialect):
            with self.transaction() as tx:
                self.migrated = migrate(tx, dialect, label)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- transactions ---------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """A write transaction; nested inside an open one (e.g. a cache write during an ingest) it
        is a savepoint that commits with the outer transaction."""
        with self._lock:
            if self._conn.in_transaction:
                self._conn.execute("SAVEPOINT nested")
                try:
                    yield self._conn
                except BaseException:
                    self._conn.execute("ROLLBACK TO SAVEPOINT nested")
                    self._conn.execute("RELEASE SAVEPOINT nested")
                    raise
                else:
                    self._conn.execute("RELEASE SAVEPOINT nested")
                return
            for statement in self.dialect.begin:
                self._conn.execute(statement)
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            else:
                self._conn.execute("COMMIT")

    # -- documents ------------------------------------------------------------------------------
    def begin_document(self, conn: Any, doc: Document) -> None:
        """Insert the document row inside an open transaction (elements follow with add_elements)."""
        doc.ingested_at = doc.ingested_at or datetime.now(timezone.utc)
        # Written afresh, as SQLite's INSERT OR REPLACE (and its cascade) did before.
        conn.execute("DELETE FROM elements WHERE doc_id=?", (doc.doc_id,))
        conn.execute("DELETE FROM indexed WHERE doc_id=?", (doc.doc_id,))
        conn.execute(
            "INSERT INTO documents(doc_id, name, path, version, ingested_at, meta) VALUES (?,?,?,?,?,?) "
            "ON CONFLICT (doc_id) DO UPDATE SET name=excluded.name, path=excluded.path, version=excluded.version, "
            "ingested_at=excluded.ingested_at, meta=excluded.meta",
            (doc.doc_id, doc.name, doc.path, doc.version, doc.ingested_at.isoformat(), doc.model_dump_json()),
        )

    def update_document(self, conn: Any, doc: Document) -> None:
        conn.execute("UPDATE documents SET meta=? WHERE doc_id=?", (doc.model_dump_json(), doc.doc_id))

    def add_elements(self, conn: Any, elements: Iterable[Element]) -> int:
        rows = [(e.id, e.doc_id, e.page, e.order, e.kind.value, e.model_dump_json()) for e in elements]
        if rows:
            conn.executemany("INSERT INTO elements(id, doc_id, page, ord, kind, data) VALUES (?,?,?,?,?,?) " + _ELEMENT_UPSERT, rows)
        return len(rows)

    def stage_elements(self, doc_id: str, elements: Iterable[Element]) -> None:
        """Stage a parsed page's elements, committed at once, invisible until ``commit_staged``."""
        rows = [(e.id, doc_id, e.page, e.order, e.kind.value, e.model_dump_json()) for e in elements]
        if rows:
            with self.transaction() as conn:
                conn.executemany(
                    "INSERT INTO staged_elements(id, doc_id, page, ord, kind, data) VALUES (?,?,?,?,?,?) "
                    "ON CONFLICT (doc_id, id) DO UPDATE SET page=excluded.page, ord=excluded.ord, kind=excluded.kind, "
                    "data=excluded.data",
                    rows,
                )

    def commit_staged(self, conn: Any, doc_id: str) -> None:
        """Inside the document's transaction: its staged elements become its elements."""
        conn.execute(
            "INSERT INTO elements(id, doc_id, page, ord, kind, data) "
            "SELECT id, doc_id, page, ord, kind, data FROM staged_elements WHERE doc_id=? ORDER BY page, ord "
            + _ELEMENT_UPSERT,
            (doc_id,),
        )
        conn.execute("DELETE FROM staged_elements WHERE doc_id=?", (doc_id,))

    def discard_staged(self, doc_id: str | None = None) -> None:
        """Drop staged elements of one document (a parse that failed or starts again), or all of them
        (what killed parses left; only while no parse runs)."""
        with self.transaction() as conn:
            if doc_id is None:
                conn.execute("DELETE FROM staged_elements")
            else:
                conn.execute("DELETE FROM staged_elements WHERE doc_id=?", (doc_id,))

    def get_document(self, doc_id: str) -> Document | None:
        with self._lock:
            row = self._conn.execute("SELECT meta FROM documents WHERE doc_id=?", (doc_id,)).fetchone()
        return Document.model_validate_json(row[0]) if row else None

    def documents(self) -> list[Document]:
        with self._lock:
            rows = self._conn.execute("SELECT meta FROM documents").fetchall()
        # Sorted here, not by the engine: a server's collation must not change the order.
        return sorted((Document.model_validate_json(r[0]) for r in rows), key=lambda d: (d.name, d.version))

    def latest_by_path(self, path: str) -> Document | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT meta FROM documents WHERE path=? ORDER BY version DESC LIMIT 1", (path,)
            ).fetchone()
        return Document.model_validate_json(row[0]) if row else None

    def resolve(self, ref: str) -> Document:
        """A document by id, id prefix (≥ 6 chars), file name, or path."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT meta FROM documents WHERE doc_id=? OR name=? OR path=? "
                "OR (length(CAST(? AS TEXT))>=6 AND substr(doc_id, 1, length(CAST(? AS TEXT)))=CAST(? AS TEXT))",
                (ref, ref, ref, ref, ref, ref.lower()),
            ).fetchall()
        docs = [Document.model_validate_json(r[0]) for r in rows]
        if not docs:
            raise NotFoundError(f"no document matches {ref!r} (see `pagelens ls`)")
        if len({d.doc_id for d in docs}) > 1:
            ids = ", ".join(f"{d.doc_id[:12]} ({d.name})" for d in docs)
            raise NotFoundError(f"{ref!r} matches several documents: {ids}; pass a doc id")
        return docs[0]

    def delete_document(self, conn: Any, doc_id: str) -> None:
        """Drop the document inside the caller's transaction, recording that its vectors must go."""
        self.add_vector_job(conn, doc_id, "delete")
        conn.execute("DELETE FROM elements WHERE doc_id=?", (doc_id,))
        conn.execute("DELETE FROM indexed WHERE doc_id=?", (doc_id,))
        conn.execute("DELETE FROM documents WHERE doc_id=?", (doc_id,))

    # -- elements -------------------------------------------------------------------------------
    def elements(self, doc_id: str, page: int | None = None, kinds: Iterable[str] | None = None) -> list[Element]:
        sql = "SELECT data FROM elements WHERE doc_id=?"
        args: list[object] = [doc_id]
        if page is not None:
            sql += " AND page=?"
            args.append(page)
        if kinds:
            kinds = list(kinds)
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args.extend(kinds)
        sql += " ORDER BY page, ord"
        with self._lock:
            rows = self._conn.execute(sql, args).fetchall()
        return [Element.model_validate_json(r[0]) for r in rows]

    def iter_elements(self, doc_id: str) -> Iterator[Element]:
        """Elements page by page without loading the whole document at once."""
        with self._lock:
            pages = [r[0] for r in self._conn.execute("SELECT DISTINCT page FROM elements WHERE doc_id=? ORDER BY page", (doc_id,))]
        for p in pages:
            yield from self.elements(doc_id, page=p)

    def element_counts(self, doc_id: str) -> dict[str, int]:
        with self._lock:
            rows = self._conn.execute("SELECT kind, count(*) FROM elements WHERE doc_id=? GROUP BY kind", (doc_id,)).fetchall()
        return {k: n for k, n in rows}

    # -- index bookkeeping ----------------------------------------------------------------------
    def mark_indexed(self, doc_id: str, index_name: str, chunks: int) -> None:
        """Record the document as indexed; this confirms (clears) its pending upsert."""
        with self.transaction() as conn:
            if conn.execute("SELECT 1 FROM documents WHERE doc_id=?", (doc_id,)).fetchone() is None:
                return  # removed meanwhile: its pending delete stays and will clear the vectors
            conn.execute(
                "INSERT INTO indexed(doc_id, index_name, chunks) VALUES (?,?,?) "
                "ON CONFLICT (doc_id, index_name) DO UPDATE SET chunks=excluded.chunks",
                (doc_id, index_name, chunks),
            )
            conn.execute("DELETE FROM vector_jobs WHERE doc_id=? AND op='upsert'", (doc_id,))

    def indexed_chunks(self, doc_id: str, index_name: str) -> int | None:
        """The chunk count recorded when the document was indexed, or None if it is not."""
        with self._lock:
            row = self._conn.execute(
                "SELECT chunks FROM indexed WHERE doc_id=? AND index_name=?", (doc_id, index_name)
            ).fetchone()
        return int(row[0]) if row else None

    def doc_ids(self) -> set[str]:
        """Every document id in the catalog (the search guard: hits of other ids are stale)."""
        with self._lock:
            return {r[0] for r in self._conn.execute("SELECT doc_id FROM documents")}

    # -- pending vector work ----------------------------------------------------------------------
    def add_vector_job(self, conn: Any, doc_id: str, op: str) -> None:
        """Record vector work owed for ``doc_id`` inside the caller's transaction. A pending delete
        supersedes a pending upsert of the same version."""
        if op == "delete":
            conn.execute("DELETE FROM vector_jobs WHERE doc_id=? AND op='upsert'", (doc_id,))
        conn.execute(
            "INSERT INTO vector_jobs(doc_id, op, created) VALUES (?,?,?) ON CONFLICT (doc_id, op) DO NOTHING", (doc_id, op, time.time())
        )

    def vector_jobs(self, op: str | None = None) -> list[tuple[str, str]]:
        """Pending (doc_id, op) pairs, oldest first."""
        sql = "SELECT doc_id, op FROM vector_jobs"
        args: tuple[str, ...] = ()
        if op is not None:
            sql += " WHERE op=?"
            args = (op,)
        with self._lock:
            return [(r[0], r[1]) for r in self._conn.execute(sql + " ORDER BY created, doc_id", args)]

    def has_vector_job(self, doc_id: str, op: str) -> bool:
        with self._lock:
            row = self._conn.execute("SELECT 1 FROM vector_jobs WHERE doc_id=? AND op=?", (doc_id, op)).fetchone()
        return row is not None

    def confirm_delete(self, doc_id: str) -> None:
        """The engine has dropped the vectors of ``doc_id``: forget the pending delete. If the same
        content is in the catalog again (removed, then ingested again), it is owed its vectors anew."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM vector_jobs WHERE doc_id=? AND op='delete'", (doc_id,))
            if conn.execute("SELECT 1 FROM documents WHERE doc_id=?", (doc_id,)).fetchone() is not None:
                conn.execute("DELETE FROM indexed WHERE doc_id=?", (doc_id,))
                self.add_vector_job(conn, doc_id, "upsert")

    def drop_index_marks(self, index_name: str) -> None:
        """Forget which documents an index (collection) holds, e.g. after it was dropped."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM indexed WHERE index_name=?", (index_name,))

    def is_indexed(self, doc_id: str, index_name: str) -> bool:
        with self._lock:
            row = self._conn.execute("SELECT 1 FROM indexed WHERE doc_id=? AND index_name=?", (doc_id, index_name)).fetchone()
        return row is not None

    # -- caches ---------------------------------------------------------------------------------
    def cache_get(self, namespace: str, key: str, ttl_s: float | None = None) -> object | None:
        with self._lock:
            row = self._conn.execute("SELECT value, created FROM cache WHERE namespace=? AND key=?", (namespace, key)).fetchone()
        if row is None or (ttl_s is not None and time.time() - row[1] > ttl_s):
            return None
        return json.loads(row[0])

    def cache_keys(self, namespace: str) -> list[str]:
        with self._lock:
            keys = [r[0] for r in self._conn.execute("SELECT key FROM cache WHERE namespace=?", (namespace,))]
        return sorted(keys)  # here, not by the engine: a server's collation must not change the order

    def cache_put(self, namespace: str, key: str, value: object) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO cache(namespace, key, value, created) VALUES (?,?,?,?) "
                "ON CONFLICT (namespace, key) DO UPDATE SET value=excluded.value, created=excluded.created",
                (namespace, key, json.dumps(value), time.time()),
            )

    def cache_delete(self, namespace: str, keys: Iterable[str] | None = None) -> None:
        with self.transaction() as conn:
            if keys is None:
                conn.execute("DELETE FROM cache WHERE namespace=?", (namespace,))
            else:
                conn.executemany("DELETE FROM cache WHERE namespace=? AND key=?", [(namespace, k) for k in keys])
