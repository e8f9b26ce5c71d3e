"""A real uvicorn on 127.0.0.1: WebSocket streams (event order), the OpenAI endpoint through the
openai SDK, auth on/off, and LLM tokens streamed through /ws/query from a real OpenAI-protocol server."""

from __future__ import annotations

import json

import httpx
import pytest

from openai_server import OpenAIServer
from server_support import LiveServer, make_pdf, wait_job

pytest.importorskip("websockets")
QUESTION = "How long is the Oresund bridge?"


def _start(settings, tmp_path, **overrides):
    from pagelens.server import create_app

    s = settings.with_overrides(**{"ingest.ocr": "off", **overrides})
    live = LiveServer(create_app(s)).start()
    key = overrides.get("server.api_key")
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    client = httpx.Client(base_url=live.url, headers=headers, timeout=120)
    pdf = make_pdf(tmp_path / "facts.pdf")
    r = client.post("/documents", files=[("files", ("facts.pdf", pdf.read_bytes(), "application/pdf"))])
    assert r.status_code == 202, r.text
    assert wait_job(client, r.json()["jobs"][0]["job_id"])["state"] == "done"
    return live, client


@pytest.fixture
def live(settings, tmp_path):
    live, client = _start(settings, tmp_path)
    yield live, client
    client.close()
    live.stop()


def _ask_ws(url: str, body: dict, suffix: str = "") -> list[dict]:
    from websockets.sync.client import connect

    events = []
    with connect(url.replace("http", "ws") + "/ws/query" + suffix, open_timeout=30) as ws:
        ws.send(json.dumps(body))
        while True:
            ev = json.loads(ws.recv(timeout=120))
            events.append(ev)
            if ev["type"] in ("done", "error"):
                return events


def test_ws_query_streams_phases_sources_tokens_citations_done(live):
    server, _ = live
    events = _ask_ws(server.url, {"question": QUESTION})
    kinds = [e["type"] for e in events]
    phases = [e["name"] for e in events if e["type"] == "phase"]
    assert phases == ["rewrite", "embed", "search", "fuse", "rerank", "generate"]
    assert all(e["duration_ms"] >= 0 for e in events if e["type"] == "phase")
    first_token, sources = kinds.index("token"), kinds.index("sources")
    assert kinds[:5] == ["phase"] * 5 and sources == 5 and first_token > sources
    assert kinds[-3:] == ["phase", "citations", "done"]  # generate ends after the last token
    done = events[-1]
    assert "7,845" in done["answer"] and done["answer"] == "".join(e["text"] for e in events if e["type"] == "token")
    assert events[sources]["sources"][0]["page"] == 2 and done["cached"] is False
    assert done["total_ms"] > 0 and done["conversation_id"]
    assert events[-2]["citations"][0]["n"] == 1 and events[-2]["citations"][0]["valid"]


def test_ws_query_bad_request_gives_error_and_socket_stays_open(live):
    from websockets.sync.client import connect

    server, _ = live
    with connect(server.url.replace("http", "ws") + "/ws/query") as ws:
        ws.send(json.dumps({"question": ""}))
        err = json.loads(ws.recv(timeout=30))
        assert err["type"] == "error" and "question" in err["message"]
        ws.send(json.dumps({"question": QUESTION, "doc_ids": ["no-such-doc"]}))
        err = json.loads(ws.recv(timeout=30))
        assert err["type"] == "error" and "no-such-doc" in err["message"]
        ws.send(json.dumps({"question": QUESTION}))
        kinds = []
        while not kinds or kinds[-1] != "done":
            kinds.append(json.loads(ws.recv(timeout=60))["type"])
        assert "sources" in kinds


def test_ws_jobs_reports_progress_until_done(live, tmp_path):
    from websockets.sync.client import connect

    server, client = live
    pdf = make_pdf(tmp_path / "longer.pdf", pages=6)
    with connect(server.url.replace("http", "ws") + "/ws/jobs") as ws:
        r = client.post("/documents", files=[("files", ("longer.pdf", pdf.read_bytes(), "application/pdf"))])
        job_id = r.json()["jobs"][0]["job_id"]
        seen = []
        while True:
            msg = json.loads(ws.recv(timeout=120))
            assert msg["type"] == "job"
            if msg["job"]["job_id"] == job_id:
                seen.append(msg["job"])
                if msg["job"]["state"] in ("done", "failed"):
                    break
    states = [j["state"] for j in seen]
    assert states[0] == "queued" and states[-1] == "done" and "running" in states
    assert seen[-1]["pages"] == 6 and seen[-1]["page"] == 6 and seen[-1]["doc_id"]
    assert any(j["stage"] == "parse" for j in seen)


def test_openai_sdk_chat_stream_and_not(live):
    from openai import OpenAI

    server, _ = live
    oa = OpenAI(base_url=server.url + "/v1", api_key="unused")
    assert [m.id for m in oa.models.list().data] == ["pagelens"]
    resp = oa.chat.completions.create(model="pagelens", messages=[{"role": "user", "content": QUESTION}])
    assert "7,845" in resp.choices[0].message.content
    assert resp.model_extra["sources"][0]["page"] == 2
    stream = oa.chat.completions.create(
        model="pagelens", stream=True,
        messages=[{"role": "user", "content": "What is grown?"}, {"role": "assistant", "content": "Coffee."},
                  {"role": "user", "content": QUESTION}],
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert "7,845" in text and chunks[-1].choices[0].finish_reason == "stop"
    assert chunks[-1].model_extra["sources"][0]["doc_name"] == "facts.pdf"


def test_auth_on(settings, tmp_path):
    from openai import AuthenticationError, OpenAI
    from websockets.exceptions import InvalidStatus, ConnectionClosed
    from websockets.sync.client import connect

    server, client = _start(settings, tmp_path, **{"server.api_key": "s3cret"})
    try:
        bare = httpx.Client(base_url=server.url)
        assert bare.get("/health").status_code == 200
        for method, path in [("GET", "/documents"), ("GET", "/stats"), ("POST", "/search"), ("GET", "/v1/models")]:
            r = bare.request(method, path, json={"query": "x"})
            assert r.status_code == 401 and "API key" in r.json()["detail"], (path, r.text)
        assert bare.get("/documents", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert client.get("/documents").status_code == 200
        assert client.get("/config").json()["api_key_required"] is True
        with pytest.raises((InvalidStatus, ConnectionClosed)):
            with connect(server.url.replace("http", "ws") + "/ws/query") as ws:
                ws.send(json.dumps({"question": QUESTION}))
                ws.recv(timeout=10)
        events = _ask_ws(server.url, {"question": QUESTION}, "?api_key=s3cret")
        assert events[-1]["type"] == "done"
        with pytest.raises(AuthenticationError):
            OpenAI(base_url=server.url + "/v1", api_key="wrong").models.list()
        assert OpenAI(base_url=server.url + "/v1", api_key="s3cret").models.list().data[0].id == "pagelens"
    finally:
        client.close()
        server.stop()


def test_auth_off_needs_no_key(live):
    server, _ = live
    bare = httpx.Client(base_url=server.url)
    assert bare.get("/documents").status_code == 200
    assert bare.get("/config").json()["api_key_required"] is False


def test_llm_tokens_stream_through_ws_query(settings, tmp_path):
    with OpenAIServer() as llm:
        llm.push_text("The Oresund bridge is 7,845 metres long [1, p.2].")
        server, client = _start(settings, tmp_path, **{"answer.llm_base_url": llm.base_url, "answer.llm_model": "m",
                                                       "answer.cache": False})
        try:
            events = _ask_ws(server.url, {"question": QUESTION})
        finally:
            client.close()
            server.stop()
    tokens = [e["text"] for e in events if e["type"] == "token"]
    assert len(tokens) > 3 and "".join(tokens) == "The Oresund bridge is 7,845 metres long [1, p.2]."
    done = events[-1]
    assert done["type"] == "done" and done["model"] == "m"
    cites = [e for e in events if e["type"] == "citations"][0]["citations"]
    assert cites[0]["n"] == 1 and cites[0]["page"] == 2 and cites[0]["valid"]
    prompt = json.dumps(llm.requests[-1].messages)
    assert "7,845 metres" in prompt  # the sources went into the prompt


def test_ws_query_reset_when_the_llm_runs_out_of_time(settings, tmp_path):
    """An LLM that streams a few tokens and stalls: the socket gets the tokens, a reset, then the
    extractive answer, and done.notes says why."""
    import threading
    import time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Stalling(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_POST(self):  # noqa: N802
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                for piece in ("The ", "bridge ", "is "):
                    chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m",
                             "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                    time.sleep(0.2)
                time.sleep(5)
            except OSError:
                pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Stalling)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    server, client = _start(settings, tmp_path, **{"answer.llm_base_url": url, "answer.llm_model": "m",
                                                   "answer.cache": False, "answer.retries": 0,
                                                   "answer.deadline_s": 1.5})
    try:
        events = _ask_ws(server.url, {"question": QUESTION})
    finally:
        client.close()
        server.stop()
        httpd.shutdown()
        httpd.server_close()
    kinds = [e["type"] for e in events]
    reset = kinds.index("reset")
    assert kinds[:reset].count("token") == 3 and "token" in kinds[reset:] and kinds[-1] == "done"
    after = "".join(e["text"] for e in events[reset:] if e["type"] == "token")
    assert "7,845" in after and events[-1]["answer"] == after and events[-1]["model"] is None
    assert any("time budget" in n for n in events[-1]["notes"])


def test_reprocess_reparses_in_place_and_the_document_stays_listed_and_searchable(live):
    """Reprocess keeps the document (old elements, old vectors) until the new parse commits, then
    swaps: during the job it is listed, searchable and cited; afterwards its elements are fresh and
    the index matches them."""
    import threading

    from websockets.sync.client import connect

    from pagelens.index.check import IndexChecker

    server, client = live
    state = server.server.config.app.state.pagelens
    [doc] = client.get("/documents").json()
    doc_id = doc["doc_id"]
    # An older parse, through the catalog's API: one element's text the PDF does not contain.
    catalog = state.app.catalog
    element = next(e for e in catalog.elements(doc_id) if e.kind.value == "text" and "Oresund" in (e.text or ""))
    element.text = f"stalephrase {element.text}"
    with catalog.transaction() as conn:
        catalog.add_elements(conn, [element])
    catalog.cache_put("ocr-figure", "f" * 64 + "|tesseract-5", "another document's figure")

    # Hold the job after its caches are cleared, before it parses: the window a slow re-parse leaves.
    coordinator = state.app.coordinator
    real_ingest, entered, release = coordinator.ingest, threading.Event(), threading.Event()

    def held_ingest(*args, **kwargs):
        entered.set()
        assert release.wait(60)
        return real_ingest(*args, **kwargs)

    coordinator.ingest = held_ingest
    try:
        with connect(server.url.replace("http", "ws") + "/ws/jobs", open_timeout=30) as ws:
            r = client.post(f"/documents/{doc_id}/reprocess")
            assert r.status_code == 202 and r.json()["job"]["kind"] == "reprocess"
            job_id = r.json()["job"]["job_id"]
            assert entered.wait(60)
            try:
                assert client.get(f"/jobs/{job_id}").json()["state"] == "running"
                assert [d["doc_id"] for d in client.get("/documents").json()] == [doc_id]
                texts = [e["text"] for e in client.get(f"/documents/{doc_id}").json()["elements"]]
                assert any("stalephrase" in (t or "") for t in texts)  # the old parse serves meanwhile
                hits = client.post("/search", json={"query": "How long is the Oresund bridge?", "k": 3}).json()["hits"]
                assert hits and hits[0]["doc_id"] == doc_id
                q = client.post("/query", json={"question": QUESTION}).json()
                assert q["sources"] and q["sources"][0]["doc_id"] == doc_id and "7,845" in q["answer"]
            finally:
                release.set()
            seen = []
            while True:
                msg = json.loads(ws.recv(timeout=120))
                if msg["type"] == "job" and msg["job"]["job_id"] == job_id:
                    seen.append(msg["job"])
                    if msg["job"]["state"] in ("done", "failed"):
                        break
    finally:
        coordinator.ingest = real_ingest
    done = seen[-1]
    assert done["state"] == "done" and done["kind"] == "reprocess" and done["doc_id"] == doc_id, done
    assert done["result"]["status"] == "reparsed"
    stages = [j["stage"] for j in seen]
    assert "parse" in stages and "index" in stages and stages[-1] == "done", stages

    assert [d["doc_id"] for d in client.get("/documents").json()] == [doc_id]
    texts = [e["text"] for e in client.get(f"/documents/{doc_id}").json()["elements"]]
    assert texts and not any("stalephrase" in (t or "") for t in texts)  # the elements were made again
    hits = client.post("/search", json={"query": "How long is the Oresund bridge?", "k": 3}).json()["hits"]
    assert hits and hits[0]["doc_id"] == doc_id and "stalephrase" not in hits[0]["text"]
    assert catalog.cache_get("ocr-figure", "f" * 64 + "|tesseract-5") == "another document's figure"
    app = state.app
    assert app.store.count(app.indexer.collection, doc_id) == len(app.indexer.chunks(doc_id)) > 0
    report = IndexChecker(app).check()
    assert report.ok and report.stale == [] and not report.pending, report.to_dict()
