"""One routing profile per document: how a question can name it.

A profile is a point of its own collection (``<index name>_docs``) with

* ``name``  (sparse, binary): the document's identity — file name (and the form type and period its
  parts spell, ``3M_2018_10K`` → ``10-K``, ``FY2018``), title, subject, keywords, and the issuer,
  form type and period read from its cover (``pagelens.ingest.cover``), spelled the ways questions
  spell them;
* ``body``  (sparse, binary): the opening words of its cover page and its headings / outline entries;
* ``dense`` (the text embedder): identity and the cover's opening, for meaning-level matches.

The retriever asks, per question term, which profiles hold it (``pagelens.retrieve.routing``), so the
vectors are binary: a profile either carries a term or not, and how distinctive a term is comes from
how many profiles carry it. A profile never changes when other documents are added.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pagelens.index.bm25 import term_index, tokenize
from pagelens.ingest.cover import cover_facts, name_facts
from pagelens.models import FURNITURE_KINDS, Document, Element, ElementKind
from pagelens.vectors import PointRecord, SparseVector, VectorSpec, point_id

PROFILE_VERSION = 4
"""Bump when profile texts change; the indexer replaces profiles of an older version (3: a fiscal year
ended in January or February also carries the year before; 4: the day a file name or an 8-K's "Date of
Report" gives, as "July 1, 2022" and "1st July 2022")."""
COVER_PAGES = 2  # pages read for cover facts (an SEC cover can run onto page 2)
COVER_WORDS = 120  # opening words of the cover that enter the body vector
DENSE_COVER_WORDS = 60  # ... and the dense text
MAX_HEADINGS = 80  # headings / outline entries that enter the body vector
MAX_HEADING_LEVEL = 2
PROFILE_VECTORS = ("name", "body")


def profile_collection(index_name: str) -> str:
    return f"{index_name}_docs"


def profile_spec(dim: int) -> VectorSpec:
    return VectorSpec(dense={"dense": dim}, sparse=list(PROFILE_VECTORS))


@dataclass
class DocProfile:
    doc_id: str
    name: str
    identity: str  # name vector text
    body: str  # body vector text
    dense_text: str
    facts: str = ""  # issuer, form types and periods (cover and file name): words that say which document, never which page

    def point(self, vector: list[float]) -> PointRecord:
        return PointRecord(
            id=profile_point_id(self.doc_id),
            dense={"dense": vector},
            sparse={k: v for k, v in (("name", binary(self.identity)), ("body", binary(self.body))) if v.indices},
            payload={"doc_id": self.doc_id, "doc": self.name, "identity": self.identity, "facts": self.facts,
                     "version": PROFILE_VERSION},
        )


def profile_point_id(doc_id: str) -> str:
    return point_id(f"profile:{PROFILE_VERSION}:{doc_id}")


def binary(text: str) -> SparseVector:
    """A sparse vector with weight 1 on every distinct BM25 term of ``text``."""
    indices = sorted({term_index(t) for t in tokenize(text)})
    return SparseVector(indices=indices, values=[1.0] * len(indices))


def _stem_words(name: str) -> str:
    return " ".join(re.split(r"[-_.\s]+", Path(name).stem))


def build_profile(doc: Document, cover: list[Element], headings: list[Element]) -> DocProfile:
    """``cover``: the elements of the first ``COVER_PAGES`` pages in reading order; ``headings``:
    the document's heading elements."""
    cover_text = " ".join(
        " ".join(e.text.split()) for e in cover
        if e.kind not in FURNITURE_KINDS and e.kind not in (ElementKind.METADATA, ElementKind.FIGURE) and e.text.strip()
    )
    facts = cover_facts(cover_text)
    named = name_facts(Path(doc.name).stem).terms()
    identity_parts = [_stem_words(doc.name), named, doc.title or "", doc.subject or "", doc.keywords or "", facts.terms()]
    identity = "\n".join(" ".join(p.split()) for p in identity_parts if p and p.strip())
    words = cover_text.split()
    titles = [e.title for e in doc.outline if e.level <= MAX_HEADING_LEVEL]
    titles += [h.text for h in headings if (h.level or 1) <= MAX_HEADING_LEVEL]
    titles = list(dict.fromkeys(" ".join(t.split()) for t in titles if t.strip()))[:MAX_HEADINGS]
    body = "\n".join([" ".join(words[:COVER_WORDS]), " ".join(facts.years), *titles])
    dense_text = f"{identity}\n{' '.join(words[:DENSE_COVER_WORDS])}"
    return DocProfile(doc.doc_id, doc.name, identity, body, dense_text, facts=f"{named} {facts.terms()}".strip())
