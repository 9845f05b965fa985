"""Library facts that are typos or floors (break-it, session 12): a value no contract has, a
year outside any past performance, "$5M+", a fiscal year alone, "State / Local" customer types.
Each row is kept; the fact is unknown or marked, never ranked as written."""

from __future__ import annotations

import pytest

from rfp_retrieval.library.dates import parse_period_of_performance, plausible_period
from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.library.money import checked_value, parse_contract_value
from rfp_retrieval.library.vocab import normalize_customer_type

HEADER = (
    "PP #,Contract Name,Customer,Customer Type,Role,Contract Type,Contract Value,"
    "Period of Performance,Technologies,Domains,Description,Results / Outcomes,Last Updated\n"
)


def _row(entry_id: str, customer: str, ctype: str, value: str, period: str) -> str:
    return (
        f'{entry_id},Portal,"{customer}",{ctype},Prime,Stand-alone Contract,"{value}",'
        f"{period},Java,Grants,Built the portal.,Cut processing time 30%,2026-05-01\n"
    )


def test_a_23_digit_value_and_a_year_2099_are_unknown_and_the_library_still_loads(tmp_path):
    (tmp_path / "matrix.csv").write_text(
        HEADER
        + _row("PP-1", "City of Springfield", "Local", "99999999999999999999999", "2020 - 2022")
        + _row("PP-2", "City of Springfield", "Local", "$2M", "FY2099")
        + _row("PP-3", "City of Springfield", "Local", "$5M+", "1899-01-01 - 2021-06-30"),
        encoding="utf-8",
    )
    load = load_library(tmp_path)
    by_id = {e.id: e for e in load.entries}
    assert sorted(by_id) == ["PP-1", "PP-2", "PP-3"] and load.rejected == []
    frame = entries_frame(load.entries)  # a 23-digit int stopped the whole library here
    assert frame.filter(frame["id"] == "PP-1")["value_max"].to_list() == [None]
    assert by_id["PP-1"].defects == ["implausible-value (99999999999999999999999)"]
    assert (by_id["PP-2"].contract.start_date, by_id["PP-2"].contract.end_date) == (None, None)
    assert by_id["PP-2"].defects[:2] == [
        "implausible-date (start 2098-10-01)",
        "implausible-date (end 2099-09-30)",
    ]
    assert (by_id["PP-3"].contract.start_date, by_id["PP-3"].contract.end_date) == (
        None,
        "2021-06-30",
    )
    assert by_id["PP-3"].contract.value.max == 5_000_000
    assert "lower-bound-value ($5M+)" in by_id["PP-3"].defects


@pytest.mark.parametrize(
    ("text", "limit_kept", "defects"),
    [
        ("$80 billion", 80_000_000_000, []),
        ("$100,000,000,001", None, ["implausible-value ($100,000,000,001)"]),
        ("$5M or more", 5_000_000, ["lower-bound-value ($5M or more)"]),
        ("over $1.2M", 1_200_000, ["lower-bound-value (over $1.2M)"]),
        ("$8M–$14M (ceiling)", 14_000_000, []),
        ("$3.2M obligated / $9.8M ceiling", 9_800_000, []),
    ],
)
def test_checked_value(text, limit_kept, defects):
    value, found = checked_value(parse_contract_value(text), text)
    assert (value.max, found) == (limit_kept, defects)


def test_a_fiscal_year_alone_is_the_whole_year_and_a_year_alone_only_a_start():
    assert parse_period_of_performance("FY22") == ("2021-10-01", "2022-09-30")
    assert parse_period_of_performance("FY 2019") == ("2018-10-01", "2019-09-30")
    assert parse_period_of_performance("2022") == ("2022-01-01", None)
    assert plausible_period("1949-12-31", "ongoing") == (
        None,
        "ongoing",
        ["implausible-date (start 1949-12-31)"],
    )
    assert plausible_period("1950-01-01", "2060-12-31") == ("1950-01-01", "2060-12-31", [])


@pytest.mark.parametrize(
    ("cell", "name", "expected"),
    [
        ("State / Local", "Travis County, Texas", ("local", ["nonstandard-customer-type"])),
        ("SLED", "State of Ohio, Department of Taxation", ("state", ["nonstandard-customer-type"])),
        ("State & Local", "Acme Logistics Inc.", (None, ["two-customer-types"])),
        ("state and local", None, (None, ["two-customer-types"])),
        ("State", "Travis County, Texas", ("state", [])),  # a one-type cell is never second-guessed
    ],
)
def test_a_two_type_customer_cell_takes_the_type_its_name_says(cell, name, expected):
    assert normalize_customer_type(cell, name) == expected


def test_a_write_up_copied_under_a_new_id_fails_write_ups_distinct(tmp_path):
    import datetime as dt

    from rfp_retrieval.library.quality import validate_entries

    story = (
        "Replaced the county permitting system with a cloud case-management platform "
        "used by 400 staff"
    )
    (tmp_path / "matrix.csv").write_text(
        HEADER
        + _row("PP-7", "Travis County", "Local", "$2M", "2020 - 2022").replace(
            "Built the portal.", story
        )
        + _row("PP-3", "Travis County", "Local", "$2M", "2020 - 2022").replace(
            "Built the portal.", story.upper() + " !"
        )
        + _row("PP-5", "Travis County", "Local", "$2M", "2020 - 2022"),  # short stock text
        encoding="utf-8",
    )
    load = load_library(tmp_path)
    outcomes = {
        o.expectation: o
        for o in validate_entries(entries_frame(load.entries), today=dt.date(2026, 12, 4))
    }
    distinct = outcomes["write-ups distinct"]
    assert (distinct.success, distinct.failing_ids) == (False, ["PP-7"])
    assert distinct.reasons == {"PP-7": "same write-up as PP-3"}
    assert sorted(e.id for e in load.entries) == ["PP-3", "PP-5", "PP-7"]  # nothing lost


def test_an_unreadable_last_updated_says_why_and_how_to_write_it():
    from rfp_retrieval.library.cells import _last_updated

    assert _last_updated("31/12/2024") == (
        None,
        [
            "unreadable-last-updated ('31/12/2024' is day/month/year, but a date with slashes "
            "is read month/day/year (US order): write it as year-month-day, e.g. 2024-12-31)"
        ],
    )
    assert _last_updated("12/31/2024") == ("2024-12-31", [])


def test_an_id_typed_with_a_space_is_kept_with_its_dash(tmp_path):
    (tmp_path / "matrix.csv").write_text(
        HEADER
        + _row("PP 701", "Travis County", "Local", "$2M", "2020 - 2022")
        + _row("PP-702", "Travis County", "Local", "$2M", "2020 - 2022")
        + _row("See notes", "Travis County", "Local", "$2M", "2020 - 2022"),
        encoding="utf-8",
    )
    load = load_library(tmp_path)
    by_id = {e.id: e for e in load.entries}
    assert sorted(by_id) == ["PP-701", "PP-702"]
    assert by_id["PP-701"].defects == ["nonstandard-id (PP 701)"]
    assert [r.reason for r in load.rejected] == [
        "PP # 'See notes' is not an entry id (expected e.g. PP-001)"
    ]
