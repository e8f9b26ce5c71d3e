"""Question → cited answer: rewrite, retrieve, generate (LLM) or extract (no LLM), check citations.

``stream`` yields events for the server; ``ask`` consumes them and returns the final ``Answer``:

    {"type": "phase", "phase": "rewrite" | "retrieve" | "generate"}
    {"type": "sources", "sources": [SearchHit, ...]}
    {"type": "token", "text": "..."}
    {"type": "reset", "reason": "..."}   the tokens so far are withdrawn (the LLM ran out of time
                                         mid-answer); the extractive answer's tokens follow
    {"type": "done", "answer": Answer}

With ``phase_timings=True`` it also yields, as each phase ends (the server's live stream):

    {"type": "timing", "phase": "rewrite" | "embed" | "search" | "fuse" | "rerank" | "generate",
     "duration_ms": float}

The LLM steps of one question (rewrite, expansion, generation) share one deadline
(``answer.deadline_s``); past it the extractive answer is returned, and ``Answer.notes`` says so, with
whatever else fell back on the way.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from typing import Any

from pagelens.answer import prompts
from pagelens.answer.cache import SemanticCache
from pagelens.answer.citations import resolve_citations
from pagelens.answer.extractive import ExtractiveAnswerer
from pagelens.answer.llm import ChatLLM, DeadlineExceeded, image_part
from pagelens.answer.query import plan_query
from pagelens.embed.protocol import TextEmbedder
from pagelens.errors import LLMError
from pagelens.models import Answer, SearchHit
from pagelens.retrieve.protocol import Searcher
from pagelens.settings import Settings
from pagelens.store.images import ImageStore

log = logging.getLogger(__name__)

AnswerEvent = dict[str, Any]
MAX_IMAGES = 4  # figure images attached to one prompt (vision models)


class Answerer:
    def __init__(
        self,
        settings: Settings,
        searcher: Searcher,
        embedder: TextEmbedder,
        llm: ChatLLM | None = None,
        cache: SemanticCache | None = None,
        images: ImageStore | None = None,
    ) -> None:
        self.settings = settings
        self.searcher = searcher
        self.embedder = embedder
        self.llm = llm
        self.cache = cache
        self.images = images
        self.extractive = ExtractiveAnswerer(settings.answer, embedder)

    def ask(self, question: str, **kwargs: Any) -> Answer:
        """Same arguments as :meth:`stream`; returns the final answer."""
        for event in self.stream(question, **kwargs):
            if event["type"] == "done":
                return event["answer"]
        raise AssertionError("Answerer.stream ended without a done event")  # pragma: no cover

    def stream(
        self,
        question: str,
        *,
        history: Sequence[prompts.Turn] | None = None,
        doc_ids: list[str] | None = None,
        hyde: bool | None = None,
        multi_query: int | None = None,
        rerank: bool = True,
        k: int | None = None,
        phase_timings: bool = False,
    ) -> Iterator[AnswerEvent]:
        t_start = time.perf_counter()
        cfg = self.settings
        use_hyde = cfg.retrieval.hyde if hyde is None else hyde
        n_variants = cfg.retrieval.multi_query if multi_query is None else multi_query
        k = k or cfg.retrieval.k
        timings: dict[str, float] = {}
        deadline = time.monotonic() + cfg.answer.deadline_s if self.llm is not None else None

        yield {"type": "phase", "phase": "rewrite"}
        plan = plan_query(
            self.llm, question, history=history, history_turns=cfg.answer.history_turns,
            hyde=use_hyde, multi_query=n_variants, expand=cfg.retrieval.expand_short, deadline=deadline,
        )
        timings.update(plan.timings_ms)
        if phase_timings:
            yield _timing("rewrite", _ms(t_start))

        options = {"k": k, "hyde": use_hyde, "multi_query": n_variants, "rerank": rerank,
                   "model": self.llm.model if self.llm else "extractive"}
        cacheable = self.cache is not None and (not history or plan.rewritten)
        if cacheable:
            t0 = time.perf_counter()
            cached = self.cache.lookup(plan.standalone, doc_ids=doc_ids, options=options)
            timings["cache"] = _ms(t0)
            if cached is not None:
                cached.question = question
                cached.notes = list(plan.notes)
                cached.timings_ms = {**timings, "total": _ms(t_start)}
                yield {"type": "sources", "sources": cached.sources}
                yield {"type": "token", "text": cached.answer}
                yield {"type": "done", "answer": cached}
                return

        yield {"type": "phase", "phase": "retrieve"}
        t0 = time.perf_counter()
        phases: dict[str, float] = {}
        hits = self.searcher.search(
            plan.standalone, k=k, doc_ids=doc_ids, extra_queries=plan.extra_queries or None,
            rerank_query=plan.standalone, rerank=rerank, **({"timings": phases} if phase_timings else {}),
        )
        timings["retrieve"] = _ms(t0)
        if phase_timings:
            for name in ("embed", "search", "fuse", "rerank"):
                timings[name] = phases.get(name, 0.0)
                yield _timing(name, timings[name])
        yield {"type": "sources", "sources": hits}

        yield {"type": "phase", "phase": "generate"}
        t0 = time.perf_counter()
        answer: Answer | None = None
        notes = list(plan.notes)
        if self.llm is not None and hits:
            answer = yield from self._generate(question, plan.standalone, hits, history, deadline, notes)
        if answer is None:
            text, abstained, _ = self.extractive.answer(plan.standalone, hits)
            yield {"type": "token", "text": text}
            cited, invalid = resolve_citations(text, hits)
            answer = Answer(question=question, answer=text, sources=hits, cited=cited,
                            invalid_citations=invalid, abstained=abstained, model="extractive")
        timings["generate"] = _ms(t0)
        if phase_timings:
            yield _timing("generate", timings["generate"])
        answer.timings_ms = {**timings, "total": _ms(t_start)}
        answer.notes = notes

        if cacheable and not answer.abstained and not answer.invalid_citations and not notes:
            try:
                self.cache.put(plan.standalone, answer, doc_ids=doc_ids, options=options)
            except Exception as exc:  # noqa: BLE001 - a cache write must never lose the answer
                log.warning("answer cache: could not store the answer: %s", exc)
        yield {"type": "done", "answer": answer}

    def _generate(
        self, question: str, standalone: str, hits: list[SearchHit], history: Sequence[prompts.Turn] | None,
        deadline: float | None = None, notes: list[str] | None = None,
    ) -> Iterator[AnswerEvent]:
        """Streams the LLM answer; returns the Answer, or None when the LLM failed before its first
        token or the question's time budget ran out (the caller then answers extractively; ``notes``
        says why)."""
        assert self.llm is not None
        asked = question if history else standalone
        messages = prompts.answer_messages(
            asked, hits, history, history_turns=self.settings.answer.history_turns, images=self._images(hits),
        )
        pieces: list[str] = []
        try:
            for piece in self.llm.stream(messages, deadline=deadline):
                pieces.append(piece)
                yield {"type": "token", "text": piece}
        except DeadlineExceeded:
            note = (f"the LLM did not finish within the question's time budget ({self.settings.answer.deadline_s:g} s);"
                    " this is the extractive answer")
            log.warning("%s", note)
            if notes is not None:
                notes.append(note)
            if pieces:
                yield {"type": "reset", "reason": note}
            return None
        except LLMError as exc:
            if pieces:
                raise
            log.warning("LLM failed, answering extractively: %s", exc)
            if notes is not None:
                notes.append(f"the LLM failed, this is the extractive answer: {exc}")
            return None
        text = "".join(pieces).strip()
        cited, invalid = resolve_citations(text, hits)
        abstained = _abstains(text)
        return Answer(question=question, answer=text, sources=hits, cited=cited, invalid_citations=invalid,
                      abstained=abstained, model=self.llm.model)

    def _images(self, hits: Sequence[SearchHit]) -> dict[int, dict[str, Any]] | None:
        if not (self.settings.answer.vision and self.llm and self.llm.vision and self.images):
            return None
        out: dict[int, dict[str, Any]] = {}
        for n, hit in enumerate(hits, start=1):
            sha = next((c.image for c in hit.all_chunks() if c.image), None)
            if sha and len(out) < MAX_IMAGES and self.images.exists(sha):
                out[n] = image_part(self.images.get(sha))
        return out or None


def _abstains(text: str) -> bool:
    low = " ".join(text.lower().split())
    return prompts.ABSTAIN_TEXT.lower().rstrip(".") in low or "do not contain the answer" in low


def _timing(phase: str, ms: float) -> AnswerEvent:
    return {"type": "timing", "phase": phase, "duration_ms": ms}


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 2)
