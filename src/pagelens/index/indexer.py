"""Stored elements → chunks → vectors in the collection named after the index settings.

Every chunk is one point (id = ``point_id(chunk.id)``) with the named vectors that fit its kind:

* text, table, form, metadata: ``dense`` (embed text) and ``bm25`` (sparse, same text: title and
  section words count, and table numbers are matched exactly);
* table_rows (row groups of long tables): ``bm25`` only;
* figure: ``caption`` (dense vector of caption + labels + OCR text + description), ``bm25``, and
  ``image`` when an image embedder (CLIP) is configured;
* any kind, when an enricher is given: ``summary`` (dense vector of an LLM summary).

Beside the chunks, each document gets one routing profile in ``<collection>_docs``
(``pagelens.index.profile``: its identity, cover and headings), which document routing scores.

Indexing is idempotent and resumable: chunk ids are deterministic and points already in the
collection are skipped, so a killed run continues where it stopped and a second run adds nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol

import numpy as np

from pagelens.embed.protocol import ImageEmbedder, TextEmbedder
from pagelens.errors import NotFoundError
from pagelens.faults import crash_point
from pagelens.index.bm25 import SparseEncoder
from pagelens.index.chunking import chunk_document
from pagelens.index.profile import COVER_PAGES, build_profile, profile_collection, profile_point_id, profile_spec
from pagelens.models import Chunk
from pagelens.retrieve.labels import LABEL_VECTOR, chunk_labels, label_vector
from pagelens.retrieve.statements import continued_statements, page_statements
from pagelens.settings import Settings
from pagelens.store.catalog import INDEX_IDENTITY_NAMESPACE, CatalogStore
from pagelens.store.images import ImageStore
from pagelens.vectors import PointRecord, VectorSpec, VectorStore, point_id

ProgressFn = Callable[[int, int], None]
"""progress(chunks_done, chunks_total) for the current document."""

SPARSE_ONLY_KINDS = frozenset({"table_rows"})
"""Row groups exist for exact cell lookups (BM25); their table's own chunk carries the dense vector.
On the dev set dropping their dense vectors changed no ranking and saved 23% of the embedding work."""
MODEL_DESCRIPTION_LABEL = "[Model-generated description, not document text]"
ROUND_BATCHES = 4  # embedder batches per upsert round: bounds memory and the work a crash loses


class Enricher(Protocol):
    """Optional LLM help at index time (see pagelens.answer.enrich)."""

    def summarize(self, chunk: Chunk) -> str | None: ...

    def describe_figure(self, png: bytes, chunk: Chunk) -> str | None: ...


def chunk_payload(chunk: Chunk) -> dict[str, Any]:
    """What a point carries; :func:`chunk_from_payload` reverses it."""
    return {
        "chunk_id": chunk.id,
        "doc_id": chunk.doc_id,
        "doc": chunk.doc_name,
        "kind": chunk.kind,
        "text": chunk.text,
        "pages": chunk.pages,
        "page": chunk.page,
        "bboxes": [[p, list(b)] for p, b in chunk.bboxes],
        "section": chunk.section,
        "element_ids": chunk.element_ids,
        "image": chunk.image,
        "running": chunk.running,
    }


def chunk_from_payload(payload: dict[str, Any]) -> Chunk:
    return Chunk(
        id=payload["chunk_id"],
        doc_id=payload["doc_id"],
        doc_name=payload.get("doc", ""),
        kind=payload.get("kind", "text"),
        text=payload.get("text", ""),
        embed_text=payload.get("text", ""),
        pages=payload.get("pages") or [payload.get("page", 1)],
        bboxes=[(int(p), tuple(b)) for p, b in payload.get("bboxes", [])],
        element_ids=payload.get("element_ids", []),
        section=payload.get("section", []),
        image=payload.get("image"),
        running=payload.get("running", []),
    )


class Indexer:
    """Builds and maintains the vector collection for one index identity."""

    def __init__(
        self,
        settings: Settings,
        store: VectorStore,
        embedder: TextEmbedder,
        sparse: SparseEncoder,
        catalog: CatalogStore,
        images: ImageStore,
        image_embedder: ImageEmbedder | None = None,
        enricher: Enricher | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.embedder = embedder
        self.sparse = sparse
        self.catalog = catalog
        self.images = images
        self.image_embedder = image_embedder
        self.enricher = enricher
        self.collection = settings.index_name()
        self._recorded = False
        self.profiles = profile_collection(self.collection)

    def spec(self) -> VectorSpec:
        dim = self.embedder.dim
        dense = {"dense": dim, "caption": dim, "summary": dim}
        if self.image_embedder is not None:
            dense["image"] = self.image_embedder.dim
        return VectorSpec(dense=dense, sparse=["bm25", LABEL_VECTOR])

    def ensure(self) -> None:
        self.store.ensure_collection(self.collection, self.spec())
        if not self._recorded:
            # What built this collection, so that `pagelens check` can name it once it is an old one.
            self._recorded = True
            if self.catalog.cache_get(INDEX_IDENTITY_NAMESPACE, self.collection) is None:
                self.catalog.cache_put(INDEX_IDENTITY_NAMESPACE, self.collection, self.settings.index_identity())
        self.store.ensure_collection(self.profiles, profile_spec(self.embedder.dim))

    # -- chunks -----------------------------------------------------------------------------------
    def chunks(self, doc_id: str) -> list[Chunk]:
        """The document's chunks, unique by id, in reading order."""
        doc = self.catalog.get_document(doc_id)
        if doc is None:
            raise NotFoundError(f"index: no document {doc_id[:12]} in the catalog")
        seen: dict[str, Chunk] = {}
        for chunk in chunk_document(doc, self.catalog.iter_elements(doc_id), self.settings.index, self.embedder.count_tokens):
            seen.setdefault(chunk.id, chunk)
        return list(seen.values())

    # -- indexing ---------------------------------------------------------------------------------
    def index_document(self, doc_id: str, progress: ProgressFn | None = None, mark: bool = True) -> int:
        """Index the document's chunks not yet in the collection; returns its chunk count.

        ``mark=False`` leaves recording it in the catalog to the caller (who may not be able to
        write to the catalog yet, e.g. while a parser process holds its write transaction)."""
        self.ensure()
        chunks = self.chunks(doc_id)
        present = self.store.existing_ids(self.collection, [point_id(c.id) for c in chunks])
        todo = [c for c in chunks if point_id(c.id) not in present]
        done = len(chunks) - len(todo)
        if progress:
            progress(done, len(chunks))
        # A statement's title reaches the chunks of its page, and of the page its table continues on.
        links = [(el.table.continued_from_page, el.page) for el in self.catalog.elements(doc_id, kinds=["table"])
                 if el.table is not None and el.table.continued_from_page]
        pages = continued_statements(page_statements(chunks), links)
        for batch in self._rounds(todo):
            self.store.upsert(self.collection, self._points(batch, pages))
            crash_point(self.settings.fault_at, "upsert")
            done += len(batch)
            if progress:
                progress(done, len(chunks))
        self.index_profile(doc_id)
        crash_point(self.settings.fault_at, "mark")
        if mark:
            self.catalog.mark_indexed(doc_id, self.collection, len(chunks))
        return len(chunks)

    def index_profile(self, doc_id: str) -> None:
        """The document's routing profile (``pagelens.index.profile``), unless it is there already; a
        profile of an older ``PROFILE_VERSION`` is replaced. (All go with the document: ``remove_document``.)"""
        pid = profile_point_id(doc_id)
        if self.store.existing_ids(self.profiles, [pid]):
            return
        self.store.ensure_collection(self.profiles, profile_spec(self.embedder.dim))  # a home from before routing
        doc = self.catalog.get_document(doc_id)
        if doc is None:
            raise NotFoundError(f"index: no document {doc_id[:12]} in the catalog")
        cover = [e for p in range(1, min(doc.pages, COVER_PAGES) + 1) for e in self.catalog.elements(doc_id, page=p)]
        profile = build_profile(doc, cover, self.catalog.elements(doc_id, kinds=["heading"]))
        vector = _as_list(self.embedder.embed([profile.dense_text])[0])
        if self.store.count(self.profiles, doc_id):  # a profile of an older PROFILE_VERSION
            self.store.delete_doc(self.profiles, doc_id)
        self.store.upsert(self.profiles, [profile.point(vector)])

    def remove_document(self, doc_id: str) -> None:
        self.store.delete_doc(self.collection, doc_id)
        self.store.delete_doc(self.profiles, doc_id)

    def _rounds(self, chunks: list[Chunk]) -> Iterator[list[Chunk]]:
        # Similar lengths in one batch waste less padding (transformer cost grows with length).
        ordered = sorted(chunks, key=lambda c: len(c.embed_text))
        size = max(1, self.settings.index.embed_batch_size * ROUND_BATCHES)
        for i in range(0, len(ordered), size):
            yield ordered[i : i + size]

    def _points(self, chunks: list[Chunk], page_keys: dict[int, list[str]] | None = None) -> list[PointRecord]:
        if self.enricher is not None:
            self._describe_figures(chunks)
        dense = [c for c in chunks if c.kind not in SPARSE_ONLY_KINDS]
        # A text repeated within a round (a running caption, a figure's text that is also its
        # caption's) is embedded once.
        unique = list(dict.fromkeys(c.embed_text for c in dense))
        embedded = dict(zip(unique, self.embedder.embed(unique), strict=True)) if unique else {}
        vectors = {c.id: embedded[c.embed_text] for c in dense}
        summaries = self._summaries(chunks)
        images = self._image_vectors(chunks)
        points = []
        for chunk in chunks:
            point = PointRecord(id=point_id(chunk.id), payload=chunk_payload(chunk))
            if chunk.id in vectors:
                point.dense["caption" if chunk.kind == "figure" else "dense"] = _as_list(vectors[chunk.id])
            sparse = self.sparse.encode_document(chunk.embed_text)
            if sparse.indices:
                point.sparse["bm25"] = sparse
            labels = chunk_labels(chunk)  # "Figure 2", "Section 4.1": pagelens.retrieve.labels
            if page_keys and len(chunk.pages) == 1:
                labels = list(dict.fromkeys(labels + page_keys.get(chunk.page, [])))
            if labels:
                point.sparse[LABEL_VECTOR] = label_vector(labels)
            if chunk.id in summaries:
                point.dense["summary"] = summaries[chunk.id]
            if chunk.id in images:
                point.dense["image"] = images[chunk.id]
            points.append(point)
        return points

    def _describe_figures(self, chunks: list[Chunk]) -> None:
        assert self.enricher is not None
        for chunk in chunks:
            if chunk.kind != "figure" or not chunk.image or not self.images.exists(chunk.image):
                continue
            description = self.enricher.describe_figure(self.images.get(chunk.image), chunk)
            if description and description.strip():
                # The id stays that of the parsed figure, so re-indexing remains idempotent.
                # Marked as model-made: it is not document text, and prompts and readers must know.
                note = f"{MODEL_DESCRIPTION_LABEL} {' '.join(description.split())}"
                chunk.text = f"{chunk.text}\n{note}".strip()
                chunk.embed_text = f"{chunk.embed_text}\n{note}"

    def _summaries(self, chunks: list[Chunk]) -> dict[str, list[float]]:
        if self.enricher is None:
            return {}
        texts: dict[str, str] = {}
        for chunk in chunks:
            summary = self.enricher.summarize(chunk)
            if summary and summary.strip():
                prefix = chunk.embed_text.split("\n", 1)[0]  # "title > section"
                texts[chunk.id] = f"{prefix}\n{summary.strip()}"
        if not texts:
            return {}
        vectors = self.embedder.embed(list(texts.values()))
        return {cid: _as_list(v) for cid, v in zip(texts, vectors, strict=True)}

    def _image_vectors(self, chunks: list[Chunk]) -> dict[str, list[float]]:
        if self.image_embedder is None:
            return {}
        figs = [c for c in chunks if c.kind == "figure" and c.image and self.images.exists(c.image)]
        if not figs:
            return {}
        vectors = self.image_embedder.embed_images([self.images.get(c.image) for c in figs if c.image])
        return {c.id: _as_list(v) for c, v in zip(figs, vectors, strict=True)}


def _as_list(v: np.ndarray) -> list[float]:
    return np.asarray(v, dtype=np.float32).tolist()


__all__ = ["Indexer", "Enricher", "chunk_payload", "chunk_from_payload"]
