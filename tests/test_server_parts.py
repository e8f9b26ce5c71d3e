"""Server parts on their own: the query gate (slots, thread priority), the query-side embedding memo,
uploaded-name cleaning, highlight box parsing, jobs and conversations bookkeeping."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time

import numpy as np
import pytest

from pagelens.embed.fake import HashingEmbedder
from pagelens.server.conversations import Conversations
from pagelens.server.embed_cache import CachedEmbedder
from pagelens.server.jobs import JobManager
from pagelens.server.priority import QueryGate
from pagelens.server.render import parse_boxes
from pagelens.server.state import clean_name


def test_gate_bounds_concurrency_and_lowers_thread_priority():
    gate = QueryGate(concurrency=2, nice=3)
    running, peak, prios = [0], [0], []
    lock = threading.Lock()

    def work() -> int:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        if sys.platform.startswith("linux"):
            prios.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return 1

    async def main() -> list[int]:
        return await asyncio.gather(*(gate.run(work) for _ in range(8)))

    base = os.getpriority(os.PRIO_PROCESS, 0) if sys.platform.startswith("linux") else 0
    assert asyncio.run(main()) == [1] * 8
    assert peak[0] == 2
    if sys.platform.startswith("linux"):
        assert prios and all(p >= min(19, base + 3) for p in prios)
        assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == base  # the caller's thread is untouched


def test_gate_iterate_holds_one_slot_for_the_whole_stream():
    gate = QueryGate(concurrency=1, nice=0)
    order: list[str] = []

    def events(name: str):
        for i in range(3):
            order.append(f"{name}{i}")
            time.sleep(0.01)
            yield i

    async def consume(name: str) -> list[int]:
        return [e async for e in gate.iterate(events(name))]

    async def main():
        return await asyncio.gather(consume("a"), consume("b"))

    assert asyncio.run(main()) == [[0, 1, 2], [0, 1, 2]]
    assert order in (["a0", "a1", "a2", "b0", "b1", "b2"], ["b0", "b1", "b2", "a0", "a1", "a2"])


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__(dim=32)
        self.seen: list[str] = []

    def embed(self, texts):
        self.seen.extend(texts)
        return super().embed(texts)


def test_cached_embedder_same_vectors_less_work_bounded():
    inner = CountingEmbedder()
    memo = CachedEmbedder(inner, size=3)
    first = memo.embed(["alpha beta", "gamma", "alpha beta"])
    assert np.allclose(first, HashingEmbedder(dim=32).embed(["alpha beta", "gamma", "alpha beta"]))
    assert sorted(inner.seen) == ["alpha beta", "gamma"]  # a repeated text is embedded once
    memo.embed(["gamma", "delta"])
    assert inner.seen[-1:] == ["delta"]
    memo.embed(["eps", "zeta"])  # evicts the oldest
    memo.embed(["alpha beta"])
    assert inner.seen[-1] == "alpha beta" and len(memo._memo) == 3
    assert memo.embed([]).shape == (0, 32) and memo.dim == 32 and memo.name == inner.name


@pytest.mark.parametrize("given, stored", [
    ("report.pdf", "report.pdf"),
    ("../../etc/passwd", "passwd.pdf"),
    ("C:\\Users\\me\\scan 1.PDF", "scan 1.PDF"),
    ("..", "upload.pdf"),
    ("a\x00b<script>.pdf", "a_b_script_.pdf"),
    ("x" * 300 + ".pdf", "x" * 115 + ".pdf"),
])
def test_clean_name(given, stored):
    assert clean_name(given) == stored


def test_parse_boxes():
    assert parse_boxes("1,2,3,4;10,20,5,6") == [(1, 2, 3, 4), (5, 6, 10, 20)]
    assert parse_boxes(None) == [] and parse_boxes("") == []
    with pytest.raises(ValueError, match="x0,y0,x1,y1"):
        parse_boxes("1,2,3")
    with pytest.raises(ValueError, match="not numbers"):
        parse_boxes("a,b,c,d")


def test_jobs_run_one_at_a_time_in_order_and_report_failures():
    jobs = JobManager(keep=10)
    seen: list[dict] = []
    jobs.subscribe(seen.append)
    active, peak = [0], [0]

    def ok(job, progress):
        active[0] += 1
        peak[0] = max(peak[0], active[0])
        for i in range(1, 4):
            progress(job.file, "parse", i, 3)
        time.sleep(0.02)
        job.doc_id = "d-" + job.file
        active[0] -= 1

    def bad(job, progress):
        raise RuntimeError("b.pdf: index: disk full")

    a, b, c = jobs.submit("a.pdf", ok), jobs.submit("b.pdf", bad), jobs.submit("c.pdf", ok)
    deadline = time.time() + 10
    while jobs.unfinished() and time.time() < deadline:
        time.sleep(0.01)
    jobs.close()
    assert (a.state, b.state, c.state) == ("done", "failed", "done") and peak[0] == 1
    assert b.error == "b.pdf: index: disk full" and a.doc_id == "d-a.pdf" and a.pages == 3 and a.page == 3
    assert [j.job_id for j in jobs.list()] == [c.job_id, b.job_id, a.job_id]
    states_a = [e["state"] for e in seen if e["job_id"] == a.job_id]
    assert states_a[0] == "queued" and states_a[-1] == "done" and "running" in states_a


def test_conversations_bounded():
    conv = Conversations(max_conversations=2)
    conv.add("x", {"question": "q1", "answer": "a1"})
    conv.add("x", {"question": "q2", "answer": "a2"})
    conv.add("y", {"question": "q", "answer": "a"})
    assert conv.history("x") == [("q1", "a1"), ("q2", "a2")]
    conv.add("z", {"question": "q", "answer": "a"})
    assert conv.get("x") is None and conv.get("y") is not None  # the oldest went first
    assert conv.delete("y") and not conv.delete("y") and conv.history(None) == []


def test_gate_releases_the_slot_when_the_cpu_part_is_over():
    gate = QueryGate(concurrency=1, nice=0)
    order: list[str] = []

    def events(name: str):
        order.append(f"{name}:retrieve")
        time.sleep(0.02)
        yield {"type": "sources"}
        yield {"type": "_io"}  # from here on the answer waits on the network
        time.sleep(0.1)
        order.append(f"{name}:generated")
        yield {"type": "done"}

    async def consume(name: str) -> list[str]:
        return [e["type"] async for e in gate.iterate(events(name), release=lambda e: e["type"] == "_io")]

    async def main():
        return await asyncio.gather(consume("a"), consume("b"))

    assert asyncio.run(main()) == [["sources", "done"], ["sources", "done"]]
    # b retrieved while a was still generating: one slot, yet the two overlapped
    assert order.index("b:retrieve") < order.index("a:generated")


def test_server_store_defers_optimize_to_close(tmp_path):
    from pagelens.server.store import ServerStore
    from pagelens.vectors.edge import EdgeVectorStore
    from pagelens.vectors.protocol import PointRecord, VectorSpec

    opened: list[EdgeVectorStore] = []

    def open_store() -> EdgeVectorStore:
        opened.append(EdgeVectorStore(tmp_path / "q"))
        return opened[-1]

    calls: list[str] = []
    store = ServerStore(open_store)
    assert not opened  # opened on first use, not before
    store.ensure_collection("c", VectorSpec(dense={"v": 4}, sparse=[]))
    from pagelens.vectors import point_id

    store.upsert("c", [PointRecord(id=point_id("a"), dense={"v": [1.0, 0, 0, 0]}, payload={"doc_id": "d"})])
    real = opened[0].optimize
    opened[0].optimize = lambda name: calls.append(name) or real(name)  # type: ignore[method-assign]
    assert store.optimize("c") is False and calls == [] and store.pending == {"c"}
    assert store.count("c") == 1
    store.close()
    assert calls == ["c"] and not store.pending
    reopened = EdgeVectorStore(tmp_path / "q")  # the home lock was released
    assert reopened.count("c") == 1
    reopened.close()
