"""Typed dependency aliases shared by the routers (FastAPI template style)."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, HTTPException, Request, WebSocket, status

from pagelens.server.state import ServerState
from pagelens.settings import Settings


def get_state(request: Request) -> ServerState:
    return request.app.state.pagelens


def get_settings(request: Request) -> Settings:
    return request.app.state.pagelens.settings


State = Annotated[ServerState, Depends(get_state)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


def key_matches(settings: Settings, given: str | None) -> bool:
    key = settings.server.api_key
    if key is None:
        return True
    return given is not None and secrets.compare_digest(given.encode(), key.get_secret_value().encode())


def require_key(request: Request) -> None:
    """Guards every route but /health and the static UI when ``server.api_key`` is set."""
    settings = get_settings(request)
    if settings.server.api_key is None:
        return
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not key_matches(settings, token.strip()):
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED, "missing or wrong API key: send 'Authorization: Bearer <key>'",
            headers={"WWW-Authenticate": "Bearer"},
        )


def websocket_key_ok(ws: WebSocket) -> bool:
    settings: Settings = ws.app.state.pagelens.settings
    if settings.server.api_key is None:
        return True
    given = ws.query_params.get("api_key")
    if given is None:
        scheme, _, token = ws.headers.get("authorization", "").partition(" ")
        given = token.strip() if scheme.lower() == "bearer" else None
    return key_matches(settings, given)


Authorized = Depends(require_key)
