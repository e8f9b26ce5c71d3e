"""The catalog is the source of truth for the index: `check` finds and repairs exactly what differs,
partial loss is noticed, a failed vector delete stays owed, one document's indexing bug fails only it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pagelens.app import Pagelens
from pagelens.embed.fake import HashingEmbedder
from pagelens.errors import HomeLockedError, IndexError_
from pagelens.index.check import IndexChecker
from pagelens.settings import Settings
from pagelens.vectors import point_id
from pagelens.vectors.edge import EdgeVectorStore
from pdf_support import write_pdf


@pytest.fixture
def app(settings: Settings):
    s = settings.with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    with Pagelens(s, embedder=HashingEmbedder(64)) as pl:
        yield pl


def _ingest(app: Pagelens, *pdfs: Path) -> list:
    results = app.ingest(pdfs)
    assert all(r.status == "indexed" for r in results), [r.error for r in results]
    return results


def test_check_finds_and_repairs_exactly_the_lost_points(app: Pagelens, tmp_path: Path) -> None:
    big, small = tmp_path / "big.pdf", tmp_path / "small.pdf"
    write_pdf(big, "bigdoc phrase", pages=10)
    write_pdf(small, "smalldoc phrase", pages=2)
    r_big, _ = _ingest(app, big, small)
    checker = IndexChecker(app)
    assert checker.check().ok
    chunk_ids = [c.id for c in app.indexer.chunks(r_big.doc_id)]
    lost = sorted(random.Random(7).sample(chunk_ids, max(1, len(chunk_ids) // 10)))
    app.store.delete_ids(app.indexer.collection, [point_id(c) for c in lost])

    report = checker.check()
    assert not report.ok
    [problem] = report.problems
    assert problem.doc_id == r_big.doc_id and problem.missing == lost and problem.extra == []
    assert problem.present == len(chunk_ids) - len(lost)

    repaired = checker.repair(report)
    assert repaired.ok and repaired.repaired == {"upserted": len(lost), "deleted": 0}
    assert app.store.count(app.indexer.collection, r_big.doc_id) == len(chunk_ids)


def test_check_reports_orphans_and_old_indexes_and_repairs_prunes_them(app: Pagelens, tmp_path: Path) -> None:
    pdf = tmp_path / "a.pdf"
    write_pdf(pdf, "orphanphrase words", pages=2)
    [r] = _ingest(app, pdf)
    with app.catalog.transaction() as conn:  # as a crash of an old version would leave it: no pending job
        conn.execute("DELETE FROM elements WHERE doc_id=?", (r.doc_id,))
        conn.execute("DELETE FROM documents WHERE doc_id=?", (r.doc_id,))
    old = f"{app.settings.index.collection_prefix}_{'0' * 12}"
    app.store.ensure_collection(old, app.indexer.spec())
    assert app.search("orphanphrase", mode="sparse") == []  # the guard: the catalog lacks that id

    report = IndexChecker(app).check()
    assert report.orphan_docs == {r.doc_id: r.chunks} and [o.name for o in report.other_collections] == [old]
    assert report.orphan_profiles == {r.doc_id: 1}  # its routing profile is orphaned too
    repaired = IndexChecker(app).repair(report)
    assert repaired.ok and repaired.repaired["deleted"] == r.chunks + 1 and repaired.orphan_profiles == {}
    assert IndexChecker(app).prune(repaired) == [old]
    assert app.store.collection_spec(old) is None


def test_partial_loss_is_indexed_again_by_the_next_ingest(app: Pagelens, tmp_path: Path) -> None:
    pdf = tmp_path / "a.pdf"
    write_pdf(pdf, "partial phrase", pages=4)
    [r] = _ingest(app, pdf)
    ids = [point_id(c.id) for c in app.indexer.chunks(r.doc_id)]
    app.store.delete_ids(app.indexer.collection, ids[:2])  # some, not all
    [again] = app.ingest([pdf])
    assert again.status == "indexed" and again.chunks == len(ids)
    assert app.store.existing_ids(app.indexer.collection, ids) == set(ids)


class _FailingDeletes:
    """The real store, whose deletes fail until ``fail`` is cleared (an engine that is down)."""

    def __init__(self, store: EdgeVectorStore) -> None:
        self.inner, self.fail = store, True

    def delete_doc(self, name: str, doc_id: str) -> None:
        if self.fail:
            raise IndexError_(f"vector index {name}: delete failed: engine unavailable")
        self.inner.delete_doc(name, doc_id)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def test_rm_keeps_the_pending_delete_when_the_vector_delete_fails(settings: Settings, tmp_path: Path) -> None:
    s = settings.with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    store = _FailingDeletes(EdgeVectorStore(s.home / "qdrant", home=s.home))
    warnings: list[str] = []
    pdf = tmp_path / "a.pdf"
    write_pdf(pdf, "removedphrase text", pages=2)
    with Pagelens(s, embedder=HashingEmbedder(64), store=store, warn=warnings.append) as app:
        [r] = _ingest(app, pdf)
        app.remove(r.doc_id)
        assert app.documents() == []
        assert app.catalog.vector_jobs() == [(r.doc_id, "delete")]
        assert any("could not remove the vectors" in w for w in warnings)
        assert app.store.count(app.indexer.collection, r.doc_id) == r.chunks  # still there...
        assert app.search("removedphrase", mode="sparse") == []  # ...but never shown
        store.fail = False
        assert app.coordinator.replay_pending()
        assert app.catalog.vector_jobs() == [] and app.store.count(app.indexer.collection, r.doc_id) == 0
    store.inner.close()


def test_an_unexpected_error_while_indexing_fails_that_document_only(settings: Settings, tmp_path: Path) -> None:
    class Buggy(HashingEmbedder):
        def embed(self, texts):
            if any("poisonword" in t for t in texts):
                raise RuntimeError("tensor shape mismatch")
            return super().embed(texts)

    good, bad = tmp_path / "good.pdf", tmp_path / "bad.pdf"
    write_pdf(good, "fine phrase", pages=2)
    write_pdf(bad, "poisonword phrase", pages=2)
    s = settings.with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    with Pagelens(s, embedder=Buggy(64)) as app:
        r_bad, r_good = app.ingest([bad, good])
    assert r_good.status == "indexed" and r_good.chunks > 0
    assert r_bad.status == "failed" and r_bad.error == "bad.pdf: index: unexpected RuntimeError: tensor shape mismatch"


def test_no_index_ingest_takes_the_home_lock(settings: Settings, tmp_path: Path) -> None:
    pdf = tmp_path / "a.pdf"
    write_pdf(pdf, "lock phrase", pages=1)
    owner = EdgeVectorStore(settings.home / "qdrant", home=settings.home)  # another owner of the home
    try:
        with Pagelens(settings.with_overrides(**{"ingest.ocr": "off"})) as app:
            with pytest.raises(HomeLockedError, match="in use by pid"):
                app.ingest([pdf], index=False)
            assert app.documents() == []
    finally:
        owner.close()


def test_no_index_documents_are_not_indexed_behind_the_users_back(app: Pagelens, tmp_path: Path) -> None:
    pdf = tmp_path / "a.pdf"
    write_pdf(pdf, "parsedonly phrase", pages=1)
    [r] = app.ingest([pdf], index=False)
    assert r.status == "indexed" and app.catalog.vector_jobs() == []
    assert app.search("parsedonly", mode="sparse") == []
    [again] = app.ingest([pdf])
    assert again.chunks > 0 and [h.chunk.doc_id for h in app.search("parsedonly", mode="sparse")][:1] == [r.doc_id]


def test_sync_removes_documents_whose_files_left_the_folder(app: Pagelens, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    a, b, c = folder / "a.pdf", folder / "sub" / "b.pdf", tmp_path / "outside.pdf"
    for path in (a, b, c):
        write_pdf(path, f"{path.stem}phrase text", pages=1)
    _ingest(app, folder, c)
    moved = folder / "renamed.pdf"
    a.rename(moved)
    b.unlink()
    c.unlink()  # outside the synced folder: kept
    results = app.ingest([folder])
    removed = app.coordinator.sync([folder], keep=[r.doc_id for r in results])
    assert [d.name for d in removed] == ["b.pdf"]
    assert sorted(d.name for d in app.documents()) == ["a.pdf", "outside.pdf"]  # a moved file keeps its document
    assert app.search("bphrase", mode="sparse") == []


def test_removal_also_clears_the_indexes_this_home_built_under_other_settings(settings: Settings, tmp_path: Path) -> None:
    pdf = tmp_path / "a.pdf"
    write_pdf(pdf, "twoindexes phrase", pages=3)
    old = settings.with_overrides(**{"ingest.ocr": "off", "answer.cache": False, "index.chunk_tokens": 120})
    new = old.with_overrides(**{"index.chunk_tokens": 220})
    with Pagelens(old, embedder=HashingEmbedder(64)) as app:
        [r] = _ingest(app, pdf)
    with Pagelens(new, embedder=HashingEmbedder(64)) as app:
        _ingest(app, pdf)
        assert app.store.count(old.index_name(), r.doc_id) > 0 and app.store.count(new.index_name(), r.doc_id) > 0
        [other] = IndexChecker(app).check().other_collections
        assert other.name == old.index_name() and other.built_with["chunk_tokens"] == 120
        app.remove(r.doc_id)
        assert app.store.count(old.index_name(), r.doc_id) == 0 and app.store.count(new.index_name(), r.doc_id) == 0
