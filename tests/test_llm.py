"""ChatLLM against a real HTTP server on 127.0.0.1 (tests/openai_server.py)."""

from __future__ import annotations

import base64
import io
import socket

import pytest
from PIL import Image

from pagelens.answer.llm import PRESETS, ChatLLM, create_llm, image_part
from pagelens.errors import ConfigError, LLMError
from pagelens.settings import AnswerSettings, Settings

from openai_server import OpenAIServer

MESSAGES = [{"role": "user", "content": "Say hello"}]


@pytest.fixture
def server():
    with OpenAIServer() as srv:
        yield srv


def settings_for(srv: OpenAIServer, **kw) -> AnswerSettings:
    base = {"llm_base_url": srv.base_url, "llm_model": "main-model", "retries": 2, "retry_max_wait_s": 0.05}
    return AnswerSettings(**{**base, **kw})


def test_complete_and_stream_round_trip(server):
    server.push_text("Hello there.")
    server.push_text("A streamed answer that spans several SSE chunks [1, p.3].")
    llm = ChatLLM(settings_for(server, temperature=0.0, max_tokens=77))
    assert llm.complete(MESSAGES) == "Hello there."
    pieces = list(llm.stream(MESSAGES))
    assert len(pieces) > 3
    assert "".join(pieces) == "A streamed answer that spans several SSE chunks [1, p.3]."
    first, second = server.requests
    assert first.body["model"] == "main-model" and first.body["messages"] == MESSAGES
    assert first.body["max_tokens"] == 77 and first.body["temperature"] == 0.0
    assert not first.body.get("stream") and second.body["stream"] is True


def test_429_is_retried_after_retry_after(server):
    server.push_error(429, retry_after="0.3")
    server.push_text("ok")
    llm = ChatLLM(settings_for(server, retry_max_wait_s=5))
    assert llm.complete(MESSAGES) == "ok"
    assert [r.status for r in server.requests] == [429, 200]
    assert server.requests[1].at - server.requests[0].at >= 0.28
    assert llm.model == "main-model"


def test_retry_after_is_bounded(server):
    server.push_error(503, retry_after="30")
    server.push_text("ok")
    llm = ChatLLM(settings_for(server, retry_max_wait_s=0.1))
    assert llm.complete(MESSAGES) == "ok"
    assert server.requests[1].at - server.requests[0].at < 2.0


def test_quota_exhausted_falls_back_to_next_model_and_sticks(server):
    for _ in range(3):  # retries=2 → three attempts on the main model
        server.push_error(429, retry_after="0", model="main-model")
    server.push_error(404, message="model not found", model="second")
    llm = ChatLLM(settings_for(server, fallback_models=["second", "third"]))
    assert "".join(llm.stream(MESSAGES)) == server.default_text
    assert [(r.model, r.status) for r in server.requests] == [
        ("main-model", 429), ("main-model", 429), ("main-model", 429), ("second", 404), ("third", 200),
    ]
    assert llm.model == "third"
    llm.complete(MESSAGES)
    assert server.requests[-1].model == "third"


def test_server_errors_exhaust_retries_into_one_line_llm_error(server):
    for _ in range(3):
        server.push_error(500, message="upstream exploded")
    llm = ChatLLM(settings_for(server, fallback_models=["other"]))
    with pytest.raises(LLMError) as info:
        llm.complete(MESSAGES)
    msg = str(info.value)
    assert "\n" not in msg and "500" in msg and "main-model" in msg
    assert len(server.requests) == 3  # 5xx is not a quota problem: no fallback


def test_client_errors_are_not_retried(server):
    server.push_error(400, message="bad request body")
    llm = ChatLLM(settings_for(server))
    with pytest.raises(LLMError, match="400"):
        llm.complete(MESSAGES)
    assert len(server.requests) == 1


def test_unreachable_endpoint_is_an_llm_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    llm = ChatLLM(AnswerSettings(llm_base_url=f"http://127.0.0.1:{port}/v1", llm_model="m", retries=1,
                                 retry_max_wait_s=0.01, timeout_s=2))
    with pytest.raises(LLMError, match="connection"):
        llm.complete(MESSAGES)


def test_image_part_downscales_to_a_png_data_url():
    buf = io.BytesIO()
    Image.new("RGB", (3000, 1200), (200, 30, 30)).save(buf, format="PNG")
    part = image_part(buf.getvalue(), max_side=1024)
    assert part["type"] == "image_url"
    url = part["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    with Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))) as img:
        assert img.size == (1024, 410)
        assert img.getpixel((10, 10)) == (200, 30, 30)


def test_create_llm_presets_and_missing_config():
    assert create_llm(Settings().answer) is None
    for preset, url in PRESETS.items():
        llm = create_llm(AnswerSettings(llm_preset=preset, llm_model="m"))
        assert llm is not None and llm.base_url == url
    explicit = create_llm(Settings(answer=AnswerSettings(llm_preset="ollama", llm_base_url="http://h:1/v1", llm_model="m")))
    assert explicit.base_url == "http://h:1/v1"
    with pytest.raises(ConfigError, match="llm_model"):
        create_llm(AnswerSettings(llm_preset="groq"))
