"""Section paths (placeholder)."""
from pagelens.models import Element, TocEntry


class SectionTracker:
    def __init__(self, outline: list[TocEntry]) -> None:
        self.outline = outline

    def assign(self, els: list[Element]) -> None:
        return None
