"""Chat models behind any OpenAI-compatible endpoint (Ollama, vLLM, Groq, Gemini, OpenAI...).

The ``openai`` SDK does the HTTP; its own retries are off (``max_retries=0``) because pagelens retries
itself: 429 and 5xx are retried with exponential backoff that honours ``Retry-After`` (bounded by
``retry_max_wait_s``); a model that stays rate-limited (quota) or does not exist (404) is replaced by
the next of ``fallback_models``, and that choice sticks for later calls. Everything that still fails
becomes one :class:`~pagelens.errors.LLMError` line naming the endpoint, model and status.
"""

from __future__ import annotations

import base64
import io
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import httpx

from pagelens.errors import ConfigError, LLMError
from pagelens.redact import mask_url, redact_http_logs, secret
from pagelens.settings import AnswerSettings, Settings

log = logging.getLogger(__name__)

PRESETS: dict[str, str] = {
    "ollama": "http://localhost:11434/v1",
    "groq": "https://api.groq.com/openai/v1",
    "gemini": "https://generativelanguage.googleapis.com/v1beta/openai/",
    "openai": "https://api.openai.com/v1",
    "vllm": "http://localhost:8000/v1",
}

Message = dict[str, Any]
T = TypeVar("T")

# Backoff: BASE_DELAY_S * 2**attempt when the server gives no Retry-After.
BASE_DELAY_S = 0.5
_FALLBACK_STATUSES = frozenset({404, 429})


def resolve_base_url(settings: AnswerSettings) -> str | None:
    if settings.llm_base_url:
        return settings.llm_base_url
    if settings.llm_preset:
        return PRESETS[settings.llm_preset]
    return None


class _Retryable(Exception):
    def __init__(self, status: int | None, wait_s: float | None, detail: str) -> None:
        self.status, self.wait_s, self.detail = status, wait_s, detail
        super().__init__(detail)


class ChatLLM:
    """One chat model (plus fallbacks) at one OpenAI-compatible endpoint."""

    def __init__(
        self,
        settings: AnswerSettings,
        http_client: httpx.Client | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        base_url = resolve_base_url(settings)
        if not base_url:
            raise ConfigError("answer.llm_base_url or answer.llm_preset is needed for an LLM")
        if not settings.llm_model:
            raise ConfigError(f"answer.llm_model is not set for the LLM endpoint {mask_url(base_url)}")
        import openai

        self.settings = settings
        self.base_url = base_url
        self.label = mask_url(base_url)  # what messages show: no credentials
        redact_http_logs()
        self.vision = settings.vision
        self.models = [settings.llm_model, *[m for m in settings.fallback_models if m != settings.llm_model]]
        self._active = 0
        self._sleep = sleep
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=secret(settings.llm_api_key) or "not-needed",
            http_client=http_client,
            max_retries=0,
            timeout=settings.timeout_s,
        )

    @property
    def model(self) -> str:
        """The model currently in use (moves down the fallback list on quota errors)."""
        return self.models[self._active]

    # -- public calls ----------------------------------------------------------------------------
    def complete(self, messages: list[Message], *, max_tokens: int | None = None,
                 temperature: float | None = None, deadline: float | None = None) -> str:
        """``deadline``: a ``time.monotonic()`` instant after which no request or retry is started
        (and a running one times out); :class:`DeadlineExceeded` then."""

        def call(model: str) -> str:
            resp = self._client.chat.completions.create(
                model=model, messages=messages, stream=False, **self._params(max_tokens, temperature, deadline)
            )
            if not resp.choices:
                raise LLMError(f"LLM {self.label} model {model}: empty response (no choices)")
            return resp.choices[0].message.content or ""

        return self._with_fallback(call, deadline)

    def stream(self, messages: list[Message], *, max_tokens: int | None = None,
               temperature: float | None = None, deadline: float | None = None) -> Iterator[str]:
        """Yields text deltas as the server sends them (SSE). Retries and fallbacks happen before the
        first token; a failure after that raises :class:`LLMError`. Past ``deadline`` (monotonic)
        it raises :class:`DeadlineExceeded`, before the first token or between two."""

        def open_stream(model: str) -> Any:
            return self._client.chat.completions.create(
                model=model, messages=messages, stream=True, **self._params(max_tokens, temperature, deadline)
            )

        stream = self._with_fallback(open_stream, deadline)
        import openai

        pieces = _pieces(stream) if deadline is None else _until(_pieces(stream), deadline, self.label)
        try:
            yield from pieces
        except DeadlineExceeded:
            raise
        except (openai.OpenAIError, httpx.HTTPError) as exc:
            if deadline is not None and time.monotonic() >= deadline - 0.05:
                raise DeadlineExceeded(f"LLM {self.label}: the time budget ran out while streaming") from exc
            raise LLMError(f"LLM {self.label} model {self.model}: stream broke: {_one_line(exc)}") from exc
        finally:
            close = getattr(stream, "close", None)
            if close:
                close()

    # -- retry machinery -------------------------------------------------------------------------
    def _params(self, max_tokens: int | None, temperature: float | None, deadline: float | None = None) -> dict[str, Any]:
        params: dict[str, Any] = {
            "max_tokens": max_tokens or self.settings.max_tokens,
            "temperature": self.settings.temperature if temperature is None else temperature,
        }
        if deadline is not None:  # a request never outlives the question's budget
            params["timeout"] = max(0.05, min(self.settings.timeout_s, deadline - time.monotonic()))
        return params

    def _with_fallback(self, call: Callable[[str], T], deadline: float | None = None) -> T:
        errors: list[str] = []
        while True:
            model = self.model
            _check_deadline(deadline, self.label)
            try:
                return self._with_retries(call, model, deadline)
            except _Retryable as exc:
                errors.append(f"{model}: {exc.detail}")
                if exc.status in _FALLBACK_STATUSES and self._active + 1 < len(self.models):
                    self._active += 1
                    log.warning("LLM model %s unavailable (%s); falling back to %s", model, exc.status, self.model)
                    continue
                raise LLMError(f"LLM {self.label} failed: {'; '.join(errors)}") from exc

    def _with_retries(self, call: Callable[[str], T], model: str, deadline: float | None = None) -> T:
        import openai

        attempt = 0
        while True:
            _check_deadline(deadline, self.label)
            try:
                return call(model)
            except openai.APIStatusError as exc:
                status = exc.status_code
                detail = f"HTTP {status} {_one_line(exc)}"
                if status == 404:
                    raise _Retryable(404, None, detail) from exc
                if status != 429 and status < 500:
                    raise LLMError(f"LLM {self.label} model {model}: {detail}") from exc
                failure = _Retryable(status, _retry_after(exc.response), detail)
            except (openai.APIConnectionError, openai.APITimeoutError) as exc:
                failure = _Retryable(None, None, f"connection failed: {_one_line(exc)}")
            except openai.OpenAIError as exc:
                raise LLMError(f"LLM {self.label} model {model}: {_one_line(exc)}") from exc
            _check_deadline(deadline, self.label)  # a timeout cut short by the budget is not retried
            if attempt >= self.settings.retries:
                raise failure
            wait = failure.wait_s if failure.wait_s is not None else BASE_DELAY_S * 2**attempt
            wait = min(max(wait, 0.0), self.settings.retry_max_wait_s)
            if deadline is not None and time.monotonic() + wait >= deadline:
                raise DeadlineExceeded(f"LLM {self.label}: no time left in the budget to retry ({failure.detail})")
            log.info("LLM %s: %s; retry %d in %.2fs", model, failure.detail, attempt + 1, wait)
            self._sleep(wait)
            attempt += 1


def _pieces(stream: Any) -> Iterator[str]:
    for chunk in stream:
        for choice in chunk.choices or []:
            piece = choice.delta.content if choice.delta else None
            if piece:
                yield piece


def _until(pieces: Iterator[str], deadline: float, label: str) -> Iterator[str]:
    """``pieces`` read on a helper thread and handed over until ``deadline``: a stream that stalls
    (a blocked socket read) cannot hold the question past its budget."""
    handoff: queue.Queue[tuple[str, Any]] = queue.Queue()

    def pump() -> None:
        try:
            for piece in pieces:
                handoff.put(("piece", piece))
            handoff.put(("end", None))
        except BaseException as exc:  # noqa: BLE001 - handed to the reading side, which raises it
            handoff.put(("error", exc))

    threading.Thread(target=pump, name="pagelens-llm-stream", daemon=True).start()
    while True:
        try:
            kind, value = handoff.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise DeadlineExceeded(f"LLM {label}: the time budget ran out while streaming") from None
        if kind == "end":
            return
        if kind == "error":
            raise value
        yield value


class DeadlineExceeded(LLMError):
    """The question's overall LLM time budget (``answer.deadline_s``) is spent."""


def _check_deadline(deadline: float | None, base_url: str) -> None:
    if deadline is not None and time.monotonic() >= deadline:
        raise DeadlineExceeded(f"LLM {base_url}: the time budget for this question is spent")


def _retry_after(response: httpx.Response | None) -> float | None:
    """Seconds the server asks us to wait (``retry-after-ms`` or ``Retry-After`` in seconds)."""
    if response is None:
        return None
    ms = response.headers.get("retry-after-ms")
    if ms:
        try:
            return float(ms) / 1000.0
        except ValueError:
            pass
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        from email.utils import parsedate_to_datetime

        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300]


def image_part(png: bytes, max_side: int = 1024) -> Message:
    """A chat content part carrying ``png`` as a base64 data URL, scaled so neither side exceeds
    ``max_side`` pixels."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as img:
        img.load()
        if max(img.size) > max_side:
            scale = max_side / max(img.size)
            img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))),
                             Image.Resampling.LANCZOS)
        if img.mode not in ("RGB", "RGBA", "L", "LA"):
            img = img.convert("RGB")
        buf = io.BytesIO()
        img.save(buf, format="PNG", optimize=True)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}}


def create_llm(settings: Settings | AnswerSettings, http_client: httpx.Client | None = None) -> ChatLLM | None:
    """The configured chat model, or None when no endpoint is configured (extractive answers).

    An endpoint without a model name is a configuration error, not a silent fallback."""
    answer = settings.answer if isinstance(settings, Settings) else settings
    if resolve_base_url(answer) is None:
        return None
    return ChatLLM(answer, http_client=http_client)
