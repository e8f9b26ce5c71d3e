"""Memory given back between documents: glibc's arenas capped and their free pages trimmed (MuPDF's
store is emptied by the same call; this PyMuPDF cannot report its size)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pagelens import memory


@pytest.mark.skipif(memory._libc() is None, reason="malloc_trim/mallopt are glibc functions (Linux only)")
def test_trim_returns_freed_heap_to_the_system() -> None:
    code = (
        "import threading, sys\n"
        "from pagelens import memory\n"
        "assert memory.limit_arenas()\n"
        "def rss():\n"
        "    return int(open('/proc/self/statm').read().split()[1]) * 4096 / 2**20\n"
        "held, pinned = [], []\n"
        "def work():\n"  # ~180 MB of small blocks on a thread's arena, every 20th kept (a fragmented heap)
        "    for i in range(60000):\n"
        "        (pinned if i % 20 == 0 else held).append(bytearray(3000))\n"
        "t = threading.Thread(target=work); t.start(); t.join()\n"
        "peak = rss(); held.clear(); before = rss(); memory.release(); after = rss()\n"
        "print(round(peak), round(before), round(after))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    peak, before, after = map(int, proc.stdout.split())
    assert before - after >= 100, (peak, before, after)  # freed but kept by malloc until trimmed
