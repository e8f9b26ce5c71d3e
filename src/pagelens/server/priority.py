"""Reads yield to the ingest job: a bounded number of questions computed at once, on threads of
lower CPU priority.

With 20 clients asking at once on 2 cores, 20 runnable query threads take ~90 % of the CPU from the
ingest's two (the scheduler shares per thread), and no answer comes faster for it. So requests wait
for one of ``server.query_concurrency`` slots (an asyncio semaphore: waiting costs no thread), and
the thread that computes a query runs ``server.query_nice`` steps nicer (Linux keeps nice values per
thread; elsewhere this is a no-op).
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import TypeVar

from starlette.concurrency import iterate_in_threadpool, run_in_threadpool

T = TypeVar("T")


class QueryGate:
    def __init__(self, concurrency: int, nice: int) -> None:
        self.concurrency = concurrency
        self.nice = nice
        self._slots: asyncio.Semaphore | None = None
        self._local = threading.local()

    @property
    def slots(self) -> asyncio.Semaphore:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.concurrency)
        return self._slots

    def lower_priority(self) -> None:
        """Make the calling thread nicer, once (a thread cannot become less nice without privileges)."""
        if not self.nice or getattr(self._local, "niced", False) or not sys.platform.startswith("linux"):
            return
        self._local.niced = True
        try:
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + self.nice))
        except OSError:
            pass

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        async with self.slots:
            yield

    async def run(self, fn, *args):  # type: ignore[no-untyped-def]
        """``fn(*args)`` in the thread pool, in a slot, on a nicer thread."""

        def call():  # type: ignore[no-untyped-def]
            self.lower_priority()
            return fn(*args)

        async with self.slot():
            return await run_in_threadpool(call)

    async def iterate(self, events: Iterator[T], release: Callable[[T], bool] | None = None) -> AsyncIterator[T]:
        """A blocking generator stepped in the thread pool, holding one slot until it ends — or until
        an event for which ``release(event)`` is true (not passed on): the CPU-bound part is over and
        the rest waits on the network (an LLM streaming its answer)."""

        def niced() -> Iterator[T]:
            for event in events:
                yield event
                self.lower_priority()

        def first() -> Iterator[T]:
            self.lower_priority()
            yield from niced()

        slots = self.slots
        await slots.acquire()
        held = True
        try:
            async for event in iterate_in_threadpool(first()):
                if release is not None and release(event):
                    if held:
                        slots.release()
                        held = False
                    continue
                yield event
        finally:
            if held:
                slots.release()
