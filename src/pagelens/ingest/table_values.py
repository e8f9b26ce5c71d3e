"""What a table cell's text is: a number, an amount, a year, a currency sign. One place for the
predicates the finders, the header detection and the whitespace reader share.

Two readings of "a number" live here because their callers need different ones. ``is_numeric`` is the
grid finders' test, word by word ("88.4 86.7" is two numbers in one cell, "1:2" a ratio);
``value_kind`` is the statement reader's test of one cell ("$ (479)", "12 %", "—", "n/a"). An
*amount* (``is_amount``) is either, or a currency sign alone: what fills a value cell of a statement
("$ 1,234", "$1,234", "$ (56)", "—", "21.5%", and "$" in a cell of its own), never a column title.
A *period* (``is_period``) is what titles a value column by date ("2023", "FY2023", "2Q23", "Q3 2022"),
and a *caption label* (``is_caption_label``) what a statement prints in the label cell beside the
periods ("(in millions)", "Three months ended June 30,", "Item").
"""

from __future__ import annotations

import re

CURRENCY = frozenset("$€£¥")

# Grid cells: 60.5  86.7/85.9  146,982  12%  <5  ±0.3  $12  (56)  and a lone dash.
_NUMERIC = re.compile(r"^[-+±~≈<>(]*[$€£]?\d[\d.,/:]*%?\)?[*†‡]*$|^[-–—]$")

# One statement value: 1,234  (1,234)  $1,234  $ (479)  ($479)  12%  12 %  (12)%  2.98  -5.2  1.0x  35 bps
# 80.6/80.1  392k
_NUMBER = r"[(]?[-−–]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?[kmb]?[)]?"
_VALUE = re.compile(
    rf"^[(\[]?[-+−–±~]?[(]?[$€£¥]?{_NUMBER}(?:/{_NUMBER})*%?[)\]]?"
    r"(?:x|bps|pts|pp)?[*†‡]*(?:\(\d\))?$",
    re.I,
)
# A range of two values: 8.0-15.0  12.5 – 20.5  5%-10%  (a table of sizes, tolerances, bands). A year
# before the dash ("2019-2020", "2023-24") names a period, not a value.
_PLAIN = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?%?"
_RANGE = re.compile(rf"^[$€£¥]?({_PLAIN})[-–—][$€£¥]?{_PLAIN}$")
_NIL = re.compile(r"^(?:[-−–—]+%?|n/?a|nm|n\.m\.|nil|\*)$", re.I)  # a dash, "—%", n/a, NM
# Statistical agencies' cell markers (Census, BLS): (X) not applicable, (NA) not available, (D) withheld,
# (Z) rounds to zero, (S) below standards. Upper case only: "(a)", "(b)" are footnote marks.
_AGENCY_NIL = re.compile(r"^\((?:X|NA|D|Z|S)\)$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
# A year (1900-2100, a footnote mark allowed; 2023/24 and 2023-24 span two), a fiscal year (FY2023, FY 23, FY'23, Fiscal 2023), a
# quarter or half (Q3, Q3 2022, Q3'22, 2Q23, 3Q 2022, H1 2023, 1H23, 2023 Q3).
_PERIOD = re.compile(
    r"^(?:(?:19|20)\d\d(?:[-/–](?:19|20)?\d\d)?|2100"
    r"|(?:FY|fiscal(?:\s+year)?)\s?'?(?:\d\d){1,2}"
    r"|(?:Q[1-4]|[1-4]Q|H[12]|[12]H)\s?'?(?:(?:19|20)?\d\d)?"
    r"|(?:19|20)\d\d\s?(?:Q[1-4]|H[12]))"
    r"(?:\s?[*†‡]+|\s?\(\w\))?$",
    re.I,
)
# What a label cell beside a row of periods says: a period stub ("Three months ended June 30,",
# "As of December 31,"), a units note ("(in millions)", "$ in thousands", "Unaudited") or a generic
# title of the label column ("Item", "Description"). A row label ("Revenue") is none of these.
_CAPTION_LABEL = re.compile(
    r"\b(?:ended|ending|as\s+(?:of|at)|fiscal|months?|weeks?|quarters?|years?|periods?"
    r"|thousands|millions|billions|unaudited|audited|except)\b"
    r"|^\(.*\)$|^[$€£¥%]"
    r"|^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?$"
    r"|^(?:items?|descriptions?|metrics?|measures?|categor(?:y|ies)|line\s+items?|particulars|indicators?|segments?|regions?)$",
    re.I,
)


def is_numeric(text: str) -> bool:
    """True for cell values such as ``60.5``, ``86.7/85.9``, ``146,982``, ``12%`` or a lone dash
    (every whitespace-separated part a number)."""
    parts = text.split()
    return bool(parts) and all(_NUMERIC.match(p) for p in parts)


def value_kind(text: str) -> str | None:
    """``"num"`` for a number cell (a range of two numbers too: "8.0 - 15.0"), ``"nil"`` for a dash /
    n/a cell, None for text."""
    compact = text.replace(" ", "")
    if _VALUE.match(compact):
        return "num"
    ranged = _RANGE.match(compact)
    if ranged and not _YEAR.match(ranged.group(1)):
        return "num"
    if _NIL.match(compact) or _AGENCY_NIL.match(compact):
        return "nil"
    return None


def is_year(text: str) -> bool:
    return bool(_YEAR.match(text.strip()))


def is_period(text: str) -> bool:
    """A column title naming one period: "2023", "2023*", "FY2023", "Fiscal 2023", "2Q23", "Q3 2022"."""
    return bool(_PERIOD.match(" ".join(text.split())))


def is_caption_label(text: str) -> bool:
    """A label cell that titles the label column rather than naming a row ("(in millions)",
    "Three months ended June 30,", "Item"): beside a row of periods it makes that row a header."""
    return bool(_CAPTION_LABEL.search(" ".join(text.split()).rstrip(":")))


def is_currency(text: str) -> bool:
    """A currency sign alone ("$"): statements print it in a column of its own beside the first and
    the total rows' values."""
    return text.strip() in CURRENCY


def is_amount(text: str) -> bool:
    """A value cell: a number or amount ("1,234", "$ 1,234", "$1,234", "$ (56)", "21.5%", "—", "n/a")
    or a currency sign alone."""
    text = text.strip()
    return bool(text) and (is_currency(text) or is_numeric(text) or value_kind(text) is not None)


def is_value(text: str) -> bool:
    """An amount that says something by itself: ``is_amount`` less a currency sign alone (a row of
    "$" signs under column titles may still belong to the header)."""
    return is_amount(text) and not is_currency(text)


# The digits of an amount: "$ (1,204.5)" → "1,204.5". Grouped: thousands set apart ("1,204", "1.204",
# "1 204"); plain: four or more digits in a row ("1204", "2023"); fractional: a decimal part or a percent.
_DIGITS = re.compile(r"[^\d.,\s]")
_GROUPED = re.compile(r"^\d{1,3}(?:[,.\s]\d{3})+(?:[.,]\d+)?$")
_PLAIN_BIG = re.compile(r"^\d{4,}(?:[.,]\d+)?$")
_FRACTION = re.compile(r"^\d+[.,]\d{1,2}$")


def printed_unlike(year: str, column: list[str]) -> bool:
    """A bare year ("2023") printed the way ``column``'s amounts never print theirs: the column sets
    the thousands of its four-digit amounts apart ("1,204") and prints none without, or every amount
    of it has decimals or a percent ("2.46", "12.5%"). Such a year over the column titles it: as one of
    its amounts it would read "2,023" or "2,023.00". False when the column shows neither."""
    if not is_year(year):
        return False
    amounts = [c for c in column if is_value(c) and not is_period(c)]
    if not amounts:
        return False
    cores = [" ".join(_DIGITS.sub("", c).split()).strip(".,") for c in amounts]
    grouped = any(_GROUPED.match(c) for c in cores)
    plain = any(_PLAIN_BIG.match(c.replace(" ", "")) for c in cores)
    if grouped and not plain:
        return True
    return all(_FRACTION.match(c) or "%" in a for c, a in zip(cores, amounts))
