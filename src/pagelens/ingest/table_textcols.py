"""Columns of text beside the row label in a whitespace table ("Segment | Description | 2023 | 2022").

The whitespace reader (``table_whitespace``) finds its columns from the values; everything left of the
first value column is the row label. Some tables print more than one column of text there (a name and a
description, a code and a title), which would then read as one label ("Cloud Hosted services for
business"). The label zone is cut at a gutter when

- the label text of most data rows (``OPEN_SHARE``) leaves an x-interval empty, wider than
  ``GUTTER_HEIGHTS`` line heights (a word gap inside a cell is about a quarter of one),
- at least half the rows print text on each side of it,
- and the header band prints a title over each side, none of its pieces spanning the gutter.

A piece of text goes to the column it starts in: a long label that runs into the gutter on a few rows
stays whole in its column, and a wrapped label whose continuation line is indented (both lines starting
left of the gutter) stays one label.
"""

from __future__ import annotations

import math

from pagelens.ingest.table_segments import Segment

OPEN_SHARE = 2 / 3  # share of data rows whose label text leaves the gutter empty
GUTTER_HEIGHTS = 0.8  # the narrowest gutter, in line heights
SIDE_SHARE = 0.5  # share of data rows with text on each side of the gutter


def text_cuts(rows: list[list[Segment]], heads: list[Segment], stop: float, height: float) -> list[float]:
    """x of each cut between text columns in the label zone (left of ``stop``, the first value column),
    from the label pieces of each data row (``rows``) and the header band's pieces over the label zone
    (``heads``); [] when the zone holds one column."""
    rows = [r for r in rows if r]
    if len(rows) < 2 or len(heads) < 2:
        return []
    left = math.floor(min(s.x0 for r in rows for s in r))
    crossing = len(rows) - math.ceil(OPEN_SHARE * len(rows))  # rows allowed to run into a gutter
    side = max(2, math.ceil(SIDE_SHARE * len(rows)))
    width = max(0, math.ceil(stop) - left)
    change = [0] * (width + 2)  # rows covering x = left + k: a running sum of these
    for r in rows:
        for x0, x1 in _union(r):
            a, b = max(0, math.floor(x0) + 1 - left), min(width + 1, math.ceil(x1) - left)
            if a < b:
                change[a] += 1
                change[b] -= 1
    runs: list[list[float]] = []
    covered = 0
    for k in range(width):
        covered += change[k]
        if covered <= crossing:
            if runs and runs[-1][1] == left + k - 1:
                runs[-1][1] = left + k
            else:
                runs.append([left + k, left + k])
    cuts = []
    for a, b in runs:
        if b - a < GUTTER_HEIGHTS * height:
            continue
        before = sum(1 for r in rows if any(s.x1 <= a + 1 for s in r))
        after = sum(1 for r in rows if any(s.x0 >= a for s in r))
        if before < side or after < side:
            continue
        if any(h.x0 < a and h.x1 > b for h in heads):
            continue  # a title over both sides: one column
        if any(h.x0 < a for h in heads) and any(a <= h.x0 < stop for h in heads):
            cuts.append(a)
    return cuts


def _union(pieces: list[Segment]) -> list[tuple[float, float]]:
    """The x-intervals a row's pieces cover (pieces of its several lines may overlap)."""
    out: list[list[float]] = []
    for p in sorted(pieces, key=lambda p: p.x0):
        if out and p.x0 <= out[-1][1]:
            out[-1][1] = max(out[-1][1], p.x1)
        else:
            out.append([p.x0, p.x1])
    return [(a, b) for a, b in out]


def split_texts(pieces: list[Segment], cuts: list[float]) -> list[str]:
    """The pieces' texts joined per text column (each piece in the column it starts in)."""
    out: list[list[str]] = [[] for _ in range(len(cuts) + 1)]
    for p in pieces:
        out[sum(1 for c in cuts if p.x0 >= c)].append(p.text)
    return [" ".join(t) for t in out]
