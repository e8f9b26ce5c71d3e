"""Table cells to text: cleaning, GitHub markdown and HTML with ``<thead>``/``<tbody>``.

Pure functions over ``header: list[str]`` and ``rows: list[list[str]]``; the table finders in
``tables.py`` produce those lists, everything that shows a table to people or to a model reads the
strings made here.
"""

from __future__ import annotations

import html
import re
import unicodedata

from pagelens.ingest.table_values import is_amount

_SPACES = re.compile(r"[ \t\u00a0]+")


def clean_cell(value: object) -> str:
    """One cell as a tidy string: None → "", runs of spaces collapsed, lines stripped, NFC form.

    Line breaks inside a cell are kept here as ``\\n``; the renderers decide how to show them.
    """
    if value is None:
        return ""
    text = unicodedata.normalize("NFC", str(value)).replace("\r", "\n")
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def normalize_grid(header: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """Clean every cell and pad all rows (and the header) to the same number of columns."""
    width = max([len(header)] + [len(r) for r in rows] + [0])
    head = [clean_cell(c) for c in header] + [""] * (width - len(header))
    body = [[clean_cell(c) for c in r] + [""] * (width - len(r)) for r in rows]
    return head, body


def _md_cell(text: str) -> str:
    # Markdown cells are one line: newlines become spaces, pipes are escaped.
    return " ".join(text.split("\n")).replace("|", "\\|")


def _stub(head: list[str], body: list[list[str]]) -> bool:
    """The first column is the stub: row labels (most of its filled cells are not amounts) under an
    empty title, beside named columns. It keeps its empty name: "Col1" would title the labels."""
    labels = [r[0] for r in body if r and r[0]]
    return not head[0] and any(head[1:]) and bool(labels) and \
        sum(1 for c in labels if is_amount(c)) <= len(labels) / 2


def to_markdown(header: list[str], rows: list[list[str]]) -> str:
    """GitHub-flavoured markdown. An empty header gets ``Col1..N`` names so the table stays valid,
    except the stub (``_stub``), which stays empty."""
    head, body = normalize_grid(header, rows)
    if not head:
        return ""
    names = [_md_cell(h) or ("" if i == 0 and _stub(head, body) else f"Col{i + 1}") for i, h in enumerate(head)]
    lines = ["| " + " | ".join(names) + " |", "|" + "|".join("---" for _ in names) + "|"]
    lines += ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in body]
    return "\n".join(lines)


def _html_cell(text: str) -> str:
    return "<br>".join(html.escape(line) for line in text.split("\n"))


def to_html(header: list[str], rows: list[list[str]], caption: str | None = None) -> str:
    """A ``<table>`` with an optional ``<caption>``, ``<thead>`` (when there is a header) and ``<tbody>``."""
    head, body = normalize_grid(header, rows)
    parts = ["<table>"]
    if caption:
        parts.append(f"<caption>{_html_cell(clean_cell(caption))}</caption>")
    if any(head):
        parts.append("<thead><tr>" + "".join(f"<th>{_html_cell(h)}</th>" for h in head) + "</tr></thead>")
    parts.append("<tbody>")
    parts += ["<tr>" + "".join(f"<td>{_html_cell(c)}</td>" for c in r) + "</tr>" for r in body]
    parts.append("</tbody></table>")
    return "".join(parts)
