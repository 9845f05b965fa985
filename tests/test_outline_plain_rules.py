"""Plain-text / PDF outline rules of issue 13: restarted lists, caps run-in paragraphs of a
closing appendix, running headings over part of a document, headings opening their child."""

from __future__ import annotations

from rfp_retrieval.documents.outline import parse_outline
from rfp_retrieval.documents.plain_headings import caps_runin


def _outline(lines, pages=None):
    return [(s.number, s.heading, s.level) for s in parse_outline(lines, "plain", pages)]


def test_caps_runin_splits_title_from_text():
    assert caps_runin("AUTHORITY-The Purchasing Agent has") == (
        "AUTHORITY",
        "The Purchasing Agent has",
    )
    assert caps_runin("TIE-BIDS – If all bids are equal") == ("TIE-BIDS", "If all bids are equal")
    assert caps_runin("AUDIT OF RECORDS The parties agree") == (
        "AUDIT OF RECORDS",
        "The parties agree",
    )
    assert caps_runin("RFP Submission is due") is None  # one short acronym is no title
    assert caps_runin("The Offeror shall") is None


SPECIAL = [
    "1. PURPOSE AND SCOPE:",
    "1.1. The County seeks IT staff for the following categories.",
    "",
    "1. Infrastructure Support",
    "2. Application Support",
    "3. Security Support",
    "",
    "2. MINIMUM QUALIFICATIONS:",
    "2.1. Offerors must have been in business for five years.",
    "3. CONTRACT PERIOD:",
    "3.1. The contract runs for five years.",
]


def test_a_list_restarting_inside_a_section_does_not_take_the_top_level():
    assert [(number, level) for number, _, level in _outline(SPECIAL)] == [
        ("1.", 1),
        ("1.1.", 2),
        ("2.", 1),
        ("2.1.", 2),
        ("3.", 1),
        ("3.1.", 2),
    ]


def test_general_conditions_appendix_keeps_its_caps_run_in_paragraphs_and_drops_header_copies():
    appendix = [
        "Appendix A GENERAL CONDITIONS",
        "",
        "1. AUTHORITY-The Purchasing Agent has the sole authority to purchase.",
        "",
        "2. DEFINITIONS- Terms have the meanings of the Purchasing Resolution.",
        "Appendix A GENERAL CONDITIONS",
        "3. BID FORMS-All bids must be submitted on the forms provided.",
    ]
    lines = SPECIAL + [""] + appendix
    pages = [1] * (len(SPECIAL) + 1) + [2, 2, 2, 2, 2, 3, 3]
    got = _outline(lines, pages)
    assert [n for n, _, _ in got[:6]] == ["1.", "1.1.", "2.", "2.1.", "3.", "3.1."]
    assert got[6:] == [
        ("Appendix A", "GENERAL CONDITIONS", 1),
        ("1.", "AUTHORITY", 2),
        ("2.", "DEFINITIONS", 2),
        ("3.", "BID FORMS", 2),
    ]
