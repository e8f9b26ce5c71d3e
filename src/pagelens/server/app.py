"""``create_app(settings)``: the FastAPI application over one data home (no module-level app)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from pagelens.app import Pagelens
from pagelens.errors import (
    ComponentUnavailable, DocumentError, HomeLockedError, LLMError, NotFoundError, PagelensError,
)
from pagelens.server.deps import Authorized
from pagelens.server.routes import documents, jobs, openai_compat, pages, query, search, system
from pagelens.server.routes import report as report_routes
from pagelens.server.state import ServerState
from pagelens.settings import Settings

log = logging.getLogger("pagelens.server")
VERSION = "0.1.0"


def static_dir() -> Path:
    return Path(str(files("pagelens.server").joinpath("static")))


def create_app(settings: Settings, *, pagelens: Pagelens | None = None, open_home: bool = True) -> FastAPI:
    """The server for ``settings.home``. ``pagelens`` injects a prepared facade (tests with fakes).

    With ``open_home`` the vector index is opened at start-up, so a home owned by another process
    fails there rather than on the first question."""
    state = ServerState(settings, pagelens)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if open_home:
            state.open()
        state.start_jobs()
        try:
            yield
        finally:
            state.close()

    app = FastAPI(
        title="pagelens", version=VERSION, lifespan=lifespan,
        description="Cited answers about PDF documents: upload, search, ask (REST, WebSocket, OpenAI, MCP).",
        **_body_limit(settings),
    )
    app.state.pagelens = state
    if settings.server.cors_origins:
        app.add_middleware(
            CORSMiddleware, allow_origins=settings.server.cors_origins, allow_methods=["*"],
            allow_headers=["*"], allow_credentials=False,
        )

    app.include_router(system.public)
    guarded = [Authorized]
    app.include_router(report_routes.router, dependencies=guarded)
    for module in (system, documents, jobs, pages, search, query, openai_compat):
        app.include_router(module.router, dependencies=guarded)
    for module in (jobs, query):
        app.include_router(module.sockets)  # WebSockets check ?api_key= themselves
    _errors(app)
    _static(app)
    _guard_docs(app, settings)
    return app


def _guard_docs(app: FastAPI, settings: Settings) -> None:
    """With an API key, the OpenAPI schema and docs pages need it too (only /health and the UI are open)."""
    if settings.server.api_key is None:
        return
    from fastapi import HTTPException

    from pagelens.server.deps import require_key

    paths = {p for p in (app.openapi_url, app.docs_url, app.redoc_url, "/docs/oauth2-redirect") if p}

    @app.middleware("http")
    async def docs_need_key(request: Request, call_next):  # type: ignore[no-untyped-def]
        if request.url.path in paths:
            try:
                require_key(request)
            except HTTPException as exc:
                return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)
        return await call_next(request)


def _body_limit(settings: Settings) -> dict[str, int]:
    """FastAPI ≥ 0.165 can cut a body (also a chunked one, without Content-Length) at a size: the
    upload limit plus multipart overhead. The upload route words its own 413 for declared sizes."""
    import inspect

    if "max_body_size" not in inspect.signature(FastAPI.__init__).parameters:
        return {}
    return {"max_body_size": int((settings.server.max_upload_mb + 1) * 1024 * 1024)}


def _errors(app: FastAPI) -> None:
    def handler(code: int):  # type: ignore[no-untyped-def]
        async def handle(request: Request, exc: Exception) -> JSONResponse:
            return JSONResponse({"detail": " ".join(str(exc).split())}, status_code=code)

        return handle

    app.add_exception_handler(NotFoundError, handler(404))
    app.add_exception_handler(DocumentError, handler(422))
    app.add_exception_handler(HomeLockedError, handler(409))
    app.add_exception_handler(ComponentUnavailable, handler(501))
    app.add_exception_handler(LLMError, handler(502))
    app.add_exception_handler(PagelensError, handler(500))

    async def bug(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        return JSONResponse({"detail": f"internal error: {type(exc).__name__}: {' '.join(str(exc).split())}"[:300]},
                            status_code=500)

    app.add_exception_handler(Exception, bug)


def _static(app: FastAPI) -> None:
    root = static_dir()
    if not (root / "index.html").is_file():
        return
    app.mount("/static", StaticFiles(directory=root), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(root / "index.html")
