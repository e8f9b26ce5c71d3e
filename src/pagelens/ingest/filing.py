"""SEC filing structure (issue #10): PART and Item headings, split Item headings, overprinted text.

10-K/10-Q filings print their structure as "PART II — OTHER INFORMATION" and "Item 7. Management's
Discussion and Analysis ...", often without an outline and in body-size bold or even plain text, so
``text._heading_level`` (size, numbering like "3.1") misses them or gives PART and Item one level.
Here:

* ``heading_level``: PART lines are level 1, Item lines level 2 (``sections`` then paths body text as
  "PART II › Item 7. Management's ..."). A line counts when it starts its segment, is short and is
  styled (bold, larger, upper case) or, in plain text, stands alone in the full "Item 1A. Risk
  Factors" form with a title-case title. "Item 7 of the agreement ..." (no period after the number)
  and sentences ("Item 7. The buyer shall pay ...") are not headings; table-of-contents lines ending
  in a page number, and lines smaller than body text (running heads), are not either.
* ``cuts_between``: where a segment must end inside a block, so such a line stands on its own.
* ``join_split_headings``: "Item 7." on one line and its title on the next become one heading, as do
  an Item title that breaks off mid-phrase ("... Common Equity,") and its hanging rest.
* ``dedupe_overprint``: text drawn twice at nearly the same position to fake bold (lines or spans
  whose copy sits less than ``OVERPRINT_TOLERANCE`` away) is kept once, so words are not doubled.
"""

from __future__ import annotations

import re
from typing import Any

from pagelens.models import Element, ElementKind

PART_LEVEL = 1
ITEM_LEVEL = 2

OVERPRINT_TOLERANCE = 1.0
"""Points: a line or span repeated with every bbox edge within this distance is an overprinted copy."""

MAX_TITLE_WORDS = 25
"""Longest Item title ("Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and
Issuer Purchases of Equity Securities" has 15 words)."""

PART = re.compile(r"^(?:PART|Part)\s+(?P<num>[IVX]{1,4})\b\.?(?:(?:\s*[-–—·:.|]\s*|\s+)(?P<title>\S.*))?$")
ITEM = re.compile(
    r"^(?:ITEMS?|Items?)\s+(?P<num>\d{1,2}[A-Da-d]?(?:\s*(?:,|and|&)\s*\d{1,2}[A-Da-d]?)*)"
    r"\s*(?:[.:]|\s[-–—·|])\s*(?P<title>.*)$"
)
_TOC_PAGE = re.compile(r"(?:\.{2,}|\s)\s*\d{1,3}$")  # "Item 1. Business ........ 4"
_SMALL_WORDS = frozenset("a an and as at by for in of on or the to with from under about".split())


def _match(text: str) -> tuple[int, str] | None:
    """(level, title) of a PART or Item line; the title may be empty ("Item 7.")."""
    m = PART.match(text)
    if m:
        title = m.group("title") or ""
        if title and not (title[:1].isupper() or title[:1].isdigit()):
            return None
        return PART_LEVEL, title
    m = ITEM.match(text)
    if m:
        title = m.group("title").strip()
        if title and not (title[:1].isupper() or title[:1] in "\"'“‘"):
            return None
        return ITEM_LEVEL, title
    return None


def _title_case(title: str) -> bool:
    """Most words capitalised, as headings are; a sentence ("The buyer shall pay ...") is not."""
    words = [w for w in re.findall(r"[A-Za-z][\w'’-]*", title) if w.lower() not in _SMALL_WORDS]
    if not words:
        return False
    return sum(w[:1].isupper() for w in words) >= 0.75 * len(words)


def heading_level(rows: list[Any], text: str, body: float, whole_block: bool) -> int | None:
    """Level of a PART (1) or Item (2) heading segment (``text.Row`` list), or None."""
    if len(rows) > 3 or len(text) > 220:
        return None
    found = _match(text)
    if found is None:
        return None
    level, title = found
    if len(title.split()) > MAX_TITLE_WORDS or _TOC_PAGE.search(text):
        return None
    if title.endswith(".") and not _title_case(title):
        return None  # "Item 7. The buyer shall pay within thirty days."
    size = max(r.size for r in rows)
    if size < 0.95 * body:
        return None  # a running head ("PART II" in 8 pt over 10 pt text), a footnote
    bold = sum(r.bold for r in rows) / len(rows)
    letters = [c for c in text if c.isalpha()]
    upper = sum(c.isupper() for c in letters) / max(1, len(letters))
    if bold >= 0.5 or size >= 1.05 * body or upper >= 0.8:
        return level
    # Plain text: a line of its own, in the full "Item 1A. Risk Factors" form ("Item 7." alone waits
    # for its title, see ``join_split_headings``).
    if whole_block and len(rows) <= 2 and (not title or _title_case(title)):
        return level
    return None


def is_heading_line(text: str) -> bool:
    """A row that reads as a whole Item/PART heading ("Item 1A. Risk Factors"), for cutting segments."""
    found = _match(text)
    if found is None:
        return False
    title = found[1]
    last = title.rsplit(" ", 1)[-1].lower()
    if not title or title.endswith(",") or last in _SMALL_WORDS or _TOC_PAGE.search(text):
        return False  # a cross-reference running on ("... Item 7. Management's Discussion and")
    return len(title.split()) <= MAX_TITLE_WORDS and _title_case(title)


def _upper(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def cuts_between(prev: str, row: str, prev_short: bool) -> bool:
    """Whether a segment must end between two rows of one block: a PART/Item heading set in body
    text stands on a line of its own ("Item 1A. Risk Factors" after a sentence's end, ending short;
    "PART I" above "Item 1. Business"), and a bare "PART I" takes only an upper-case title below it."""
    if is_heading_line(row) and (prev.endswith((".", ":", ";")) or _match(prev) is not None):
        return True
    if is_heading_line(prev) and prev_short:
        return True
    return bool(PART.match(prev)) and bare(prev) and not _upper(row)


def bare(text: str) -> bool:
    """A heading without its title: "Item 7.", "PART II"."""
    found = _match(text)
    return found is not None and not found[1]


def _joinable(head: Element, nxt: Element) -> bool:
    if nxt.kind not in (ElementKind.TEXT, ElementKind.HEADING) or nxt.attrs.get("filing"):
        return False
    if not head.bbox or not nxt.bbox or _match(nxt.text) is not None:
        return False
    words = nxt.text.split()
    if len(words) > MAX_TITLE_WORDS or not nxt.text[:1].isupper():
        return False
    if PART.match(head.text) and not _upper(nxt.text):
        return False  # "PART II" / "OTHER INFORMATION", not "PART I" / "Forward-Looking Statements"
    if nxt.text.endswith(".") and not _title_case(nxt.text):
        return False
    h = max(head.bbox[3] - head.bbox[1], 1.0)
    same_line = abs(nxt.bbox[1] - head.bbox[1]) < 0.5 * h and nxt.bbox[0] >= head.bbox[2] - 1
    # the next line: boxes of large type may overlap a little; a hanging title starts right of "ITEM 5."
    below = -0.3 * h <= nxt.bbox[1] - head.bbox[3] < 1.5 * h and head.bbox[0] - 2 * h <= nxt.bbox[0] < head.bbox[2]
    return same_line or below


def _open(text: str) -> bool:
    """A heading line that breaks off mid-title: "Item 5. Market for Registrant's Common Equity,"."""
    return text.endswith((",", "—", "–", "-", "&")) or text.rsplit(" ", 1)[-1].lower() in _SMALL_WORDS


def join_split_headings(els: list[Element]) -> list[Element]:
    """Merge "Item 7." (a bare filing heading), or an Item title that breaks off mid-phrase, with the
    title (or its rest) on the next line or to its right."""
    out: list[Element] = []
    i = 0
    while i < len(els):
        e = els[i]
        nxt = els[i + 1] if i + 1 < len(els) else None
        if (e.kind == ElementKind.HEADING and e.attrs.get("filing") and (bare(e.text) or _open(e.text)) and nxt
                and _joinable(e, nxt)):
            assert e.bbox and nxt.bbox
            e.text = f"{e.text} {nxt.text}"
            e.bbox = (min(e.bbox[0], nxt.bbox[0]), min(e.bbox[1], nxt.bbox[1]),
                      max(e.bbox[2], nxt.bbox[2]), max(e.bbox[3], nxt.bbox[3]))
            i += 2
        else:
            i += 1
        out.append(e)
    return out


def _near(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return all(abs(p - q) < OVERPRINT_TOLERANCE for p, q in zip(a, b))


def dedupe_overprint(text: dict[str, Any]) -> int:
    """Drop overprinted copies from a ``get_text("dict")`` page in place; returns how many were dropped.

    A line is a copy when an earlier line of the page has the same text and a bbox within
    ``OVERPRINT_TOLERANCE`` on every edge; within a line, a span is a copy of an earlier span in the
    same way (PyMuPDF puts text drawn twice in one text object into one line).
    """
    seen: dict[str, list[tuple[float, ...]]] = {}
    dropped = 0
    for block in text.get("blocks", []):
        if block.get("type") != 0:
            continue
        kept_lines = []
        for line in block["lines"]:
            spans = []
            for s in line["spans"]:
                if s["text"].strip() and any(t["text"] == s["text"] and _near(t["bbox"], s["bbox"]) for t in spans):
                    dropped += 1
                    continue
                spans.append(s)
            line["spans"] = spans
            key = "".join(s["text"] for s in spans).strip()
            boxes = seen.setdefault(key, []) if key else []
            if key and any(_near(b, line["bbox"]) for b in boxes):
                dropped += 1
                continue
            boxes.append(tuple(line["bbox"]))
            kept_lines.append(line)
        block["lines"] = kept_lines
    return dropped
