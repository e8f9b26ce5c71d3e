"""The catalog: documents, elements, pending vector work and caches behind ``CatalogStore``.

``open_catalog(settings)`` picks the engine: PostgreSQL when ``settings.catalog_url`` (env
``PAGELENS_CATALOG_URL``) is a ``postgresql://`` URL, else the embedded SQLite file
``<home>/catalog.sqlite3``. ``Catalog`` is the SQLite engine under its historical name.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pagelens.store.catalog.base import INDEX_IDENTITY_NAMESPACE
from pagelens.store.catalog.protocol import CatalogStore, Tx
from pagelens.store.catalog.sqlite import SqliteCatalog

if TYPE_CHECKING:
    from pagelens.settings import Settings

Catalog = SqliteCatalog

__all__ = ["INDEX_IDENTITY_NAMESPACE", "Catalog", "CatalogStore", "SqliteCatalog", "Tx", "open_catalog"]


def open_catalog(settings: "Settings") -> CatalogStore:
    """The catalog the settings name (the PostgreSQL engine is imported only when used)."""
    url = getattr(settings, "catalog_url", None)
    if url:
        if not url.startswith(("postgresql://", "postgres://")):
            from pagelens.errors import ConfigError
            from pagelens.redact import mask_url

            raise ConfigError(
                f"catalog_url {mask_url(url)}: only postgresql://user@host:5432/db is supported "
                "(unset PAGELENS_CATALOG_URL for the embedded SQLite catalog)"
            )
        from pagelens.store.catalog.postgres import PostgresCatalog

        return PostgresCatalog(url)
    return SqliteCatalog(Path(settings.home).expanduser() / "catalog.sqlite3")
