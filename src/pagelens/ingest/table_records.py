"""One record per table row, ``label — column: value; column: value``, for retrieval and answers.

A markdown row (``| Income from operations | $ 9,392 | $ 8,358 | 12% |``) leaves the reader to find
each value's column in a header far above; a record names it beside the value, so one line carries
"income from operations", "2022" and "$ 8,358" together. Rows without values (section titles) give
an empty record, so records stay aligned with the rows. A row under a section row carries the section
(``row_sections``): "Services › Net sales — 6 Months Ended Mar. 29, 2025: 52,985".
"""

from __future__ import annotations

import re

from pagelens.ingest.table_cells import group_lines
from pagelens.ingest.table_render import normalize_grid
from pagelens.row_sections import row_sections, with_section

_GENERIC = re.compile(r"^col\d+$", re.I)
_LETTER = re.compile(r"[A-Za-z]")


def _flat(text: str) -> str:
    return " ".join(text.split())


def row_records(header: list[str], rows: list[list[str]], sections: list[str] | None = None) -> list[str]:
    """One record per body row, "" for a row without values (label: the first cell when it holds words,
    named by ``sections[i]``, the row's section path, when given)."""
    head, body = normalize_grid(header, rows)
    if sections is None or len(sections) != len(body):
        sections = row_sections(body)
    names = ["" if _GENERIC.match(h) else _flat(h) for h in head]
    out: list[str] = []
    for i, row in enumerate(body):
        lead = 1 if row and _LETTER.search(row[0]) else 0
        label = with_section(sections[i], _flat(row[0]) if lead else "")
        parts = [f"{names[j]}: {_flat(c)}" if names[j] else _flat(c) for j, c in enumerate(row) if j >= lead and c]
        if not parts:
            out.append("")
            continue
        out.append(f"{label} — {'; '.join(parts)}" if label else "; ".join(parts))
    return out


GAP_LINES = 1.0  # a vertical gap of this many line heights between two rows ends the open sections


def label_positions(words: list[tuple], bbox: tuple[float, float, float, float], rows: list[list[str]]
                    ) -> tuple[list[float | None], list[bool]]:
    """Where each body row's label starts on the page (x of its first word, None where not found) and
    whether a blank gap (``GAP_LINES`` line heights) precedes the row: the page's lines inside ``bbox``
    are walked top-down, each label matched to the next line that starts with its first word."""
    x0, y0, x1, y1 = bbox
    inside = [w for w in words if x0 - 1 <= (w[0] + w[2]) / 2 <= x1 + 1 and y0 - 1 <= (w[1] + w[3]) / 2 <= y1 + 1]
    lines = group_lines(inside)
    indents: list[float | None] = []
    tops: list[tuple[float, float] | None] = []  # (top of the row's label line, bottom of the line above it)
    pos = 0
    for row in rows:
        first = row[0].split()[0] if row and row[0].split() else ""
        found = None
        if first and _LETTER.search(first):
            for k in range(pos, min(pos + 6, len(lines))):
                if lines[k] and lines[k][0][4] == first:
                    found = k
                    break
        if found is None:
            indents.append(None)
            tops.append(None)
            continue
        line = lines[found]
        above = max(w[3] for w in lines[found - 1]) if found > 0 else None
        indents.append(line[0][0])
        tops.append((min(w[1] for w in line), above) if above is not None else None)
        pos = found + 1
    heights = sorted(max(w[3] for w in ln) - min(w[1] for w in ln) for ln in lines if ln)
    height = heights[len(heights) // 2] if heights else 0.0
    gaps = [bool(t and height and t[0] - t[1] > GAP_LINES * height) for t in tops]
    return indents, gaps
