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
    is_general_compliance,
    is_requirement,
    is_work_statement,
)
from rfp_retrieval.documents.matrix import GENERAL_COMPLIANCE, WORK_STATEMENT, matrix_rows
from rfp_retrieval.documents.outline import parse_outline
from rfp_retrieval.documents.records import RfpDocument


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
        "A. The Contractor shall mow all turf to a height of three inches.": WORK_STATEMENT,
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
