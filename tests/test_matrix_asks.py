"""What the compliance matrix counts as an ask, and what it keeps as context (issue 13).

The proposal answers the asks; the buyer's own process (evaluation method, questions and
contact before award, receipt deadlines), the terms of the awarded contract and sentences that
only describe the system or the data are rows of their own kinds, never asks.
"""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.ask_patterns import (
    is_ask,
    is_bare_lead_in,
    is_general_compliance,
    is_impersonal_requirement,
    is_procurement_process,
    is_requirement,
    refers_back,
)
from rfp_retrieval.documents.matrix import (
    ASK_KINDS,
    LEAD_IN,
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
            "1",  # the prose of section "1." carries its number
            "question",
            "The offeror must describe its quality control and address the following:",
        ),
        ("q-001a", "1(1)", "question", "how staff are retained;"),
        ("q-001b", "1(2)", "question", "how leave is approved;"),
        ("q-001c", "1(3)", "question", "how staff are replaced."),
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
        ("Administration", False, True),  # the awarded contract's administration
        ("Contract Administration", False, True),
        ("Authorities and Delegations", False, True),
        ("Proposal Administration Data", False, False),  # whole heading only
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
        ("q-001", LEAD_IN, "The technical volume must consist of:"),  # a bare lead-in
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


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Information provided in the quotation shall be concise, specific, and complete.", True),
        ("Each file must be autonomous and complete.", True),
        (
            "The information in this statement must be accurate and complete so that a CO can "
            "assess the conflict.",
            True,
        ),
        (
            "The information supplied shall be closely aligned with the procurement under "
            "consideration and shall be free from ambiguities.",
            True,
        ),
        (
            "Offerors must meet or exceed all solicitation requirements to be eligible for award.",
            True,
        ),
        ("To be considered for award, offerors must successfully pass through each phase.", True),
        # a rule of its own stays an ask
        ("The proposal shall be complete and include a cover letter.", False),
        ("Resumes must be current and signed.", False),
        ("The offeror must meet all requirements of Section C and submit a plan.", False),
        ("Was the proposal complete?", False),
    ],
)
def test_quality_and_follow_everything_sentences_are_general_compliance(sentence, expected):
    assert is_general_compliance(sentence) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("At a minimum, provide:", True),
        ("Each case study should include:", True),
        ("The Staffing Plan must explain the following for the base and option periods:", True),
        (
            "The following introductory information is required on the first page of each section:",
            True,
        ),
        ("Offerors submitting a response must meet the following minimum qualifications.", True),
        # a lead-in that names content of its own is an ask
        ("The offeror shall submit a separate price quotation that includes the following:", False),
        ("Your technical quotation must include a cover page.", False),
        ("The plan must include a schedule for:", False),
    ],
)
def test_is_bare_lead_in(sentence, expected):
    assert is_bare_lead_in(sentence) is expected


def test_a_bare_lead_in_is_context_and_its_items_are_the_asks():
    doc = _doc(
        "# 1. Proposal Instructions\n\n"
        "Each case study should include:\n\n"
        "- The client's name and the contract value.\n"
        "- The period of performance.\n"
    )
    rows = [(r.kind, r.text) for r in matrix_rows(doc)]
    assert rows == [
        (LEAD_IN, "Each case study should include:"),
        ("requirement", "The client's name and the contract value."),
        ("requirement", "The period of performance."),
    ]
    assert LEAD_IN not in ASK_KINDS


@pytest.mark.parametrize(
    ("previous", "sentence", "expected"),
    [
        (
            "Contractors shall submit the pricing spreadsheet.",
            "This submission must not be a PDF.",
            True,
        ),
        (
            "Include resumes for the Technical Lead.",
            "The resumes must include a description.",
            True,
        ),
        (
            "The offeror shall provide two examples.",
            "One of the two examples must show security.",
            True,
        ),
        (
            "Offerors must offer discounts below schedule rates.",
            "When discounts are offered, quotes must show the rate.",
            True,
        ),
        (
            "Does the contractor describe its approach?",
            "Have they included plans for research?",
            True,
        ),
        ("The offeror shall provide a plan.", "The Government will evaluate the plan.", False),
        ("The offeror shall provide a plan.", "The contractor shall host the system.", False),
        ("Submit a plan.", "This section should be no more than five pages.", False),
        ("The Contractor shall host the system.", "The Contractor shall back up the data.", False),
        ("The system shall export data.", "The system shall log every export.", False),
        ("Submit a plan.", "The plan should include:", False),  # a lead-in of its own list
    ],
)
def test_refers_back(previous, sentence, expected):
    assert refers_back(sentence, previous) is expected


def test_a_rule_on_the_asked_deliverable_stays_on_its_line_but_a_due_date_does_not():
    doc = _doc(
        "# 1. Proposal Instructions\n\n"
        "Include resumes for the Technical Lead and the Designer. The resumes must include a "
        "brief description of each person's experience.\n\n"
        "Offerors must submit a price quotation using the template. The price quotation must be "
        "received no later than the due date.\n\n"
        "Proposals must be received through the portal at: https://county.bonfirehub.com, on or "
        "before the Submittal Deadline.\n"
    )
    rows = [(r.kind, r.text) for r in matrix_rows(doc)]
    assert rows == [
        (
            "requirement",
            "Include resumes for the Technical Lead and the Designer. The resumes must include a "
            "brief description of each person's experience.",
        ),
        ("requirement", "Offerors must submit a price quotation using the template."),
        (PROCUREMENT_PROCESS, "The price quotation must be received no later than the due date."),
        (
            PROCUREMENT_PROCESS,
            "Proposals must be received through the portal at: https://county.bonfirehub.com, "
            "on or before the Submittal Deadline.",
        ),
    ]


def test_section_l_by_its_number_is_instructions():
    doc = _doc(
        "# Solicitation\n\n## Section K. Representations\n\nText.\n\n"
        "## Section L. Instructions\n\n### L.1 Format\n\nText.\n"
    )
    kinds = SectionKinds(doc)
    got = [(s.number, kinds.is_instructions(s)) for s in doc.sections if s.level > 0]
    assert got == [("Section K.", False), ("Section L.", True), ("L.1", True)]


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "Detail technical information regarding the objectives for each section are "
            "provided in the Capability Requirements Document.",
            False,
        ),
        ("Describe how the requirements that are listed in Section C will be met.", True),
        ("Describe your approach; the requirements are listed in Section C.", True),
        ("Provide the data described in Section C.", True),
    ],
)
def test_a_sentence_saying_where_information_is_asks_nothing(sentence, expected):
    assert is_ask(sentence) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "Equipment specifications in this RFP shall be considered as minimal requirements.",
            False,
        ),
        ("Senior Level: relates to very experienced individuals who must work alone.", False),
        ("The offeror shall provide three resumes.", True),
    ],
)
def test_deeming_rules_and_defined_terms_are_no_requirements(sentence, expected):
    assert is_requirement(sentence) is expected


def test_what_a_firm_that_does_not_bid_must_do_is_process():
    assert is_procurement_process(
        "If the holder does not intend to submit a quotation, the holder shall place a "
        "“No Quote” in eBuy."
    )
    assert not is_procurement_process("Offerors shall submit the quotation in eBuy.")


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "All proposed labor rates must be consistent with the terms and rates of your aBPA.",
            True,
        ),
        (
            "Pricing shall reflect reasonableness, consistency with industry standards, and be in "
            "compliance with rates and terms and conditions of the aBPA.",
            True,
        ),
        ("All proposed skill levels/labor categories shall be consistent with the BPA.", True),
        # a price the proposal must state, or a content ask, stays an ask
        ("The Offerors are required to provide rates that are fully loaded.", False),
        ("Offerors shall describe how their rates are consistent with the contract.", False),
    ],
)
def test_prices_bound_to_the_vehicle_terms_are_general_compliance(sentence, expected):
    assert is_general_compliance(sentence) is expected


def test_the_invitation_to_bid_is_procurement_process():
    assert is_procurement_process(
        "Qualified offerors are encouraged to submit a proposal to provide IT Staff "
        "Augmentation services to the agencies on an as-needed basis."
    )
    assert not is_procurement_process("Offerors are encouraged to submit a staffing plan.")


def test_one_kind_rule_for_finder_and_matrix_in_a_statement_of_needs():
    """The finder's kinds are the matrix's (ask_kinds.matrix_kind): "Statement of Needs" is
    statement-of-work text, so the Offeror's duties while working there are work statements;
    a description it must write stays an ask, after a leading clause too; a key personnel
    substitution rule is contract administration even when it speaks of qualifications."""
    doc = _doc(
        "# 6. Statement of Needs\n\n"
        "The Offeror(s) shall supply time sheets for their staff.\n\n"
        "While on site work is not required, the Offeror shall describe the ability of its "
        "staff to work on site.\n\n"
        "# 7. Technical Proposal Instructions\n\n"
        "The offeror must submit a staffing plan. Key Personnel substitutions must include "
        "a resume showing qualifications that meet or exceed those of the person replaced.\n"
    )
    want = [
        (WORK_STATEMENT, "The Offeror(s) shall supply time sheets for their staff."),
        (
            "requirement",
            "While on site work is not required, the Offeror shall describe the ability of its "
            "staff to work on site.",
        ),
        ("requirement", "The offeror must submit a staffing plan."),
        (
            WORK_STATEMENT,
            "Key Personnel substitutions must include a resume showing qualifications that meet "
            "or exceed those of the person replaced.",
        ),
    ]
    assert [(r.kind, r.text) for r in matrix_rows(doc)] == want
    assert [(q.kind, q.text) for q in find_questions(doc)] == want


def test_guaranty_headings_are_contract_terms():
    doc = _doc("# 56. General Guaranty\n\nFurnish adequate protection against damage.\n")
    assert [r.kind for r in matrix_rows(doc)] == [WORK_STATEMENT]


def test_a_software_license_in_the_work_is_no_qualification():
    """ "licensed" (the offeror holds a licence) is a qualification; a Public Domain license
    of the delivered code is part of the work."""
    doc = _doc(
        "# 2. Performance Work Statement\n\n"
        "Vendor must post all code to a public code repository, with a Public Domain license.\n\n"
        "The vendor must be licensed to do business in the state.\n"
    )
    assert [r.kind for r in matrix_rows(doc)] == [WORK_STATEMENT, "requirement"]


def test_a_part_of_the_proposal_as_subject_asks_in_the_instructions():
    """ "The summary should also include ..." states what a part of the proposal holds: an
    ask in Section L text, with should or will too; "be sure to identify" is an imperative.
    The same wording about a deliverable plan in the statement of work is no row."""
    doc = _doc(
        "# 6. Quotation Instructions\n\n"
        "The summary should also include live links to the product.\n\n"
        "The pricing narrative should describe your basis of pricing.\n\n"
        "In the project summary, be sure to identify the team's role.\n\n"
        "# 7. Statement of Work\n\n"
        "The transition plan should describe the handover to the next vendor.\n"
    )
    assert [(q.kind, q.text) for q in find_questions(doc)] == [
        ("requirement", "The summary should also include live links to the product."),
        ("question", "The pricing narrative should describe your basis of pricing."),
        ("question", "In the project summary, be sure to identify the team's role."),
    ]
