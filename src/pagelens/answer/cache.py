"""Semantic answer cache: a question close enough in meaning to one already answered gets the stored
answer, when it was asked over the same documents with the same settings and is not too old.

Entries live in their own vector collection (``<prefix>_answers_<embedder hash>``) of the same engine
that holds the index: the question's embedding plus a payload with the answer JSON, the cited doc ids,
the doc filter, the settings fingerprint and the creation time.

The ``VectorStore`` contract filters and deletes by the payload's ``doc_id``; here each entry's
``doc_id`` is its own key, so one entry can be deleted alone. To list entries (eviction,
invalidation) every point also carries a constant ``all`` vector: a search with that vector returns
every entry.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
import uuid
from collections.abc import Iterable
from typing import Any

import numpy as np

from pagelens.answer.extractive import EXTRACTIVE_VERSION
from pagelens.answer.prompts import PROMPT_VERSION
from pagelens.embed.protocol import TextEmbedder
from pagelens.models import Answer
from pagelens.settings import Settings
from pagelens.vectors.protocol import PointRecord, ScoredPoint, VectorSpec, VectorStore

log = logging.getLogger(__name__)

_ALL_DIM = 2  # the constant "all" vector used to list every entry
_ALL = [1.0, 0.0]
EVICT_FRACTION = 0.1  # share of max entries removed at once when the cache is full
LOOKUP_CANDIDATES = 8  # nearest questions checked for matching filter/fingerprint


_KEY_TERM = re.compile(
    r"\d+(?:[.,]\d+)*|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
    r"|\b(?:not|no|never|without|except|before|after|first|last|largest|smallest|highest|lowest|most|least)\b"
    # counts and ordinals in words: "the nine-month column" is not "the six-month column"
    r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half|quarter|second|third|fourth|fifth"
    r"|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)\b",
    re.IGNORECASE,
)


def key_terms(question: str) -> frozenset[str]:
    """What two close paraphrases must share to share an answer: numbers (in digits or words, counts and
    ordinals), months, negations and superlatives, and capitalised names (not at the start of the
    question). Near-miss twins differ in exactly these ("nine months" where the filing reports six)."""
    terms = {m.group(0).lower().replace(",", "") for m in _KEY_TERM.finditer(question)}
    words = re.findall(r"[A-Za-z][\w-]*", question)
    terms |= {w.lower() for w in words[1:] if w[0].isupper()}
    return frozenset(terms)


def settings_fingerprint(settings: Settings, options: dict[str, Any] | None = None) -> str:
    """Hash of everything that changes an answer: index identity, retrieval and answer settings
    (minus the cache's own knobs), the prompt version, and per-call options (k, HyDE...)."""
    answer = settings.answer.model_dump(
        exclude={"cache", "cache_threshold", "cache_ttl_s", "cache_max_entries", "llm_api_key", "timeout_s",
                 "retries", "retry_max_wait_s", "enrich"}
    )
    data = {
        "index": settings.index_name(),
        "retrieval": settings.retrieval.model_dump(),
        "answer": answer,
        "prompt": PROMPT_VERSION,
        "extractive": EXTRACTIVE_VERSION,
        "options": options or {},
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:24]


def _doc_filter_key(doc_ids: Iterable[str] | None) -> str:
    return "*" if not doc_ids else ",".join(sorted(set(doc_ids)))


class SemanticCache:
    def __init__(self, store: VectorStore, embedder: TextEmbedder, settings: Settings) -> None:
        self.store = store
        self.embedder = embedder
        self.settings = settings
        ident = hashlib.sha256(f"{embedder.name}|{embedder.dim}".encode()).hexdigest()[:12]
        self.collection = f"{settings.index.collection_prefix}_answers_{ident}"
        self._ready = False

    # -- public ----------------------------------------------------------------------------------
    def lookup(
        self,
        question: str,
        *,
        doc_ids: list[str] | None = None,
        options: dict[str, Any] | None = None,
        vector: np.ndarray | None = None,
    ) -> Answer | None:
        """The cached answer for a question this close (cosine ≥ ``cache_threshold``) asked with the
        same doc filter and settings, not older than ``cache_ttl_s``; else None."""
        cfg = self.settings.answer
        vec = self._vector(question, vector)
        hits = self.store.search_dense(self.collection, "question", vec, LOOKUP_CANDIDATES)
        fingerprint = settings_fingerprint(self.settings, options)
        filter_key = _doc_filter_key(doc_ids)
        now = time.time()
        for hit in hits:
            p = hit.payload
            if hit.score < cfg.cache_threshold:
                break
            if p.get("fingerprint") != fingerprint or p.get("doc_filter") != filter_key:
                continue
            if now - float(p.get("created", 0)) > cfg.cache_ttl_s:
                continue
            if key_terms(str(p.get("question", ""))) != key_terms(question):
                continue  # "Texas in October 2015" is not "Texas in November 2015", however close
            answer = Answer.model_validate_json(p["answer"])
            answer.cached = True
            answer.question = question
            return answer
        return None

    def put(
        self,
        question: str,
        answer: Answer,
        *,
        doc_ids: list[str] | None = None,
        options: dict[str, Any] | None = None,
        vector: np.ndarray | None = None,
    ) -> None:
        self._ensure()
        vec = self._vector(question, vector)
        fingerprint = settings_fingerprint(self.settings, options)
        filter_key = _doc_filter_key(doc_ids)
        key = str(uuid.uuid5(uuid.NAMESPACE_URL, f"pagelens-answer:{fingerprint}:{filter_key}:{question}"))
        cited = sorted({c.doc_id for c in answer.cited if c.doc_id} | {h.chunk.doc_id for h in answer.sources})
        stored = answer.model_copy(update={"cached": False, "timings_ms": {}})
        payload = {
            "doc_id": key,  # the store deletes by doc_id: one entry, one key
            "question": question,
            "answer": stored.model_dump_json(),
            "docs": cited,
            "doc_filter": filter_key,
            "fingerprint": fingerprint,
            "created": time.time(),
        }
        self.store.upsert(self.collection, [PointRecord(id=key, dense={"question": vec, "all": _ALL}, payload=payload)])
        if self.store.count(self.collection) > self.settings.answer.cache_max_entries:
            self._evict()

    def invalidate_docs(self, doc_ids: Iterable[str]) -> int:
        """Remove entries whose answer used any of ``doc_ids`` (removed or replaced documents)."""
        gone = set(doc_ids)
        if not gone:
            return 0
        doomed = [p.payload["doc_id"] for p in self._entries() if gone & set(p.payload.get("docs", []))]
        for key in doomed:
            self.store.delete_doc(self.collection, key)
        return len(doomed)

    def invalidate_unfiltered(self) -> int:
        """Remove entries asked over all documents (``doc_ids=None``): call it when a new document is
        added, since such an answer (or abstention) may now be different."""
        doomed = [p.payload["doc_id"] for p in self._entries() if p.payload.get("doc_filter") == "*"]
        for key in doomed:
            self.store.delete_doc(self.collection, key)
        return len(doomed)

    def clear(self) -> None:
        self.store.drop_collection(self.collection)
        self._ready = False

    def __len__(self) -> int:
        return self.store.count(self.collection)

    # -- internals -------------------------------------------------------------------------------
    def _ensure(self) -> None:
        if not self._ready:
            spec = VectorSpec(dense={"question": self.embedder.dim, "all": _ALL_DIM}, sparse=[])
            self.store.ensure_collection(self.collection, spec)
            self._ready = True

    def _vector(self, question: str, vector: np.ndarray | None) -> list[float]:
        v = vector if vector is not None else self.embedder.embed([question])[0]
        return [float(x) for x in np.asarray(v, dtype=np.float32).ravel()]

    def _entries(self) -> list[ScoredPoint]:
        limit = max(self.store.count(self.collection), 1)
        return self.store.search_dense(self.collection, "all", _ALL, limit)

    def _evict(self) -> None:
        entries = sorted(self._entries(), key=lambda p: float(p.payload.get("created", 0)))
        excess = len(entries) - self.settings.answer.cache_max_entries
        n = max(excess, int(self.settings.answer.cache_max_entries * EVICT_FRACTION), 1) if excess > 0 else 0
        for p in entries[:n]:
            self.store.delete_doc(self.collection, p.payload["doc_id"])
        if n:
            log.info("answer cache: evicted %d oldest entries", n)
