"""Post-award work statements are compliance-matrix rows of their own kind, not asks."""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.ask_patterns import (
    is_administration_requirement,
    is_requirement,
    is_work_statement,
)
from rfp_retrieval.documents.matrix import ASK_KINDS, WORK_STATEMENT, matrix_rows
from rfp_retrieval.documents.outline import parse_outline
from rfp_retrieval.documents.records import RfpDocument


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("The Contractor shall maintain the hosting environment 24x7.", True),
        ("3.2.1 The contractor will deliver monthly status reports to the COR.", True),
        ("Upon award, the successful offeror shall transition the services within 30 days.", True),
        ("The Contractor shall include resumes for key personnel in its proposal.", False),
        ("The Offeror shall describe its approach to transition.", False),
        ("Quotations must not exceed 5 pages.", False),
        ("The contractor’s proposal will not be incorporated into the PWS.", False),
        ("The Contractor’s disaster recovery plan shall name the backup site.", True),
        ("The contractor's key personnel shall work on site.", True),
        ("The contractor's staffing plan shall be included in the quotation.", False),
    ],
)
def test_is_work_statement(sentence, expected):
    assert is_work_statement(sentence) is expected


def test_matrix_keeps_work_statements_as_their_own_kind():
    text = (
        "# 1. Statement of Work\n\n"
        "The Contractor shall maintain the hosting environment at all times.\n\n"
        "# 2. Instructions\n\n"
        "Quotations must not exceed 5 pages.\n\n"
        "Describe your approach to hosting.\n"
    )
    lines = text.splitlines()
    doc = RfpDocument("t.md", "markdown", "", text, parse_outline(lines, "markdown"), "")
    kinds = [(row.kind, row.text) for row in matrix_rows(doc)]
    assert kinds == [
        (WORK_STATEMENT, "The Contractor shall maintain the hosting environment at all times."),
        ("requirement", "Quotations must not exceed 5 pages."),
        ("question", "Describe your approach to hosting."),
    ]
    assert WORK_STATEMENT not in ASK_KINDS


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("The Offeror shall describe its staffing plan.", True),
        ("This section should be no more than five pages.", True),  # a page limit
        ("Written responses should be in 12-point font.", True),  # a font rule
        ("The report should be short.", False),
        ("The CO shall respond in writing within 30 days to any notice.", False),  # the buyer
        ("The County must receive all bids by noon.", False),
        ("State agencies must use the resulting contract.", True),
    ],
)
def test_is_requirement_binds_the_offeror_not_the_buyer(sentence, expected):
    assert is_requirement(sentence) is expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("All travel must be approved by the COR prior to booking.", True),
        ("The contractor must submit a final invoice within 60 calendar days.", True),
        ("Key Personnel substitutions must be submitted to the CO in writing.", True),
        ("Proposals must include travel costs in the price volume.", False),
        ("The Offeror must describe its approach to invoicing.", False),  # an ask
    ],
)
def test_is_administration_requirement(sentence, expected):
    assert is_administration_requirement(sentence) is expected


def test_contractor_wording_in_instructions_stays_an_ask_and_invoicing_rules_do_not():
    text = (
        "# 1. Submission Instructions\n\n"
        "The contractor must demonstrate similar experience by sharing source code samples.\n\n"
        "# 2. Invoicing\n\n"
        "The contractor shall submit invoices electronically through the portal.\n"
    )
    lines = text.splitlines()
    doc = RfpDocument("t.md", "markdown", "", text, parse_outline(lines, "markdown"), "")
    assert [(row.kind, row.text[:40]) for row in matrix_rows(doc)] == [
        ("question", "The contractor must demonstrate similar "),
        (WORK_STATEMENT, "The contractor shall submit invoices ele"),
    ]


def test_a_shall_or_must_inside_a_relative_clause_binds_no_one():
    """ "The agency runs a legacy system that must be replaced" describes the system; the main
    clause decides (a sentence-level ask split made such descriptions requirements)."""
    from rfp_retrieval.documents.ask_patterns import is_requirement

    assert not is_requirement("The agency runs a legacy system that must be replaced soon.")
    assert not is_requirement("Records which shall be retained are listed in Exhibit 2.")
    assert is_requirement("The Offeror shall provide a plan that must include milestones.")
    assert is_requirement("Offerors are required to have existing staff in each category.")
    assert is_requirement("It exchanges data with these systems, all of which must be supported:")
