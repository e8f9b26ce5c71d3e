"""One record per table row, ``label — column: value; column: value``, for retrieval and answers.

A markdown row (``| Income from operations | $ 9,392 | $ 8,358 | 12% |``) leaves the reader to find
each value's column in a header far above; a record names it beside the value, so one line carries
"income from operations", "2022" and "$ 8,358" together. Rows without values (section titles) give
an empty record, so records stay aligned with the rows.
"""

from __future__ import annotations

import re

from pagelens.ingest.table_render import normalize_grid

_GENERIC = re.compile(r"^col\d+$", re.I)
_LETTER = re.compile(r"[A-Za-z]")


def _flat(text: str) -> str:
    return " ".join(text.split())


def row_records(header: list[str], rows: list[list[str]]) -> list[str]:
    """One record per body row, "" for a row without values (label: the first cell when it holds words)."""
    head, body = normalize_grid(header, rows)
    names = ["" if _GENERIC.match(h) else _flat(h) for h in head]
    out: list[str] = []
    for row in body:
        lead = 1 if row and _LETTER.search(row[0]) else 0
        label = _flat(row[0]) if lead else ""
        parts = [f"{names[j]}: {_flat(c)}" if names[j] else _flat(c) for j, c in enumerate(row) if j >= lead and c]
        if not parts:
            out.append("")
            continue
        out.append(f"{label} — {'; '.join(parts)}" if label else "; ".join(parts))
    return out
