"""Text lines cut into whitespace-separated segments: the raw material of tables drawn without rules.

A financial statement prints each row as one text line: a label (often followed by dot leaders), then
values right-aligned in columns, a ``$`` in its own column, negatives in parentheses, ``%`` apart from
its number. Here a page's words become visual lines, each cut into segments wherever the gap between
two words is wider than a space, and the pieces of one value (``$`` + ``1,234``, ``29`` + ``%``) are
joined back. Pure Python over ``page.get_text("words")``: a fraction of a millisecond per page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pagelens.ingest.table_cells import Word
from pagelens.ingest.table_values import CURRENCY, value_kind

_LEADER = re.compile(r"(?:\s*[.·…_](?:\s?[.·…_]){2,}\s*)")  # ". . . ." or "......" dot leaders
_LEADER_END = re.compile(r"(?:[.·…_]\s?){3,}$")  # a word that ends a leader run
_DOTS = re.compile(r"^[.·…_]+$")
_CLOSE = re.compile(r"(\d)\s+\)")


def strip_leaders(text: str) -> str:
    """A label without its dot leaders ("Net income . . . . ." → "Net income")."""
    return " ".join(_LEADER.sub(" ", text).split())


@dataclass
class Segment:
    """Words of one line with no wide gap between them."""

    words: list[Word]
    x0: float
    x1: float
    text: str
    kind: str | None = None  # "num" | "nil" | None (text)

    @property
    def is_value(self) -> bool:
        return self.kind is not None


@dataclass
class Line:
    words: list[Word]
    segments: list[Segment] = field(default_factory=list)

    @property
    def y0(self) -> float:
        return min(w[1] for w in self.words)

    @property
    def y1(self) -> float:
        return max(w[3] for w in self.words)

    @property
    def x0(self) -> float:
        return min(w[0] for w in self.words)

    @property
    def x1(self) -> float:
        return max(w[2] for w in self.words)

    @property
    def height(self) -> float:
        hs = sorted(w[3] - w[1] for w in self.words)
        return max(hs[len(hs) // 2], 1.0)

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.segments)

    @property
    def values(self) -> list[Segment]:
        return [s for s in self.segments if s.is_value]

    @property
    def hard_values(self) -> int:
        return sum(1 for s in self.segments if s.kind == "num")


def segment(words: list[Word]) -> Segment:
    """One segment of ``words`` (one cell's words, left to right): leader dots dropped, value kind set."""
    leaders = False
    while len(words) > 1 and _DOTS.match(words[-1][4]):
        words, leaders = words[:-1], True  # a label's trailing leader dots are no part of its extent
    text = strip_leaders(" ".join(w[4] for w in words)) or " ".join(w[4] for w in words)
    if leaders:
        text = text.rstrip(" .·…") or text  # "crime." + ". . ." : the word's own dot opened the run
    text = _CLOSE.sub(r"\1)", text)  # "(1,234 )" printed as two words
    return Segment(words, min(w[0] for w in words), max(w[2] for w in words), text, value_kind(text))


def _split(line: list[Word], gap: float) -> list[list[Word]]:
    """Cut at wide gaps, and after a dot-leader run ("Revenue ...... 1,234" printed tight)."""
    parts: list[list[Word]] = []
    dots = 0  # leader dots seen just before this word
    for w in line:
        piece = _DOTS.match(w[4]) is not None
        # a value right after leader dots starts its cell, however short the run ("violations . . 91.0")
        cell = not piece and dots >= 1 and value_kind(w[4]) is not None
        if parts and w[0] - parts[-1][-1][2] <= gap and (piece or (dots < 3 and not cell)):
            parts[-1].append(w)
        else:
            parts.append([w])
        dots = dots + len(w[4]) if piece else (3 if _LEADER_END.search(w[4]) else 0)
    return parts


def _join_pieces(parts: list[list[Word]]) -> list[list[Word]]:
    """``$`` / ``(`` alone before a number, ``%`` / ``)`` alone after one, and a label's trailing
    dot-leader run (which sits as its own segment just before the values) rejoin their neighbour."""
    out: list[list[Word]] = []
    for part in parts:
        text = " ".join(w[4] for w in part).strip()
        if out:
            prev = " ".join(w[4] for w in out[-1]).strip()
            if prev in CURRENCY or prev in ("(", "$(", "($"):
                if value_kind(text) or text.startswith("("):
                    out[-1] = out[-1] + part
                    continue
            if text in ("%", ")", "%)", ")%") and value_kind(prev):
                out[-1] = out[-1] + part
                continue
            if _leaders_only(text) and value_kind(prev) is None:
                out[-1] = out[-1] + part  # dot leaders belong to the label before them
                continue
        out.append(list(part))
    return out


def _leaders_only(text: str) -> bool:
    """Dot leaders and nothing else: ". . . ." and the short tail of a run cut by a wide gap (". .")."""
    return not strip_leaders(text) or _DOTS.match(text.replace(" ", "")) is not None


def group_lines(words: list[Word], tolerance: float = 0.45) -> list[list[Word]]:
    """Words in visual lines, top to bottom, left to right: a word joins the line above when its
    vertical centre is within ``tolerance`` × its height of that line's mean centre (running mean)."""
    out: list[list[Word]] = []
    total = 0.0
    for w in sorted(words, key=lambda w: ((w[1] + w[3]) / 2, w[0])):
        cy, h = (w[1] + w[3]) / 2, max(w[3] - w[1], 1.0)
        if out and abs(cy - total / len(out[-1])) < tolerance * h:
            out[-1].append(w)
            total += cy
            continue
        out.append([w])
        total = cy
    return [sorted(line, key=lambda w: w[0]) for line in out]


def numeric_lines(words: list[Word]) -> int:
    """Text rows (3 pt bands) holding two or more value-like words: a pre-check costing a regex per word."""
    rows: dict[int, int] = {}
    for w in words:
        if w[4][:1].isdigit() or w[4][:1] in "($-—–" and value_kind(w[4]):
            key = round(w[3] / 3)
            rows[key] = rows.get(key, 0) + 1
    return sum(1 for n in rows.values() if n >= 2)


def page_lines(words: list[Word]) -> list[Line]:
    """Visual lines of ``words``, top to bottom, each cut into segments.

    A gap wider than about half the line's height separates segments (a space is a quarter of it);
    leader dots are dropped from labels.
    """
    out: list[Line] = []
    for line in group_lines(words, tolerance=0.45):
        cut = line_of(line)
        if cut is not None:
            out.append(cut)
    return out


def line_of(line: list[Word]) -> Line | None:
    """One visual line's words (left to right) cut into segments; None when only leader dots are left."""
    h = sorted(w[3] - w[1] for w in line)[len(line) // 2]
    gap = max(3.5, 0.5 * h)
    parts = _join_pieces(_split(line, gap))
    segs = [segment(p) for p in parts if not _leaders_only(" ".join(w[4] for w in p))]
    return Line(line, segs) if segs else None
