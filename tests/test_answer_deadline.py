"""One time budget per question for every LLM step; past it the extractive answer, with a note. The
notes a query plan collects (what fell back and why) reach the Answer."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from answer_support import ListSearcher, pdf_chunks
from openai_server import OpenAIServer, _chunk
from pdf_support import write_pdf

from pagelens.answer.answerer import Answerer
from pagelens.answer.llm import ChatLLM, DeadlineExceeded
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


class _Stalling(BaseHTTPRequestHandler):
    """Streams four tokens 0.25 s apart, then stops sending (a stalled LLM server)."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            for piece in ("The ", "budget ", "is ", "large "):
                self.wfile.write(f"data: {json.dumps(_chunk(body, piece))}\n\n".encode())
                self.wfile.flush()
                time.sleep(0.25)
            time.sleep(4)
        except OSError:
            pass


@pytest.fixture
def stalling():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Stalling)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def test_a_stream_that_stalls_late_ends_at_the_deadline(stalling: str) -> None:
    """Tokens flow, then the server stops sending: the call ends at its deadline, not a read timeout
    later."""
    llm = ChatLLM(AnswerSettings(llm_base_url=stalling, llm_model="m", retries=0, timeout_s=30))
    started = time.monotonic()
    got = []
    with pytest.raises(DeadlineExceeded):
        for piece in llm.stream([{"role": "user", "content": "q"}], deadline=started + 1.2):
            got.append(piece)
    assert got == ["The ", "budget ", "is ", "large "]
    assert time.monotonic() - started < 1.9  # not 1.2 s plus another read timeout


def test_an_answer_cut_short_by_the_deadline_is_withdrawn(tmp_path: Path, stalling: str, chunks) -> None:
    settings = Settings(
        home=tmp_path, retrieval=RetrievalSettings(k=3, expand_short=False),
        answer=AnswerSettings(llm_base_url=stalling, llm_model="m", retries=0, cache=False, deadline_s=1.2),
    )
    embedder = HashingEmbedder(dim=256)
    a = Answerer(settings, ListSearcher(chunks, embedder), embedder, llm=ChatLLM(settings.answer))
    events = list(a.stream("What is the 2025 budget of the harbor project?"))
    kinds = [e["type"] for e in events]
    reset = kinds.index("reset")
    assert kinds[:reset].count("token") == 4 and "token" in kinds[reset:]  # LLM tokens, withdrawn, then extractive
    answer = events[-1]["answer"]
    assert answer.model == "extractive" and "44.0" in answer.answer
    assert len(answer.notes) == 1 and "time budget (1.2 s)" in answer.notes[0]
