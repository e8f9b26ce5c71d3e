"""Cross-document questions get sources from every document they name, also when the question's topic
words are on one document's cover and the other is named only by its own name. Real parser, MiniLM
and qdrant-edge over PDFs the test builds."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.index.bm25 import SparseEncoder
from pagelens.retrieve.retriever import Retriever
from pagelens.retrieve.routing import Routing, score_documents
from index_support import built_index

SPEEDUP = ("Performance", "Lumen 2.4 is on average 25% faster than Lumen 2.3, an average speedup of 1.25x on the "
           "standard benchmark suite.")
LUMEN = [  # What's New In Lumen 2.4: every page speaks of speedups
    SPEEDUP,
    ("Faster startup", "Startup is on average 10-15% faster: the core modules are frozen, a speedup that all "
     "scripts see."),
    ("Faster calls", "Function calls are cheaper on average, with a speedup of up to 1.7x for recursive code."),
    ("Adaptive interpreter", "The adaptive interpreter specializes hot code paths, a speedup of 10-60% on average "
     "in benchmarks."),
    ("Cheaper exceptions", "Zero-cost exceptions make try statements faster; the speedup is small on average."),
    ("Other speedups", "String formatting, resizing of lists and dictionary lookups get small average speedups."),
]
QUASAR = [  # a paper: its evaluation page states its speedup once
    ("Quasar: Trace-based Just-in-Time Compilation", "We present Quasar, a tracing compiler for a dynamic "
     "language that records hot loops and compiles them to machine code."),
    ("Design", "Quasar records a trace when a loop header becomes hot and compiles the trace with type guards."),
    ("Evaluation", "On the suite Quasar runs 3.9x faster than the baseline interpreter in native code, "
     "its mean result over all programs."),
    ("Related work", "Earlier tracing compilers targeted statically typed bytecode."),
]
OTHERS = {
    "garden-handbook.pdf": ("The Garden Handbook", [("Soil", "Loam holds water and air for roots."),
                                                     ("Pruning", "Prune roses in late winter.")]),
    "bakery-guide.pdf": ("Bakery Guide", [("Bread", "Knead the dough for ten minutes."),
                                          ("Cakes", "Cream butter and sugar until pale.")]),
}


def _doc(path: Path, title: str, pages: list[tuple[str, str]]) -> Path:
    doc = pymupdf.open()
    doc.set_metadata({"title": title})
    for i, (heading, text) in enumerate(pages):
        page = doc.new_page()
        page.insert_text((60, 80), title if i == 0 else heading, fontsize=16 if i == 0 else 14)
        page.insert_textbox(pymupdf.Rect(60, 100, 540, 500), text, fontsize=11)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("crossdoc")
    paths = [_doc(root / "lumen-2.4-whats-new.pdf", "What's New In Lumen 2.4", LUMEN),
             _doc(root / "quasar-tracing-jit.pdf", "Quasar: Trace-based Just-in-Time Compilation", QUASAR)]
    paths += [_doc(root / name, title, pages) for name, (title, pages) in OTHERS.items()]
    with built_index(root / "home", paths) as b:
        yield Retriever(b.settings, b.store, b.embedder, SparseEncoder()), b.ids


def test_a_document_named_only_by_its_name_gets_a_place(corpus):
    r, ids = corpus
    q = "What average speedups do the Quasar paper and What's New in Lumen 2.4 report?"
    routing = r.route(q)
    lumen, quasar = ids["lumen-2.4-whats-new.pdf"], ids["quasar-tracing-jit.pdf"]
    # The topic words are Lumen's: Quasar is far weaker, yet named by a name of its own.
    assert routing.strength[lumen] == 1.0 and routing.strength[quasar] < 0.75
    assert set(routing.named_apart) == {lumen, quasar} and set(routing.covered) == {lumen, quasar}
    hits = r.search(q, k=5)
    docs = [h.chunk.doc_name for h in hits]
    assert "quasar-tracing-jit.pdf" in docs and "lumen-2.4-whats-new.pdf" in docs
    assert docs.count("lumen-2.4-whats-new.pdf") >= 3  # the rest stays in fused order
    # Quasar's place goes to the page that answers (searched within the named documents).
    assert any(h.chunk.doc_name == "quasar-tracing-jit.pdf" and "3.9x" in h.chunk.text for h in hits)


def test_one_named_document_gets_no_reserved_places(corpus):
    r, ids = corpus
    q = "What average speedup does What's New in Lumen 2.4 report for startup?"
    routing = r.route(q)
    assert routing.covered == [] and ids["quasar-tracing-jit.pdf"] not in routing.named_apart
    assert {h.chunk.doc_name for h in r.search(q, k=5)} == {"lumen-2.4-whats-new.pdf"}


def test_names_apart_are_terms_no_other_profile_carries():
    # "quasar" is in one identity only; "speedup" is in one identity but also another's cover text;
    # "lumen" and "2.4" are the other's own.
    terms = {"quasar": ({"q"}, set()), "speedup": ({"l"}, {"q"}), "lumen": ({"l"}, set()), "2.4": ({"l"}, set())}
    r = score_documents(terms, 4)
    assert r.own == {"q": 1.0, "l": 2.0}
    assert r.strength["q"] < 0.75 and set(r.covered) == {"q", "l"}
    # Only one document named apart, the other merely weaker: no reserved places.
    assert score_documents({"lumen": ({"l"}, set()), "speedup": ({"l", "q"}, set())}, 4).covered == []
    assert Routing(strength={"a": 1.0, "b": 0.3}, own={"a": 1.0}, n_docs=4).covered == []
