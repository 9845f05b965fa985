"""Question-finder rules on small hand-written RFP texts and on named real passages."""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import CONTEXT_WORDS, find_questions, is_ask
from rfp_retrieval.documents.records import Question, RfpDocument

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"


def _doc(tmp_path: Path, text: str, name: str = "rfp.md") -> RfpDocument:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_document(path)


def _rows(questions: list[Question]) -> list[tuple]:
    return [(q.id, q.label, q.kind, q.text) for q in questions]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Describe your approach.", True),
        ("Please provide your most recent SOC 2 report.", True),
        ("For each reference, describe the relevance of the work to this requirement.", True),
        ("The Offeror shall describe its staffing plan.", True),
        ("How will the Department participate?", True),
        ("Breakdown of Labor Categories- Please provide a description of the team.", True),
        ("The Contractor shall host the IECMS in a government community cloud.", False),
        ("LIST OF ATTACHMENTS", False),
        ("List of Deliverables", False),
        ("describe the approach for the development of proposed data.", False),  # a fragment
        ("Background", False),
    ],
)
def test_is_ask_reads_imperatives_and_questions_not_requirements_or_titles(sentence, expected):
    assert is_ask(sentence) is expected


def test_kinds_numbered_paragraphs_sentences_and_evaluator_questions(tmp_path: Path):
    doc = _doc(
        tmp_path,
        """# RFP

## 3 Requirements

3.1.1 The Contractor shall host the system in the United States.

3.1.2 Describe your hosting environment.

Submit a signed copy of Attachment B.

## 5 Evaluation

The Government will evaluate the realism of the staffing plan.

Does the contractor describe how they will test accessibility?

Describe the risks you see. If so, explain how you would reduce them.
""",
    )
    assert _rows(find_questions(doc)) == [
        (
            "q-001",
            "3.1.1",
            "requirement",
            "The Contractor shall host the system in the United States.",
        ),
        ("q-002", "3.1.2", "question", "Describe your hosting environment."),
        ("q-003", None, "requirement", "Submit a signed copy of Attachment B."),  # an enclosure
        (
            "q-004",
            None,
            "evaluation-criterion",
            "The Government will evaluate the realism of the staffing plan.",
        ),
        # the evaluator's checklist question, about the contractor in the third person
        (
            "q-005",
            None,
            "evaluation-criterion",
            "Does the contractor describe how they will test accessibility?",
        ),
        # "If so, ..." continues the ask it follows
        (
            "q-006",
            None,
            "question",
            "Describe the risks you see. If so, explain how you would reduce them.",
        ),
    ]


def test_lettered_items_after_a_colon_are_the_parts_of_one_compound_prompt(tmp_path: Path):
    doc = _doc(
        tmp_path,
        """# RFP

## 4 Management Approach

Describe your transition plan, including:

a. the knowledge transfer sessions;
b. the staffing ramp-up; and
c. the risks to continuity.

Provide your organization chart.
""",
    )
    found = find_questions(doc)
    assert [(q.text, q.parts) for q in found] == [
        (
            "Describe your transition plan, including:",
            [
                "the knowledge transfer sessions;",
                "the staffing ramp-up; and",
                "the risks to continuity.",
            ],
        ),
        ("Provide your organization chart.", []),
    ]
    assert found[0].section_path == ["RFP", "4 Management Approach"]


def test_context_is_the_section_text_before_the_ask_without_earlier_asks():
    path = DATA / "rfps_synthetic" / "franklin-dhhs-iecms-modernization-rfp.md"
    if not path.is_file():
        pytest.skip(f"{path} is missing: read in place from ../shared/data")
    found = {q.label: q for q in find_questions(load_document(path))}
    # "3.5.4 How will the Department participate?" needs 3.5.2 to make sense
    assert found["3.5.4"].context == (
        "3.5.1 The Contractor shall perform unit, integration, system, regression, "
        "performance, security, and accessibility testing for each release. 3.5.2 The "
        "Department will conduct user acceptance testing with support from the Contractor."
    )
    # the earlier asks 3.5.3 and 3.5.4 are siblings, not context
    assert "3.5.3" not in found["3.5.5"].context
    # a long section keeps its first paragraph and the nearest ones, within the word budget
    context = found["3.4.7"].context
    assert context.startswith("3.4.1 The Contractor shall migrate all active")
    assert context.endswith("beginning no earlier than 6:00 p.m. on a Friday.")
    assert len(context.split()) <= CONTEXT_WORDS
    assert (found["3.4.7"].section_key, found["3.4.7"].line, found["3.4.7"].page) == (
        "3.4",
        132,
        None,
    )


def test_cross_references_only_link_sections_that_exist(tmp_path: Path):
    doc = _doc(
        tmp_path,
        """# RFP

## 2 Background

### 2.1 Users

About 4,000 users.

## 3 Questions

3.1 Describe how you will support the users described in Section 2.1 and meet Section 508 of
the Rehabilitation Act and the terms of Appendix C.
""",
    )
    (q,) = find_questions(doc)
    assert q.references == ["2.1"]  # there is no Section 508 and no Appendix C in this RFP


def test_answered_questions_of_an_amendment_are_not_asks_but_amended_requirements_are(
    tmp_path: Path,
):
    doc = _doc(
        tmp_path,
        """Amendment 1

Q1: What page limits apply to the design artifacts?
A1: Design artifacts may be no more than 30 pages. The technical volume must stay within
four pages.

Q2: Will the Court supply laptops?
A2: No.
""",
        name="amendment.txt",
    )
    assert _rows(find_questions(doc)) == [
        ("q-001", None, "requirement", "The technical volume must stay within four pages."),
    ]


def test_response_tables_give_table_rows_with_label_and_topic(tmp_path: Path):
    doc = _doc(
        tmp_path,
        """# Questionnaire

## Security

| ID | Area | Requirement | Vendor Response |
|---|---|---|---|
| S-1 | Encryption | The solution encrypts data at rest with AES-256. | |
| S-2 | Encryption | Keys are rotated at least yearly. | |

| # | Question | Answer |
|---|---|---|
| 1 | Is the audit scope fixed? | Yes, it is fixed. |
| 2 | Are dependencies in scope? | Only as allowed targets. |
""",
    )
    found = find_questions(doc)
    assert [(q.label, q.kind, q.topic, q.text) for q in found] == [
        ("S-1", "table-row", "Encryption", "The solution encrypts data at rest with AES-256."),
        ("S-2", "table-row", "Encryption", "Keys are rotated at least yearly."),
    ]  # the second table is a Q&A the issuer already answered
    assert found[0].section_path == ["Questionnaire", "Security"]


def test_pdf_questions_carry_their_page():
    path = DATA / "rfps" / "doc-rfi-cybersecurity-operations-cloud-migration.pdf"
    if not path.is_file():
        pytest.skip(f"{path} is missing: read in place from ../shared/data")
    found = find_questions(load_document(path))
    feasibility = next(q for q in found if q.text.startswith("What is the feasibility of the"))
    assert (feasibility.label, feasibility.page, feasibility.section_path) == (
        "2.",
        5,
        ["Information Requested"],
    )
    # "a." and "i." items under a numbered question keep their own letters as labels
    assert [q.label for q in found if q.section_path == ["Information Requested"]][:8] == [
        "1.",
        "2.",
        "a.",
        "i.",
        "3.",
        "a.",
        "i.",
        "4.",
    ]


def test_q_numbered_prompts_are_labelled_as_written(tmp_path: Path):
    doc = _doc(
        tmp_path,
        """# RFI

## 2 Questions for Industry

Q1. What is the feasibility of a single-vendor solution?

Q2: Describe the risks of the migration.
""",
    )
    assert [(q.label, q.text, q.section_path) for q in find_questions(doc)] == [
        (
            "Q1.",
            "What is the feasibility of a single-vendor solution?",
            ["RFI", "2 Questions for Industry"],
        ),
        ("Q2", "Describe the risks of the migration.", ["RFI", "2 Questions for Industry"]),
    ]
