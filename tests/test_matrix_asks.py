"""What the compliance matrix counts as an ask, and what it keeps as context (issue 13).

The proposal answers the asks; the buyer's own process (evaluation method, questions and
contact before award, receipt deadlines), the terms of the awarded contract and sentences that
only describe the system or the data are rows of their own kinds, never asks.
"""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.ask_patterns import (
    is_impersonal_requirement,
    is_procurement_process,
)
from rfp_retrieval.documents.matrix import (
    ASK_KINDS,
    OPTION,
    PROCUREMENT_PROCESS,
    WORK_STATEMENT,
    matrix_rows,
)
from rfp_retrieval.documents.outline import parse_outline
from rfp_retrieval.documents.questions import find_questions, inline_items
from rfp_retrieval.documents.records import RfpDocument
from rfp_retrieval.documents.section_kinds import SectionKinds


def _doc(text: str) -> RfpDocument:
    return RfpDocument(
        "t.md", "markdown", "", text, parse_outline(text.splitlines(), "markdown"), ""
    )


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("The Government will evaluate the offeror's management approach.", True),
        ("Technical proposals will be rated on a pass/fail basis.", True),
        ("Proposals shall be evaluated against the factors below.", True),
        ("No award shall be made until the protest is resolved.", True),
        ("Selection shall be made of the three highest-ranked firms.", True),
        ("Questions regarding this RFP shall be submitted by email to the buyer.", True),
        ("The offeror shall direct all communications to the Contracting Officer.", True),
        ("Offerors must not contact members of the evaluation panel.", True),
        ("All proposals must be received no later than 2:00 PM on March 3.", True),
        # asks stay asks
        ("Was the staffing plan submitted with resumes?", False),  # an evaluator's question
        ("The offeror shall describe how its plan will be evaluated by users.", False),
        ("Proposals shall include a transition plan.", False),
        ("Submit the proposal through the portal in PDF format.", False),
        ("Each volume will be evaluated and must not exceed ten pages.", False),  # a page rule
    ],
)
def test_is_procurement_process(sentence, expected):
    assert is_procurement_process(sentence) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("All agency data must remain the property of the agency.", True),
        ("Remote access shall be used for authorized business purposes only.", True),
        ("The portal must support single sign-on for staff users.", True),
        ("The offeror must have five years of experience.", False),  # names the bidder
        ("Resumes must not exceed two pages.", False),  # a part of the proposal
        ("The proposal shall include a schedule.", False),
        ("Answers shall be concise.", False),
        ("Include a signed cover letter.", False),  # an imperative
    ],
)
def test_is_impersonal_requirement(sentence, expected):
    assert is_impersonal_requirement(sentence) is expected


def test_inline_numbered_list_after_a_colon_becomes_parts():
    text = (
        "The offeror should address the following: 1) staff retention if the contract is "
        "renewed; 2) leave procedures; and 3) reductions in staff."
    )
    assert inline_items(text) == (
        "The offeror should address the following:",
        [
            "staff retention if the contract is renewed;",
            "leave procedures;",
            "reductions in staff.",
        ],
    )


@pytest.mark.parametrize(
    "text",
    [
        "Rates apply to labor performed by (1) the offeror; (2) subcontractors.",  # no colon
        "Provide the following: 1) a plan; 3) a schedule.",  # does not count up
        "Provide the following: 1) a plan and 2) a schedule.",  # no separator
        "Describe your approach: 1) in detail.",  # one item
    ],
)
def test_inline_list_stays_whole_without_a_counted_list_after_a_colon(text):
    assert inline_items(text) == (text, [])


def test_inline_items_are_matrix_rows_of_their_own():
    doc = _doc(
        "# 1. Proposal Instructions\n\n"
        "The offeror must describe its quality control and address the following: 1) how "
        "staff are retained; 2) how leave is approved; 3) how staff are replaced.\n"
    )
    rows = [(r.id, r.label, r.kind, r.text) for r in matrix_rows(doc)]
    assert rows == [
        (
            "q-001",
            None,
            "question",
            "The offeror must describe its quality control and address the following:",
        ),
        ("q-001a", "(1)", "question", "how staff are retained;"),
        ("q-001b", "(2)", "question", "how leave is approved;"),
        ("q-001c", "(3)", "question", "how staff are replaced."),
    ]


def test_matrix_keeps_process_terms_and_system_statements_out_of_the_asks():
    doc = _doc(
        "# 1. Background\n\n"
        "The current portal must be replaced by a cloud service.\n\n"
        "# 2. Proposal Instructions\n\n"
        "Questions shall be submitted by email to the buyer.\n\n"
        "The offeror shall describe its hosting approach.\n\n"
        "# 3. Evaluation\n\n"
        "Proposals will be evaluated on technical merit and price.\n\n"
        "# 4. Insurance\n\n"
        "The contractor shall carry general liability coverage of $1,000,000.\n"
    )
    rows = [(r.kind, r.text) for r in matrix_rows(doc)]
    assert rows == [
        (WORK_STATEMENT, "The current portal must be replaced by a cloud service."),
        (PROCUREMENT_PROCESS, "Questions shall be submitted by email to the buyer."),
        ("question", "The offeror shall describe its hosting approach."),
        (PROCUREMENT_PROCESS, "Proposals will be evaluated on technical merit and price."),
        (WORK_STATEMENT, "The contractor shall carry general liability coverage of $1,000,000."),
    ]
    assert PROCUREMENT_PROCESS not in ASK_KINDS and WORK_STATEMENT not in ASK_KINDS


def test_general_conditions_are_clause_text_without_asks():
    doc = _doc(
        "# 1. Proposal Content\n\n"
        "Offerors must submit three references.\n\n"
        "# Appendix A General Conditions and Instructions to Bidders\n\n"
        "Bids shall be binding for ninety days.\n\n"
        "- Acceptance Agreement\n"
        "- Pricing Schedule\n"
    )
    assert [(q.kind, q.text) for q in find_questions(doc)] == [
        ("requirement", "Offerors must submit three references."),
    ]


@pytest.mark.parametrize(
    ("heading", "instructions", "terms"),
    [
        ("Quotation Instructions", True, False),
        ("Instructions for Preparation of Proposals", True, False),
        ("Page Limits", True, False),
        ("Insurance", False, True),
        ("Reports and Invoicing", False, True),
        ("Changes to Key Personnel", False, False),  # whole heading only
        ("Technical Approach", False, False),
    ],
)
def test_section_kinds_for_instructions_and_contract_terms(heading, instructions, terms):
    doc = _doc(f"# 1. {heading}\n\nText.\n")
    section = next(s for s in doc.sections if s.level > 0)
    kinds = SectionKinds(doc)
    assert (kinds.is_instructions(section), kinds.is_contract_terms(section)) == (
        instructions,
        terms,
    )


def test_pick_from_list_items_are_options_of_one_ask():
    doc = _doc(
        "# 1. Proposal Instructions\n\n"
        "Describe your team's experience in at least three of the following areas:\n\n"
        "- Cloud hosting\n"
        "- Data migration\n"
        "- User research\n"
    )
    assert [(r.id, r.kind, r.text) for r in matrix_rows(doc)] == [
        (
            "q-001",
            "question",
            "Describe your team's experience in at least three of the following areas:",
        ),
        ("q-001a", OPTION, "Cloud hosting"),
        ("q-001b", OPTION, "Data migration"),
        ("q-001c", OPTION, "User research"),
    ]


def test_list_items_naming_later_sections_point_at_them():
    doc = _doc(
        "# 1. Proposal Instructions\n\n"
        "The technical volume must consist of:\n\n"
        "- Factor 1: Technical Approach\n"
        "- A signed cover letter\n\n"
        "## 1.1 Factor 1 - Technical Approach\n\n"
        "Describe your hosting approach.\n"
    )
    assert [(r.id, r.kind, r.text) for r in matrix_rows(doc)] == [
        ("q-001", "requirement", "The technical volume must consist of:"),
        ("q-001a", OPTION, "Factor 1: Technical Approach"),
        ("q-001b", "requirement", "A signed cover letter"),
        ("q-002", "question", "Describe your hosting approach."),
    ]


def test_task_imperatives_in_the_statement_of_work_are_work():
    doc = _doc(
        "# 1. Statement of Work\n\n"
        "Provide help desk support during business hours.\n\n"
        "Describe your approach to help desk staffing.\n"
    )
    assert [(r.kind, r.text) for r in matrix_rows(doc)] == [
        (WORK_STATEMENT, "Provide help desk support during business hours."),
        ("question", "Describe your approach to help desk staffing."),
    ]
