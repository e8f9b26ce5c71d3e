"""Tables (placeholder until the table parser lands)."""
from pagelens.ingest.context import PageContext
from pagelens.models import Element


def is_hard_page(ctx: PageContext) -> bool:
    return False


def extract_tables(ctx: PageContext) -> list[Element]:
    return []


def mark_continuations(prev: list[Element], cur: list[Element]) -> None:
    return None
