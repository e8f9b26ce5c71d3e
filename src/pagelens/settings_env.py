"""Short environment aliases for a few settings people expect to type (``PAGELENS_QDRANT_URL`` for
``PAGELENS_INDEX__QDRANT_URL``, ...): a settings source that ``Settings`` reads after explicit values."""

from __future__ import annotations

import os
from typing import Any

from pydantic_settings import PydanticBaseSettingsSource

# Short environment aliases people expect to type.
SHORT_ENV = {
    "PAGELENS_QDRANT_URL": ("index", "qdrant_url"),
    "PAGELENS_OCR": ("ingest", "ocr"),
    "PAGELENS_LLM_BASE_URL": ("answer", "llm_base_url"),
    "PAGELENS_LLM_MODEL": ("answer", "llm_model"),
    "PAGELENS_LLM_API_KEY": ("answer", "llm_api_key"),
}


class ShortEnvSource(PydanticBaseSettingsSource):
    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:  # pragma: no cover
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for env, (section, key) in SHORT_ENV.items():
            if env in os.environ:
                out.setdefault(section, {})[key] = os.environ[env]
        return out
