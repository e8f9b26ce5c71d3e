"""Parser processes that misbehave, for tests/test_ingest_pool.py (run as a script, not collected).

    python tests/pool_workers.py crash FD    # SIGKILLs itself on a task whose PDF contains CRASH_MARKER
    python tests/pool_workers.py chatty FD   # writes junk to stdout (Python and fd 1) before every task

Both then run the real worker (pagelens.ingest.worker.main) unchanged.
"""

from __future__ import annotations

import os
import signal
import sys

import pymupdf

from pagelens.ingest import worker

CRASH_MARKER = "PAGELENS-TEST-CRASH-MARKER"


def main() -> None:
    mode = sys.argv.pop(1)
    run = worker.Worker.run

    def misbehaving_run(self: worker.Worker, task: dict) -> None:
        if mode == "crash":
            with pymupdf.open(task["path"]) as pdf:
                if any(CRASH_MARKER in page.get_text() for page in pdf):
                    os.kill(os.getpid(), signal.SIGKILL)
        elif mode == "chatty":
            print("a library says hello on stdout")
            sys.__stdout__.write('{"type": "done", "task": 1, "result": {}}\n')
            sys.__stdout__.flush()
            os.write(1, b'{"type": "failed", "task": 2, "error": "junk"}\nnot json at all\n')
        run(self, task)

    worker.Worker.run = misbehaving_run  # type: ignore[method-assign]
    worker.main()


if __name__ == "__main__":
    main()
