"""How a chosen candidate is quoted: the shortest span of its kind (``span``).

A figure's label or OCR text is quoted around the question's words under its caption; a sentence by the
clauses that carry the answer (and the sentence that continues it); a table row by the cell at the column
the question asks for (``asked_column``) with its row label and column header, the row's extreme cell for a
"lowest / highest" question, the rows a column marks, or the whole row when no column is named; anything
else by its stretch richest in the question's words (``MAX_SNIPPET_CHARS``).
"""

from __future__ import annotations

from collections.abc import Sequence

from pagelens.answer import span
from pagelens.answer import support as sp
from pagelens.answer import text as tx
from pagelens.answer.cells import EMPTY
from pagelens.answer.candidates import Candidate, extreme_row, marked_rows
from pagelens.answer.cues import MAX_Q, MIN_Q
from pagelens.answer.focus import focus_of
from pagelens.models import SearchHit

MAX_SNIPPET_CHARS = 320  # a longer snippet is cut to its stretch richest in question words
WEAK_COLUMN = 0.3  # below this share of its words named by the question, a column is shown with its row
FIGURE_TEXT_CHARS = 240  # figure label/OCR text quoted around the question's words


def render(c: Candidate, question: str, q_terms: list[str], hits: Sequence[SearchHit]) -> str:
    """The text ``c`` is quoted by (its citation is added by ``extractive``)."""
    terms = set(q_terms)
    if c.kind == "figtext":
        caption = span.window(c.label, terms, 90) if c.label else "Figure"
        return f"{caption} — {span.window(c.text, terms, FIGURE_TEXT_CHARS)}"
    if c.kind == "sentence":
        focus = focus_of(question)
        shown = span.window(span.clause_span(c.text, terms, question, [t for t in focus.terms if t in terms]),
                          terms, MAX_SNIPPET_CHARS)
        after = span.continuation(shown, c.after, question, focus.kind or sp.answer_type(question), focus.terms)
        return f"{shown} {span.window(after, terms, span.CONTINUATION_CHARS)}" if after else shown
    if c.kind != "row" or not c.header:
        return span.window(c.text, terms, MAX_SNIPPET_CHARS)
    col = asked_column(c, question, q_terms)
    row = c
    asked = tx.ask_part(question) or question  # "the table of the largest cities" does not ask for one
    if col is not None and c.column is None and (MIN_Q.search(asked) or MAX_Q.search(asked)):
        row = extreme_row(c, col, question, hits, bool(MIN_Q.search(asked))) or c
    elif col is not None and (marked := marked_rows(c, col, hits)) is not None:
        return span.window(f"{c.header[col]} is marked for: {'; '.join(marked)}", terms, MAX_SNIPPET_CHARS)
    if col is not None and col < len(row.cells) and row.cells[col].strip() not in EMPTY:
        cell = span.cell_span(row.header, row.cells, row.label, col, question)
        if row.column is not None or tx.column_match(row.header[col], q_terms) >= WEAK_COLUMN:
            return cell
        # The question names few of the column's words: the row goes with the cell, in case
        # another column was meant.
        return f"{cell} (row: {span.window(tx.row_text(row.header, row.cells), terms, MAX_SNIPPET_CHARS)})"
    return f"Row: {span.window(tx.row_text(row.header, row.cells), terms, MAX_SNIPPET_CHARS)}"


def asked_column(c: Candidate, question: str, q_terms: list[str]) -> int | None:
    """The column the question asks for in row ``c``: the one the table read picked (``cells``), else
    the best named; a column whose value the question itself states ("when 80% are masked") is a
    condition, not the answer, so the next best one is taken."""
    if c.column is not None:
        return c.column
    header = list(c.header)
    given = tx.numbers(question)
    for _ in range(3):
        col = tx.best_column(header, q_terms, tx.ask_terms(question))
        if col is None or col >= len(c.cells):
            return col
        found = tx.numbers(c.cells[col])
        if not (found and found <= given):
            return col
        header[col] = ""
    return None
