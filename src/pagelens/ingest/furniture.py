"""Running headers/footers (placeholder)."""
import pymupdf


def detect_furniture(pdf: pymupdf.Document) -> set[str]:
    return set()
