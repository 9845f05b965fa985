"""Issue 13, what a new user's documents showed (session 12 trial): each rule on fresh text."""

from __future__ import annotations

import csv
from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import matrix_rows, write_matrix
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.documents.records import RfpDocument
from rfp_retrieval.documents.tables import questions_frame, questions_from_frame

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


def test_a_markdown_rfp_that_is_only_a_requirements_table_gives_one_row_per_requirement(
    tmp_path: Path,
):
    rows = "\n".join(
        f"| {i} | Requirement {i}: The contractor shall provide {service} | C.{i} |"
        for i, service in enumerate(["help desk support", "nightly backups", "patching"], 1)
    )
    doc = _doc(tmp_path, f"| # | Requirement | Ref |\n|---|---|---|\n{rows}\n")
    assert doc.title == ""  # the header row is no title
    got = [(r.label, r.text) for r in matrix_rows(doc)]
    assert got == [
        ("1", "Requirement 1: The contractor shall provide help desk support"),
        ("2", "Requirement 2: The contractor shall provide nightly backups"),
        ("3", "Requirement 3: The contractor shall provide patching"),
    ]


def test_a_title_is_one_line_of_sensible_length(tmp_path: Path):
    words = " ".join(f"word{i}" for i in range(5000))  # one paragraph, no heading
    title = _doc(tmp_path, words + "\n").title
    assert title == " ".join(f"word{i}" for i in range(44)) + "…"  # 297 of 300 characters
    assert _doc(tmp_path, "- item\n  - item\n").title == "item"  # no list marker


def test_each_evaluation_paragraph_of_section_m_is_a_row(tmp_path: Path):
    text = (
        "# RFQ: Records Digitization\n\n"
        "## SECTION M - EVALUATION FACTORS FOR AWARD\n\n"
        "M.1 Award will be made on a lowest price technically acceptable basis. Factor 1 "
        "Staffing is more important than Factor 2 Experience.\n\n"
        "M.2 Each reference will be assigned one of the following quality ratings: High, "
        "Medium or Low.\n\n"
        "M.3 Price will be evaluated for reasonableness.\n"
    )
    got = [(r.label, r.text[:40]) for r in matrix_rows(_doc(tmp_path, text))]
    assert got == [
        ("M.1", "Award will be made on a lowest price tec"),
        ("M.1", "Factor 1 Staffing is more important than"),
        ("M.2", "Each reference will be assigned one of t"),
        ("M.3", "Price will be evaluated for reasonablene"),
    ]


def test_a_response_tables_limit_column_belongs_to_each_row(tmp_path: Path):
    text = (
        "# RFP: Parking Permits\n\n## 4. Questions\n\n"
        "| No. | Question | Page limit |\n|---|---|---|\n"
        "| Q1 | Describe your permit workflow. | 3 |\n"
        "| Q2 | Describe your enforcement app. | |\n"
        "| Q3 | How will you migrate permits? | 1 |\n"
    )
    doc = _doc(tmp_path, text)
    got = [(r.label, r.limit) for r in matrix_rows(doc)]
    assert got == [("Q1", "3 pages"), ("Q2", None), ("Q3", "1 page")]
    path = write_matrix(matrix_rows(doc), tmp_path / "m.csv")
    with path.open(encoding="utf-8-sig") as fh:
        table = list(csv.DictReader(fh))
    assert [row["limit"] for row in table] == ["3 pages", "", "1 page"]
    frame = questions_frame("p", find_questions(doc))  # stored and read back with the row
    assert [q.limit for q in questions_from_frame(frame)] == ["3 pages", None, "1 page"]
