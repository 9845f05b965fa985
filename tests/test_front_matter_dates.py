"""Issue dates on covers and schedules (new-user trial: a DOCX cover said "Date of issuance" and
the recency window fell back to the file date; a schedule row "2018/10/29: RFP Open")."""

import datetime as dt

import pytest

from rfp_retrieval.documents.front_matter import find_issue_date
from rfp_retrieval.quantities.dates import find_dates


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (["Date of issuance: October 19, 2026"], dt.date(2026, 10, 19)),
        (["Issuance: March 3, 2025"], dt.date(2025, 3, 3)),
        (["Date of Release", "**June 2, 2026**"], dt.date(2026, 6, 2)),
        (["- 2018/10/29: RFP Open, Question period open"], dt.date(2018, 10, 29)),
        (["| March 3, 2025 | RFP released |"], dt.date(2025, 3, 3)),
        # a schedule row for another event is not the issue date
        (["- 2019/01/05: Proposals due"], None),
    ],
)
def test_issue_date_wordings(lines, expected):
    assert find_issue_date(lines) == expected


def test_year_first_dates_need_one_separator():
    assert [d for _, _, d in find_dates("open 2018/10/29 to 2019.11.30")] == [
        dt.date(2018, 10, 29),
        dt.date(2019, 11, 30),
    ]
    assert find_dates("ref 2018/10-29") == []


def test_kubernetes_audit_rfp_issue_date_from_its_schedule(shared_data):
    path = shared_data / "rfps" / "kubernetes-third-party-security-audit-rfp-2018.md"
    assert find_issue_date(path.read_text().splitlines()) == dt.date(2018, 10, 29)
