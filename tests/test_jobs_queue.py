"""The catalog's job queue (store/catalog/jobs.py) on both engines: concurrent claimers on their own
connections never get the same job, a lease that runs out makes a job claimable again, a claimer that
lost its job cannot write over the new holder, and a job whose servers keep dying fails."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pagelens.store.catalog import SqliteCatalog
from pagelens.store.catalog.jobs import CatalogJobQueue, job_json


@pytest.fixture(params=["sqlite", "postgresql"])
def connect(request, tmp_path: Path) -> Iterator[Callable[[], CatalogJobQueue]]:
    """Opens a new catalog connection (a new claimer) on one catalog per test."""
    if request.param == "sqlite":
        path = tmp_path / "catalog.sqlite3"
        make = lambda: CatalogJobQueue(SqliteCatalog(path))  # noqa: E731
    else:
        from pagelens.store.catalog.postgres import PostgresCatalog

        url = request.getfixturevalue("pg_server").new_database()
        make = lambda: CatalogJobQueue(PostgresCatalog(url))  # noqa: E731
    opened: list[CatalogJobQueue] = []

    def open_queue() -> CatalogJobQueue:
        q = make()
        opened.append(q)
        return q

    yield open_queue
    for q in opened:
        try:
            q.close()
        except Exception:  # noqa: BLE001 - closed by the test already
            pass


def submit(q: CatalogJobQueue, n: int) -> list[str]:
    return [q.submit(f"job{i:03d}", "ingest", f"f{i}.pdf", f"/up/f{i}.pdf", "submitter").job_id for i in range(n)]


def test_concurrent_claimers_never_get_the_same_job(connect) -> None:
    ids = submit(connect(), 60)
    claimers = [connect() for _ in range(4)]
    got: list[list[str]] = [[] for _ in claimers]
    start = threading.Barrier(len(claimers))
    errors: list[BaseException] = []

    def claim_all(i: int) -> None:
        try:
            start.wait()
            while (row := claimers[i].claim(f"server{i}", lease_s=60)) is not None:
                got[i].append(row.job_id)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=claim_all, args=(i,)) for i in range(len(claimers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    claimed = Counter(j for g in got for j in g)
    assert sorted(claimed) == sorted(ids) and set(claimed.values()) == {1}
    rows = {r.job_id: r for r in claimers[0].unfinished()}
    assert all(r.state == "running" and r.attempts == 1 for r in rows.values()) and len(rows) == 60
    for i, g in enumerate(got):  # each row names the claimer that got it
        assert all(rows[j].owner == f"server{i}" for j in g)


def test_postgres_claims_skip_a_row_another_transaction_holds(pg_server) -> None:
    """SKIP LOCKED: a claimer passes over a job whose row another transaction has locked, at once."""
    import psycopg

    from pagelens.store.catalog.postgres import PostgresCatalog

    url = pg_server.new_database()
    q = CatalogJobQueue(PostgresCatalog(url))
    try:
        first, second = submit(q, 2)
        with psycopg.connect(url) as holder:  # a claim in flight on another server: row locked, not committed
            row = holder.execute(
                "SELECT job_id FROM jobs WHERE state='queued' ORDER BY created, job_id LIMIT 1 FOR UPDATE"
            ).fetchone()
            assert row[0] == first
            started = time.monotonic()
            got = q.claim("b", lease_s=60)
            assert got is not None and got.job_id == second and time.monotonic() - started < 5
            holder.rollback()
        again = q.claim("c", lease_s=60)
        assert again is not None and again.job_id == first and again.owner == "c"
    finally:
        q.close()


def test_a_job_whose_claimer_died_is_claimed_again_after_its_lease(connect) -> None:
    ghost, live = connect(), connect()
    (job_id,) = submit(ghost, 1)
    row = ghost.claim("ghost", lease_s=1.0)
    assert row is not None and row.owner == "ghost" and row.state == "running"
    ghost.close()  # the server dies: no heartbeat, no outcome

    assert live.claim("live", lease_s=30) is None  # its lease still runs
    time.sleep(1.3)
    again = live.claim("live", lease_s=30)
    assert again is not None and (again.job_id, again.owner, again.attempts) == (job_id, "live", 2)
    assert live.progress(job_id, "live", "index", 3, 4)
    assert live.finish(job_id, "live", error=None, doc_id="d1", result={"status": "indexed"}, warnings=["w"],
                       stage="done", page=4, pages=4)
    done = live.get(job_id)
    assert done is not None and (done.state, done.doc_id, done.result, done.warnings) == ("done", "d1", {"status": "indexed"}, ["w"])
    shown = job_json(done)
    assert shown["server"] == "live" and shown["attempts"] == 2 and shown["state"] == "done"


def test_a_claimer_that_lost_its_job_cannot_write_over_the_new_holder(connect) -> None:
    slow, fast = connect(), connect()
    (job_id,) = submit(slow, 1)
    assert slow.claim("slow", lease_s=0.5) is not None
    time.sleep(0.8)  # slow missed its heartbeat
    assert fast.claim("fast", lease_s=30) is not None
    assert not slow.renew(job_id, "slow", 30)
    assert not slow.progress(job_id, "slow", "parse", 1, 2)
    assert not slow.finish(job_id, "slow", error="late", doc_id=None, result=None, warnings=[], stage="parse", page=1, pages=2)
    row = fast.get(job_id)
    assert row is not None and (row.owner, row.state, row.error) == ("fast", "running", None)
    assert fast.renew(job_id, "fast", 30)


def test_a_job_its_servers_keep_dying_on_fails_with_a_line(connect) -> None:
    q = connect()
    (job_id,) = submit(q, 1)
    for n in range(1, 3):
        row = q.claim(f"s{n}", lease_s=0.2, max_attempts=2)
        assert row is not None and row.attempts == n
        time.sleep(0.4)
    assert q.claim("s3", lease_s=0.2, max_attempts=2) is None
    row = q.get(job_id)
    assert row is not None and row.state == "failed"
    assert row.error == "f0.pdf: ingest: claimed 2 times by servers that stopped before finishing it"


def test_lists_changes_and_pruning(connect) -> None:
    q = connect()
    ids = submit(q, 5)
    time.sleep(0.05)  # SQLite's clock has millisecond steps
    before = q.now()
    for _ in range(3):
        row = q.claim("s", lease_s=30)
        assert row is not None
        assert q.finish(row.job_id, "s", error=None, doc_id=None, result=None, warnings=[], stage="done", page=1, pages=1)
    changed = q.changed_since(before - 0.001)
    assert [r.job_id for r in changed] == ids[:3]  # the three finished ones, oldest change first
    assert [r.job_id for r in q.list(10)] == list(reversed(ids))  # newest first
    assert {r.job_id for r in q.unfinished()} == set(ids[3:])
    assert q.prune(keep=1) == 2
    assert [r.job_id for r in q.list(10)] == [ids[4], ids[3], ids[2]]
