"""Vector engines behind one contract (``protocol.VectorStore``).

``open_vector_store(settings)`` picks the engine: a Qdrant server when ``index.qdrant_url`` is set,
else embedded qdrant-edge under ``<home>/qdrant``. ``point_id(chunk_id)`` turns a chunk id into the
UUID the engines require; the chunk id itself travels in ``payload["chunk_id"]``.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from pagelens.vectors.protocol import (
    ChannelQuery,
    PointRecord,
    ScoredPoint,
    SparseVector,
    VectorSpec,
    VectorStore,
)

if TYPE_CHECKING:
    from pagelens.settings import Settings

__all__ = [
    "ChannelQuery",
    "PointRecord",
    "ScoredPoint",
    "SparseVector",
    "VectorSpec",
    "VectorStore",
    "open_vector_store",
    "point_id",
]

# Fixed namespace so that a chunk id maps to the same point id on every machine and every run.
_POINT_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/pagelens/pagelens/chunk")


def point_id(chunk_id: str) -> str:
    """The deterministic UUID (version 5) string qdrant stores for ``chunk_id``."""
    return str(uuid.uuid5(_POINT_NAMESPACE, chunk_id))


def open_vector_store(settings: "Settings") -> VectorStore:
    """The configured engine. The embedded one locks the data home until ``close()``."""
    ix = settings.index
    if ix.qdrant_url:
        from pagelens.errors import ComponentUnavailable
        from pagelens.vectors.remote import QdrantServerStore

        try:
            from qdrant_client import QdrantClient
        except ImportError as exc:
            raise ComponentUnavailable("qdrant server", str(exc), "pip install qdrant-client") from exc
        # No background version probe: an unreachable server is reported by the first call instead.
        from pagelens.redact import mask_url, redact_http_logs, secret

        redact_http_logs()
        client = QdrantClient(url=ix.qdrant_url, api_key=secret(ix.qdrant_api_key), check_compatibility=False)
        return QdrantServerStore(client, label=mask_url(ix.qdrant_url), layout=ix.qdrant_collection)

    from pagelens.vectors.edge import EdgeVectorStore

    return EdgeVectorStore(settings.home / "qdrant", home=settings.home)
