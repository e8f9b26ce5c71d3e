"""Figures (placeholder until the figure parser lands)."""
from pagelens.ingest.context import PageContext
from pagelens.models import Element


def extract_figures(ctx: PageContext) -> list[Element]:
    return []
