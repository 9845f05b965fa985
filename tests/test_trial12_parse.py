"""Issue 13, what a new user's documents showed (session 12 trial): each rule on fresh text."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import matrix_rows
from rfp_retrieval.documents.records import RfpDocument

RFP = """# Request for Proposals: Fleet Telematics

## Section 5. Proposal Instructions

### 5.1 Format

a. Proposals shall be submitted as one PDF file.

b. Text shall be 11-point Arial. Tables may use 8 point.

### 5.2 Technical Volume (limit: 25 pages)

a. Approach. Describe how vehicles are onboarded.

b. References. The Offeror shall provide two references of similar size. For each reference
provide the customer name, the contract value and a contact with phone number.

### 5.3 Management Volume (limit: 12 pages, excluding resumes)

a. Staffing. Describe the staffing plan by phase.

### 5.4 Price Volume (no page limit)

a. Complete the price sheet for each year.
"""


def _doc(tmp_path: Path, text: str, name: str = "rfp.md") -> RfpDocument:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_document(path)


def test_every_sentence_and_limit_is_a_row_labelled_with_its_section(tmp_path: Path):
    rows = [(r.label, r.kind, r.text) for r in matrix_rows(_doc(tmp_path, RFP))]
    assert rows == [
        ("5.1 a.", "requirement", "Proposals shall be submitted as one PDF file."),
        ("5.1 b.", "requirement", "Text shall be 11-point Arial."),
        ("5.1 b.", "requirement", "Tables may use 8 point."),
        ("5.2", "requirement", "5.2 Technical Volume (limit: 25 pages)"),
        ("5.2 a.", "question", "Describe how vehicles are onboarded."),
        (
            "5.2 b.",
            "question",
            "The Offeror shall provide two references of similar size.",
        ),
        (
            "5.2 b.",
            "question",
            "For each reference provide the customer name, the contract value and a contact "
            "with phone number.",
        ),
        ("5.3", "requirement", "5.3 Management Volume (limit: 12 pages, excluding resumes)"),
        ("5.3 a.", "question", "Describe the staffing plan by phase."),
        ("5.4 a.", "requirement", "Complete the price sheet for each year."),
    ]
