"""One time budget per question for every LLM step; past it the extractive answer, with a note. The
notes a query plan collects (what fell back and why) reach the Answer."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from answer_support import ListSearcher, pdf_chunks
from openai_server import OpenAIServer
from pdf_support import write_pdf

from pagelens.answer.answerer import Answerer
from pagelens.answer.llm import ChatLLM
from pagelens.embed.fake import HashingEmbedder
from pagelens.settings import AnswerSettings, RetrievalSettings, Settings


@pytest.fixture
def server():
    with OpenAIServer() as srv:
        yield srv


@pytest.fixture
def chunks(tmp_path: Path):
    pdf = tmp_path / "budget.pdf"
    write_pdf(pdf, "The 2025 budget of the harbor project is 44.0 million euros.", pages=2)
    return pdf_chunks(pdf, [1, 2])


def answerer(tmp_path: Path, srv: OpenAIServer, chunks, **answer) -> Answerer:
    settings = Settings(
        home=tmp_path, retrieval=RetrievalSettings(k=3, expand_short=False),
        answer=AnswerSettings(llm_base_url=srv.base_url, llm_model="m", retries=0, cache=False, **answer),
    )
    embedder = HashingEmbedder(dim=256)
    return Answerer(settings, ListSearcher(chunks, embedder), embedder, llm=ChatLLM(settings.answer))


def test_a_slow_llm_gives_the_extractive_answer_within_the_budget(tmp_path, server, chunks) -> None:
    def slow(body):
        time.sleep(3.0)
        return "Too late [1]."

    server.responder = slow
    a = answerer(tmp_path, server, chunks, deadline_s=0.8, timeout_s=30)
    started = time.monotonic()
    answer = a.ask("What is the 2025 budget of the harbor project?")
    assert time.monotonic() - started < 2.5  # not the 3 s the server takes, nor the 30 s request timeout
    assert answer.model == "extractive" and "44.0" in answer.answer
    assert len(answer.notes) == 1 and "time budget (0.8 s)" in answer.notes[0]


def test_one_budget_covers_rewrite_and_generation(tmp_path, server, chunks) -> None:
    def slowly(body):
        time.sleep(1.0)  # each call fits a 1.5 s budget alone; the rewrite and the generation do not
        return "What is the 2025 budget of the harbor project?"

    server.responder = slowly
    a = answerer(tmp_path, server, chunks, deadline_s=1.5)
    started = time.monotonic()
    answer = a.ask("and its budget?", history=[("Tell me about the harbor project.", "It is a port [1].")])
    assert time.monotonic() - started < 1.95
    assert answer.model == "extractive"
    assert not any(n.startswith("rewrite") for n in answer.notes)  # the rewrite made it in time
    assert len(answer.notes) == 1 and "time budget (1.5 s)" in answer.notes[0]  # the generation did not


def test_plan_notes_reach_the_answer(tmp_path, server, chunks) -> None:
    server.push_error(500, message="rewrite down")
    server.push_text("The budget is 44.0 million euros [1].")
    a = answerer(tmp_path, server, chunks)
    answer = a.ask("and the budget?", history=[("Tell me about the harbor project.", "It is a port [1].")])
    assert answer.model == "m" and "44.0" in answer.answer
    assert len(answer.notes) == 1 and answer.notes[0].startswith("rewrite fell back to the question")


def test_a_stream_that_outlives_the_budget_is_withdrawn(tmp_path, server, chunks) -> None:
    server.push_text("The budget is " + "very " * 400 + "large [1].")
    a = answerer(tmp_path, server, chunks, deadline_s=0.3)
    events = []
    # a consumer that takes its time between tokens (e.g. a slow terminal or websocket)
    for event in a.stream("What is the 2025 budget of the harbor project?"):
        events.append(event)
        if event["type"] == "token":
            time.sleep(0.01)
    kinds = [e["type"] for e in events]
    if "reset" in kinds:  # the budget ran out mid-stream: withdrawn, the extractive answer follows
        answer = events[-1]["answer"]
        assert answer.model == "extractive" and kinds.index("reset") < len(kinds) - 1
        assert any("time budget" in n for n in answer.notes)
    else:
        pytest.fail(f"the stream finished within 0.3 s despite a 10 ms pause per token: {kinds[:5]}")
