"""Defects of the ask wording and the outline found on real solicitations (issue 13, session
11): the contractor named as the bidder, substitutions "during the solicitation", agencies by
their acronym, stage names listed under the instructions and ``SECTION A Contract Form``."""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.ask_patterns import (
    is_administration_requirement,
    is_ask,
    is_requirement,
)
from rfp_retrieval.documents.matrix import WORK_STATEMENT, matrix_rows
from rfp_retrieval.documents.outline import parse_outline
from rfp_retrieval.documents.plain_headings import caps_runin
from rfp_retrieval.documents.records import RfpDocument


def _doc(text: str) -> RfpDocument:
    return RfpDocument(
        "t.md", "markdown", "", text, parse_outline(text.splitlines(), "markdown"), ""
    )


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("The Contractor shall describe its approach to the transition.", True),
        ("Contractor(s) must provide a staffing plan for each task order.", True),
        ("Contractors will submit the attached price spreadsheet in Excel.", True),
        # one contractor that "will" do something describes the awarded work
        ("The Contractor will provide monthly status reports.", False),
    ],
)
def test_the_contractor_as_the_bidder_asks(sentence, expected):
    assert is_ask(sentence) is expected


def test_a_substitution_during_the_solicitation_is_contract_administration():
    sentence = (
        "If a proposed key person becomes unavailable during the solicitation and evaluation "
        "process, the Contractor shall notify the Contracting Officer and provide a substitute."
    )
    assert is_administration_requirement(sentence)
    assert not is_administration_requirement("The proposal shall describe the invoicing process.")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("TTS shall provide for review at a level above the contracting officer.", False),
        ("The VA shall notify each offeror of the outcome in writing.", False),
        ("The FIRM shall list three references for similar work.", True),
        ("The offeror shall list three references for similar work.", True),
    ],
)
def test_an_agency_named_by_its_acronym_is_the_buyer(sentence, expected):
    assert is_requirement(sentence) is expected


def test_a_contractor_work_statement_in_the_sow_stays_work_but_section_l_asks():
    doc = _doc(
        "# C. Statement of Work\n\n"
        "The Contractor shall provide a help desk staffed from 8 a.m. to 6 p.m.\n\n"
        "# L. Instructions to Offerors\n\n"
        "The Contractor shall describe its approach to staffing the help desk.\n"
    )
    assert [(r.kind, r.text) for r in matrix_rows(doc)] == [
        (WORK_STATEMENT, "The Contractor shall provide a help desk staffed from 8 a.m. to 6 p.m."),
        ("question", "The Contractor shall describe its approach to staffing the help desk."),
    ]


def test_stage_names_listed_in_the_instructions_are_no_asks():
    doc = _doc(
        "# 4. Instructions to Offerors\n\n"
        "Quotations will be evaluated in three phases:\n\n"
        "- Phase 1 – Technical Submission\n"
        "- Phase 2 – Oral Presentation\n"
        "- Phase 3 - Price Submission\n\n"
        "The technical submission shall not exceed five pages.\n"
    )
    texts = [r.text for r in matrix_rows(doc) if r.kind in ("question", "requirement")]
    assert texts == ["The technical submission shall not exceed five pages."]


def test_a_ucf_part_and_its_title_is_no_caps_run_in():
    assert caps_runin("SECTION A Contract Form") is None
    assert caps_runin("PART IV Representations and Instructions") is None
    assert caps_runin("AUDIT OF RECORDS The parties agree to keep records.") == (
        "AUDIT OF RECORDS",
        "The parties agree to keep records.",
    )


def test_each_list_item_has_its_own_kind_not_its_lead_ins():
    doc = _doc(
        "# 5. Transition\n\n"
        "The offeror shall address the following:\n\n"
        "- Describe the transition schedule and its milestones.\n"
        "- Submit the resumes of the transition manager and the deputy.\n"
        "- The Contractor shall complete the transition within 30 days of award.\n"
        "- The staffing plan for the first ninety days\n"
    )
    assert [(r.label, r.kind) for r in matrix_rows(doc)] == [
        ("5", "lead-in"),
        ("5(a)", "question"),
        ("5(b)", "requirement"),
        ("5(c)", WORK_STATEMENT),
        ("5(d)", "question"),  # no wording of its own: the prompt's kind ("address")
    ]


TABBED_RFQ = (
    "# Request for Quotations: Records Digitization Services\n\n"
    "## 4. Quotation Instructions\n\n"
    "**Tab B – Technical Approach (limit: 5 pages)**\n\n"
    "a. Describe your approach to scanning and indexing the records.\n\n"
    "b. Explain how you will assure the quality of the images.\n\n"
    "**Tab C – Past Performance (limit: 3 pages)**\n\n"
    "a. Provide three references for similar work performed in the last five years.\n\n"
    "References from private companies are not acceptable.\n"
)


def test_response_tabs_keep_their_letter_in_the_labels_and_their_page_limits_are_asks():
    from rfp_retrieval.documents.questions import find_questions

    doc = _doc(TABBED_RFQ)
    assert [(s.number, s.heading) for s in doc.sections if s.level > 1] == [
        ("Tab B", "Technical Approach (limit: 5 pages)"),
        ("Tab C", "Past Performance (limit: 3 pages)"),
    ]
    assert [(q.label, q.kind, q.text) for q in find_questions(doc)] == [
        ("Tab B", "requirement", "Tab B – Technical Approach (limit: 5 pages)"),
        ("Tab B a.", "question", "Describe your approach to scanning and indexing the records."),
        ("Tab B b.", "question", "Explain how you will assure the quality of the images."),
        ("Tab C", "requirement", "Tab C – Past Performance (limit: 3 pages)"),
        (
            "Tab C a.",
            "question",
            "Provide three references for similar work performed in the last five years.",
        ),
        (None, "requirement", "References from private companies are not acceptable."),
    ]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("References from private companies are not acceptable.", True),
        ("Resumes of subcontractor staff will not be accepted.", True),
        ("Experience as a subcontractor is acceptable.", False),
        ("Videotapes will not be accepted in lieu of an on-site presentation.", False),
    ],
)
def test_references_or_resumes_the_buyer_will_not_accept_are_a_requirement(sentence, expected):
    assert is_requirement(sentence) is expected


SF1449_THEN_UCF = [
    "SOLICITATION/CONTRACT/ORDER FOR COMMERCIAL ITEMS",
    "1. REQUISITION NUMBER 2. CONTRACT NO. 3. AWARD/EFFECTIVE DATE 4. ORDER NUMBER",
    "5. SOLICITATION NUMBER 6. SOLICITATION ISSUE DATE",
    "",
    "SECTION C - DESCRIPTION/SPECS/WORK STATEMENT",
    "",
    "C.1 SCOPE OF WORK",
    "The contractor shall maintain the grounds.",
    "",
    "C.3 TASKS",
    "",
    "C.3.1 Mowing and Trimming",
    "The contractor shall mow all turf areas every week.",
    "",
    "SECTION L - INSTRUCTIONS, CONDITIONS, AND NOTICES TO OFFERORS",
    "",
    "L.4.2.1 Technical Capability",
    "The offeror shall describe its equipment.",
]


def test_a_standard_forms_title_is_no_section_and_the_ucf_parts_nest():
    outline = [(s.number, s.heading, s.level) for s in parse_outline(SF1449_THEN_UCF, "plain")]
    assert outline == [
        ("SECTION C", "DESCRIPTION/SPECS/WORK STATEMENT", 1),
        ("C.1", "SCOPE OF WORK", 2),
        ("C.3", "TASKS", 2),
        ("C.3.1", "Mowing and Trimming", 3),
        ("SECTION L", "INSTRUCTIONS, CONDITIONS, AND NOTICES TO OFFERORS", 1),
        ("L.4.2.1", "Technical Capability", 4),
    ]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "Refusal to provide the requested information by an offeror shall disqualify the "
            "offeror from further consideration for award.",
            True,
        ),
        ("Failure to include the signed form may result in rejection of the proposal.", True),
        ("Offerors must register in the portal in order to download the RFP documents.", True),
        ("Vendors must register a minimum of one week prior to uploading a proposal.", True),
        # the asks and qualifications themselves stay
        ("The offeror shall describe how it will eliminate the backlog.", False),
        ("Offerors must be registered in SAM at the time of submission.", False),
    ],
)
def test_consequences_and_portal_registration_are_procurement_process(sentence, expected):
    from rfp_retrieval.documents.ask_patterns import is_procurement_process

    assert is_procurement_process(sentence) is expected


def test_a_legal_effect_binds_no_one():
    assert not is_requirement(
        "Proprietary information submitted by an offeror shall not be subject to public "
        "disclosure under the state's public records act."
    )
