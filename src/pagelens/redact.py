"""Secrets kept out of what pagelens prints, logs and raises.

API keys are ``SecretStr`` in the settings (``secret``: the value, or None); URLs are shown with any
credentials masked (``mask_url``): ``https://user:pw@host/v1?api_key=k`` → ``https://***@host/v1?api_key=***``.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import SecretStr

MASK = "***"
_SECRET_PARAMS = re.compile(r"(key|token|secret|password|passwd|pwd|sig|signature|auth)", re.IGNORECASE)


def secret(value: SecretStr | str | None) -> str | None:
    """The plain value of a secret setting (None when unset or empty)."""
    if value is None:
        return None
    plain = value.get_secret_value() if isinstance(value, SecretStr) else value
    return plain or None


def mask_url(url: str | None) -> str:
    """``url`` with its user info and secret-looking query values replaced by ``***``."""
    if not url:
        return ""
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASK
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{MASK}@{netloc.rsplit('@', 1)[1]}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, MASK if _SECRET_PARAMS.search(k) else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


_URL_USERINFO = re.compile(r"//[^/\s@]+@")
_URL_SECRET_PARAM = re.compile(r"([?&][^=&\s]*(?:key|token|secret|password|sig)[^=&\s]*=)[^&\s\"']+", re.IGNORECASE)
HTTP_LOGGERS = ("httpx", "httpx2", "httpcore", "openai", "qdrant_client")


class RedactingFilter(logging.Filter):
    """Masks URL credentials in log records of the HTTP libraries pagelens drives (httpx logs every
    request URL at INFO, credentials included)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            return True
        masked = _URL_SECRET_PARAM.sub(rf"\1{MASK}", _URL_USERINFO.sub(f"//{MASK}@", message))
        if masked != message:
            record.msg, record.args = masked, ()
        return True


def redact_http_logs() -> None:
    """Attach :class:`RedactingFilter` to the HTTP libraries' loggers (idempotent). Called by the
    components that talk to endpoints, when they are built; nothing happens at import."""
    for name in HTTP_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactingFilter) for f in logger.filters):
            logger.addFilter(RedactingFilter())
