"""European money in a library value cell: read where unambiguous (dots between groups of
exactly three digits; a decimal comma before a scale word), else reported saying exactly
which number was not understood; never read as two amounts or as a few dollars."""

from __future__ import annotations

import pytest

from rfp_retrieval.library.money import parse_contract_value
from rfp_retrieval.library.records import ContractValue
from rfp_retrieval.quantities.money import parse_amount, unclear_amounts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$1.234.567", 1_234_567),
        ("$1.234.567,50", 1_234_568),
        ("$12.500.000", 12_500_000),
        ("$1.234,5", 1_235),
        ("$12,5M", 12_500_000),
        ("$12,5 million", 12_500_000),
        ("12,75M", 12_750_000),
        ("$2,5B", 2_500_000_000),
    ],
)
def test_unambiguous_european_amount_is_read(text: str, expected: int) -> None:
    assert parse_contract_value(text) == ContractValue(expected, expected)
    assert parse_amount(text) == expected


def test_european_range_reads_both_ends() -> None:
    assert parse_contract_value("$1.200.000 - $3.400.000") == ContractValue(1_200_000, 3_400_000)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "$1.234",
            "contract value '$1.234' is not clear: '1.234' could be 1,234 dollars (a dot between "
            "thousands) or 1.234 dollars (a decimal point): write 1,234",
        ),
        (
            "$12,5",
            "contract value '$12,5' is not clear: '12,5' has a decimal comma but no scale word "
            "after it (a decimal comma is read only as in 12,5M): write 12.5 with a decimal point",
        ),
        (
            "$1,500M",
            "contract value '$1,500M' is not clear: '1,500' before a scale word could be 1,500 "
            "(a comma between thousands) or 1.5 (a decimal comma): write 1.5 with a decimal "
            "point, or the whole amount in digits",
        ),
        (
            "$1,23,456",
            "contract value '$1,23,456' is not clear: '1,23,456' is grouped neither as "
            "3,700,000 nor as 3.700.000: write the amount as 3,700,000 or $3.7M",
        ),
    ],
)
def test_unclear_grouping_is_reported_naming_the_number(text: str, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_contract_value(text)
    assert str(raised.value) == message


def test_range_with_one_unclear_end_is_reported_not_half_read() -> None:
    # "12,5" has no scale of its own: the cell is reported, never read as $14.5M alone
    with pytest.raises(ValueError, match="'12,5' has a decimal comma"):
        parse_contract_value("$12,5-14,5M")
    assert unclear_amounts("$1.234.567 and $3.1M") == []


def test_us_amounts_read_as_before() -> None:
    assert parse_contract_value("$3,700,000") == ContractValue(3_700_000, 3_700_000)
    assert parse_contract_value("$1.005M") == ContractValue(1_005_000, 1_005_000)
    assert parse_contract_value("$12.50") == ContractValue(13, 13)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("=SUM(A1:A2)", "is a spreadsheet formula saved without its value"),
        ("=B4*2", "is a spreadsheet formula saved without its value"),
        ("1e15", "is a number in scientific notation (1e15)"),
        ("$2.5E+06", "is a number in scientific notation (2.5E+06)"),
    ],
)
def test_a_formula_or_scientific_notation_says_what_is_wrong(text: str, said: str) -> None:
    """Break-it: both read "has two amounts and it is not clear which is the ceiling"."""
    with pytest.raises(ValueError) as raised:
        parse_contract_value(text)
    message = str(raised.value)
    assert said in message and repr(text) in message
    assert "ceiling" not in message
