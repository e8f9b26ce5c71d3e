"""The settings tree: sources and their priority, validation, index identity."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from pagelens.settings import Settings


def test_env_toml_and_explicit_values_in_priority_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    toml = tmp_path / "pagelens.toml"
    toml.write_text('[ingest]\nocr = "off"\nocr_dpi = 200\n[retrieval]\nk = 3\n')
    monkeypatch.setenv("PAGELENS_CONFIG", str(toml))
    monkeypatch.setenv("PAGELENS_RETRIEVAL__K", "11")
    monkeypatch.setenv("PAGELENS_QDRANT_URL", "http://qdrant.example:6333")
    monkeypatch.setenv("PAGELENS_HOME", str(tmp_path / "h"))
    s = Settings()
    assert s.ingest.ocr == "off" and s.ingest.ocr_dpi == 200  # from the toml
    assert s.retrieval.k == 11  # env beats toml
    assert s.index.qdrant_url == "http://qdrant.example:6333"  # short alias
    assert s.home == tmp_path / "h"
    explicit = s.with_overrides(**{"retrieval.k": 2, "ingest.ocr": "tesseract", "answer.llm_model": None})
    assert explicit.retrieval.k == 2 and explicit.ingest.ocr == "tesseract"
    assert explicit.answer.llm_model is None


def test_bad_values_are_refused_with_the_field_named(settings: Settings) -> None:
    with pytest.raises(ValidationError) as err:
        settings.with_overrides(**{"ingest.ocr": "paddle"})
    assert "ocr" in str(err.value)


def test_index_identity_changes_with_model_and_chunking_only(settings: Settings) -> None:
    base = settings.index_name()
    assert settings.with_overrides(**{"retrieval.k": 3}).index_name() == base
    assert settings.with_overrides(**{"index.chunk_tokens": 120}).index_name() != base
    assert settings.with_overrides(**{"index.embedder": "/models/bge-small"}).index_name() != base


def test_every_field_is_described() -> None:
    from pydantic import BaseModel

    def walk(model: type[BaseModel], prefix: str = "") -> list[str]:
        missing = []
        for name, field in model.model_fields.items():
            ann = field.annotation
            if isinstance(ann, type) and issubclass(ann, BaseModel):
                missing += walk(ann, f"{prefix}{name}.")
            elif not field.description:
                missing.append(prefix + name)
        return missing

    assert walk(Settings) == []
