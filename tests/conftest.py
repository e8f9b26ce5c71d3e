"""Shared fixtures: the committed test PDFs, PDFs built by the tests, a fresh data home, settings pointing at it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture
def tmp_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


@pytest.fixture
def settings(tmp_home: Path, monkeypatch: pytest.MonkeyPatch):
    """Settings isolated from the user's environment and any pagelens.toml."""
    from pagelens.settings import Settings

    for key in list(os.environ):
        if key.startswith("PAGELENS_"):
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PAGELENS_CONFIG", str(tmp_home / "none.toml"))
    return Settings(home=tmp_home)


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """Small public PDFs committed with the tests (sources and licences in tests/data/README.md)."""
    from pdfs import DATA

    return DATA


@pytest.fixture(scope="session")
def paper(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built two-column QUILL paper (tests/pdfs.py), written once per session."""
    from pdfs import paper_pdf

    path = tmp_path_factory.mktemp("built") / "quill.pdf"
    paper_pdf(path)
    return path


@pytest.fixture(scope="session")
def math_paper(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built math paper (tests/pdfs.py): running header, TeX-font formulas, vector charts."""
    from pdfs import math_pdf

    path = tmp_path_factory.mktemp("built") / "solve.pdf"
    math_pdf(path)
    return path


@pytest.fixture(scope="session")
def pg_server():
    """A throwaway PostgreSQL server for the session (tests/postgres_server.py); skipped, saying why,
    only when no PostgreSQL binaries or no psycopg can be found."""
    from postgres_server import PostgresServer, find_bindir

    bindir = find_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL tests: no initdb/pg_ctl found (apt-get install postgresql, or set PAGELENS_TEST_PG_BINDIR)")
    pytest.importorskip("psycopg", reason="PostgreSQL tests: psycopg missing (pip install 'pagelens[postgres]')")
    server = PostgresServer(bindir).start()
    yield server
    server.stop()
