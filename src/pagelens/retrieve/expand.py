"""Short-query expansion (placeholder: no expansion until one is measured to help)."""

from __future__ import annotations


def expand_query(query: str) -> list[str]:
    return []
