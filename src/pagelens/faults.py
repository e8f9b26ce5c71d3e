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
    ray-task          Ray parse task (pages): parsed, not returned yet; once per flag file (crash_once)
"""

from __future__ import annotations

import os
import signal

STEPS = frozenset({"forget", "forget-confirm", "upsert", "mark", "ray-task"})


def crash_point(fault_at: str | None, step: str) -> None:
    """SIGKILL this process if ``fault_at`` names ``step`` (``fault_at`` comes from Settings)."""
    if fault_at and fault_at == step:
        os.kill(os.getpid(), signal.SIGKILL)


def crash_once(fault_at: str | None, step: str, flag: "os.PathLike[str] | str") -> None:
    """Like :func:`crash_point`, but only the first time: the process that creates ``flag`` dies,
    later ones (a retry of the same task) go on. For steps whose work is retried elsewhere."""
    if not fault_at or fault_at != step:
        return
    try:
        os.close(os.open(flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    os.kill(os.getpid(), signal.SIGKILL)
