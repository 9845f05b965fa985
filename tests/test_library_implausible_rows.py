"""Library rows no library can be right about are kept and flagged with the reason (issue 18
break-it): a start or update date after the run's date, a $0 value, a value of 5e15 dollars."""

from __future__ import annotations

import datetime as dt

from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.library.quality import validate_entries

HEADER = (
    "PP #,Contract Name,Customer,Customer Type,Role,Contract Type,Contract Value,"
    "Period of Performance,Technologies,Domains,Description,Results / Outcomes,Last Updated\n"
)


def _row(entry_id: str, value: str, period: str, updated: str = "2026-05-01") -> str:
    return (
        f"{entry_id},Portal,City Agency,Federal - Civilian,Prime,Stand-alone Contract,{value},"
        f"{period},Java,Grants,Built the portal.,Cut processing time 30%,{updated}\n"
    )


def test_future_dates_zero_and_huge_values_are_flagged_with_their_reason(tmp_path):
    (tmp_path / "matrix.csv").write_text(
        HEADER
        + _row("PP-1", "$2.5M", "2020-02-01 - 2022-12-31")
        + _row("PP-2", "$1.2M", "2031-01-01 - 2033-12-31", updated="2035-03-01")
        + _row("PP-3", "$0", "2019-01-01 - 2021-06-30")
        + _row("PP-4", "5000000000000000", "2019-01-01 - 2021-06-30"),
        encoding="utf-8",
    )
    load = load_library(tmp_path)
    # every row is kept: the writer fixes the library, nothing is lost
    assert sorted(e.id for e in load.entries) == ["PP-1", "PP-2", "PP-3", "PP-4"]
    outcomes = {
        o.expectation: o
        for o in validate_entries(entries_frame(load.entries), today=dt.date(2026, 12, 3))
    }
    future = outcomes["dates not in the future"]
    assert (future.success, future.failing_ids) == (False, ["PP-2"])
    assert future.summary == (
        "PP-2 (start date 2031-01-01 is after 2026-12-03; last updated 2035-03-01 is after "
        "2026-12-03)"
    )
    zero = outcomes["value positive"]
    assert zero.failing_ids == ["PP-3"]
    assert zero.reasons["PP-3"] == "value min $0, value max $0"
    huge = outcomes["value plausible"]
    assert huge.failing_ids == ["PP-4"]
    assert huge.reasons["PP-4"] == (
        "value 5000000000000000 is above $100,000,000,000 (read as unknown)"
    )
    pp4 = next(e for e in load.entries if e.id == "PP-4")
    assert (pp4.contract.value.min, pp4.contract.value.max) == (None, None)
    # the plain row fails none of them
    assert all("PP-1" not in o.failing_ids for o in outcomes.values())
