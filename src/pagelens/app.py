"""The facade: one object that the CLI, the server and the eval harness all call.

Components are built lazily from the Settings the facade was given, so `pagelens ls` never loads
torch, and the embedded vector engine (which locks its folder) is only opened by commands that
need it. Every component can be injected instead (tests pass fakes through the same constructor).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagelens.errors import ComponentUnavailable
from pagelens.ingest.coordinator import Progress, expand_paths  # noqa: F401  (re-exported)
from pagelens.models import Answer, Document, Element, IngestResult, SearchHit
from pagelens.settings import Settings
from pagelens.store.catalog import CatalogStore, open_catalog
from pagelens.store.images import ImageStore, open_image_store


@dataclass
class ComponentStatus:
    name: str
    available: bool
    detail: str


class Pagelens:
    """Ingest, search and ask over the documents in one data home."""

    def __init__(
        self,
        settings: Settings,
        *,
        warn: Callable[[str], None] | None = None,
        embedder: Any = None,
        image_embedder: Any = None,
        reranker: Any = None,
        llm: Any = None,
        store: Any = None,
        ocr: Any = None,
    ) -> None:
        self.settings = settings
        self.home = Path(settings.home).expanduser()
        self.home.mkdir(parents=True, exist_ok=True)
        self._catalog: CatalogStore | None = None  # opened at first use: `doctor` must not need the server
        self.images: ImageStore = open_image_store(settings)
        self._warned: set[str] = set()
        self._warn_fn = warn
        self._lock = threading.RLock()
        self._given = {
            "embedder": embedder, "image_embedder": image_embedder, "reranker": reranker,
            "llm": llm, "store": store, "ocr": ocr,
        }
        self._built: dict[str, Any] = {}
        self._replayed = False

    # -- lifecycle ------------------------------------------------------------------------------
    def close(self) -> None:
        store = self._built.get("store")
        if store is not None and self._given["store"] is None:
            store.close()
        if self._catalog is not None:
            self._catalog.close()

    @property
    def catalog(self) -> CatalogStore:
        """The catalog the settings name (``store.catalog.open_catalog``), opened at first use."""
        if self._catalog is None:
            with self._lock:
                if self._catalog is None:
                    self._catalog = open_catalog(self.settings)
        return self._catalog

    def __enter__(self) -> "Pagelens":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def warn(self, message: str) -> None:
        """Report a degraded component once per process."""
        if message in self._warned:
            return
        self._warned.add(message)
        if self._warn_fn:
            self._warn_fn(message)

    # -- components (lazy) ----------------------------------------------------------------------
    def _component(self, name: str, build: Callable[[], Any]) -> Any:
        with self._lock:
            if self._given.get(name) is not None:
                return self._given[name]
            if name not in self._built:
                self._built[name] = build()
            return self._built[name]

    @property
    def ocr(self) -> Any:
        from pagelens.ocr import create_ocr_engine

        return self._component("ocr", lambda: create_ocr_engine(self.settings.ingest, warn=self.warn, catalog=self.catalog))

    @property
    def store(self) -> Any:
        from pagelens.vectors import open_vector_store

        return self._component("store", lambda: open_vector_store(self.settings))

    @property
    def embedder(self) -> Any:
        from pagelens.embed import create_text_embedder

        return self._component("embedder", lambda: create_text_embedder(self.settings.index))

    def _optional(self, name: str, build: Callable[[], Any], without: str) -> Any:
        """A component that may be unavailable: said once, and the pipeline runs without it."""

        def guarded() -> Any:
            try:
                return build()
            except ComponentUnavailable as exc:
                self.warn(f"{exc}; {without}")
                return None

        return self._component(name, guarded)

    @property
    def image_embedder(self) -> Any:
        from pagelens.embed import create_image_embedder

        return self._optional(
            "image_embedder", lambda: create_image_embedder(self.settings.index), "the image channel is off"
        )

    @property
    def reranker(self) -> Any:
        from pagelens.retrieve.rerank import create_reranker

        return self._optional("reranker", lambda: create_reranker(self.settings.retrieval), "results are not reranked")

    @property
    def llm(self) -> Any:
        def build() -> Any:
            from pagelens.answer.llm import create_llm

            return create_llm(self.settings.answer)

        return self._component("llm", build)

    @property
    def sparse(self) -> Any:
        from pagelens.index.bm25 import SparseEncoder

        return self._component("sparse", SparseEncoder)

    @property
    def ingestor(self) -> Any:
        from pagelens.ingest.pipeline import Ingestor

        return self._component(
            "ingestor", lambda: Ingestor(self.settings.ingest, self.catalog, self.images, self.ocr, warn=self.warn)
        )

    @property
    def indexer(self) -> Any:
        def build() -> Any:
            from pagelens.index.indexer import Indexer

            enricher = None
            if self.settings.answer.enrich and self.llm is not None:
                from pagelens.answer.enrich import Enricher

                enricher = Enricher(self.llm, self.catalog, self.images)
            return Indexer(
                self.settings, self.store, self.embedder, self.sparse, self.catalog, self.images,
                image_embedder=self.image_embedder, enricher=enricher,
            )

        return self._component("indexer", build)

    @property
    def retriever(self) -> Any:
        return self._component("retriever", lambda: self.build_retriever(self.embedder, self.catalog.doc_ids))

    @property
    def answer_cache(self) -> Any:
        return self._component("answer_cache", lambda: self.build_answer_cache(self.embedder))

    @property
    def answerer(self) -> Any:
        return self._component(
            "answerer", lambda: self.build_answerer(self.retriever, self.embedder, self.answer_cache)
        )

    # The read side, built over this home's index with a given query embedder: the facade's own
    # properties above use these, and so does the server, whose requests get their own embedder and
    # catalog connection so that reads never wait for the ingest job.
    def build_retriever(self, embedder: Any, known_docs: Callable[[], set[str]]) -> Any:
        from pagelens.retrieve.retriever import Retriever

        self.indexer.ensure()
        return Retriever(
            self.settings, self.store, embedder, self.sparse,
            image_embedder=self.image_embedder, reranker=self.reranker, known_docs=known_docs,
        )

    def build_answer_cache(self, embedder: Any) -> Any:
        if not self.settings.answer.cache:
            return None
        from pagelens.answer.cache import SemanticCache

        return SemanticCache(self.store, embedder, self.settings)

    def build_answerer(self, retriever: Any, embedder: Any, cache: Any) -> Any:
        from pagelens.answer.answerer import Answerer

        return Answerer(self.settings, retriever, embedder, llm=self.llm, cache=cache, images=self.images)

    @property
    def coordinator(self) -> Any:
        """The owner of adding and removing documents (parse, index, forget, invalidate)."""
        from pagelens.ingest.coordinator import IngestCoordinator

        return self._component("coordinator", lambda: IngestCoordinator(self))

    def injected(self, name: str) -> Any:
        """The component passed to the constructor under this name, if any."""
        return self._given.get(name)

    def has_component(self, name: str) -> bool:
        """Whether the component is loaded already (built or injected)."""
        return name in self._built or self._given.get(name) is not None

    # -- documents ------------------------------------------------------------------------------
    def ingest(
        self, paths: Iterable[Path | str], progress: Progress | None = None, index: bool = True, reparse: bool = False
    ) -> list[IngestResult]:
        """Ingest files and folders (recursively, *.pdf); index what was ingested (see IngestCoordinator).
        ``reparse``: parse stored content again even when this parser made it."""
        return self.coordinator.ingest(paths, progress=progress, index=index, reparse=reparse)

    def documents(self) -> list[Document]:
        return self.catalog.documents()

    def document(self, ref: str) -> Document:
        return self.catalog.resolve(ref)

    def elements(self, ref: str, page: int | None = None) -> list[Element]:
        doc = self.catalog.resolve(ref)
        return self.catalog.elements(doc.doc_id, page=page)

    def remove(self, ref: str) -> Document:
        return self.coordinator.remove(ref)

    def resolve_docs(self, refs: Iterable[str] | None) -> list[str] | None:
        if not refs:
            return None
        return [self.catalog.resolve(r).doc_id for r in refs]

    # -- retrieval and answers ------------------------------------------------------------------
    def search(
        self, query: str, *, k: int | None = None, mode: str = "hybrid", docs: Iterable[str] | None = None,
    ) -> list[SearchHit]:
        self._replay_pending()
        retriever = self.retriever
        return retriever.search(query, k=k or self.settings.retrieval.k, mode=mode, doc_ids=self.resolve_docs(docs))

    def ask(
        self, question: str, *, history: list[tuple[str, str]] | None = None, docs: Iterable[str] | None = None,
        hyde: bool | None = None, multi_query: int | None = None, rerank: bool = True, k: int | None = None,
    ) -> Answer:
        self._replay_pending()
        return self.answerer.ask(
            question, history=history, doc_ids=self.resolve_docs(docs), hyde=hyde, multi_query=multi_query,
            rerank=rerank, k=k,
        )

    def ask_stream(
        self, question: str, *, history: list[tuple[str, str]] | None = None, docs: Iterable[str] | None = None,
        hyde: bool | None = None, multi_query: int | None = None, rerank: bool = True, k: int | None = None,
    ) -> Iterator[dict[str, Any]]:
        self._replay_pending()
        return self.answerer.stream(
            question, history=history, doc_ids=self.resolve_docs(docs), hyde=hyde, multi_query=multi_query,
            rerank=rerank, k=k,
        )

    def _replay_pending(self) -> None:
        """Once per facade, before the first search: vector work an earlier process left owed (see
        IngestCoordinator.replay_pending); skipped while an ingest job runs (it replays itself)."""
        if not self._replayed:
            self._replayed = self.coordinator.replay_pending(blocking=False)

    # -- diagnostics ----------------------------------------------------------------------------
    def doctor(self) -> list[ComponentStatus]:
        from pagelens.doctor import component_statuses

        return component_statuses(self.settings)
