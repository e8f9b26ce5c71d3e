"""Cheap per-page table signals (about a millisecond): captions, drawn rules, rows of numbers, and
whitespace-aligned value columns. ``layout_model.page_tier`` turns them into the page's tier."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pagelens.ingest.context import PageContext
from pagelens.ingest.table_captions import CAPTION as _CAPTION
from pagelens.ingest.table_upright import upright
from pagelens.ingest.table_values import CURRENCY, is_numeric
from pagelens.ingest.table_whitespace import MIN_DATA_ROWS, aligned_rows


@dataclass(frozen=True)
class TableSignals:
    """What a page shows of tables, from its text dict and drawings only."""

    caption: bool  # a line starting "Table 3" / "TABLE IV"
    rule_group: int  # most horizontal rules sharing one left and right end
    h_rules: int
    v_rules: int
    numeric_rows: int  # text rows with three or more stand-alone numbers
    aligned_rows: int = 0  # rows of the largest block of whitespace-aligned value columns

    @property
    def whitespace(self) -> bool:
        """Value columns aligned by whitespace: the whitespace finder reads them without a model."""
        return self.aligned_rows >= MIN_DATA_ROWS

    @property
    def grid(self) -> bool:
        return self.h_rules >= 3 and self.v_rules >= 3

    @property
    def needs_layout(self) -> bool:
        """Table signals without the structure the cheap finders read: a drawn grid (line finder) or
        a group of rules with common ends (booktabs, text-column finder) or columns of values aligned
        by whitespace (whitespace finder)."""
        return self.hard and not (self.grid or self.rule_group >= 3 or self.whitespace)

    @property
    def hard(self) -> bool:
        # Rules alone are weak (figures draw boxes and axes, algorithms draw rules): they need numbers.
        ruled = self.rule_group >= 3 or self.grid
        return self.caption or self.numeric_rows >= 4 or (ruled and self.numeric_rows >= 2) or self.whitespace


def _rules(drawings: list[dict[str, Any]]) -> tuple[list[tuple[float, float, float]], int]:
    """Horizontal rules as (y, x0, x1) and the number of vertical rules."""
    hs: list[tuple[float, float, float]] = []
    vs = 0
    for path in drawings:
        stroked = "s" in (path.get("type") or "")
        for item in path.get("items", ()):
            if item[0] == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
                segments = [(x0, y0, x1, y1)]
            elif item[0] == "re":
                x0, y0, x1, y1 = item[1]
                if x1 - x0 > 2.5 and y1 - y0 > 2.5:
                    if not stroked:
                        continue  # a filled box (a bar, a shaded cell), not a rule
                    # A stroked box (cell borders drawn as rectangles): its four edges are rules.
                    segments = [(x0, y0, x1, y0), (x0, y1, x1, y1), (x0, y0, x0, y1), (x1, y0, x1, y1)]
                else:
                    segments = [(x0, y0, x1, y1)]
            else:
                continue
            for x0, y0, x1, y1 in segments:
                w, h = abs(x1 - x0), abs(y1 - y0)
                if h < 2.5 and w >= 15:
                    hs.append(((y0 + y1) / 2, min(x0, x1), max(x0, x1)))
                elif w < 2.5 and h >= 8:
                    vs += 1
    return hs, vs


# An identifier or date of digit groups joined by hyphens: a tax or person number ("20-27083460-5",
# "123-45-6789"), a part or phone number ("555-0142"), an ISO date ("2013-10-09").
_CODE = re.compile(r"^\d+(?:-\d+)+$")


def _number_like(token: str) -> bool:
    return is_numeric(token) or _CODE.match(token) is not None


def _numeric_rows(text: dict[str, Any]) -> int:
    """Text rows (3 pt bands) with three or more numbers making up 40% of their words or more.

    Numbers include identifiers of hyphenated digit groups (``_CODE``): a listing prints names beside
    ID numbers, dates and amounts ("MENA  JUAN MARTÍN  27.083.460  20-27083460-5  09/10/2013  $ 10.000,00").
    A currency sign printed apart from its amount ("$ 10.000,00") is no word of its own."""
    rows: dict[int, list[str]] = {}
    for block in text.get("blocks", ()):
        if block.get("type") != 0:
            continue
        for line in block["lines"]:
            key = round(line["bbox"][3] / 3)
            rows.setdefault(key, []).extend("".join(s["text"] for s in line["spans"]).split())
    count = 0
    for tokens in rows.values():
        words = [t for t in tokens if t not in CURRENCY]
        nums = sum(1 for t in words if _number_like(t))
        if nums >= 3 and nums >= 0.4 * len(words):
            count += 1
    return count


def _has_caption(text: dict[str, Any]) -> bool:
    """A block that starts with "Table N" (a sentence wrapped before "Table1" is not a caption)."""
    for block in text.get("blocks", ()):
        if block.get("type") != 0 or not block["lines"]:
            continue
        spans = block["lines"][0]["spans"]
        if spans and _CAPTION.match("".join(s["text"] for s in spans[:3])):
            return True
    return False


def table_signals(ctx: PageContext) -> TableSignals:
    """The page's signals, computed once per page context (the tier and the finders both ask)."""
    cached = ctx.__dict__.get("_table_signals")
    if isinstance(cached, TableSignals):
        return cached
    up = upright(ctx)  # a page turned by /Rotate: its rows as shown (``table_upright``)
    sig = table_signals(up) if up is not None else _signals(ctx)
    ctx.__dict__["_table_signals"] = sig
    return sig


def _signals(ctx: PageContext) -> TableSignals:
    hs, vs = _rules(ctx.drawings)
    groups: dict[tuple[int, int], int] = {}
    for _, x0, x1 in hs:
        key = (round(x0 / 4), round(x1 / 4))
        groups[key] = groups.get(key, 0) + 1
    return TableSignals(
        caption=_has_caption(ctx.text),
        rule_group=max(groups.values(), default=0),
        h_rules=len(hs),
        v_rules=vs,
        numeric_rows=_numeric_rows(ctx.text),
        aligned_rows=aligned_rows(ctx.words, lambda: ctx.word_lines),
    )
