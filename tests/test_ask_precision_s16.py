"""Ask precision on real solicitations (issue 13, session 16): what a proposal does not answer.

Contractor work written with its personnel or in the passive voice, the buyer's own giving,
the reminder that the general requirements govern every section, and the standard text of a
clause reproduced in full are matrix rows of their own kinds, never asks; the asks around
them stay asks.
"""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.ask_kinds import STANDARD_PROVISION
from rfp_retrieval.documents.ask_patterns import (
    is_after_selection,
    is_ask,
    is_bare_lead_in,
    is_deliverable_delivery,
    is_general_compliance,
    is_procurement_process,
    is_requirement,
    is_task_imperative,
    is_work_statement,
)
from rfp_retrieval.documents.matrix import (
    GENERAL_COMPLIANCE,
    LEAD_IN,
    WORK_STATEMENT,
    is_nested_lead_in,
    matrix_rows,
)
from rfp_retrieval.documents.outline import parse_outline
from rfp_retrieval.documents.questions import find_questions, marker_style
from rfp_retrieval.documents.records import RfpDocument
from rfp_retrieval.documents.section_kinds import SectionKinds


def _doc(text: str) -> RfpDocument:
    return RfpDocument(
        "t.md", "markdown", "", text, parse_outline(text.splitlines(), "markdown"), ""
    )


def _kinds(text: str) -> dict[str, str]:
    doc = _doc(text)
    return {row.text: row.kind for row in matrix_rows(doc)}


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Contractor personnel shall not park in the visitor spaces.", True),
        ("The Contractor or its subcontractors shall keep the site free of debris.", True),
        ("B. The Contractor shall mow every lawn area weekly.", True),
        ("Under this order, the Contractor shall be responsible for all snow removal.", True),
        ("Protective gear shall be supplied by the Contractor to each worker.", True),
        ("Damaged fences shall be repaired at the Contractor's expense.", True),
        ("Trash removal shall be the responsibility of the Contractor.", True),
        # the proposal named: an ask, wherever it stands
        ("The Contractor shall submit a staffing plan with its proposal.", False),
        ("Resumes of Contractor personnel must be included in the quotation.", False),
        ("U.S. citizens shall staff the help desk.", False),  # no performer named
    ],
)
def test_work_statement_by_personnel_letter_and_passive(sentence, expected):
    assert is_work_statement(sentence) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Parking permits shall be provided by the Government.", False),  # the buyer gives
        ("Seed shall be furnished by the County at no charge.", False),
        ("All overtime must be approved by the COR in advance.", True),  # binds the contractor
        ("Seed shall be furnished by the Government and spread by the Contractor.", True),
    ],
)
def test_the_buyer_giving_is_no_requirement(sentence, expected):
    assert is_requirement(sentence) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "All work under this section is subject to the General Requirements, and the "
            "Contractor shall be responsible for and governed by all the requirements thereunder.",
            True,
        ),
        ("The Contractor shall be governed by the approved safety plan.", False),
        ("The Contractor shall describe how the requirements are tracked.", False),
    ],
)
def test_bound_by_all_the_requirements_is_general_compliance(sentence, expected):
    assert is_general_compliance(sentence) is expected


GOVERNED = (
    "All work in this attachment is subject to the General Requirements, and the Contractor "
    "shall be responsible for and governed by all the requirements thereunder."
)


def test_specification_rows_are_work_statements_not_asks():
    kinds = _kinds(
        "# Grounds Services\n\n"
        "## Attachment 3 Mowing\n\n"
        f"{GOVERNED}\n\n"
        "A. The Contractor shall mow all turf to a height of three inches.\n\n"
        "Clippings shall be removed by the Contractor within one day.\n\n"
        "Contractor personnel shall not operate mowers during ceremonies.\n"
    )
    assert kinds == {
        GOVERNED: GENERAL_COMPLIANCE,
        # "A." is a list marker (ask_patterns.LIST_MARKER): the item's text goes without it
        "The Contractor shall mow all turf to a height of three inches.": WORK_STATEMENT,
        "Clippings shall be removed by the Contractor within one day.": WORK_STATEMENT,
        "Contractor personnel shall not operate mowers during ceremonies.": WORK_STATEMENT,
    }


SUBMIT = "Submit signed and dated offers to the office specified in this solicitation."
SHOW = "Offerors shall show a technical description of the items being offered."
ADDENDUM = "The offeror shall describe its staffing approach in no more than five pages."
LIST = "The offeror shall list any foreign end products it offers."


def test_standard_provision_text_is_no_ask_its_addendum_and_evaluation_are():
    kinds = _kinds(
        "# Request for Quotation\n\n"
        "## Section L Instructions\n\n"
        "### L.1 52.212-1 Instructions to Offerors-Commercial Products (SEP 2023)\n\n"
        f"{SUBMIT}\n\n{SHOW}\n\n"
        "### L.2 Addendum to FAR 52.212-1\n\n"
        f"{ADDENDUM}\n\n"
        "### L.3 52.212-2 Evaluation-Commercial Products (NOV 2021)\n\n"
        "Describe your quality control approach.\n\n"
        "## Section K Representations\n\n"
        "### K.1 52.212-3 Offeror Representations and Certifications\n\n"
        f"{LIST}\n"
    )
    assert kinds == {
        SUBMIT: STANDARD_PROVISION,
        SHOW: STANDARD_PROVISION,
        ADDENDUM: "question",  # the buyer's tailoring
        "Describe your quality control approach.": "question",  # the evaluation fill-in
        LIST: STANDARD_PROVISION,
    }


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "If a proposal with teaming partners is selected, the offeror must provide a "
            "signed teaming agreement within ten days of the agency's request.",
            True,
        ),
        ("Upon award, the contractor shall deliver a transition-in plan.", True),
        ("The awardee must provide proof of insurance within ten (10) days after award.", True),
        # due with the offer, or at an evaluation stage: asks
        (
            "A signed W-9 must be submitted with the proposal or within five days of the "
            "buyer's request.",
            False,
        ),
        ("If selected for an oral presentation, the offeror shall bring its key staff.", False),
        ("The offeror shall submit three resumes.", False),
    ],
)
def test_after_selection(sentence, expected):
    assert is_after_selection(sentence) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("The following factors shall be used to evaluate offers:", True),
        ("A protester must have submitted an offer to have standing.", True),
        ("Include the name and address of the protester;", True),
        ("Describe your experience defending bid protests.", False),  # "your": an ask
        ("The offeror shall submit a technical volume of ten pages.", False),
    ],
)
def test_evaluation_method_and_protests_are_procurement_process(sentence, expected):
    assert is_procurement_process(sentence) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Evaluation of options shall not obligate the Government to exercise them.", False),
        ("A written notice of award shall result in a binding contract.", False),
        ("The offeror shall state whether it accepts the options.", True),
    ],
)
def test_a_legal_effect_is_no_requirement(sentence, expected):
    assert is_requirement(sentence) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Code deliverables shall be submitted through pull requests.", True),
        ("A copy of all monthly reports shall be submitted to the COR.", True),
        ("The technical proposal shall be submitted in PDF.", False),
    ],
)
def test_deliverable_delivery(sentence, expected):
    assert is_deliverable_delivery(sentence) is expected


def test_delivery_and_selection_rows_are_work_statements():
    kinds = _kinds(
        "# RFP\n\n"
        "## 3. Scope of Work\n\n"
        "### 3.2 Delivery Instructions\n\n"
        "Code deliverables shall be submitted through pull requests.\n\n"
        "### 3.3 Subcontractors\n\n"
        "If a proposal with subcontractors is selected, the offeror must provide the following "
        "within five days of the buyer's request:\n\n"
        "- the name of each subcontractor;\n"
        "- the work each subcontractor will perform.\n\n"
        "## 4. Proposal Content\n\n"
        "The offeror shall describe its approach to the work.\n"
    )
    assert [k for t, k in kinds.items() if "offeror shall describe" not in t] == [
        WORK_STATEMENT
    ] * 4
    assert kinds["The offeror shall describe its approach to the work."] == "question"


def test_general_legal_information_is_clause_text():
    doc = _doc(
        "# RFP\n\n## Section 7. General Legal Information\n\n### 7.06 Right of Rejection\n\n"
        "Offerors must comply with all applicable laws.\n"
    )
    kinds = SectionKinds(doc)
    section = next(s for s in doc.sections if s.heading == "Right of Rejection")
    assert kinds.is_clauses(section) is True
    assert find_questions(doc) == []  # a clause's shall/must terms are no asks


def test_a_list_ends_where_the_enclosing_list_goes_on():
    doc = _doc(
        "# RFQ\n\n## Past Performance\n\n"
        "(a) Provide the following for each contract:\n\n"
        "(A) Contract number\n\n"
        "(B) Contract value\n\n"
        "(b) Paragraph (c) is deleted in its entirety.\n"
    )
    (q,) = [q for q in find_questions(doc) if q.parts]
    assert q.parts == ["Contract number", "Contract value"]
    assert [marker_style(m) for m in ("(A)", "G)", "1.", "-")] == [
        ("upper)", True),
        ("upper)", False),
        ("digit.", True),
        None,
    ]
    assert marker_style("(i)", {"lower)"}) == ("lower)", False)  # the ninth letter
    assert marker_style("(i)") == ("roman-lower)", True)


def test_run_in_topic_item_and_unmarked_question_are_one_line():
    doc = _doc(
        "# RFP\n\n## 4. Proposal Content\n\n"
        "Address the following areas:\n\n"
        "- Testing -- Describe your testing philosophy. Describe how you involve users.\n\n"
        "Describe your approach to risk. How will you report risks to the buyer.\n"
    )
    texts = [q.text for q in find_questions(doc)]
    assert "Describe your approach to risk. How will you report risks to the buyer." in texts
    assert "Describe how you involve users." not in texts


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Provide on-going maintenance of the hosting service.", True),  # work
        ("Provide examples of the qualifications of the staff to be assigned.", False),
        ("Provide a description of the escalation process.", False),
        ("Include resumes for the two leads.", False),
    ],
)
def test_an_imperative_asking_for_writing_is_no_task(sentence, expected):
    assert is_task_imperative(sentence) is expected


def test_points_given_are_the_scoring_method():
    assert is_procurement_process(
        "Small Business Status: Points shall be given to offerors that are small businesses."
    )
    assert not is_procurement_process("The offeror shall state its small business status.")


def test_capital_letter_items_and_a_nested_list_title():
    doc = _doc(
        "# RFQ\n\n## Section L Instructions\n\n"
        "The offeror shall submit the following:\n\n"
        "A. A staffing plan for the base year.\n\n"
        "B. Examples of considerations:\n\n"
        "(1) How do you plan to cover weekend work?\n\n"
        "(2) How do you plan to replace absent staff?\n"
    )
    rows = [(row.text, row.kind) for row in matrix_rows(doc)]
    assert rows == [
        ("The offeror shall submit the following:", "requirement"),
        ("A staffing plan for the base year.", "requirement"),
        ("Examples of considerations:", LEAD_IN),
        ("How do you plan to cover weekend work?", "question"),
        ("How do you plan to replace absent staff?", "question"),
    ]
    assert is_nested_lead_in("Examples of considerations:")
    assert not is_nested_lead_in("Submit the following:")  # an ask by its own verb


def test_a_capital_letter_marker_keeps_the_word_it_shares_a_letter_with():
    doc = _doc(
        "# Grounds\n\n## 2. Scope of Work\n\n"
        "C. Cutting blades must be kept sharp at all times.\n\n"
        "D. Damaged turf shall be reseeded within a week.\n"
    )
    texts = [q.text for q in find_questions(doc)]
    assert texts == [
        "Cutting blades must be kept sharp at all times.",
        "Damaged turf shall be reseeded within a week.",
    ]


def test_a_lettered_title_in_section_l_is_no_content_item():
    doc = _doc(
        "# RFQ\n\n## Section L - Instructions to Quoters\n\n"
        "A. General Information\n\n"
        "1. The quotation shall remain valid for 90 days.\n\n"
        "B. Signed cover letter\n"
    )
    rows = [(q.text, q.kind) for q in find_questions(doc)]
    assert ("General Information", "requirement") not in rows
    assert ("Signed cover letter", "requirement") in rows  # a listed content item


def test_tailoring_items_are_no_content_and_contractor_should_continues():
    doc = _doc(
        "# RFQ\n\n## Section L - Instructions to Offerors\n\n"
        "The following changes apply:\n\n"
        "(a) Paragraph (e) entitled Multiple Offers is deleted in its entirety.\n\n"
        "(b) Signed amendment acknowledgements\n\n"
        "## Section L.2 Equipment\n\n"
        "The Contractor shall submit a list of its mowers. Contractor should include the age "
        "of each mower.\n"
    )
    rows = [(q.text, q.kind) for q in find_questions(doc)]
    assert (
        "Paragraph (e) entitled Multiple Offers is deleted in its entirety.",
        "requirement",
    ) not in rows
    assert (
        "The Contractor shall submit a list of its mowers. Contractor should include the age "
        "of each mower.",
        "requirement",
    ) in rows


def test_interested_vendors_ask_and_be_specific_continues():
    assert is_ask("Interested vendors shall identify their capabilities to meet the needs.")
    assert is_bare_lead_in("The following information must be included in all proposals:")
    doc = _doc(
        "# RFI\n\n## III. Capabilities Statement\n\n"
        "Interested vendors shall identify their capabilities to meet the needs below. "
        "Be very specific when describing similar work.\n"
    )
    assert [q.text for q in find_questions(doc)] == [
        "Interested vendors shall identify their capabilities to meet the needs below. "
        "Be very specific when describing similar work."
    ]
