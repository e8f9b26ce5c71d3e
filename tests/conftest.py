"""Shared fixtures: the public corpus, a fresh data home, settings pointing at it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = (REPO.parent / "shared" / "corpus").resolve()

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The public PDFs (../shared/corpus/pdfs)."""
    pdfs = CORPUS / "pdfs"
    if not pdfs.is_dir():
        pytest.skip(f"corpus not found at {pdfs}")
    return pdfs


@pytest.fixture(scope="session")
def corpus_root() -> Path:
    return CORPUS


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
