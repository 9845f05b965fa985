"""``rfp-retrieval parse`` (text) names the issuer and the as-of date the recency window counts
from, with its source (new-user trial: neither was printed, so a missed issue date went
unnoticed until the brief)."""

from __future__ import annotations

import os

from typer.testing import CliRunner

from rfp_retrieval.cli import app


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
