"""The money grammar: contract value cells and dollar amounts in free text (USD)."""

from __future__ import annotations

import pytest

from rfp_retrieval.library.money import (
    MIN_ABOVE_MAX,
    MISSING_VALUE,
    parse_contract_value,
    value_defects,
)
from rfp_retrieval.library.records import ContractValue
from rfp_retrieval.quantities.money import find_amounts, parse_amount


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$12.5M", 12_500_000),
        ("12.5 million", 12_500_000),
        ("$1.6 Million", 1_600_000),
        ("$385K", 385_000),
        ("$3,700,000", 3_700_000),
        ("~$6.1M", 6_100_000),
        ("USD34.6 million", 34_600_000),
        ("$450K", 450_000),
        ("~$620K", 620_000),
        ("$1.2B", 1_200_000_000),
        ("ten million dollars", 10_000_000),
        ("twenty-five million dollars", 25_000_000),
        ("one hundred and five thousand dollars", 105_000),
        ("3700000", 3_700_000),
    ],
)
def test_single_amount_formats_read_as_whole_dollars(text: str, expected: int) -> None:
    assert parse_amount(text) == expected
    assert parse_contract_value(text) == ContractValue(expected, expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("$4.1M", 4_100_000), ("$1.005M", 1_005_000), ("16.1 million", 16_100_000)],
)
def test_decimal_arithmetic_avoids_float_truncation(text: str, expected: int) -> None:
    # float would give 4_099_999 for $4.1M and 1_004_999 for $1.005M
    assert parse_amount(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$8M–$14M (ceiling)", ContractValue(8_000_000, 14_000_000)),
        ("$9,100,000 - $24,000,000", ContractValue(9_100_000, 24_000_000)),
        ("$5-8M", ContractValue(5_000_000, 8_000_000)),
        ("$10–30M", ContractValue(10_000_000, 30_000_000)),
        ("between ten and thirty million dollars", ContractValue(10_000_000, 30_000_000)),
        ("$12 million to $35 million", ContractValue(12_000_000, 35_000_000)),
    ],
)
def test_range_gives_min_and_max_with_shared_multiplier(text: str, expected: ContractValue) -> None:
    assert parse_contract_value(text) == expected


def test_obligated_and_ceiling_give_funded_min_and_ceiling_max() -> None:
    assert parse_contract_value("$3.2M obligated / $9.8M ceiling") == ContractValue(
        3_200_000, 9_800_000, funded=3_200_000
    )


def test_funded_and_ceiling_labels_before_amounts() -> None:
    assert parse_contract_value("Funded: $11.8M; Ceiling: $16.5M") == ContractValue(
        11_800_000, 16_500_000, funded=11_800_000
    )


def test_our_share_of_ceiling_gives_share_as_min_without_funded() -> None:
    assert parse_contract_value("$38.2M (our share) of $412M ceiling") == ContractValue(
        38_200_000, 412_000_000
    )


def test_min_above_max_is_kept_as_written_and_flagged() -> None:
    value = parse_contract_value("$27.8M–$19.6M (ceiling)")
    assert value == ContractValue(27_800_000, 19_600_000)
    assert value_defects(value) == [MIN_ABOVE_MAX]


@pytest.mark.parametrize("text", ["TBD", "", "  ", "N/A", None])
def test_missing_value_is_unknown_and_flagged(text: str | None) -> None:
    value = parse_contract_value(text)
    assert value == ContractValue(None, None)
    assert value_defects(value) == [MISSING_VALUE]


def test_consistent_value_has_no_defects() -> None:
    assert value_defects(ContractValue(8_000_000, 14_000_000)) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("call the COR", "no dollar amount"),
        ("$1M, $2M, $3M", "more amounts"),
        ("$1M / $2M", "not clear which is the ceiling"),
    ],
)
def test_unparseable_value_raises_value_error_naming_the_text(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        parse_contract_value(text)
    assert repr(text) in str(error.value)


def test_parse_amount_rejects_a_range() -> None:
    with pytest.raises(ValueError, match="expected one dollar amount"):
        parse_amount("$5-8M")


def test_find_amounts_in_rfp_text_needs_a_currency_marker() -> None:
    text = (
        "Offerors shall cite contracts of at least $15 million that supported 28 million calls "
        "per year, valued between ten and thirty million dollars, from 2020 to 2023."
    )
    mentions = find_amounts(text)
    assert [(m.value, m.upper, m.text) for m in mentions] == [
        (15_000_000, None, "$15 million"),
        (10_000_000, 30_000_000, "between ten and thirty million dollars"),
    ]
    assert text[mentions[1].start : mentions[1].end] == mentions[1].text


def test_find_amounts_marks_approximate_values() -> None:
    (mention,) = find_amounts("a contract of approximately $6.1M")
    assert (mention.value, mention.approximate) == (6_100_000, True)


def test_find_amounts_reads_shorthand_range() -> None:
    (mention,) = find_amounts("Contract value: $10-30M")
    assert (mention.value, mention.upper, mention.is_range) == (10_000_000, 30_000_000, True)
