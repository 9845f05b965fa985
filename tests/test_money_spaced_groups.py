"""Digit groups set apart by spaces or apostrophes after a currency sign are one number
(break-it: "$2 000 000" in an RFP read as a $2 floor while the library rejected the same)."""

from __future__ import annotations

import pytest

from rfp_retrieval.library.money import parse_contract_value
from rfp_retrieval.quantities.money import find_amounts


@pytest.mark.parametrize(
    ("text", "amounts"),
    [
        ("at least $2 000 000 in value", [(2_000_000, None)]),
        ("$2\u00a0000\u00a0000", [(2_000_000, None)]),  # no-break spaces
        ("$2\u2009000\u2009000", [(2_000_000, None)]),  # thin spaces
        ("US$ 2\u202f000\u202f000", [(2_000_000, None)]),  # narrow no-break spaces
        ("$2'000'000", [(2_000_000, None)]),  # Swiss apostrophes
        ("from $1 500 000 to $3 000 000", [(1_500_000, 3_000_000)]),
        ("between $2 and $5 million", [(2_000_000, 5_000_000)]),  # not a digit group
        ("Phase 1 100 users at $250", [(250, None)]),  # no sign before the spaced number
        ("2 000 employees", []),
    ],
)
def test_spaced_digit_groups_after_a_currency_sign(text, amounts):
    assert [(m.value, m.upper) for m in find_amounts(text)] == amounts


def test_the_library_reads_the_same_value():
    value = parse_contract_value("$2 000 000")
    assert (value.min, value.max) == (2_000_000, 2_000_000)
