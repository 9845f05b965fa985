"""``rfp-retrieval parse`` (text) names the issuer and the as-of date the recency window counts
from, with its source (new-user trial: neither was printed, so a missed issue date went
unnoticed until the brief)."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli import app
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.front_matter import find_issue_date, find_unread_issue_date
from rfp_retrieval.documents.tables import document_frame, document_from_frames, outline_frame
from rfp_retrieval.scope import as_of_for


def _parse(path):
    result = CliRunner().invoke(app, ["parse", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_parse_prints_issuer_and_stated_issue_date(tmp_path):
    rfp = tmp_path / "rfp.md"
    rfp.write_text(
        "# Request for Proposals: Claims Modernization\n\n"
        "Issuing Agency: State of Alderwood, Department of Workforce Services\n\n"
        "Date of issuance: October 19, 2026\n\n"
        "## 1. Past Performance\n\n"
        "Offerors shall describe three contracts performed within the past five (5) years.\n"
    )
    lines = _parse(rfp)
    assert "  as-of date: 2026-10-19 (issue date stated in the RFP)" in lines
    issuer = [line for line in lines if line.startswith("  issuer: ")]
    assert issuer == ["  issuer: State of Alderwood, Department of Workforce Services (state)"]


def test_parse_says_when_the_as_of_date_is_the_file_date(tmp_path):
    rfp = tmp_path / "rfi.md"
    rfp.write_text("# Request for Information\n\nDescribe your cloud hosting approach.\n")
    os.utime(rfp, (1767225600, 1767225600))  # 2026-01-01 00:00 UTC
    lines = _parse(rfp)
    as_of = [line for line in lines if line.startswith("  as-of date: ")]
    assert len(as_of) == 1 and as_of[0].endswith("(file date (the RFP states no issue date))")
    assert as_of[0][len("  as-of date: ") :].startswith(("2025-12-31", "2026-01-01"))
    assert "  issuer: not stated (customer type unknown)" in lines


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("30/11/2026", None),  # day first: numeric dates are month first (US)
        ("31.12.2025", None),  # dots
        ("November 31, 2026", None),  # no such day
        ("03/04/2026", dt.date(2026, 3, 4)),  # the stated US rule: March 4
    ],
)
def test_an_unreadable_issue_date_is_named_not_called_absent(tmp_path, written, read):
    rfp = tmp_path / "rfp.md"
    rfp.write_text(
        f"# Request for Proposal\n\nIssue Date: {written}\n\n## 1. Scope\n\n"
        "The offeror shall provide three references.\n"
    )
    os.utime(rfp, (1767225600, 1767225600))  # 2026-01-01 00:00 UTC
    doc = load_document(rfp)
    assert doc.issue_date == read
    # the scope_query asset reads the document back from its stored table
    doc = document_from_frames(document_frame("p", doc), outline_frame("p", doc))
    as_of = as_of_for(doc)
    if read is None:
        assert doc.issue_date_unread == written
        assert as_of.date == dt.date.fromtimestamp(1767225600)
        assert as_of.source == (
            f"the RFP's issue date '{written}' could not be read (day/month order unclear or "
            "impossible date); recency counted from the file date"
        )
    else:
        assert doc.issue_date_unread is None
        assert as_of == (read, "issue date stated in the RFP")


@pytest.mark.parametrize("written", ["30/11/2026", "November 31, 2026"])
def test_an_unreadable_date_on_the_line_after_a_bare_label_is_named(written):
    lines = ["# Request for Proposal", "", "**Issue Date:**", f"**{written}**", "", "## 1. Scope"]
    assert find_issue_date(lines) is None
    assert find_unread_issue_date(lines) == written
    assert find_unread_issue_date(["Issue Date:", "See the schedule below"]) is None
