"""FAR instructions provisions (52.212-1, 52.215-1) are Section L text: their "must" sentences
are offeror instructions, while other clauses (52.212-4) stay clause text (issue 13)."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import matrix_rows
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
