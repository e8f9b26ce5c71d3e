"""Hybrid retrieval: several channels, fused by reciprocal rank, deduplicated, optionally reranked.

Channels (each ``retrieval.pool`` deep, all in one engine call):

* ``dense``   query embedding vs. text/table/form/metadata chunks
* ``sparse``  BM25 over the same chunks and figures (exact words and numbers)
* ``caption`` query embedding vs. figure captions + labels + OCR text (+ descriptions)
* ``summary`` query embedding vs. LLM summaries (when the index was enriched)
* ``image``   CLIP text embedding vs. figure images (when a CLIP model is configured)

Document routing (``pagelens.retrieve.routing``, ``retrieval.route``): the documents a question names
add a prior to their chunks' fused scores (channel ``route``), and the channels are searched once more
within them (``dense@route``, ``sparse@route``, ...; a chunk of a named document takes its rank per
channel from the search within, not from the search that its document's name helped), so a long
report's page reaches the pool and the document's cover and metadata do not outrank it. The scoped
BM25 leaves out the words that named the documents; the scoped dense channels leave out only issuer,
form and period words and capitalised names, and reuse the question's embedding when there are none.

The fused list is deduplicated (a table and one of its row groups: the better one stays), optionally
reranked by a cross-encoder, merged per page (``retrieval.merge_pages``: the best chunk of a page
carries the others), its first pages reordered by their coverage of the question's terms within near
ties (``retrieval.page_coverage``, ``pagelens.retrieve.pagescore``), then ordered so that the top ``k`` covers as many pages as it can
(``retrieval.per_page``), keeps up to ``image_slots`` places for figures the fusion ranked well, and
has a place for every document a cross-document question names.

A question that names a numbered element ("Figure 2", "Table 3", "Section 4.1") adds a prior, channel
``label``, to the chunks that carry that label (``pagelens.retrieve.labels``). A question asking what a
name means lowers the tables of numbers (``pagelens.retrieve.intent.numeric_table``).
"""

from __future__ import annotations

import re

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pagelens.embed.protocol import ImageEmbedder, TextEmbedder
from pagelens.errors import ComponentUnavailable
from pagelens.index.bm25 import SparseEncoder, tokenize
from pagelens.index.indexer import chunk_from_payload
from pagelens.models import SearchHit
from pagelens.retrieve.diversity import cover_documents, merge_pages
from pagelens.retrieve.ordering import Candidate as _Candidate
from pagelens.retrieve.ordering import arrange, dedupe
from pagelens.retrieve.expand import is_short, short_query_weights
from pagelens.retrieve.fusion import fuse_ranks, lent_ranks, scoped_ranks
from pagelens.retrieve.intent import MEANING_PENALTY, asks_for_figure, asks_for_meaning, figure_query_weights, numeric_table
from pagelens.retrieve.labels import (
    LABEL_VECTOR, LABEL_WEIGHT, add_label_prior, label_docs, label_vector, question_labels,
)
from pagelens.retrieve import hop, multipart, pagescore
from pagelens.retrieve.line_items import IMPLIED_WEIGHT, implied_statements
from pagelens.retrieve.statements import naming_words
from pagelens.retrieve.protocol import Mode
from pagelens.retrieve.routing import SCOPE_STRENGTH, DocRouter, Routing, designators
from pagelens.settings import Settings
from pagelens.vectors import ChannelQuery, ScoredPoint, VectorStore

if TYPE_CHECKING:
    from pagelens.retrieve.rerank import Reranker

# Which named vector each channel searches.
CHANNEL_VECTORS = {"dense": "dense", "sparse": "bm25", "caption": "caption", "summary": "summary", "image": "image"}
DENSE_TEXT_CHANNELS = ("dense", "caption", "summary")  # share the text query embedding

class Retriever:
    """``pagelens.retrieve.protocol.Searcher`` over one collection."""

    def __init__(
        self,
        settings: Settings,
        store: VectorStore,
        embedder: TextEmbedder,
        sparse: SparseEncoder,
        image_embedder: ImageEmbedder | None = None,
        reranker: "Reranker | None" = None,
        known_docs: Callable[[], set[str]] | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.embedder = embedder
        self.sparse = sparse
        self.image_embedder = image_embedder
        self.reranker = reranker
        # The catalog's document ids: a hit of any other id is a stale vector awaiting its delete.
        self.known_docs = known_docs
        self.collection = settings.index_name()
        self.router = DocRouter(store, self.collection)

    # -- public -----------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        mode: Mode = "hybrid",
        doc_ids: list[str] | None = None,
        extra_queries: list[str] | None = None,
        rerank_query: str | None = None,
        rerank: bool = True,
        timings: dict[str, float] | None = None,
    ) -> list[SearchHit]:
        """``timings``, when given, receives the milliseconds of embed, search, fuse and rerank."""
        rs = self.settings.retrieval
        timings = {} if timings is None else timings
        k = k or rs.k
        query = " ".join(query.split())
        if not query:
            return []
        queries = [query, *(q for q in (extra_queries or []) if q.strip())]
        weights = dict(rs.weights)
        if rs.expand_short and mode == "hybrid" and is_short(query):
            weights = short_query_weights(weights)
        if mode == "hybrid" and asks_for_figure(query):
            weights = figure_query_weights(weights)
        channels = self._channels(mode)
        routed = mode == "hybrid" and rs.route
        candidates, routing = self._fused(queries, channels, doc_ids, weights, routed, timings)
        t0 = time.perf_counter()
        if self.known_docs is not None:
            known = self.known_docs()
            candidates = [c for c in candidates if c.chunk.doc_id in known]
        candidates = dedupe(candidates)
        if mode == "hybrid" and asks_for_meaning(query):
            # A table of numbers gives a name's values, never its meaning ("What does PERSPENK measure?").
            drop = MEANING_PENALTY / (rs.rrf_k + 1)
            for c in candidates:
                if numeric_table(c.chunk.kind, c.chunk.text):
                    c.fused -= drop
                    c.channels["fused"] = c.fused
            candidates.sort(key=lambda c: -c.fused)
        if rerank and self.reranker is not None and candidates:
            timings["fuse"] = timings.get("fuse", 0.0) + _ms(t0)
            t0 = time.perf_counter()
            candidates = self._rerank(rerank_query or query, candidates)
            timings["rerank"] = _ms(t0)
            t0 = time.perf_counter()
        if rs.merge_pages:
            candidates = merge_pages(candidates)
            if mode == "hybrid" and rs.page_coverage > 0:
                skip = routing.identity_terms(list(routing.strength)) if routing is not None else set()
                skip |= naming_words(query)  # "the balance sheet": which statement, not which of its pages
                candidates = pagescore.rescore(candidates, query, rs.rrf_k, skip=skip, weight=rs.page_coverage)
        ordered = arrange(candidates, k, per_page=rs.per_page, image_slots=rs.image_slots)
        if routing is not None and routing.covered:
            ordered = cover_documents(ordered, k, routing.covered)
        timings["fuse"] = timings.get("fuse", 0.0) + _ms(t0)
        if rs.multipart and mode == "hybrid":
            t0 = time.perf_counter()
            ordered = multipart.apply(query, ordered, k, routing,
                                      lambda part: self._part(part, channels, doc_ids, weights, routed))
            timings["parts"] = _ms(t0)
        if rs.multihop and mode == "hybrid":
            t0 = time.perf_counter()
            ordered = hop.apply(query, ordered, k, lambda q: self._part(q, channels, doc_ids, weights, routed)[0],
                                self._names_documents if routed else None,
                                routing.above(SCOPE_STRENGTH) if routing is not None else ())
            timings["hop"] = _ms(t0)
        timings.setdefault("rerank", 0.0)
        hits = [c.hit(i + 1) for i, c in enumerate(ordered[:k])]
        words = [(w, tokenize(w)) for w in re.findall(r"[\w'’.&-]+", query)]
        if routing is not None:
            # Issuer, form and period, and the file name's designators ("DD Form 293"): title and keyword
            # words are often what the question asks about. The question's own words, in its order
            # ("Acme's", "second quarter"), not the index's stems.
            for h in hits:
                facts = routing.facts.get(h.chunk.doc_id, set())
                named = [w for w, toks in words if toks and toks[0] in facts]  # "10-K" by "10-k", not "10"
                h.doc_terms = list(dict.fromkeys([*named, *designators(query, h.chunk.doc_name)]))
        for h in hits:
            # The page's running header/footer (a deck's short title, a course code, the speaker) names
            # the document on this page: the question's words it holds say which document, not which span.
            running = {t for c in h.all_chunks() for line in c.running for t in tokenize(line)}
            said = [w for w, toks in words if toks and all(t in running for t in toks)]
            if said:
                h.doc_terms = list(dict.fromkeys([*h.doc_terms, *said]))
        return hits

    def route(self, query: str) -> Routing:
        """The documents ``query`` names (see ``pagelens.retrieve.routing``)."""
        vec = [float(x) for x in self.embedder.embed([" ".join(query.split())])[0]]
        return self.router.route(query, vec)

    def _names_documents(self, text: str) -> dict[str, set[str]]:
        """The documents ``text`` names, each with the terms of ``text`` in its profile: identity, cover
        opening, headings (no model call)."""
        routing = self.router.route(" ".join(text.split()))
        return {d: routing.identity.get(d, set()) | set(routing.terms.get(d, [])) for d in routing.strength}

    # -- channels ---------------------------------------------------------------------------------
    def _channels(self, mode: Mode) -> list[str]:
        if mode == "dense":
            return ["dense"]
        if mode == "sparse":
            return ["sparse"]
        if mode == "image":
            if self.image_embedder is None:
                raise ComponentUnavailable(
                    "image search", "no CLIP model is configured", "set index.clip_model to a local CLIP directory"
                )
            return ["image"]
        if mode != "hybrid":
            raise ValueError(f"unknown search mode {mode!r}; use hybrid, dense, sparse or image")
        names = ["dense", "sparse", "caption", "summary"]
        if self.image_embedder is not None:
            names.append("image")
        return [n for n in names if self.settings.retrieval.weights.get(n, 1.0) > 0]

    def _channel_queries(self, queries: list[str], channels: list[str]) -> list[tuple[str, ChannelQuery]]:
        pool = self.settings.retrieval.pool
        out: list[tuple[str, ChannelQuery]] = []
        text_vecs = (
            self.embedder.embed(queries) if any(c in DENSE_TEXT_CHANNELS for c in channels) else None
        )
        image_vecs = (
            self.image_embedder.embed_texts(queries)
            if "image" in channels and self.image_embedder is not None
            else None
        )
        for qi, q in enumerate(queries):
            suffix = "" if qi == 0 else f"#{qi}"
            for ch in channels:
                if ch == "sparse":
                    vec: Any = self.sparse.encode_query(q)
                    if not vec.indices:
                        continue
                elif ch == "image":
                    assert image_vecs is not None
                    vec = [float(x) for x in image_vecs[qi]]
                else:
                    assert text_vecs is not None
                    vec = [float(x) for x in text_vecs[qi]]
                out.append((ch + suffix, ChannelQuery(CHANNEL_VECTORS[ch], vec, pool)))
        return out

    def _fused(
        self, queries: list[str], channels: list[str], doc_ids: list[str] | None, base: dict[str, float],
        routed: bool = False,
        timings: dict[str, float] | None = None,
    ) -> tuple[list[_Candidate], Routing | None]:
        rs = self.settings.retrieval
        timings = {} if timings is None else timings
        t0 = time.perf_counter()
        named = self._channel_queries(queries, channels)
        timings["embed"] = _ms(t0)
        if not named:
            return [], None
        t0 = time.perf_counter()
        results = self.store.search_batch(self.collection, [cq for _, cq in named], doc_ids)
        routing, scoped = None, {}
        if routed:
            qvec = next((cq.vector for n, cq in named if n == "dense"), None)
            routing = self.router.route(queries[0], qvec if isinstance(qvec, list) else None)
            if doc_ids:
                # A document filter keeps the routing of the documents it allows: the words that named
                # them still say which document, never which page (searched without them, in scope).
                allowed = set(doc_ids)
                routing = replace(routing, strength={d: v for d, v in routing.strength.items() if d in allowed})
            if routing.scope:
                scoped = self._scoped(queries[0], [(n, cq) for n, cq in named if "#" not in n], routing)
        timings["search"] = _ms(t0)
        t0 = time.perf_counter()
        ranks: dict[str, dict[str, int]] = {}
        scores: dict[str, dict[str, float]] = {}
        payloads: dict[str, dict[str, Any]] = {}
        for name, hits in [*((n, h) for (n, _), h in zip(named, results, strict=True)), *((f"{n}@route", h) for n, h in scoped.items())]:
            ranks[name], scores[name] = {}, {}
            for pos, h in enumerate(hits, 1):
                ranks[name].setdefault(_cid(h), pos)
                scores[name].setdefault(_cid(h), h.score)
                payloads.setdefault(_cid(h), h.payload)
        # Within the named documents a chunk takes its rank per channel from the search within them
        # (the scoped channels, ``@route``), so their pages compete as if the question had been asked
        # of them alone, and not by the words that named them (``fusion.scoped_ranks``).
        within = {name: ranks.pop(name) for name in [n for n in ranks if n.endswith("@route")]}
        scope = set(routing.scope) if routing is not None else set()

        def in_scope(cid: str) -> bool:
            return payloads[cid].get("doc_id") in scope

        for name, ranked in within.items():
            channel = name[: -len("@route")]
            ranks[channel] = scoped_ranks(ranks.get(channel, {}), ranked, in_scope)
            scores.setdefault(channel, {}).update({cid: scores[name][cid] for cid in ranked})
        # A channel blind to the named documents (nothing within them) ranks their chunks just past its
        # own depth (``fusion.lent_ranks``); fused with those places, not shown as the channel's ranks.
        lent = lent_ranks({n[: -len("@route")]: r for n, r in within.items()}, rs.pool)
        fused_ranks = {**ranks, **{c: {**ranks.get(c, {}), **r} for c, r in lent.items()}}
        weights = {
            name: base.get(name.split("#")[0], 1.0) * (rs.extra_query_weight if "#" in name else 1.0)
            for name in fused_ranks
        }
        prior = base.get("route", 1.0) / (rs.rrf_k + 1)  # a first place in a channel of weight "route"
        out = []
        for f in fuse_ranks(fused_ranks, k=rs.rrf_k, weights=weights):
            chunk = chunk_from_payload(payloads[f.id])
            info: dict[str, float] = {}
            for name, ranked in (*ranks.items(), *within.items()):
                if f.id in ranked:
                    info[name] = scores[name][f.id]
                    info[f"{name}_rank"] = float(ranked[f.id])
            for name, ranked in lent.items():
                if f.id in ranked:
                    info[f"{name}_lent"] = float(ranked[f.id])
            score = f.score
            if routing is not None and chunk.doc_id in routing.strength:
                info["route"] = routing.strength[chunk.doc_id]
                score += prior * routing.strength[chunk.doc_id]
            info["fused"] = score
            out.append(_Candidate(chunk, score, info))
        labelled = self._labels(queries[0], out, routing, doc_ids, base)
        if (routing is not None and routing.strength) or labelled:
            out.sort(key=lambda c: -c.fused)  # stable: ties keep the fusion's order
        for i, c in enumerate(out, 1):
            c.fused_rank = i
        timings["fuse"] = _ms(t0)
        return out, routing

    def _labels(
        self, query: str, out: list[_Candidate], routing: Routing | None, doc_ids: list[str] | None,
        base: dict[str, float],
    ) -> bool:
        """The label prior (``pagelens.retrieve.labels``): the chunks that carry a label the question
        names ("Figure 2"), within the documents it is about, gain a first place in channel ``label``;
        those no other channel found join ``out``. The chunks of the statements its line items and ratios
        imply (``pagelens.retrieve.line_items``) gain a place in channel ``implied``. True when any chunk
        gained either."""
        lookups = [(keys, channel, weight) for keys, channel, weight in (
            (question_labels(query), "label", base.get("label", LABEL_WEIGHT)),
            (implied_statements(query), "implied", base.get("implied", IMPLIED_WEIGHT))) if keys and weight > 0]
        if not lookups:
            return False
        routed = routing.above(SCOPE_STRENGTH) if routing is not None else []
        docs = label_docs(routed, [c.chunk.doc_id for c in out], doc_ids)
        if not docs:
            return False
        pool = self.settings.retrieval.pool
        found = self.store.search_batch(
            self.collection, [ChannelQuery(LABEL_VECTOR, label_vector(keys), pool) for keys, _, _ in lookups], docs)
        strength = {d: routing.strength[d] for d in routed} if routing is not None and routed else None
        gained = False
        for (_, channel, weight), hits in zip(lookups, found):
            gained |= add_label_prior(out, hits, weight / (self.settings.retrieval.rrf_k + 1),
                                      lambda h: _Candidate(chunk_from_payload(h.payload), 0.0), _cid, strength, channel)
        return gained

    def _part(
        self, query: str, channels: list[str], doc_ids: list[str] | None, weights: dict[str, float], routed: bool,
    ) -> tuple[list[_Candidate], Routing | None]:
        """One part of a multi-part question (``pagelens.retrieve.multipart``), fused with its own routing,
        deduplicated and merged per page like the question."""
        candidates, routing = self._fused([query], channels, doc_ids, weights, routed)
        if self.known_docs is not None:
            known = self.known_docs()
            candidates = [c for c in candidates if c.chunk.doc_id in known]
        candidates = dedupe(candidates)
        return (merge_pages(candidates) if self.settings.retrieval.merge_pages else candidates), routing

    def _scoped(
        self, query: str, named: list[tuple[str, ChannelQuery]], routing: Routing
    ) -> dict[str, list[ScoredPoint]]:
        """The channels once more, within the named documents, for the question without the words that
        named them: BM25 without any of them (as bare words they pull up the cover, title and
        metadata pages); the dense channels without the issuer, form and period words and the names
        (capitalised words past the first: "Adam", "Kroger") only. Those say which document, never
        which page ("fiscal 2018" resembles every page on the fiscal year); lower-case naming words
        stay, being often what the question is about ("row and column access control"), and a
        sentence stripped of them no longer means it. Where nothing is left out, the question's own
        vectors are reused (no second model call)."""
        sparse_q = _without(query, routing.identity_terms(routing.scope))
        dense_q = _without(query, routing.fact_terms(routing.scope), names=routing.identity_terms(routing.scope))
        dense = None
        if dense_q != query and any(name in DENSE_TEXT_CHANNELS for name, _ in named):
            dense = [float(x) for x in self.embedder.embed([dense_q])[0]]
        out: list[tuple[str, ChannelQuery]] = []
        for name, cq in named:
            if name == "sparse":
                vec: Any = self.sparse.encode_query(sparse_q)
                if not vec.indices:
                    continue
                cq = ChannelQuery(cq.vector_name, vec, cq.limit)
            elif dense is not None and name in DENSE_TEXT_CHANNELS:
                cq = ChannelQuery(cq.vector_name, dense, cq.limit)
            out.append((name, cq))
        hits = self.store.search_batch(self.collection, [cq for _, cq in out], routing.scope)
        return {name: h for (name, _), h in zip(out, hits, strict=True)}

    def _rerank(self, query: str, candidates: list[_Candidate]) -> list[_Candidate]:
        assert self.reranker is not None
        n = self.settings.retrieval.rerank_pool
        head, tail = candidates[:n], candidates[n:]
        scores = self.reranker.rerank(query, [c.chunk.text for c in head])
        for c, s in zip(head, scores, strict=True):
            c.rerank = float(s)
            c.channels["rerank"] = float(s)
        head.sort(key=lambda c: -(c.rerank or 0.0))
        return head + tail


def _without(query: str, terms: set[str], names: set[str] | None = None) -> str:
    """``query`` without the words whose terms are in ``terms``, nor the capitalised words (past the
    first) whose terms are in ``names`` (the query itself if nothing is left)."""
    names = names or set()
    if not terms and not names:
        return query
    words = query.split()
    kept = [w for i, w in enumerate(words)
            if not set(tokenize(w)) & terms and not (i > 0 and w[:1].isupper() and set(tokenize(w)) & names)]
    return " ".join(kept) if any(tokenize(w) for w in kept) else query


def _cid(hit: ScoredPoint) -> str:
    return str(hit.payload.get("chunk_id") or hit.id)


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 2)
