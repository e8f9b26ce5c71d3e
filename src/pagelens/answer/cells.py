"""Reading one cell of a table: the row the question names × the column it names.

A table question ("What were Apple's net sales for the three months ended March 29, 2025?", "What is
the size of the zsh package?") names a row by its label and a column by its header. Every table among
the sources (its rows are ``Candidate`` rows of one source with one header) is read as a grid:

* a row's match is the IDF-weighted share of one of its names that the question's words cover: its
  *key* — the section path and first cell with letters ("Services › Net sales", "zsh") — or the next
  cell with letters when value columns follow it ("KX-63 | M63x1.5 | ..."); the IDF is over the
  table's own names, so a word every row holds ("shell", "net") names none of them. A description
  (a naming cell of more than ``NAME_WORDS`` words: "Z shell with lots of extensions") adds
  ``DESCRIPTION_WEIGHT`` of its share to a key the question covers in part; a label the caption
  defines ("“LTR & No NSP” is trained as a left-to-right LM without ...") is named by the words of
  that definition (``GLOSS_WEIGHT``). Key words match as stems, or when one begins the other and is
  nearly as long (``PREFIX_SHARE``: "debian" does not name "debianutils").
* a column's match is the share of its header's words (with the header band joined in: "3 Months
  Ended Mar. 29, 2025") the question uses, count words read as digits ("six months" → "6"); the
  column the asked thing names ("what *floor area* do the Eastern region's stores cover") comes
  before one the question's other words name. A header that names a year the question does not give,
  while the question gives one, is another period's column and is never picked (``period_mismatch``).
* the cell is at the best row × best column; a table with one value column needs no column match.

``Cell.named``: the row is named (``ROW_NAMED``) and, when the table has several value columns, a
column too (``COL_NAMED``). ``Cell.absent``: no row is named, or every value column is another year's
than the question's. ``table_read`` turns these into the answerer's scores; this module only reads.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pagelens.answer import spellings
from pagelens.answer import text as tx
from pagelens.answer.stat_terms import stat_synonyms
from pagelens.answer.candidates import MAX_LABEL_CHARS, Candidate
from pagelens.row_sections import SEP

ROW_NAMED = 0.5  # a row is named when the question covers this IDF-weighted share of its key
COL_NAMED = 0.5  # a column is named when the question uses this share of its header's words
PREFIX_SHARE = 0.8  # a key word and a question word one of which begins the other match when this long
DESCRIPTION_WEIGHT = 0.25  # a row's description (a naming cell of more than NAME_WORDS words), against its key
NAME_WORDS = 4
JOINED_HEAD = 3  # letters of a variable's name that name it inside a coefficient's name ("temp" of "tempwarm")
GLOSS_WEIGHT = 0.9  # a row named through the caption sentence that defines its label, against its key  # a row's later naming cells, against its key
EMPTY = ("", "-", "–", "—")  # what an empty cell holds
_YEAR = re.compile(r"^(1[89]|20)\d\d$")
_LETTER = re.compile(r"[A-Za-z]")


@dataclass(frozen=True)
class Cell:
    row: Candidate
    col: int
    row_match: float
    col_match: float
    columns: int  # value columns of the table
    other_periods: bool = False  # every value column names a year the question does not give
    ties: int = 1  # rows named as fully as this one ("OTSL" on every other row of a grid)
    blank: bool = False  # the named row's cell under the named column is empty (the model has no AIC)

    @property
    def absent(self) -> bool:
        """The question's row or column is not in this table: no row is named, or the question gives a
        year and every column is another year's."""
        return self.row_match < ROW_NAMED or self.other_periods

    @property
    def named(self) -> bool:
        return self.row_match >= ROW_NAMED and (self.columns <= 1 or self.col_match >= COL_NAMED) and not self.blank

    @property
    def score(self) -> float:
        return self.row_match * (self.col_match if self.columns > 1 else 1.0)

    @property
    def attached(self) -> float:
        """How fully the question names both the row and the column (a lone column unnamed: 0)."""
        return self.row_match * self.col_match

    @property
    def value(self) -> str:
        return self.row.cells[self.col] if self.col < len(self.row.cells) else ""


def tables(cands: Sequence[Candidate]) -> list[list[Candidate]]:
    """The labelled rows of each table among ``cands`` (one source, one header), in order."""
    groups: dict[tuple[int, tuple[str, ...]], list[Candidate]] = {}
    for c in cands:
        if c.kind == "row" and c.header and c.cells and c.label and len(c.label) <= MAX_LABEL_CHARS * 2:
            groups.setdefault((c.source, tuple(c.header)), []).append(c)
    return list(groups.values())


def key(row: Candidate) -> str:
    """The row's section path and first naming cell ("Services › Net sales")."""
    return names(row)[0]


def names(row: Candidate, last: int | None = None) -> list[str]:
    """The cells that name the row: its key (section path and first cell with letters) and the next cell
    when it has letters too and value columns follow it (``last``: the table's last value column):
    "KX-63 | M63x1.5 | ...", "dash | Debian Almquist Shell | ...", not "Model: | OLS"."""
    parts = row.label.split(SEP)
    lead: list[str] = []
    for j, x in enumerate(row.cells):
        if lead and last is not None and j >= last:
            break
        if not _LETTER.search(x) or tx.is_mark(x):
            if lead:
                break
            continue
        lead.append(x)
        if len(lead) == 2:
            break
    first = lead[0] if lead else parts[-1]
    return [SEP.join([*parts[:-1], first]) if len(parts) > 1 else first, *lead[1:]]


def value_columns(rows: Sequence[Candidate]) -> list[int]:
    """Columns after the first that hold a value in at least half the rows (and are not the rows' keys)."""
    width = max(len(r.cells) for r in rows)
    out = []
    for j in range(1, width):
        filled = [r for r in rows if j < len(r.cells) and r.cells[j].strip() not in EMPTY]
        if len(filled) * 2 >= len(rows) and any(key(r).split(SEP)[-1] != r.cells[j] for r in filled):
            out.append(j)
    return out


def period_mismatch(header: str, question: str) -> bool:
    """The header names a year (or a day of a month, or a count) the question does not give, while the
    question gives one of that kind: another period's column."""
    h_nums = tx.numbers(header)
    q_nums = tx.numbers(question) | set(_count_digits(question))
    h_years = {n for n in h_nums if _YEAR.match(n)}
    q_years = {n for n in q_nums if _YEAR.match(n)}
    if q_years and h_years and not (h_years & q_years):
        return True
    h_other, q_other = h_nums - h_years, q_nums - q_years
    return bool(q_other and h_other and not (h_other & q_other) and q_years and h_years)


def _count_digits(question: str) -> list[str]:
    return [x for t in tx.content_terms(question) for x in tx._with_digits([t]) if x.isdigit()]


def _idf(keys: Sequence[set[str]]) -> dict[str, float]:
    n = len(keys)
    vocab = {t for k in keys for t in k}
    return {t: math.log(1 + (n + 1) / (1 + sum(t in k for k in keys))) for t in vocab}


def _matches(term: str, q: set[str]) -> bool:
    """A key word the question uses: the same stem, or one a near-whole prefix of the other ("ens" of
    "ensembl" is not, "debian" of "debianutils" is not: ``PREFIX_SHARE``); or a variable joined to its
    level as a model printout names a coefficient (``_joined``)."""
    if term in q:
        return True
    return any(len(short) >= 3 and long.startswith(short) and len(short) >= PREFIX_SHARE * len(long)
               for t in q for short, long in (sorted((t, term), key=len),)) or _joined(term, q)


def _joined(term: str, q: set[str]) -> bool:
    """A coefficient's name that joins a variable and its level ("tempwarm", "healthpoor", "contactyes"):
    the question names both, the variable whole or by its first letters (at least ``JOINED_HEAD``:
    "*temp*erature"), the level as a word of its own ("warm", "poor")."""
    if len(term) < 2 * JOINED_HEAD or not term.isalpha():
        return False
    for i in range(JOINED_HEAD, len(term) - 1):
        head, level = term[:i], term[i:]
        if (level in q or tx.stem(level) in q) and any(t.startswith(head) for t in q if t != level):
            return True
    return False


def _covered(terms: set[str], q: set[str], idf: dict[str, float]) -> tuple[float, float]:
    """(IDF-weighted share of ``terms`` the question covers, the covered weight), rounded: summed over a set,
    whose order varies from run to run (``PYTHONHASHSEED``), two rows named alike would otherwise differ
    in the last bit, and the one read would change between runs."""
    total = sum(idf.get(t, 1.0) for t in terms)
    got = sum(idf.get(t, 1.0) for t in terms if _matches(t, q))
    return round(got / total if total else 0.0, 9), round(got, 9)


def _row_share(names: list[set[str]], q: set[str], idf: dict[str, float]) -> tuple[float, float]:
    """How fully the question names a row: the best-covered of its short naming cells, or its key with
    ``DESCRIPTION_WEIGHT`` of a long description's words added."""
    best = (0.0, 0.0)
    for i, n in enumerate(names):
        if not n or (i and len(n) > NAME_WORDS):
            continue
        best = max(best, _covered(n, q, idf))
    if 0 < best[0] < 1 and len(names) > 1 and len(names[1]) > NAME_WORDS:
        extra, _ = _covered(names[1] - names[0], q, idf)
        best = (min(1.0, best[0] + DESCRIPTION_WEIGHT * extra), best[1])
    return best


_BRACKETED = re.compile(r"^\(\s*[-−–]?[\d.,]+\s*\)$")


def _bracketed(row: Candidate) -> bool:
    """A row of values each in parentheses, named as the row above it: the standard errors a regression
    table prints under the estimates ("1.029" over "(0.062)")."""
    vals = [c.strip() for c in row.cells[1:] if c.strip() not in EMPTY]
    return bool(vals) and all(_BRACKETED.match(v) for v in vals)


def _asks_error(q: set[str]) -> bool:
    """The question asks for a standard error ("standard error", "SE", "std. error")."""
    return "se" in stat_synonyms(q)


def _has_values(row: Candidate) -> bool:
    return any(c.strip() not in EMPTY for c in row.cells[1:])


def read(question: str, q_terms: Sequence[str], rows: Sequence[Candidate], focus: Sequence[str] = ()) -> Cell | None:
    """The best row × column of one table (``rows``); None when it has no value column or no row
    with a key of words. ``focus``: the terms of the thing asked for ("floor area"), whose column is
    preferred over one the question's other words name ("... the Eastern region's *stores* cover")."""
    rows = [r for r in rows if _has_values(r)]  # section rows ("Operating expenses:") hold no cell
    cols = value_columns(rows) if rows else []
    if not cols:
        return None
    q = set(tx._with_digits(list(q_terms)))
    labels = [names(r, cols[-1]) for r in rows]
    # a row labelled by acronyms is named by the words they stand for ("LTR & No NSP": "the left-to-right
    # model trained without next-sentence prediction")
    q |= spellings.acronyms_spelled(question, " ; ".join(n for ns in labels for n in ns[:1]))
    named = [[set(tx.content_terms(n)) for n in ns] for ns in labels]
    if not any(k for ns in named for k in ns):
        return None
    idf = _idf([set().union(*ns) for ns in named])
    best_row, best_rk, ties = rows[0], (-1.0, -1.0), 0
    for r, ns in zip(rows, named):
        share, weight = _row_share(ns, q, idf)
        if share < ROW_NAMED and r.gloss:  # a label the caption defines is named by the definition's words
            gloss = set(tx.content_terms(r.gloss)) - set().union(*ns)
            share = max(share, GLOSS_WEIGHT * sum(_matches(t, q) for t in gloss) / len(gloss) if gloss else 0.0)
        if (share, weight) > best_rk:
            best_row, best_rk, ties = r, (share, weight), 1
        elif (share, weight) == best_rk:
            if _bracketed(r) and r.label == best_row.label:  # the standard errors under the estimates
                if _asks_error(q):
                    best_row = r
                continue
            ties += 1
    header = [best_row.header[j] if j in cols and j < len(best_row.header) else "" for j in range(len(best_row.header))]
    periods = [j for j in cols if header[j] and period_mismatch(header[j], question)]
    for j in periods:
        header[j] = ""
    # each word of the question names one thing: those that named the row ("*total consumer*") do not
    # name its column too ("... under 'Other concessions'" is the column, not "Total")
    used = set().union(*named[rows.index(best_row)]) if rows else set()
    used_q = {t for t in q if _matches(t, used)}
    col = asked_column(header, q - used_q, question, [f for f in focus if f not in used_q], exclude=used_q) if used_q else None
    whole = asked_column(header, q, question, focus)
    if col is None or (whole is not None and whole != col
                       and tx.column_match(header[whole], q - used_q) >= tx.column_match(header[col], q - used_q)):
        # named as well by the rest of the question, the column all its words name: a word may name both
        # ("the *total* cost of the reflex pathway" is row Total, column "Total cost", not "Unit cost")
        col = whole
    if col is None:
        col = cols[0] if len(cols) == 1 else None
    # a two-level header's column is named by its own words ("Other concessions"), past the group's
    col_match = max(tx.column_match(header[col], q), tx.column_match(tx.own_name(best_row.header, col), q)) \
        if col is not None and header[col] else 0.0
    missing = bool(periods) and len(periods) == len(cols)  # every column is another period's
    if col is None or col >= len(best_row.cells) or best_row.cells[col].strip() in EMPTY:
        blank = col is not None and len(cols) > 1 and col_match >= COL_NAMED and best_rk[0] >= ROW_NAMED
        if blank:  # "the quasi-Poisson model's log-likelihood" where that model's cell is empty
            return Cell(best_row, col, best_rk[0], col_match, len(cols), missing, ties, blank=True)
        if cols[0] >= len(best_row.cells) or best_row.cells[cols[0]].strip() in EMPTY:
            return Cell(best_row, cols[0], best_rk[0], 0.0, max(len(cols), 2), missing, ties)  # no cell to quote
        return Cell(best_row, cols[0], best_rk[0], 0.0, len(cols), missing, ties)
    return Cell(best_row, col, best_rk[0], col_match, len(cols), missing, ties)


def asked_column(header: list[str], q: set[str] | list[str], question: str, focus: Sequence[str],
                 exclude: set[str] | frozenset[str] = frozenset()) -> int | None:
    """The column the question asks for: the one the asked thing names ("floor area"), before one the
    question's other words name ("... the Eastern region's *stores*"); where the asked thing names
    several alike ("F1" over "SQuAD 1.1 F1" and "SQuAD 2.0 F1"), the one of them the whole question names
    best ("... on SQuAD *2.0*"). ``exclude``: question words left out (those that named the row)."""
    whole = tx.best_column(header, list(q), tx._with_digits([t for t in tx.ask_terms(question) if t not in exclude]))
    asked = tx._with_digits(list(focus))
    col = tx.best_column(header, asked) if asked else None
    if col is None:
        return whole
    if whole is not None and whole != col and tx.column_match(header[whole], asked) >= tx.column_match(header[col], asked):
        return whole
    return col


def best_cell(question: str, q_terms: Sequence[str], cands: Sequence[Candidate], focus: Sequence[str] = ()
              ) -> Cell | None:
    """The best-read cell over every table among ``cands`` (ties: the earlier source)."""
    reads = [c for rows in tables(cands) if (c := read(question, q_terms, rows, focus)) is not None]
    return max(reads, key=lambda c: (c.named, c.score, -c.row.source), default=None)
