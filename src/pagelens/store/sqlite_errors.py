"""SQLite errors translated at the catalog's boundary into ``StoreError`` lines a user can act on.

``database is locked`` after the busy timeout means another process holds the catalog's write lock:
the message names it from the home's owner file (``<home>/qdrant/OWNER``, written by whichever
process owns the home) when it can.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from pagelens.errors import HomeLockedError, StoreError


def home_owner(home: Path) -> str | None:
    """'pid N (command)' of the process that owns ``home``, or None if nobody says so."""
    try:
        info = json.loads((home / "qdrant" / "OWNER").read_text() or "{}")
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict) or "pid" not in info:
        return None
    command = info.get("command")
    return f"pid {info['pid']}" + (f" ({command})" if command else "")


def translate(exc: sqlite3.Error, path: Path) -> StoreError:
    """The ``StoreError`` that says what ``exc`` means for the catalog at ``path``."""
    msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    low = msg.lower()
    home = path.parent
    if "locked" in low or "busy" in low:
        owner = home_owner(home)
        who = f"in use by {owner}" if owner else "in use by another process"
        return HomeLockedError(f"data home {home} is {who} (catalog {path.name}: {msg}); stop it or use another --home")
    if "readonly" in low or "read-only" in low:
        return StoreError(f"catalog {path} is read-only ({msg}); make the data home writable or use another --home")
    if "unable to open" in low:
        return StoreError(f"cannot open catalog {path} ({msg}); check that the folder exists and is writable")
    if "full" in low:
        return StoreError(f"catalog {path}: the disk is full ({msg}); free some space and run the command again")
    if "malformed" in low or "not a database" in low or isinstance(exc, sqlite3.DatabaseError) and "corrupt" in low:
        return StoreError(
            f"catalog {path} is damaged ({msg}); move it aside and ingest the documents again"
        )
    return StoreError(f"catalog {path}: {msg}")


class TranslatingConnection:
    """A ``sqlite3.Connection`` whose statements raise ``StoreError`` instead of ``sqlite3.Error``."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._raw = conn
        self._path = path

    def execute(self, sql: str, args: Any = ()) -> sqlite3.Cursor:
        try:
            return self._raw.execute(sql, args)
        except sqlite3.Error as exc:
            raise translate(exc, self._path) from exc

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        try:
            return self._raw.executemany(sql, rows)
        except sqlite3.Error as exc:
            raise translate(exc, self._path) from exc

    def executescript(self, script: str) -> sqlite3.Cursor:
        try:
            return self._raw.executescript(script)
        except sqlite3.Error as exc:
            raise translate(exc, self._path) from exc

    @property
    def in_transaction(self) -> bool:
        return self._raw.in_transaction

    def close(self) -> None:
        self._raw.close()
