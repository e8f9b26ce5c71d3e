"""The extractive answerer's reading of the retrieved tables (``cells``): which row quotes which cell,
which tables lack what is asked, and how a quoted cell supports the answer.

* The row of the cell a table read names (``cells.Cell.named``: its row and, in a table of several
  value columns, its column) gets ``CELL_BONUS`` and quotes that cell, unless the question asks for an
  extreme among rows it names alike ("the lowest OTSL inference time": the extreme row is found by
  ``candidates.extreme_row``) or the cell is about another instance of the asked thing ("Class A" for
  "Class B", another quarter: ``kinds``).
* The rows of a table that lacks the asked row or year (``cells.Cell.absent``) weigh ``ABSENT_PENALTY``
  and support nothing (``extractive`` leaves them out of the attachment features) when the question
  asks for a value or names the read's column as the thing it asks for: "what popcon values ... for
  the fish shell" in a table without fish, "revenue in 2019" in a table of 2021–2023. A question for a
  thing of a kind, or for an extreme, names a column and asks which row, so there the row may be absent.
* A table whose best-named row is another instance of the asked thing (``_conflicts``: "Anti-HCV test" for
  "an HCV core antigen test", "Class A" for "Class B"), no other row named as well, lacks the asked row
  (``ABSENT_PENALTY``, supports nothing) when a value is asked.
* The row of a cell the question names by its row and its column but which is empty ("the quasi-Poisson
  model's log-likelihood", left blank) weighs ``ABSENT_PENALTY`` and supports nothing; the table's
  other rows keep their weight (the row read may not be the one the question means).
* A table whose rows nothing names but a number, or nothing at all (a printout's line of values under
  their titles, "AIC AICc BIC"; a test's models "1" and "2"), is about one thing: the column the question
  names, where it holds one value, is the cell asked for, and its row gets ``CELL_BONUS`` as much as the
  question names the column.
* A quoted cell the question names by its row and its column is attached to the asked thing as fully
  as the read names it (``cell_attachment``): the asked thing may be a verb's ("how much was *spent* on
  sales and marketing"), which no header repeats.
"""

from __future__ import annotations

from pagelens.answer import cells as tc
from pagelens.answer import kinds
from pagelens.answer import support as sp
from pagelens.answer import text as tx
from pagelens.answer.candidates import Candidate
from pagelens.answer.focus import VALUE_KINDS, Focus
from pagelens.retrieve.line_items import other_names

CELL_BONUS = 0.15  # the row of the cell a table read names: its row and its column
ABSENT_PENALTY = 0.6  # the rows of a table that lacks the asked row or the asked year


def read_tables(question: str, q_terms: list[str], focus: Focus, cands: list[Candidate], extreme: bool) -> None:
    """Each table among the candidates read as a grid (``cells``): the row of the cell the question
    names gets ``CELL_BONUS`` and quotes that cell (``_read``: in its own words, else by another name of
    the line item it asks for); a table that lacks the asked row or year weighs
    ``ABSENT_PENALTY`` when a value is asked (a question for a thing of a kind, or for an extreme,
    names a column and asks which row)."""
    value = focus.kind in VALUE_KINDS and not extreme
    aliases = [t for t in tx.content_terms(" ".join(other_names(question))) if t not in q_terms]
    for rows in tc.tables(cands):
        read = _read(question, q_terms, aliases, rows, focus)
        if read is None:
            continue
        conflicts = read.named and _conflicts(question, read)
        if read.named and not read.other_periods and not (extreme and read.ties > 1) and not conflicts \
                and not _given(question, read):
            read.row.column, read.row.cell_score = read.col, read.attached
            read.row.score += CELL_BONUS * read.score * read.row.factor
        elif conflicts and value and read.ties == 1:
            # the row the question names best is another instance of the asked thing ("Anti-HCV test" for
            # "an HCV core antigen test", "Class A" for "Class B"): the table lacks the asked row
            _lacks_row(rows)
        elif read.blank:  # the row and column named, their cell empty: that row holds no answer, the others may
            read.row.absent = True
            read.row.factor *= ABSENT_PENALTY
            read.row.score *= ABSENT_PENALTY
        elif read.absent and (value or (_names_column(focus, read) and not extreme)):
            _lacks_row(rows)
    q = set(tx._with_digits(list(q_terms)))
    for rows in _unnamed_tables(cands):
        header = rows[0].header
        col = tc.asked_column(header, q, question, focus.terms)
        filled = [r for r in rows if col is not None and col < len(r.cells) and r.cells[col].strip() not in tc.EMPTY]
        if len(filled) != 1 or tx.numbers(filled[0].cells[col]) <= tx.numbers(question):
            continue
        row, match = filled[0], tx.column_match(header[col], q)
        if match >= tc.COL_NAMED:
            row.column, row.cell_score = col, match
            row.score += CELL_BONUS * match * row.factor


def _lacks_row(rows: list[Candidate]) -> None:
    """The table lacks the asked row: its rows weigh ``ABSENT_PENALTY`` and support nothing."""
    for r in rows:
        r.absent = True
        r.factor *= ABSENT_PENALTY
        r.score *= ABSENT_PENALTY


def _read(question: str, q_terms: list[str], aliases: list[str], rows: list[Candidate], focus: Focus) -> tc.Cell | None:
    """The table read by the question's own words; where they name no row whole, by the other names of
    the line item it asks for (``line_items.other_names``: "Net sales" for "net revenue", "Cost of sales"
    for "cost of goods sold"), if those name a row more fully ("Purchases of property, plant and equipment
    (PP&E)" for "capital expenditure", short of whole by its "PP&E"). "Revenue from services" keeps its
    "Services" row under "Revenue" rather than "Total revenue", which the other names of revenue name too."""
    read = tc.read(question, q_terms, rows, focus.terms)
    if not aliases or (read is not None and read.row_match >= 1.0):
        return read
    alt = tc.read(question, q_terms + aliases, rows, focus.terms)
    return alt if alt is not None and alt.row_match > (read.row_match if read is not None else 0.0) else read


def _unnamed_tables(cands: list[Candidate]) -> list[list[Candidate]]:
    """Tables whose rows nothing names but a number, or nothing at all: a printout's line of values under
    their titles ("AIC AICc BIC" over "634.0437 635.2682 644.0803"), a test's table of models "1" and "2"
    where only the second has a "Pr(>Chisq)". The column the question names, where it holds one value,
    is the cell it asks for: the table is about one thing, and that cell is its only reading."""
    groups: dict[tuple[int, tuple[str, ...]], list[Candidate]] = {}
    for c in cands:
        if c.kind == "row" and c.header and c.cells:
            groups.setdefault((c.source, tuple(c.header)), []).append(c)
    return [g for g in groups.values() if not any(r.label for r in g)]


def cell_attachment(focus: Focus, question: str, chosen: list[Candidate], found: tuple[float, float, float]
                     ) -> tuple[float, float, float]:
    """(``focus_span``, ``type_near``, ``conditions``) with a quoted cell that the question names by its
    row and its column (``cells``) counted as attached to what is asked, as fully as the read names it:
    the asked thing may be a verb's ("how much was *spent* on sales and marketing")."""
    best = max((c for c in chosen if c.column is not None and not c.absent), key=lambda c: c.cell_score, default=None)
    if best is None or not best.cell_score:
        return found
    typed = not focus.kind or sp.has_type(focus.kind, best.cells[best.column], question)
    return max(found[0], best.cell_score), max(found[1], best.cell_score if typed else 0.0), found[2]


def _conflicts(question: str, read: tc.Cell) -> bool:
    """The read cell is about another instance of the asked thing ("Class A" for "Class B", another
    quarter): its row and column do not name what is asked (``kinds``)."""
    row = read.row
    own = f"{row.label} {row.header[read.col] if read.col < len(row.header) else ''}"
    return (kinds.designator_conflict(question, own, f"{own} {row.match_text}", row.doc) or kinds.period_conflict(question, own)
            or kinds.contrast_conflict(question, f"{own} {row.match_text}") or kinds.modifier_conflict(question, own))


def _given(question: str, read: tc.Cell) -> bool:
    """The read cell's value is one the question states ("with *6* layers"): a condition, not the answer
    (``render.asked_column`` then takes the next column)."""
    found = tx.numbers(read.value)
    return bool(found) and found <= tx.numbers(question)


def _names_column(focus: Focus, read: tc.Cell) -> bool:
    """The thing asked for is the read's column ("which *parameters* does FitB require": Parameters
    Required): the question asks for a cell, so its row must be in the table."""
    header = read.row.header[read.col] if read.col < len(read.row.header) else ""
    return bool(focus) and read.col_match >= tc.COL_NAMED and tx.column_match(header, list(focus.terms)) > 0
