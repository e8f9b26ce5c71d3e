"""Short queries: one or two content words (``QCRTAUT``, ``Timbuktu``, ``AdaMax``, ``Table 3``).

A sentence embedder has little to work with in a bare keyword, while BM25 has exactly the words to
match, and a keyword search usually means "where is this term". For such queries the sparse channel
counts ``SHORT_SPARSE_BOOST`` times its usual weight, so an exact term match outranks a vaguely
similar passage; the dense channels still contribute (a keyword that never occurs in the
documents is then found by meaning alone).
"""

from __future__ import annotations

from collections.abc import Mapping

from pagelens.index.bm25 import tokenize

SHORT_MAX_TERMS = 2
SHORT_SPARSE_BOOST = 2.0


def is_short(query: str) -> bool:
    """True when the query has one or two content words (stopwords do not count)."""
    words = query.split()
    content = [w for w in words if tokenize(w)]
    return 0 < len(content) <= SHORT_MAX_TERMS and len(words) <= SHORT_MAX_TERMS + 2


def short_query_weights(weights: Mapping[str, float]) -> dict[str, float]:
    """The fusion weights to use for a short query."""
    out = dict(weights)
    out["sparse"] = out.get("sparse", 1.0) * SHORT_SPARSE_BOOST
    return out
