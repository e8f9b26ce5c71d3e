"""The pagelens server: one process owns a data home and answers while it ingests.

``create_app(settings)`` builds the FastAPI application (REST, WebSocket streams, an OpenAI-compatible
endpoint and the static web UI); ``pagelens serve`` runs it with uvicorn. See API.md in the docs for
the routes.
"""

from pagelens.server.app import create_app

__all__ = ["create_app"]
