"""A real index over PDFs a test builds: parsed, chunked and embedded with the bundled MiniLM into an
embedded Qdrant (qdrant-edge) home, without the application facade (module-scoped fixtures share it)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pagelens.index.bm25 import SparseEncoder
from pagelens.index.indexer import Indexer
from pagelens.ingest.pipeline import Ingestor
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore
from pagelens.vectors.edge import EdgeVectorStore

if TYPE_CHECKING:
    from pagelens.app import Pagelens


@dataclass
class BuiltIndex:
    settings: Settings
    store: EdgeVectorStore
    embedder: object
    catalog: Catalog
    ids: dict[str, str]  # file name -> doc id


@contextmanager
def built_index(home: Path, paths: Sequence[Path]) -> Iterator[BuiltIndex]:
    """Ingest and index ``paths`` (OCR off) into a fresh data home; every one must be indexed."""
    from pagelens.embed.sentence import SentenceTransformerEmbedder

    settings = Settings(home=home).with_overrides(**{"ingest.ocr": "off"})
    catalog = Catalog(home / "catalog.sqlite3")
    images = ImageStore(home / "images")
    store = EdgeVectorStore(home / "qdrant")
    embedder = SentenceTransformerEmbedder(threads=1)  # the real MiniLM (bundled weights)
    ingestor = Ingestor(settings.ingest, catalog, images)
    indexer = Indexer(settings, store, embedder, SparseEncoder(), catalog, images)
    ids = {}
    try:
        for path in paths:
            result = ingestor.ingest_file(path)
            assert result.status == "indexed", result.error
            indexer.index_document(result.doc_id)
            ids[path.name] = result.doc_id
        yield BuiltIndex(settings, store, embedder, catalog, ids)
    finally:
        store.close()
        catalog.close()


@contextmanager
def ingested_app(tmp: Path, paths: Sequence[Path], answer_cache: bool = True) -> Iterator["Pagelens"]:
    """The application over ``paths`` ingested (OCR off; the answer cache as ``answer_cache`` says) into
    ``tmp/home``, with no PAGELENS_ variable or config file of the environment in play; every one must
    be indexed."""
    import os

    from pagelens.app import Pagelens

    saved = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith("PAGELENS_")}
    os.environ["PAGELENS_CONFIG"] = str(tmp / "none.toml")
    try:
        overrides = {"ingest.ocr": "off", "answer.cache": answer_cache}
        with Pagelens(Settings(home=tmp / "home").with_overrides(**overrides)) as app:
            for res in app.ingest(list(paths)):
                assert res.status == "indexed", res.error
            yield app
    finally:
        os.environ.pop("PAGELENS_CONFIG", None)
        os.environ.update(saved)


def ranked_pages(app: "Pagelens", query: str, channel: str, weight: float, k: int = 5) -> list[tuple[int, dict[str, float]]]:
    """(page, channels) of the top ``k`` hits with ``retrieval.weights[channel]`` set to ``weight``."""
    app.settings.retrieval.weights[channel] = weight
    try:
        return [(h.chunk.page, h.channels) for h in app.search(query, k=k)]
    finally:
        app.settings.retrieval.weights.pop(channel, None)
