"""Embedders and the factories that build them from :class:`~pagelens.settings.IndexSettings`.

Backends (imported lazily so that building nothing costs nothing):

* :class:`~pagelens.embed.sentence.SentenceTransformerEmbedder`: in-process, all-MiniLM-L6-v2 default
* :class:`~pagelens.embed.http.OpenAIEmbeddings`: any OpenAI-compatible ``/embeddings`` endpoint
* :class:`~pagelens.embed.clip.ClipEmbedder`: a local CLIP directory for the image channel
* :class:`~pagelens.embed.fake.HashingEmbedder`: deterministic, dependency-free, for tests
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

from pagelens.embed.protocol import ImageEmbedder, TextEmbedder
from pagelens.errors import ComponentUnavailable
from pagelens.redact import secret
from pagelens.settings import IndexSettings

if TYPE_CHECKING:
    import httpx

__all__ = [
    "ImageEmbedder",
    "TextEmbedder",
    "clip_status",
    "create_image_embedder",
    "create_text_embedder",
    "embedder_status",
]


def create_text_embedder(ix: IndexSettings, *, transport: httpx.BaseTransport | None = None) -> TextEmbedder:
    """``embed_url`` set → :class:`OpenAIEmbeddings` (``transport`` lets tests inject one);
    otherwise the in-process sentence-transformers model, loaded on first use."""
    if ix.embed_url:
        from pagelens.embed.http import OpenAIEmbeddings

        return OpenAIEmbeddings(
            ix.embed_url, ix.embedder, api_key=secret(ix.embed_api_key), transport=transport, batch_size=ix.embed_batch_size
        )
    from pagelens.embed.sentence import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(
        ix.embedder, threads=ix.embed_threads, batch_size=ix.embed_batch_size, precision=ix.embed_precision,
        runtime=ix.embed_runtime, onnx_cache=ix.onnx_cache,
    )


def create_image_embedder(ix: IndexSettings) -> ImageEmbedder | None:
    """None when ``clip_model`` is unset; raises ComponentUnavailable when it is set but unusable
    (checked from the directory's files; weights load on first use)."""
    if not ix.clip_model:
        return None
    from pagelens.embed.clip import ClipEmbedder

    return ClipEmbedder(ix.clip_model, threads=ix.embed_threads)


def embedder_status(ix: IndexSettings, *, probe: bool = True) -> tuple[bool, str]:
    """(available, reason) for ``pagelens doctor``. Loads no weights; an endpoint gets one small
    request (2 s timeout, no retries) unless ``probe`` is False."""
    if ix.embed_url:
        if not probe:
            return True, f"endpoint {ix.embed_url} model {ix.embedder} (not contacted)"
        from pagelens.embed.http import OpenAIEmbeddings

        client = OpenAIEmbeddings(ix.embed_url, ix.embedder, api_key=secret(ix.embed_api_key), timeout_s=2.0, retries=0)
        try:
            dim = client.dim
        except ComponentUnavailable as exc:
            return False, str(exc)
        finally:
            client.close()
        return True, f"endpoint {ix.embed_url} model {ix.embedder}, {dim}-d"

    from pagelens.embed.sentence import in_hub_cache, resolve_model_path, resolve_precision

    if importlib.util.find_spec("sentence_transformers") is None:
        return False, "sentence-transformers is not installed (pip install sentence-transformers)"
    try:
        source, local = resolve_model_path(ix.embedder)
    except ComponentUnavailable as exc:
        return False, str(exc)
    if local:
        root = Path(source)
        if not any((root / name).is_file() for name in ("modules.json", "config.json")):
            return False, f"embedder unavailable: {root} is not a model directory (no modules.json or config.json)"
        return True, f"{ix.embedder} at {root} ({resolve_precision(ix.embed_precision)})"
    if in_hub_cache(source):
        return True, f"{ix.embedder} from the Hugging Face cache"
    return False, (
        f"embedder unavailable: {ix.embedder!r} is not a local directory nor in the Hugging Face cache "
        "(downloading needs network; set index.embedder to 'all-MiniLM-L6-v2' or a local directory)"
    )


def clip_status(ix: IndexSettings) -> tuple[bool, str]:
    """(available, reason) for ``pagelens doctor``, from the directory's files only."""
    if not ix.clip_model:
        return False, "off (index.clip_model unset)"
    from pagelens.embed.clip import inspect_clip_dir

    if importlib.util.find_spec("transformers") is None:
        return False, "transformers is not installed (pip install transformers)"
    try:
        dim = inspect_clip_dir(ix.clip_model)
    except ComponentUnavailable as exc:
        return False, str(exc)
    return True, f"CLIP at {ix.clip_model}, {dim}-d"
