"""Outline and ask rules of issue 13 (session 15): FAR / agency clause numbers as headings,
the evaluation provision read as Section M, "Section N" headings under a roman outline, and
imperative prompts under a work heading that names them."""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.matrix import WORK_STATEMENT, matrix_rows
from rfp_retrieval.documents.numbering import CLAUSE_NUMBER
from rfp_retrieval.documents.outline import parse_outline
from rfp_retrieval.documents.records import RfpDocument


def _outline(text: str, kind: str = "plain"):
    return [(s.number, s.heading, s.level) for s in parse_outline(text.splitlines(), kind)]


def _doc(text: str, kind: str = "plain") -> RfpDocument:
    return RfpDocument("t.txt", kind, "", text, parse_outline(text.splitlines(), kind), "")


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("52.212-4 Contract Terms", "52.212-4"),
        ("252.204-7012 Safeguarding", "252.204-7012"),
        ("852.216-70 Estimated Quantities", "852.216-70"),
        ("1852.215-84 Ombudsman", "1852.215-84"),
        ("3052.204-70 Security Requirements", "3052.204-70"),
        ("152.212-4", "152.212-4"),  # two leading digits at most: 152 is still read
        ("1.52.212-4", None),  # a dotted number running into it
        ("Section 52.2", None),
    ],
)
def test_clause_numbers_of_the_far_and_its_supplements(text, number):
    m = CLAUSE_NUMBER.search(text)
    assert (m.group(0) if m else None) == number


FAR_SECTION = """SECTION B - CONTRACT CLAUSES

B.1 52.212-4 CONTRACT TERMS AND CONDITIONS-COMMERCIAL ITEMS (OCT 2003)

The contractor shall comply with the clause.

B.1.1 ADDENDUM

B.1.1.1 52.204-7 CENTRAL CONTRACTOR REGISTRATION (OCT 2003)

The offeror shall register.

B.2 52.212-2 EVALUATION-COMMERCIAL ITEMS (JAN 1999)

Quotes must include a list of the mowing equipment for each park.
"""


def test_a_numbered_clause_heading_is_a_section_with_its_number_and_name():
    assert _outline(FAR_SECTION) == [
        ("SECTION B", "CONTRACT CLAUSES", 1),
        ("B.1", "52.212-4 CONTRACT TERMS AND CONDITIONS-COMMERCIAL ITEMS (OCT 2003)", 2),
        ("B.1.1", "ADDENDUM", 3),
        ("B.1.1.1", "52.204-7 CENTRAL CONTRACTOR REGISTRATION (OCT 2003)", 4),
        ("B.2", "52.212-2 EVALUATION-COMMERCIAL ITEMS (JAN 1999)", 2),
    ]


def test_asks_under_the_evaluation_provision_are_kept_and_clause_text_is_not():
    rows = [(r.kind, r.text) for r in matrix_rows(_doc(FAR_SECTION))]
    texts = [t for _, t in rows]
    assert "Quotes must include a list of the mowing equipment for each park." in texts
    assert "The contractor shall comply with the clause." not in texts


ROMAN_WITH_SECTION_WORDS = """I. INTRODUCTION

The agency seeks information.

II. REQUIREMENTS

The agency needs testing support.

III. CAPABILITIES STATEMENT

Section 1 – Cover Letter

The cover letter shall include the name of the firm.

Section 2 - Corporate Experience

Describe three contracts of similar scope.
"""


def test_section_word_headings_under_a_roman_outline_nest_one_level_below():
    assert _outline(ROMAN_WITH_SECTION_WORDS) == [
        ("I.", "INTRODUCTION", 1),
        ("II.", "REQUIREMENTS", 1),
        ("III.", "CAPABILITIES STATEMENT", 1),
        ("Section 1", "Cover Letter", 2),
        ("Section 2", "Corporate Experience", 2),
    ]


UCF_VOLUMES = """SECTION L - INSTRUCTIONS TO OFFERORS

L.1 PROPOSAL ORGANIZATION

The proposal shall be organized in volumes as follows:

Section 1 - Technical Volume

Section 2 - Price Volume

SECTION M - EVALUATION FACTORS FOR AWARD

M.1 BASIS FOR AWARD
"""


def test_section_word_lines_inside_a_ucf_document_stay_list_items():
    assert [n for n, _, _ in _outline(UCF_VOLUMES)] == ["SECTION L", "L.1", "SECTION M", "M.1"]


PROMPTS = """# 1. Background

The agency tests its equipment.

# 2. Draft Statement of Work and Technical Prompts

Provide modeling and simulation expertise of real-world operational environments.

# 3. Statement of Work

Provide operational test support at each site.
"""


def test_an_imperative_under_a_prompts_heading_asks_and_under_the_work_is_work():
    kinds = {r.text: r.kind for r in matrix_rows(_doc(PROMPTS, "markdown"))}
    prompt = "Provide modeling and simulation expertise of real-world operational environments."
    assert kinds[prompt] in ("question", "requirement")
    assert kinds["Provide operational test support at each site."] == WORK_STATEMENT
