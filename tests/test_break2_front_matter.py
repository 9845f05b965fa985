"""Break-it round 2: odd issue-date wording on RFP cover pages (documents/front_matter.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from rfp_retrieval.documents.front_matter import find_due_date, find_issue_date


@pytest.mark.parametrize(
    "other_event",
    [
        "Answers to questions will be released: February 1, 2025",
        "Award notice to be posted: June 1, 2025",
        "Amendment 1 Issued: February 9, 2025",
    ],
)
def test_another_event_released_or_issued_is_not_the_issue_date(other_event):
    lines = ["# Request for Proposals", other_event, "", "Issue Date: January 5, 2025"]
    assert find_issue_date(lines) == dt.date(2025, 1, 5)


@pytest.mark.parametrize(
    "line",
    [
        "This RFP was issued on January 5, 2025.",
        "**Issued:** January 5, 2025",
        "| Released | 1/5/2025 |",
    ],
)
def test_the_solicitation_itself_issued_or_released_still_gives_its_date(line):
    assert find_issue_date(["# Request for Proposals", line]) == dt.date(2025, 1, 5)


@pytest.mark.parametrize(
    "lines",
    [
        ["Issue Date: Monday, January 5, 2026"],
        ["Release Date:", "**Mon., Jan. 5, 2026**"],
        ["# RFP 26-01", "Thursday, 01/05/2026"],
    ],
)
def test_a_weekday_before_the_issue_date_is_skipped(lines):
    assert find_issue_date(lines) == dt.date(2026, 1, 5)


def test_a_weekday_before_the_due_date_is_skipped():
    lines = ["Issue Date: June 1, 2026", "Proposals Due: Friday, June 26, 2026, 2:00 PM ET"]
    assert find_due_date(lines) == dt.date(2026, 6, 26)


def test_issued_tbd_is_passed_over_for_the_stated_date():
    lines = ["# RFP", "Issued: TBD", "Questions due: March 3, 2025", "Date: January 5, 2025"]
    assert find_issue_date(lines) == dt.date(2025, 1, 5)
    assert find_issue_date(["# RFP", "Issued: TBD", "Proposals Due: March 3, 2025"]) is None


def test_two_issue_dates_give_the_first_and_a_future_date_is_kept_as_written():
    lines = ["Issue Date: January 5, 2025", "Issue Date: February 9, 2025"]
    assert find_issue_date(lines) == dt.date(2025, 1, 5)
    assert find_issue_date(["Issue Date: January 5, 2099"]) == dt.date(2099, 1, 5)
