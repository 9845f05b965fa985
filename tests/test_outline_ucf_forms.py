"""UCF solicitations on a standard form (issue 13): the SF 1449 block labels printed side by
side are no headings, and a UCF part's title repeated on its pages opens the part once."""

from __future__ import annotations

from rfp_retrieval.documents.outline import parse_outline
from rfp_retrieval.documents.plain_headings import _next_form_field


def _outline(lines, pages=None):
    return [(s.number, s.heading, s.level) for s in parse_outline(lines, "plain", pages)]


def test_form_field_rows_are_no_headings():
    assert _next_form_field("CONTRACT NO. 3. AWARD/EFFECTIVE 4. ORDER", 2)
    assert _next_form_field("ISSUED BY: CODE 402 10. THIS ACQUISITION IS", 9)
    assert not _next_form_field("SCOPE OF WORK", 2)
    assert not _next_form_field("TASKS OF PHASE 7. REPORTING", 2)  # not the next field


FORM_THEN_UCF = [
    "2. CONTRACT NO. 3. AWARD/EFFECTIVE DATE 4. ORDER NUMBER",
    "9. ISSUED BY: CODE 10. THIS ACQUISITION IS",
    "",
    "SECTION A – CONTRACT ADMINISTRATION DATA",
    "",
    "A.1 DEFINITIONS:",
    "Acre means 43,560 square feet.",
    "",
    "A.2 SCHEDULE OF SERVICES:",
    "The contractor shall mow the grounds.",
    "SECTION A – CONTRACT ADMINISTRATION DATA",
    "A.3 GENERAL INFORMATION:",
    "The cemetery covers 40 acres.",
    "",
    "SECTION B – CONTRACT CLAUSES",
    "",
    "B.1 CLAUSES INCORPORATED BY REFERENCE:",
    "52.212-4 applies.",
    "SECTION B – CONTRACT CLAUSES",
    "B.2 ADDENDUM TO 52.212-5:",
    "The following clauses apply.",
]
PAGES = [1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4]


def test_form_lines_leave_the_top_level_to_the_ucf_parts_and_their_header_copies_go():
    assert _outline(FORM_THEN_UCF, PAGES) == [
        ("SECTION A", "CONTRACT ADMINISTRATION DATA", 1),
        ("A.1", "DEFINITIONS", 2),
        ("A.2", "SCHEDULE OF SERVICES", 2),
        ("A.3", "GENERAL INFORMATION", 2),
        ("SECTION B", "CONTRACT CLAUSES", 1),
        ("B.1", "CLAUSES INCORPORATED BY REFERENCE", 2),
        ("B.2", "ADDENDUM TO 52.212-5", 2),
    ]
