"""Periods written with a bare hyphen between ISO dates (or spreadsheet date-times exported as
text) read as their two dates; text read only in part is reported, never half-read."""

from __future__ import annotations

import datetime as dt

import pytest

from rfp_retrieval.library.dates import parse_period_of_performance
from rfp_retrieval.quantities.dates import parse_date_bound


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2019-01-01-2021-06-30", ("2019-01-01", "2021-06-30")),
        ("2019-01-01 00:00:00-2021-06-30 00:00:00", ("2019-01-01", "2021-06-30")),
        ("2019-01-01T00:00:00-2021-06-30T00:00:00", ("2019-01-01", "2021-06-30")),
        ("2019-01-01 00:00:00 - 2021-06-30 00:00:00", ("2019-01-01", "2021-06-30")),
        ("2019-01-01-Present", ("2019-01-01", "ongoing")),
        ("2019-01-01-2021", ("2019-01-01", "2021-12-31")),
        ("06/01/2021-05/31/2025", ("2021-06-01", "2025-05-31")),
        ("03/2018-02/2024", ("2018-03-01", "2024-02-29")),
        ("2019-01-01 00:00:00", ("2019-01-01", None)),
    ],
)
def test_bare_hyphen_between_whole_dates_reads_both_ends(text, expected) -> None:
    assert parse_period_of_performance(text) == expected


@pytest.mark.parametrize(
    "text",
    ["2019-01-01-21", "2019-01-01-2021-06", "1 October 2021 13:45", "2019-01-01 13:00 -05:00"],
)
def test_text_read_only_in_part_is_reported_not_half_read(text: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_period_of_performance(text)
    assert str(raised.value).startswith(f"period of performance {text!r}: ")
    assert "is not one date" in str(raised.value) or "is not a date" in str(raised.value)


def test_trailing_date_is_not_read_as_a_time_zone_offset() -> None:
    with pytest.raises(ValueError) as raised:
        parse_date_bound("2019-01-01-2021-06-30", "start")
    assert str(raised.value) == (
        "'2019-01-01-2021-06-30' is not one date (it reads as 2019-01-01 followed by a time or "
        "time-zone offset): write one date such as 2019-08-12, or a period as "
        "2019-01-01 to 2021-06-30"
    )
    assert parse_date_bound("2019-01-01 00:00:00", "end") == dt.date(2019, 1, 1)
