"""Form fields (placeholder)."""
from pagelens.ingest.context import PageContext
from pagelens.models import Element


def extract_form_fields(ctx: PageContext) -> list[Element]:
    return []
