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
