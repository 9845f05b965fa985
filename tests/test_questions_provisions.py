"""What is and is not an ask: FAR instructions provisions (52.212-1, 52.215-1) are Section L
text (their "must" sentences are offeror instructions) while other clauses (52.212-4) stay
clause text; a reminder to follow the document's instructions names no content (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.documents.ask_patterns import is_general_compliance
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import GENERAL_COMPLIANCE, matrix_rows
from rfp_retrieval.documents.section_kinds import SectionKinds

RFQ = """# Request for Quotation

## Section L. Instructions

### 52.212-1 Instructions to Offerors -- Commercial Products and Commercial Services (NOV 2021)

(b) Submission of offers. As a minimum, offers must show the solicitation number and the name,
address, and telephone number of the offeror.

### 52.212-4 Contract Terms and Conditions -- Commercial Products (DEC 2022)

(a) Inspection/Acceptance. The Contractor shall only tender for acceptance those items that
conform to the requirements of this contract.
"""


def test_instructions_provision_is_read_for_asks_and_other_clauses_are_not(tmp_path: Path):
    path = tmp_path / "rfq.md"
    path.write_text(RFQ, encoding="utf-8")
    doc = load_document(path)
    kinds = SectionKinds(doc)
    assert [(s.heading[:8], kinds.is_clauses(s)) for s in doc.sections[2:]] == [
        ("52.212-1", False),
        ("52.212-4", True),
    ]
    rows = [(r.label, r.kind, r.text) for r in matrix_rows(doc)]
    assert rows == [
        (
            "(b)",
            "requirement",
            "As a minimum, offers must show the solicitation number and the name, address, "
            "and telephone number of the offeror.",
        )
    ]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "Please submit your quotation in accordance with the instructions specified in this "
            "RFQ letter.",
            True,
        ),
        ("The Contractor shall furnish the information required by this solicitation.", True),
        ("Submit your proposal in accordance with the instructions in this RFP.", True),
        ("Submit a staffing plan in accordance with the instructions in Section L.", False),
        ("Provide pricing in accordance with the instructions in Attachment B.", False),
        ("Offerors shall submit three references as required by the RFP.", False),
    ],
)
def test_a_reminder_to_follow_the_document_names_no_content(sentence, expected):
    assert is_general_compliance(sentence) is expected


def test_a_reminder_to_follow_the_document_is_no_ask_in_the_matrix(tmp_path: Path):
    path = tmp_path / "rfq.md"
    path.write_text(
        "# RFQ\n\n## 1. General\n\nPlease submit your quotation in accordance with the "
        "instructions specified in this RFQ.\n\n## 2. Instructions\n\n"
        "The quotation must not exceed five pages.\n",
        encoding="utf-8",
    )
    rows = [(r.kind, r.text[:26]) for r in matrix_rows(load_document(path))]
    assert rows == [
        (GENERAL_COMPLIANCE, "Please submit your quotati"),
        ("requirement", "The quotation must not exc"),
    ]
