"""A throwaway PostgreSQL server for the tests: ``initdb`` into a temporary folder, ``pg_ctl start`` on a
free port on 127.0.0.1 (and a unix socket in that folder), trust authentication, no fsync; stopped and
deleted at the end of the session.

PostgreSQL refuses to run as root, so under root (CI, containers) the server runs as ``nobody``
through ``runuser``. The binaries come from ``PAGELENS_TEST_PG_BINDIR``, ``pg_config --bindir``,
Debian's ``/usr/lib/postgresql/<version>/bin`` or ``PATH``; ``scripts/setup.sh`` installs Debian's
``postgresql`` package when none is found.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "pagelens"  # the server's superuser (initdb -U); trust auth on 127.0.0.1 and the socket


def find_bindir() -> Path | None:
    candidates: list[Path] = []
    if os.environ.get("PAGELENS_TEST_PG_BINDIR"):
        candidates.append(Path(os.environ["PAGELENS_TEST_PG_BINDIR"]))
    if shutil.which("pg_config"):
        try:
            out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, timeout=10).stdout.strip()
            candidates.append(Path(out))
        except (OSError, subprocess.SubprocessError):
            pass
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    candidates.extend(reversed(debian))
    if shutil.which("initdb"):
        candidates.append(Path(shutil.which("initdb")).resolve().parent)  # type: ignore[arg-type]
    for c in candidates:
        if (c / "initdb").is_file() and (c / "pg_ctl").is_file():
            return c
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="pagelens-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            self._as = ["runuser", "-u", "nobody", "--"]
            shutil.chown(self.root, user="nobody")
        self._serial = 0

    def _run(self, *args: str, timeout: float = 120) -> None:
        cmd = [*self._as, str(self.bindir / args[0]), *args[1:]]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=self.root)
        if proc.returncode != 0:
            log = (self.root / "log").read_text() if (self.root / "log").exists() else ""
            raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()} {log[-2000:]}")

    def start(self) -> "PostgresServer":
        self._run("initdb", "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8", "--locale=C")
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=50"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, "-w", "-t", "60", "start")
        return self

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", timeout=60)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{dbname}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        self._serial += 1
        name = f"t{os.getpid()}_{self._serial}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)
