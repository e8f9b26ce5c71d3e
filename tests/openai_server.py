"""A real OpenAI-compatible HTTP server on 127.0.0.1 for tests.

It speaks ``POST /v1/chat/completions`` (plain JSON and ``stream: true`` server-sent events ending in
``data: [DONE]``), answers from a queue of scripted responses (text, or an error status with optional
``Retry-After``), and records every request body with its arrival time.

    with OpenAIServer() as srv:
        srv.push_text("The answer is 42 [1].")
        srv.push_error(429, retry_after="0.2")
        settings = AnswerSettings(llm_base_url=srv.base_url, llm_model="m")

When the queue is empty the server answers with ``default_text``, or with a function of the request
(``srv.responder = lambda body: "..."``) when one is set.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass
class Scripted:
    text: str | None = None
    status: int = 200
    retry_after: str | None = None
    error_message: str = "scripted error"
    only_model: str | None = None  # when set, the response is used only for requests to this model


@dataclass
class Recorded:
    body: dict[str, Any]
    at: float
    status: int = 200

    @property
    def model(self) -> str:
        return self.body.get("model", "")

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body.get("messages", [])


@dataclass
class OpenAIServer:
    default_text: str = "The documents do not contain the answer."
    responder: Callable[[dict[str, Any]], str] | None = None
    requests: list[Recorded] = field(default_factory=list)
    _queue: deque[Scripted] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # -- scripting -------------------------------------------------------------------------------
    def push_text(self, text: str, *, model: str | None = None) -> None:
        self._queue.append(Scripted(text=text, only_model=model))

    def push_error(self, status: int, *, retry_after: str | None = None, message: str = "scripted error",
                   model: str | None = None) -> None:
        self._queue.append(Scripted(status=status, retry_after=retry_after, error_message=message, only_model=model))

    def _next(self, body: dict[str, Any]) -> Scripted:
        with self._lock:
            for i, item in enumerate(self._queue):
                if item.only_model is None or item.only_model == body.get("model"):
                    del self._queue[i]
                    return item
        text = self.responder(body) if self.responder else self.default_text
        return Scripted(text=text)

    # -- lifecycle -------------------------------------------------------------------------------
    def __enter__(self) -> "OpenAIServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep pytest output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server API)
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.endswith("/chat/completions"):
                    self._json(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                    return
                item = server._next(body)
                with server._lock:
                    server.requests.append(Recorded(body=body, at=time.monotonic(), status=item.status))
                if item.status != 200:
                    headers = {"Retry-After": item.retry_after} if item.retry_after else {}
                    self._json(item.status, {"error": {"message": item.error_message, "type": "scripted"}}, headers)
                    return
                if body.get("stream"):
                    self._sse(body, item.text or "")
                else:
                    self._json(200, _completion(body, item.text or ""))

            def _json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def _sse(self, body: dict[str, Any], text: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                pieces = [text[i:i + 7] for i in range(0, len(text), 7)] or [""]
                for piece in pieces:
                    self.wfile.write(f"data: {json.dumps(_chunk(body, piece))}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(f"data: {json.dumps(_chunk(body, None, finish='stop'))}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"


def _completion(body: dict[str, Any], text: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", ""),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _chunk(body: dict[str, Any], piece: str | None, finish: str | None = None) -> dict[str, Any]:
    delta = {} if piece is None else {"content": piece}
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", ""),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
