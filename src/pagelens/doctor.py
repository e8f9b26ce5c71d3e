"""`pagelens doctor`: which components can run here, and why not."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pagelens.redact import mask_url, secret
from pagelens.settings import Settings

if TYPE_CHECKING:
    from pagelens.app import ComponentStatus


def component_statuses(settings: Settings) -> list["ComponentStatus"]:
    from pagelens.app import ComponentStatus
    from pagelens.embed import clip_status, embedder_status
    from pagelens.ocr import ocr_status
    from pagelens.retrieve.rerank import reranker_status

    out: list[ComponentStatus] = []
    ok, why = embedder_status(settings.index)
    out.append(ComponentStatus("embedder", ok, why))
    out.append(ComponentStatus("bm25", True, "built in (snowball stemmer, hashed terms, Qdrant IDF)"))
    ok, why = clip_status(settings.index)
    out.append(ComponentStatus("clip (image channel)", ok, why))
    ok, why = reranker_status(settings.retrieval)
    out.append(ComponentStatus("reranker", ok, why))
    for engine, ok, why in ocr_status(settings.ingest):
        out.append(ComponentStatus(f"ocr: {engine}", ok, why))
    out.append(_vector_status(settings))
    out.append(_llm_status(settings))
    out.append(_catalog_status(settings))
    return out


def _catalog_status(settings: Settings) -> "ComponentStatus":
    """Where the catalog lives (nothing is opened: doctor must not need the server up)."""
    from pagelens.app import ComponentStatus

    if not settings.catalog_url:
        return ComponentStatus("catalog", True, f"embedded SQLite at {settings.home / 'catalog.sqlite3'}")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return ComponentStatus("catalog", False, "psycopg missing for PAGELENS_CATALOG_URL: pip install 'pagelens[postgres]'")
    return ComponentStatus("catalog", True, f"PostgreSQL at {mask_url(settings.catalog_url)}")


def _vector_status(settings: Settings) -> "ComponentStatus":
    from pagelens.app import ComponentStatus

    if settings.index.qdrant_url:
        return ComponentStatus("vector engine", True, f"Qdrant server at {mask_url(settings.index.qdrant_url)}")
    try:
        import qdrant_edge  # noqa: F401
    except ImportError:
        return ComponentStatus("vector engine", False, "qdrant-edge-py missing: pip install qdrant-edge-py")
    return ComponentStatus("vector engine", True, f"embedded qdrant-edge at {settings.home / 'qdrant'}")


def _llm_status(settings: Settings) -> "ComponentStatus":
    from pagelens.app import ComponentStatus

    a = settings.answer
    if not (a.llm_base_url or a.llm_preset):
        return ComponentStatus(
            "llm", False, "not configured: extractive answers (set PAGELENS_LLM_BASE_URL and PAGELENS_LLM_MODEL)"
        )
    base = mask_url(a.llm_base_url) if a.llm_base_url else a.llm_preset
    detail = f"{base} model={a.llm_model or '?'}{' (vision)' if a.vision else ''}"
    try:
        import httpx

        url = (a.llm_base_url or "").rstrip("/") + "/models"
        if a.llm_base_url:
            key = secret(a.llm_api_key)
            headers = {"Authorization": f"Bearer {key}"} if key else {}
            r = httpx.get(url, headers=headers, timeout=3.0)
            if r.status_code >= 400:
                return ComponentStatus("llm", False, f"{detail}: GET /models answered {r.status_code}")
    except Exception as exc:  # doctor reports, it never fails
        return ComponentStatus("llm", False, f"{detail}: unreachable ({type(exc).__name__})")
    return ComponentStatus("llm", True, detail)

