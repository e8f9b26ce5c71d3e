"""Tests every ``CatalogStore`` must pass, shipped with the contract (like ``vectors.conformance``).

A backend's test module inherits ``CatalogConformance`` and provides two fixtures: ``catalog``, an
empty open catalog (closed afterwards), and ``second``, a factory that opens another, independent
connection to the same catalog (what another process sees).

    class TestMyCatalog(CatalogConformance):
        @pytest.fixture
        def catalog(self, tmp_path): ...
        @pytest.fixture
        def second(self, catalog): ...
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

import pytest

from pagelens.errors import NotFoundError, StoreError
from pagelens.models import Document, Element, ElementKind
from pagelens.store.catalog.protocol import CatalogStore
from pagelens.store.catalog.schema import LATEST, MIGRATIONS, applied_versions, migrate


class Boom(Exception):
    """Raised inside a transaction to make it fail."""


def doc(doc_id: str, path: str = "/pdfs/a.pdf", version: int = 1, pages: int = 2) -> Document:
    return Document(doc_id=doc_id, name=path.rsplit("/", 1)[-1], path=path, size=100, pages=pages, version=version)


def page_elements(doc_id: str, page: int, texts: list[str]) -> list[Element]:
    out = []
    for i, text in enumerate(texts):
        kind = ElementKind.HEADING if i == 0 else ElementKind.TEXT
        out.append(Element(doc_id=doc_id, page=page, order=i, kind=kind, text=text, section=["Intro"],
                           bbox=(10, 20 + 15 * i, 200, 32 + 15 * i)))
    return out


def ingest(catalog: CatalogStore, d: Document, pages: dict[int, list[str]], replaces: str | None = None) -> None:
    """What the ingest pipeline does: stage page by page, then one transaction for the document."""
    for page, texts in pages.items():
        catalog.stage_elements(d.doc_id, page_elements(d.doc_id, page, texts))
    with catalog.transaction() as conn:
        catalog.begin_document(conn, d)
        catalog.commit_staged(conn, d.doc_id)
        catalog.add_vector_job(conn, d.doc_id, "upsert")
        if replaces:
            catalog.delete_document(conn, replaces)


class CatalogConformance:
    """The contract's behaviour; subclasses provide ``catalog`` and ``second`` fixtures."""

    # -- schema -----------------------------------------------------------------------------------
    def test_a_new_catalog_is_empty_and_records_its_migrations(self, catalog: CatalogStore, second: Callable[[], CatalogStore]) -> None:
        assert isinstance(catalog, CatalogStore)
        assert catalog.documents() == [] and catalog.doc_ids() == set() and catalog.vector_jobs() == []
        with catalog.transaction() as conn:
            assert applied_versions(conn) == {v for v, _, _ in MIGRATIONS}
        other = second()
        try:
            assert other.migrated == []  # type: ignore[attr-defined]  # reopening runs nothing again
        finally:
            other.close()

    def test_a_catalog_from_a_newer_pagelens_is_refused_in_one_line(self, catalog: CatalogStore) -> None:
        with catalog.transaction() as conn:
            conn.execute("INSERT INTO schema_version(version, applied, note) VALUES (?,?,?)", (LATEST + 1, time.time(), "future"))
        with pytest.raises(StoreError, match=f"schema version {LATEST + 1}, newer than this pagelens knows") as info:
            with catalog.transaction() as conn:
                migrate(conn, catalog.dialect, catalog.label)  # type: ignore[attr-defined]
        assert "\n" not in str(info.value)

    def test_a_later_migration_runs_once_on_an_existing_catalog(self, catalog: CatalogStore) -> None:
        extra = MIGRATIONS + [(LATEST + 1, "test: a blob table", ("CREATE TABLE thumbs (sha TEXT PRIMARY KEY, png {blob} NOT NULL)",))]
        with catalog.transaction() as conn:
            assert migrate(conn, catalog.dialect, catalog.label, extra) == [LATEST + 1]  # type: ignore[attr-defined]
            assert migrate(conn, catalog.dialect, catalog.label, extra) == []  # type: ignore[attr-defined]
            conn.execute("INSERT INTO thumbs(sha, png) VALUES (?,?)", ("ab", b"\x89PNG\x00\xff"))
            assert bytes(conn.execute("SELECT png FROM thumbs WHERE sha=?", ("ab",)).fetchone()[0]) == b"\x89PNG\x00\xff"

    # -- documents and elements -------------------------------------------------------------------
    def test_a_document_and_its_elements_read_back_in_page_order(self, catalog: CatalogStore) -> None:
        d = doc("d1" * 32)
        ingest(catalog, d, {2: ["Two", "second page"], 1: ["One", "first \u00e9l\u00e9ment \u2014 \x00 nul", "third"]})
        got = catalog.get_document(d.doc_id)
        assert got is not None and got.name == "a.pdf" and got.ingested_at is not None
        assert [(e.page, e.order, e.text) for e in catalog.elements(d.doc_id)] == [
            (1, 0, "One"), (1, 1, "first \u00e9l\u00e9ment \u2014 \x00 nul"), (1, 2, "third"), (2, 0, "Two"), (2, 1, "second page"),
        ]
        assert [e.text for e in catalog.elements(d.doc_id, page=2)] == ["Two", "second page"]
        assert [e.text for e in catalog.elements(d.doc_id, kinds=["heading"])] == ["One", "Two"]
        assert [e.id for e in catalog.iter_elements(d.doc_id)] == [e.id for e in catalog.elements(d.doc_id)]
        assert catalog.element_counts(d.doc_id) == {"heading": 2, "text": 3}
        assert catalog.doc_ids() == {d.doc_id}
        assert catalog.latest_by_path("/pdfs/a.pdf").doc_id == d.doc_id  # type: ignore[union-attr]
        assert catalog.get_document("nope") is None and catalog.latest_by_path("/nope") is None

    def test_documents_list_by_name_then_version(self, catalog: CatalogStore) -> None:
        for i, (name, version) in enumerate([("b.pdf", 1), ("B.pdf", 1), ("a.pdf", 2), ("a.pdf", 1)]):
            with catalog.transaction() as conn:
                catalog.begin_document(conn, doc(f"{i:064d}", f"/x{i}/{name}", version))
        assert [(d.name, d.version) for d in catalog.documents()] == [("B.pdf", 1), ("a.pdf", 1), ("a.pdf", 2), ("b.pdf", 1)]

    def test_update_document_rewrites_its_metadata(self, catalog: CatalogStore) -> None:
        d = doc("d2" * 32)
        ingest(catalog, d, {1: ["One"]})
        d.title = "A title"
        with catalog.transaction() as conn:
            catalog.update_document(conn, d)
        assert catalog.get_document(d.doc_id).title == "A title"  # type: ignore[union-attr]

    def test_parser_version_reads_back_and_is_0_for_documents_stored_before_it(self, catalog: CatalogStore) -> None:
        d = doc("d3" * 32)
        d.parser_version = 7
        ingest(catalog, d, {1: ["One"]})
        assert catalog.get_document(d.doc_id).parser_version == 7  # type: ignore[union-attr]
        old = json.loads(d.model_dump_json())
        del old["parser_version"]  # the meta JSON a release before the field wrote
        with catalog.transaction() as conn:
            conn.execute("UPDATE documents SET meta=? WHERE doc_id=?", (json.dumps(old), d.doc_id))
        assert catalog.get_document(d.doc_id).parser_version == 0  # type: ignore[union-attr]
        assert [x.parser_version for x in catalog.documents()] == [0]

    def test_resolve_by_id_prefix_name_and_path(self, catalog: CatalogStore) -> None:
        a, b = doc("abcdef" + "1" * 58, "/p/one.pdf"), doc("abcdef" + "2" * 58, "/q/one.pdf")
        c = doc("0123456789" + "f" * 54, "/p/other_%.pdf")
        for d in (a, b, c):
            ingest(catalog, d, {1: ["x"]})
        assert catalog.resolve(a.doc_id).doc_id == a.doc_id
        assert catalog.resolve("/q/one.pdf").doc_id == b.doc_id
        assert catalog.resolve("other_%.pdf").doc_id == c.doc_id
        assert catalog.resolve("0123456").doc_id == c.doc_id
        assert catalog.resolve("ABCDEF1").doc_id == a.doc_id  # a prefix is not case-sensitive
        with pytest.raises(NotFoundError, match="matches several documents"):
            catalog.resolve("one.pdf")
        with pytest.raises(NotFoundError, match="matches several documents"):
            catalog.resolve("abcdef")
        for ref in ("01234", "other_", "abcde%", "______"):  # too short, or wildcards that must not match
            with pytest.raises(NotFoundError, match="no document matches"):
                catalog.resolve(ref)

    # -- transactions -----------------------------------------------------------------------------
    def test_staged_pages_stay_invisible_until_the_document_commits(self, catalog: CatalogStore, second: Callable[[], CatalogStore]) -> None:
        d = doc("d3" * 32)
        catalog.stage_elements(d.doc_id, page_elements(d.doc_id, 1, ["One", "two"]))
        other = second()
        try:
            assert catalog.elements(d.doc_id) == [] and other.elements(d.doc_id) == []
            entered, release = threading.Event(), threading.Event()

            def write() -> None:
                with catalog.transaction() as conn:
                    catalog.begin_document(conn, d)
                    catalog.commit_staged(conn, d.doc_id)
                    entered.set()
                    release.wait(10)

            t = threading.Thread(target=write)
            t.start()
            assert entered.wait(10)
            assert other.get_document(d.doc_id) is None and other.elements(d.doc_id) == []  # not yet committed
            release.set()
            t.join(10)
            assert [e.text for e in other.elements(d.doc_id)] == ["One", "two"]
        finally:
            other.close()

    def test_a_failed_document_leaves_nothing(self, catalog: CatalogStore, second: Callable[[], CatalogStore]) -> None:
        old = doc("01" * 32, "/pdfs/r.pdf")
        ingest(catalog, old, {1: ["old"]})
        catalog.mark_indexed(old.doc_id, "ix", 1)
        new = doc("02" * 32, "/pdfs/r.pdf", version=2)
        catalog.stage_elements(new.doc_id, page_elements(new.doc_id, 1, ["new"]))
        with pytest.raises(Boom):
            with catalog.transaction() as conn:
                catalog.begin_document(conn, new)
                catalog.commit_staged(conn, new.doc_id)
                catalog.add_vector_job(conn, new.doc_id, "upsert")
                catalog.delete_document(conn, old.doc_id)
                catalog.cache_put("llm", "during", {"x": 1})  # a nested write goes with it
                raise Boom()
        other = second()
        try:
            for c in (catalog, other):
                assert c.doc_ids() == {old.doc_id} and [e.text for e in c.elements(old.doc_id)] == ["old"]
                assert c.get_document(new.doc_id) is None and c.elements(new.doc_id) == []
                assert c.vector_jobs() == [] and c.is_indexed(old.doc_id, "ix")
                assert c.cache_get("llm", "during") is None
        finally:
            other.close()
        catalog.discard_staged(new.doc_id)  # the retry starts from scratch
        ingest(catalog, new, {1: ["new"]}, replaces=old.doc_id)
        assert [e.text for e in catalog.elements(new.doc_id)] == ["new"]

    def test_a_failed_nested_write_is_rolled_back_alone(self, catalog: CatalogStore) -> None:
        d = doc("d4" * 32)
        with catalog.transaction() as conn:
            catalog.begin_document(conn, d)
            with pytest.raises(Boom):
                with catalog.transaction():
                    catalog.cache_put("ocr", "k", "text")
                    raise Boom()
            catalog.cache_put("ocr", "k2", "kept")
        assert catalog.get_document(d.doc_id) is not None
        assert catalog.cache_get("ocr", "k") is None and catalog.cache_get("ocr", "k2") == "kept"

    def test_writers_take_turns(self, catalog: CatalogStore, second: Callable[[], CatalogStore]) -> None:
        """A write transaction waits for another's commit (so a document's 'latest version by path',
        read inside its transaction, cannot change under it), whichever process holds it."""
        other = second()
        events: list[str] = []
        holding = threading.Event()

        def first() -> None:
            with catalog.transaction() as conn:
                catalog.begin_document(conn, doc("05" * 32, "/pdfs/t.pdf"))
                holding.set()
                time.sleep(0.5)
                events.append("first commits")

        try:
            t = threading.Thread(target=first)
            t.start()
            assert holding.wait(10)
            with other.transaction() as conn:
                events.append("second starts")
                assert other.latest_by_path("/pdfs/t.pdf") is not None  # it sees the committed first
                other.begin_document(conn, doc("06" * 32, "/pdfs/t.pdf", version=2))
            t.join(10)
        finally:
            other.close()
        assert events == ["first commits", "second starts"]

    # -- versions and pending vector work ---------------------------------------------------------
    def test_a_new_version_replaces_the_old_and_owes_the_vector_work(self, catalog: CatalogStore) -> None:
        v1, v2 = doc("0a" * 32, "/pdfs/v.pdf"), doc("0b" * 32, "/pdfs/v.pdf", version=2)
        ingest(catalog, v1, {1: ["first"]})
        catalog.mark_indexed(v1.doc_id, "ix", 3)
        assert catalog.vector_jobs() == [] and catalog.indexed_chunks(v1.doc_id, "ix") == 3
        ingest(catalog, v2, {1: ["second"]}, replaces=v1.doc_id)
        assert catalog.doc_ids() == {v2.doc_id} and catalog.elements(v1.doc_id) == []
        assert catalog.latest_by_path("/pdfs/v.pdf").version == 2  # type: ignore[union-attr]
        assert catalog.indexed_chunks(v1.doc_id, "ix") is None
        assert sorted(catalog.vector_jobs()) == [(v1.doc_id, "delete"), (v2.doc_id, "upsert")]
        assert catalog.vector_jobs("delete") == [(v1.doc_id, "delete")]
        assert catalog.has_vector_job(v1.doc_id, "delete") and not catalog.has_vector_job(v1.doc_id, "upsert")
        catalog.confirm_delete(v1.doc_id)
        catalog.mark_indexed(v2.doc_id, "ix", 2)
        assert catalog.vector_jobs() == [] and catalog.is_indexed(v2.doc_id, "ix")

    def test_pending_work_is_listed_oldest_first(self, catalog: CatalogStore) -> None:
        ids = ["0c" * 32, "0d" * 32, "0e" * 32]
        for i in ids:
            ingest(catalog, doc(i, f"/pdfs/{i[:2]}.pdf"), {1: ["x"]})
            time.sleep(0.01)
        assert catalog.vector_jobs() == [(i, "upsert") for i in ids]

    def test_a_delete_supersedes_a_pending_upsert(self, catalog: CatalogStore) -> None:
        d = doc("0f" * 32)
        ingest(catalog, d, {1: ["x"]})
        with catalog.transaction() as conn:
            catalog.delete_document(conn, d.doc_id)
            catalog.add_vector_job(conn, d.doc_id, "delete")  # recorded twice: still one job
        assert catalog.vector_jobs() == [(d.doc_id, "delete")] and catalog.get_document(d.doc_id) is None
        catalog.mark_indexed(d.doc_id, "ix", 1)  # removed meanwhile: no mark, the delete stays
        assert not catalog.is_indexed(d.doc_id, "ix") and catalog.vector_jobs() == [(d.doc_id, "delete")]

    def test_content_ingested_again_after_removal_is_owed_its_vectors_anew(self, catalog: CatalogStore) -> None:
        d = doc("10" * 32)
        ingest(catalog, d, {1: ["x"]})
        catalog.mark_indexed(d.doc_id, "ix", 1)
        with catalog.transaction() as conn:
            catalog.delete_document(conn, d.doc_id)
        ingest(catalog, d, {1: ["x"]})
        catalog.confirm_delete(d.doc_id)  # the old delete ran after the new upsert
        assert catalog.vector_jobs() == [(d.doc_id, "upsert")] and not catalog.is_indexed(d.doc_id, "ix")

    def test_index_marks_per_collection(self, catalog: CatalogStore) -> None:
        d = doc("11" * 32)
        ingest(catalog, d, {1: ["x"]})
        catalog.mark_indexed(d.doc_id, "old", 4)
        catalog.mark_indexed(d.doc_id, "new", 5)
        catalog.mark_indexed(d.doc_id, "new", 6)
        catalog.drop_index_marks("old")
        assert catalog.indexed_chunks(d.doc_id, "old") is None and catalog.indexed_chunks(d.doc_id, "new") == 6

    def test_discard_all_staged_drops_what_killed_parses_left(self, catalog: CatalogStore) -> None:
        for i in ("12" * 32, "13" * 32):
            catalog.stage_elements(i, page_elements(i, 1, ["x"]))
        catalog.discard_staged()
        with catalog.transaction() as conn:
            catalog.begin_document(conn, doc("12" * 32))
            catalog.commit_staged(conn, "12" * 32)
        assert catalog.elements("12" * 32) == []

    # -- caches -----------------------------------------------------------------------------------
    def test_cache_values_round_trip_per_namespace(self, catalog: CatalogStore) -> None:
        value = {"text": "Gr\u00fc\u00dfe \x00 \u2603", "boxes": [[1.5, 2, None]], "ok": True}
        catalog.cache_put("ocr", "k", value)
        catalog.cache_put("llm", "k", "other")
        assert catalog.cache_get("ocr", "k") == value and catalog.cache_get("llm", "k") == "other"
        catalog.cache_put("ocr", "k", [1, 2])
        assert catalog.cache_get("ocr", "k") == [1, 2] and catalog.cache_get("ocr", "missing") is None
        catalog.cache_put("ocr", "B", 1)
        catalog.cache_put("ocr", "a", 1)
        assert catalog.cache_keys("ocr") == ["B", "a", "k"] and catalog.cache_keys("none") == []

    def test_cache_entries_expire_and_delete(self, catalog: CatalogStore) -> None:
        for k in ("a", "b", "c"):
            catalog.cache_put("answers", k, k)
        catalog.cache_put("keep", "a", 1)
        assert catalog.cache_get("answers", "a", ttl_s=60) == "a"
        time.sleep(0.05)
        assert catalog.cache_get("answers", "a", ttl_s=0.01) is None
        catalog.cache_delete("answers", ["a", "b"])
        assert [catalog.cache_get("answers", k) for k in "abc"] == [None, None, "c"]
        catalog.cache_delete("answers")
        assert catalog.cache_get("answers", "c") is None and catalog.cache_get("keep", "a") == 1
