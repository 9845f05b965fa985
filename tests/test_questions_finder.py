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
            "work-statement",  # the matrix's kind (ask_kinds.matrix_kind): post-award work
            "The Contractor shall host the system in the United States.",
        ),
        ("q-002", "3.1.2", "question", "Describe your hosting environment."),
        ("q-003", None, "requirement", "Submit a signed copy of Attachment B."),  # an enclosure
        (
            "q-004",
            "5",
            "procurement-process",  # the matrix's kind: how the buyer evaluates, no ask
            "The Government will evaluate the realism of the staffing plan.",
        ),
        # the evaluator's checklist question, about the contractor in the third person
        (
            "q-005",
            "5",
            "evaluation-criterion",
            "Does the contractor describe how they will test accessibility?",
        ),
        # "If so, ..." continues the ask it follows
        (
            "q-006",
            "5",
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


def test_each_ask_of_a_numbered_paragraph_or_list_item_is_its_own_row(tmp_path: Path):
    # a numbered paragraph of several sentences and a list item opening with a run-in title
    # are shredded sentence by sentence; a "Please consider ..." sentence stays with its question;
    # a lettered item is cited with its section's number ("2.5.2 a.")
    text = (
        "Instructions to Offerors\n\n"
        "2.5 MINIMUM QUALIFICATIONS\n\n"
        "2.5.1 Offerors are required to have existing staff in each labor category. "
        "Verification will be demonstrated by resumes. For each title, offeror must provide "
        "at least one resume of a current employee.\n\n"
        "2.5.2 FORMAT\n\n"
        "a. Page Numbering. The Offeror shall use a standard page numbering system. "
        "Consecutive numbering is preferred.\n\n"
        "b. What is the feasibility of a cloud migration? Please consider security "
        "measures in your answer.\n"
    )
    got = [(q.label, q.kind, q.text) for q in find_questions(_doc(tmp_path, text, "rfp.txt"))]
    assert got == [
        (
            "2.5.1",
            "requirement",
            "Offerors are required to have existing staff in each labor category.",
        ),
        (
            "2.5.1",
            "requirement",
            "For each title, offeror must provide at least one resume of a current employee.",
        ),
        ("2.5.2 a.", "requirement", "The Offeror shall use a standard page numbering system."),
        (
            "2.5.2 b.",
            "question",
            "What is the feasibility of a cloud migration? Please consider security "
            "measures in your answer.",
        ),
    ]


def test_a_response_table_flattened_to_text_gives_one_row_per_field(tmp_path: Path):
    # a PDF response table whose empty response cells left only the header and field lines
    text = (
        "Appendix A General Response Tables\n\n"
        "Organization Profile\n\n"
        "General Vendor Response\n"
        "Company name.\n"
        "Primary Contact.\n"
        "Current / former federal clients for which your\n"
        "company has performed a cloud migration.\n"
    )
    got = [(q.kind, q.text) for q in find_questions(_doc(tmp_path, text, "rfp.txt"))]
    assert got == [
        ("table-row", "Company name."),
        ("table-row", "Primary Contact."),
        (
            "table-row",
            "Current / former federal clients for which your company has performed a cloud "
            "migration.",
        ),
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "The Government requests the offerors propose a CLIN structure with their price.",
        "Request offerors include the payment address in their proposal.",
        "Small businesses interested in the final RFP are requested to complete Addendum J-3.",
    ],
)
def test_an_ask_written_as_a_request_is_an_ask(sentence):
    assert is_ask(sentence)


def test_present_tense_instructions_and_required_enclosures_are_asks_in_section_l(tmp_path):
    text = (
        "# Request for Proposal\n\n"
        "## 1. Background\n\n"
        "The vendor provides hosting to the agency today.\n\n"
        "## 2. Proposal Submission Instructions\n\n"
        "Offerors provide an executive summary that describes the theme of the proposal.\n\n"
        "Use of the Technical Approach Template is required.\n\n"
        "No response is required for this notice.\n"
    )
    got = [(q.kind, q.text) for q in find_questions(_doc(tmp_path, text))]
    assert got == [
        (
            "question",
            "Offerors provide an executive summary that describes the theme of the proposal.",
        ),
        ("requirement", "Use of the Technical Approach Template is required."),
    ]


def test_listed_content_in_section_l_and_a_should_include_lead_in_are_asks(tmp_path):
    text = (
        "# Request for Proposal\n\n"
        "## 1. Background\n\n"
        "- Three data centers\n\n"
        "## 2. Proposal Submission Instructions\n\n"
        "### 2.1 Minimum Pre-Qualifications:\n\n"
        "- Attachment I (signed and completed)\n\n"
        "- Documentation of five years in business\n\n"
        "### 2.2 Organizational Experience\n\n"
        "Each case study should include:\n\n"
        "a. Client name\n"
        "b. Project scope and duration\n"
    )
    got = [(q.kind, q.text, q.parts) for q in find_questions(_doc(tmp_path, text))]
    assert got == [
        ("requirement", "Attachment I (signed and completed)", []),
        ("requirement", "Documentation of five years in business", []),
        (
            "requirement",
            "Each case study should include:",
            ["Client name", "Project scope and duration"],
        ),
    ]


def test_text_run_in_after_a_numbered_title_carries_the_number(tmp_path: Path):
    """Rule (new-user finding F2): "L.6.2 Recency: performance must ..." is a numbered
    paragraph with a run-in title; its requirement is labelled L.6.2."""
    text = (
        "L.6 PAST PERFORMANCE\n\n"
        "L.6.1 The Offeror shall identify no more than three contracts.\n\n"
        "L.6.2 Recency: performance must have occurred within four (4) years of the issue\n"
        "date of this solicitation.\n\n"
        "L.6.3 Agencies\n\n"
        "Work for a state government will not be considered.\n"
    )
    got = [(q.label, q.text) for q in find_questions(_doc(tmp_path, text, "rfp.txt"))]
    assert (
        "L.6.2",
        "performance must have occurred within four (4) years of the issue date of this "
        "solicitation.",
    ) in got
    assert ("L.6.1", "The Offeror shall identify no more than three contracts.") in got


def test_rows_of_a_requirements_list_take_their_shared_id_prefix_as_label(tmp_path: Path):
    """Rule (new-user finding F2): lines opening with IDs of one prefix (R-01, R-02) are rows
    of a flattened requirements list, labelled by their ID; a lone "SF-330" is no label."""
    text = (
        "ATTACHMENT J-4: RESPONSE MATRIX\n\n"
        "R-01 The system shall let applicants submit footprints as shapefile, KML or\n"
        "GeoJSON.\n\n"
        "R-02 The system shall retain every case action with user and time.\n\n"
        "SF-330 forms shall be signed by an officer of the firm.\n"
    )
    got = [(q.label, q.kind, q.text) for q in find_questions(_doc(tmp_path, text, "rfp.txt"))]
    assert got[:2] == [
        (
            "R-01",
            "requirement",
            "The system shall let applicants submit footprints as shapefile, KML or GeoJSON.",
        ),
        # the matrix's kind (ask_kinds.matrix_kind): a requirement on the system that names
        # no part of the proposal is the awarded work's
        ("R-02", "work-statement", "The system shall retain every case action with user and time."),
    ]
    assert [label for label, _, _ in got[2:]] == [None]
