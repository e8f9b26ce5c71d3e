"""The cell predicates of ``table_values`` and the header rule built on them (``reads_as_data``): an
amount ("$ 1,234", "$ (56)", a dash, a percentage, "$" alone) never titles a column (issue #10)."""

from __future__ import annotations

import pytest

from pagelens.ingest.table_cells import reads_as_data
from pagelens.ingest.table_values import is_amount, is_currency, is_numeric, is_value, value_kind


@pytest.mark.parametrize("text", ["$ 1,234", "$1,234", "$ (56)", "(56)", "$", "—", "-", "21.5%", "12 %", "n/a", "1,234"])
def test_amounts(text: str) -> None:
    assert is_amount(text)


@pytest.mark.parametrize("text", ["Amount", "Current", "2023 restated", "", "Note 4", "%"])
def test_not_amounts(text: str) -> None:
    assert not is_amount(text)


def test_a_currency_sign_alone_is_an_amount_but_not_a_value() -> None:
    assert is_currency(" $ ") and is_currency("€") and not is_currency("$ 1")
    assert is_amount("$") and not is_value("$") and is_value("$ 1")


def test_amounts_cover_both_older_readings() -> None:
    """Grid cells (``is_numeric``: several numbers in one cell, ratios) and statement cells
    (``value_kind``: "$ (479)", "n/a") are amounts; the two readings themselves are unchanged."""
    assert is_numeric("88.4 86.7") and is_amount("88.4 86.7")
    assert not is_numeric("$ (479)") and value_kind("$ (479)") == "num" and is_amount("$ (479)")
    assert value_kind("(X)") == "nil" and value_kind("(a)") is None


@pytest.mark.parametrize(("row", "data"), [
    (["Cash", "$ 1,204", "$ 998"], True),
    (["Cash", "$ 1,204"], True),  # a label and its amount: the two-column case
    (["Cash", "", "$ (56)"], True),
    (["Cash", "$", "1,204", "$", "998"], True),
    (["Item", "Amount"], False),
    (["", "Current", "Prior"], False),
    (["Fiscal year", "2023"], False),  # a year names a column
    (["Item", "$"], False),  # a sign alone says nothing either way
    (["Dev", "Test"], False),
])
def test_reads_as_data(row: list[str], data: bool) -> None:
    assert reads_as_data(row) is data


@pytest.mark.parametrize("text", ["8.0 - 15.0", "12.5–20.5", "5%-10%", "1,000 - 2,000", "10 - 20"])
def test_a_range_of_two_numbers_is_one_value(text: str) -> None:
    assert value_kind(text) == "num"


@pytest.mark.parametrize("text", ["2019-2020", "2023-24", "2019 - 2020", "20-27083460-5", "3-", "a-b"])
def test_year_spans_codes_and_dangling_dashes_are_no_range(text: str) -> None:
    assert value_kind(text) is None


def test_a_year_printed_unlike_its_column() -> None:
    from pagelens.ingest.table_values import printed_unlike

    assert printed_unlike("2023", ["1,204", "", "31,999"])  # thousands set apart
    assert printed_unlike("2023", ["2.46", "1.10"])  # decimals
    assert not printed_unlike("2023", ["41", "9", "7"])  # small counts say nothing
    assert not printed_unlike("2023", ["1204", "3,412"])  # a plain four-digit amount in the column
    assert not printed_unlike("Q3", ["1,204"])  # only a bare year
