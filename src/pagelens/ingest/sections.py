"""Section paths: which headings each element sits under, tracked across the pages of a document.

Heading levels come from ``text.extract_text`` (numbering such as "3.1" or font size). Two
document-level corrections are applied here:

* a heading whose text matches an outline (PDF bookmarks) title takes the outline's level;
* an unnumbered heading set in the same style (size, bold) as numbered top-level ones is top-level
  ("Abstract" in the style of "1 Introduction"); in the style of numbered subsections it goes one
  level below them ("Task #2: ..." under "3.1 Pre-training BERT");
* SEC filing headings (``filing``: PART level 1, Item level 2) teach no style, and once an Item has
  been seen, other headings ("Overview", "Liquidity") nest beneath it (their levels shifted down by
  the Item's) rather than replace it. When the path still holds the cover's title (a level-1
  heading of page 1: "Acme Corporation") as the first PART or Item arrives, the filing nests beneath
  it, so every section path keeps naming whose filing it is ("Acme Corporation › PART II › Item 7").
"""

from __future__ import annotations

import re

from pagelens.ingest.filing import ITEM_LEVEL as FILING_ITEM_LEVEL
from pagelens.models import FURNITURE_KINDS, Element, ElementKind, TocEntry

_NUMBER_PREFIX = re.compile(r"^(?:(?:chapter|section|part|appendix)\s+)?(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)\.?:?\s+", re.I)
_NON_WORD = re.compile(r"[^\w]+")


def _key(title: str) -> str:
    """Comparable form of a heading: numbering, punctuation and case dropped."""
    return _NON_WORD.sub(" ", _NUMBER_PREFIX.sub("", title.strip())).strip().lower()


def _style(e: Element) -> tuple[float, bool]:
    return (round(float(e.attrs.get("size", 0.0)) * 2) / 2, bool(e.attrs.get("bold")))


class SectionTracker:
    """Assigns ``section`` (the titles of the enclosing headings) to elements, page after page."""

    def __init__(self, outline: list[TocEntry]) -> None:
        self.outline = outline
        self._toc_levels: dict[str, int] = {}
        for entry in outline:
            key = _key(entry.title)
            if key:
                self._toc_levels.setdefault(key, entry.level)
        self._style_levels: dict[tuple[float, bool], int] = {}
        self._stack: list[tuple[int, str]] = []
        self._in_filing = False  # an Item has been seen
        self._cover: str | None = None  # the first level-1 heading of page 1
        self._base: int | None = None  # levels the filing structure sits below the cover's title

    def _level(self, e: Element) -> int:
        toc = self._toc_levels.get(_key(e.text))
        if toc is not None:
            return toc
        if not e.attrs.get("numbered"):
            learned = self._style_levels.get(_style(e))
            if learned is not None:
                # "Abstract"/"References" styled like "1 Introduction" are top-level; an unnumbered
                # heading styled like "3.1 ..." is a run-in heading beneath such a subsection.
                return 1 if learned == 1 else learned + 1
        return e.level or 1

    def assign(self, els: list[Element]) -> None:
        """Set ``section`` on every element (in reading order) and fix heading levels in place."""
        for e in els:
            if e.kind == ElementKind.HEADING and e.attrs.get("numbered") and e.level and not e.attrs.get("filing"):
                self._style_levels.setdefault(_style(e), e.level)
        for e in els:
            if e.kind in FURNITURE_KINDS or e.kind == ElementKind.METADATA:
                e.section = []
                continue
            if e.kind == ElementKind.HEADING:
                level = self._level(e)
                if e.attrs.get("filing"):
                    if self._base is None:
                        self._base = int(bool(self._stack) and self._stack[0] == (1, self._cover))
                    self._in_filing = self._in_filing or level == FILING_ITEM_LEVEL
                    level += self._base
                elif self._in_filing:
                    level += FILING_ITEM_LEVEL + (self._base or 0)  # below the Item, keeping their own ranks
                if e.page == 1 and level == 1 and self._cover is None:
                    self._cover = e.text
                e.level = level
                while self._stack and self._stack[-1][0] >= level:
                    self._stack.pop()
                e.section = [t for _lvl, t in self._stack]
                self._stack.append((level, e.text))
            else:
                e.section = [t for _lvl, t in self._stack]
