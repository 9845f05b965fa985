"""The issuer named only in the opening paragraph under the title is read (not "not stated")."""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.scope import read_scope

_BODY = "\n\n## Scope of Work\n\nThe contractor shall configure a case management platform.\n"


@pytest.mark.parametrize(
    ("opening", "issuer", "issuer_type"),
    [
        (
            "The City of Riverton Department of Public Works (the City) invites proposals from "
            "qualified firms to replace its permit tracking system.",
            "City of Riverton Department of Public Works",
            "local",
        ),
        (
            'The Lakeshore Regional Transit Authority ("the Authority") is soliciting proposals '
            "for a fare data platform.",
            "Lakeshore Regional Transit Authority",
            "local",
        ),
        (
            "Marion County Department of Human Services (“the County”) hereby invites sealed "
            "proposals for an eligibility portal.",
            "Marion County Department of Human Services",
            "local",
        ),
    ],
)
def test_issuer_from_opening_paragraph(
    tmp_path: Path, opening: str, issuer: str, issuer_type: str
) -> None:
    path = tmp_path / "rfp.md"
    path.write_text(f"# Request for Proposals: Case Management System\n\n{opening}{_BODY}")
    reading = read_scope(load_document(path))
    assert (reading.issuer, reading.issuer_type) == (issuer, issuer_type)
    trace = [t for t in reading.trace if t["filter"] == "issuer"]
    assert trace == [
        {
            "filter": "issuer",
            "section": "opening paragraph",
            "sentence": issuer,
            "reading": issuer_type,
        }
    ]


def test_generic_solicitor_is_not_an_issuer(tmp_path: Path) -> None:
    path = tmp_path / "rfp.md"
    path.write_text(
        "# Request for Proposals: Case Management System\n\n"
        f"The Government invites proposals for a case management platform.{_BODY}"
    )
    reading = read_scope(load_document(path))
    assert reading.issuer is None
    assert [t["reading"] for t in reading.trace if t["filter"] == "issuer"] == ["not stated"]


def test_a_company_named_on_the_cover_line_is_a_commercial_issuer(tmp_path: Path) -> None:
    """New-user trial: a utility cooperative's RFP (its name alone on the first line) read no
    issuer, so no sector bump; a title ending in a company word is still no issuer."""
    path = tmp_path / "rfp.md"
    path.write_text(
        "# Prairie Lakes Electric Cooperative\n\n## Request for Proposal: Outage Texting\n\n"
        f"Issued: November 20, 2026{_BODY}"
    )
    reading = read_scope(load_document(path))
    assert (reading.issuer, reading.issuer_type) == (
        "Prairie Lakes Electric Cooperative",
        "commercial",
    )
    title_only = tmp_path / "title.md"
    title_only.write_text(f"# Health Plan Modernization\n{_BODY}")
    assert read_scope(load_document(title_only)).issuer is None
