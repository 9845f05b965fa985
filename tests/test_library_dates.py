"""Periods of performance: month-only, year-only and fiscal-year bounds, ongoing ends."""

from __future__ import annotations

import datetime as dt

import pytest

from rfp_retrieval.library.dates import (
    END_BEFORE_START,
    MISSING_END_DATE,
    MISSING_START_DATE,
    parse_period_of_performance,
    period_defects,
)
from rfp_retrieval.quantities.dates import parse_date_bound


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Oct 2019 – Present", ("2019-10-01", "ongoing")),
        ("2016–2019", ("2016-01-01", "2019-12-31")),
        ("2011-2014", ("2011-01-01", "2014-12-31")),
        ("03/2018 - 09/2021", ("2018-03-01", "2021-09-30")),
        ("01/2016 to 12/2020", ("2016-01-01", "2020-12-31")),
        ("Oct 1, 2021 – Present", ("2021-10-01", "ongoing")),
        ("06/01/2021–05/31/2025", ("2021-06-01", "2025-05-31")),
        ("2019-08-12 to 2023-07-31", ("2019-08-12", "2023-07-31")),
        ("September 2018–August 2023", ("2018-09-01", "2023-08-31")),
        ("Sept 2019 – Aug 2021", ("2019-09-01", "2021-08-31")),
        ("Jun 15, 2020 – Dec 31, 2023", ("2020-06-15", "2023-12-31")),
        ("2021-08-09 to ongoing", ("2021-08-09", "ongoing")),
        ("Oct 2020 - Current", ("2020-10-01", "ongoing")),
    ],
)
def test_period_formats_in_the_library(text: str, expected: tuple[str, str]) -> None:
    assert parse_period_of_performance(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FY20-FY23", ("2019-10-01", "2023-09-30")),
        ("FY2017 - FY2021", ("2016-10-01", "2021-09-30")),
        ("FY15–FY20", ("2014-10-01", "2020-09-30")),
        ("FY24-Present", ("2023-10-01", "ongoing")),
    ],
)
def test_fy_range_uses_federal_fiscal_year(text: str, expected: tuple[str, str]) -> None:
    assert parse_period_of_performance(text) == expected


@pytest.mark.parametrize(
    ("text", "end"),
    [
        ("03/2021 to 02/2024", "2024-02-29"),
        ("Mar 2019 to Feb 2024", "2024-02-29"),
        ("03/2020–02/2022", "2022-02-28"),
        ("March 2016 – February 2020", "2020-02-29"),
    ],
)
def test_month_only_end_is_last_day_of_month_including_leap_years(text: str, end: str) -> None:
    assert parse_period_of_performance(text)[1] == end


@pytest.mark.parametrize("word", ["Present", "Current", "ongoing", "present"])
def test_present_end_is_ongoing_never_today(word: str) -> None:
    assert parse_period_of_performance(f"Jan 2025 – {word}") == ("2025-01-01", "ongoing")


def test_single_date_has_no_end_and_is_flagged() -> None:
    start, end = parse_period_of_performance("Sept 2019")
    assert (start, end) == ("2019-09-01", None)
    assert period_defects(start, end) == [MISSING_END_DATE]


def test_dangling_separator_has_no_end() -> None:
    assert parse_period_of_performance("Oct 2019 –") == ("2019-10-01", None)


def test_empty_period_is_flagged_missing_start_and_end() -> None:
    assert parse_period_of_performance("") == (None, None)
    assert period_defects(None, None) == [MISSING_START_DATE, MISSING_END_DATE]


def test_end_before_start_is_kept_as_written_and_flagged() -> None:
    start, end = parse_period_of_performance("06/2017 to 03/2016")
    assert (start, end) == ("2017-06-01", "2016-03-31")
    assert period_defects(start, end) == [END_BEFORE_START]


def test_ongoing_period_has_no_defects() -> None:
    assert period_defects("2019-10-01", "ongoing") == []


@pytest.mark.parametrize(
    ("text", "bound", "expected"),
    [
        ("FY2021", "start", dt.date(2020, 10, 1)),
        ("FY2021", "end", dt.date(2021, 9, 30)),
        ("2016", "start", dt.date(2016, 1, 1)),
        ("2016", "end", dt.date(2016, 12, 31)),
        ("Feb 2028", "end", dt.date(2028, 2, 29)),
        ("1 October 2021", "end", dt.date(2021, 10, 1)),
        ("October 2021", "end", dt.date(2021, 10, 31)),
    ],
)
def test_date_bound_resolves_partial_dates(text: str, bound: str, expected: dt.date) -> None:
    assert parse_date_bound(text, bound) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["sometime next year", "13/2020 - 01/2021", "Present - 2020"])
def test_unparseable_period_raises_value_error_naming_the_text(text: str) -> None:
    with pytest.raises(ValueError, match="period of performance"):
        parse_period_of_performance(text)
