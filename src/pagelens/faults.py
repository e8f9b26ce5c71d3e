"""Test-only fault injection: the process kills itself (SIGKILL) at a named step.

``Settings.fault_at`` (env ``PAGELENS_FAULT_AT``) names the step; production code marks its steps
with :func:`crash_point`, which does nothing unless that setting names it. The crash tests use it to
stop a real process between two writes that must not be separated (catalog commit and vector delete,
upsert rounds, ...) and then check that the next open repairs what was left.

Steps (where they sit):

    forget            coordinator: a version left the catalog; its vectors are not deleted yet
    forget-confirm    coordinator: the vectors are deleted; the pending delete is not cleared yet
    upsert            indexer: after the first upsert round of a document
    mark              indexer: every point is upserted; the catalog is not told yet
"""

from __future__ import annotations

import os
import signal

STEPS = frozenset({"forget", "forget-confirm", "upsert", "mark"})


def crash_point(fault_at: str | None, step: str) -> None:
    """SIGKILL this process if ``fault_at`` names ``step`` (``fault_at`` comes from Settings)."""
    if fault_at and fault_at == step:
        os.kill(os.getpid(), signal.SIGKILL)
