"""Index-time enrichment with the LLM: chunk summaries and figure descriptions.

Results are cached in the catalog (namespace ``enrich``) under a hash of the content, the model and
:data:`~pagelens.answer.prompts.PROMPT_VERSION`, so re-indexing never pays twice. Only successful
responses are cached. The LLM client already retries rate limits; when it still fails the method
returns None and indexing carries on without the enrichment.
"""

from __future__ import annotations

import hashlib
import logging

from pagelens.answer import prompts
from pagelens.answer.llm import ChatLLM, image_part
from pagelens.errors import LLMError
from pagelens.models import Chunk
from pagelens.store.catalog import CatalogStore
from pagelens.store.images import ImageStore

log = logging.getLogger(__name__)

NAMESPACE = "enrich"
SUMMARY_TOKENS = 160
FIGURE_TOKENS = 400
MIN_SUMMARY_CHARS = 200  # shorter chunks are their own summary


class Enricher:
    def __init__(self, llm: ChatLLM, catalog: CatalogStore, images: ImageStore | None = None) -> None:
        self.llm = llm
        self.catalog = catalog
        self.images = images
        self.failures: list[str] = []

    @property
    def describes_figures(self) -> bool:
        return bool(self.llm.vision)

    def summarize(self, chunk: Chunk) -> str | None:
        """A 2-3 sentence summary of ``chunk`` for the summary channel; None for short chunks or when
        the LLM fails."""
        if len(chunk.text) < MIN_SUMMARY_CHARS:
            return None
        key = self._key("summary", chunk.text)
        cached = self.catalog.cache_get(NAMESPACE, key)
        if isinstance(cached, str):
            return cached
        messages = prompts.summary_messages(chunk.text, chunk.doc_name, chunk.page)
        return self._ask(key, messages, SUMMARY_TOKENS, f"{chunk.doc_name} p.{chunk.page}: summary")

    def describe_figure(self, png: bytes, chunk: Chunk) -> str | None:
        """A description of a figure image (vision models only; None otherwise or on failure)."""
        if not self.describes_figures:
            return None
        key = self._key("figure", hashlib.sha256(png).hexdigest() + "\x1f" + chunk.text)
        cached = self.catalog.cache_get(NAMESPACE, key)
        if isinstance(cached, str):
            return cached
        messages = prompts.figure_messages(image_part(png), chunk.text, chunk.doc_name, chunk.page)
        return self._ask(key, messages, FIGURE_TOKENS, f"{chunk.doc_name} p.{chunk.page}: figure description")

    def _key(self, what: str, content: str) -> str:
        raw = f"{what}\x1f{self.llm.model}\x1f{prompts.PROMPT_VERSION}\x1f{content}"
        return hashlib.sha256(raw.encode()).hexdigest()

    def _ask(self, key: str, messages: list[dict], max_tokens: int, where: str) -> str | None:
        try:
            text = self.llm.complete(messages, max_tokens=max_tokens, temperature=0).strip()
        except LLMError as exc:
            msg = f"{where}: enrichment skipped: {exc}"
            log.warning("%s", msg)
            self.failures.append(msg)
            return None
        if not text:
            return None
        self.catalog.cache_put(NAMESPACE, key, text)
        return text
