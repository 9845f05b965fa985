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


def test_factor_labels_and_two_part_run_in_titles():
    lines = [
        "M.1. EVALUATION FACTORS",
        "",
        "M.1.1. Phase I: Written Proposals. The Government will evaluate written proposals.",
        "",
        "Subfactor 1 - Organizational Structure. Evaluate the organizational structure.",
        "",
        "Factor 2 is less important than Factor 1 and is evaluated on price.",
        "",
        "M.1.2. Delivery Locations (Attachment 2 lists",
        "",
        "Locations are listed in Attachment 2.",
        "",
        "M.2. BASIS FOR AWARD",
    ]
    assert _outline(lines) == [
        ("M.1.", "EVALUATION FACTORS", 2),
        ("M.1.1.", "Phase I: Written Proposals", 3),
        ("Subfactor 1", "Organizational Structure", 4),
        ("M.1.2.", "Delivery Locations", 3),
        ("M.2.", "BASIS FOR AWARD", 2),
    ]


def test_restarted_items_with_run_in_titles_are_sub_sections():
    lines = SPECIAL + [
        "",
        "4. PROPOSAL INSTRUCTIONS:",
        "4.1. Technical Proposal",
        "",
        "1. Cover Letter: The letter will name the officer who binds the offeror.",
        "",
        "2. Staffing Plan: The plan should chart the time of each person.",
        "",
        "5. PRICING:",
        "5.1. Prices are firm for one year.",
    ]
    got = _outline(lines)
    assert got[6:] == [
        ("4.", "PROPOSAL INSTRUCTIONS", 1),
        ("4.1.", "Technical Proposal", 2),
        ("1.", "Cover Letter", 3),
        ("2.", "Staffing Plan", 3),
        ("5.", "PRICING", 1),
        ("5.1.", "Prices are firm for one year.", 2),
    ]


def test_proposal_volumes_are_headings_and_a_list_of_factor_names_is_not():
    lines = [
        "L.1. PROPOSAL FORMAT",
        "",
        "Volume I, Functional.",
        "Volume I Functional Documents. Offerors shall describe the functions offered.",
        "",
        "Volume II, Technical. Offerors shall describe the architecture.",
        "",
        "L.2. TECHNICAL SUBFACTORS",
        "",
        "Subfactor 1 - Infrastructure",
        "",
        "Subfactor 2 - Interface",
        "",
        "L.3. SUBMISSION",
    ]
    assert _outline(lines) == [
        ("L.1.", "PROPOSAL FORMAT", 2),
        (None, "Volume I, Functional", 3),
        (None, "Volume II, Technical", 3),
        ("L.2.", "TECHNICAL SUBFACTORS", 2),
        ("L.3.", "SUBMISSION", 2),
    ]


def test_a_numeral_alone_in_its_column_takes_the_caps_title_on_the_next_line():
    # a larger or bolder numeral sits on its own baseline, so "III." and its run-in title
    # are extracted as two lines; a mixed-case name ("eVA") may open a caps title
    lines = [
        "I. PURPOSE: The purpose of this Request for Proposal is to solicit proposals.",
        "",
        "II. GOVERNING RULES: This solicitation shall be subject to the Purchasing Manual.",
        "",
        "III.",
        "COMMUNICATION: Communications regarding the Request For Proposals shall be formal.",
        "",
        "IV. eVA VENDOR REGISTRATION: The eVA Internet electronic procurement solution,",
        "website portal www.eVA.virginia.gov, streamlines purchasing.",
        "",
        "V. PERIOD OF PERFORMANCE: The contract term is one year.",
    ]
    assert _outline(lines) == [
        ("I.", "PURPOSE", 1),
        ("II.", "GOVERNING RULES", 1),
        ("III.", "COMMUNICATION", 1),
        ("IV.", "eVA VENDOR REGISTRATION", 1),
        ("V.", "PERIOD OF PERFORMANCE", 1),
    ]


def test_a_bare_number_before_a_sentence_is_not_a_heading():
    lines = [
        "1. SCOPE: The work is described below.",
        "",
        "2.",
        "The Offeror shall describe its approach: staffing, schedule and risks.",
        "",
        "3. PRICE: Prices are firm.",
        "",
        "4. TERM: One year.",
    ]
    assert [n for n, _, _ in _outline(lines)] == ["1.", "3.", "4."]


def test_later_attachments_restarting_at_1_are_no_appendix_sections():
    """Rule (issue 13 follow-up): the closing appendix's numbered caps items are its sections
    only while they count up; each later attachment's "1. GENERAL" list is no section."""
    attachments = [
        "Attachment A GENERAL CONDITIONS",
        "1. AUTHORITY-The Purchasing Agent has the sole authority to purchase.",
        "2. DEFINITIONS- Terms have the meanings of the Purchasing Resolution.",
        "",
        "Attachment B MOWING",
        "1. GENERAL",
        "The contractor shall mow all turf areas weekly.",
        "2. SCOPE",
        "Mowing covers sections 1 through 40.",
        "",
        "Attachment C TRASH REMOVAL",
        "1. GENERAL",
        "The contractor shall remove trash daily.",
    ]
    got = _outline(SPECIAL + [""] + attachments)
    assert got[6:] == [
        ("Attachment A", "GENERAL CONDITIONS", 1),
        ("1.", "AUTHORITY", 2),
        ("2.", "DEFINITIONS", 2),
        ("Attachment B", "MOWING", 1),
        ("Attachment C", "TRASH REMOVAL", 1),
    ]


def test_an_attachment_heading_named_earlier_in_a_list_is_kept():
    """Rule (issue 13 follow-up): a page-top heading is a running-header copy only when its
    first occurrence was at a page top too; "ATTACHMENT B" in a list of attachments is not."""
    lines = SPECIAL + [
        "",
        "4. LIST OF ATTACHMENTS:",
        "4.1. The following attachments form part of this solicitation.",
        "ATTACHMENT A",
        "ATTACHMENT B",
        "ATTACHMENT A",
        "Wage rates apply to all labour categories.",
        "ATTACHMENT B",
        "Insurance certificates are required before work starts.",
        "ATTACHMENT B",
        "Certificates name the County as additional insured.",
    ]
    pages = [1] * (len(SPECIAL) + 5) + [2, 2, 3, 3, 4, 4]
    got = [(s.number, s.line, s.page) for s in parse_outline(lines, "plain", pages)]
    first = len(SPECIAL) + 4  # 1-based line of the list's "ATTACHMENT A"
    assert got[6:] == [
        ("4.", first - 2, 1),
        ("4.1.", first - 1, 1),
        ("ATTACHMENT A", first + 2, 2),
        ("ATTACHMENT B", first + 4, 3),  # its page-top copy on page 4 is dropped
    ]


def test_an_attachment_label_followed_by_a_colon_opens_a_section():
    """Rule (new-user finding F2): "ATTACHMENT J-4: RESPONSE MATRIX" is a heading; the colon
    is the label's separator, as a dash is."""
    lines = SPECIAL + [
        "",
        "ATTACHMENT J-4: RESPONSE MATRIX",
        "",
        "R-01 The system shall accept shapefiles.",
    ]
    got = [(s.number, s.heading, s.title) for s in parse_outline(lines, "plain")]
    assert got[-1] == ("ATTACHMENT J-4", "RESPONSE MATRIX", "ATTACHMENT J-4: RESPONSE MATRIX")


def test_an_attachment_listed_before_section_one_does_not_take_the_top_level():
    """Rule (issue 13 follow-up): "Attachment 1: ..." listed before the body's "SECTION ONE"
    is a listing, not a closing appendix owning the top level."""
    lines = (
        ["A Request for Applications"]
        + ["filler line."] * 40
        + [
            "Attachment 1: APPLICANT FORM",
            "",
            "SECTION ONE: INTRODUCTION",
            "The agency seeks a consultant.",
            "SECTION TWO: SCOPE OF WORK",
            "The consultant shall advise the board.",
            "Attachment 1: APPLICANT FORM",
            "Applicants complete the form.",
        ]
    )
    got = [(n, h) for n, h, _ in _outline(lines)]
    assert ("SECTION ONE", "INTRODUCTION") in got
    assert ("SECTION TWO", "SCOPE OF WORK") in got


def test_caps_runin_with_a_one_letter_first_word_or_the_text_on_the_next_line():
    assert caps_runin("UNBALANCED BIDS—A Bid shall be unbalanced") == (
        "UNBALANCED BIDS",
        "A Bid shall be unbalanced",
    )
    assert caps_runin("INDEMNIFICATION-") == ("INDEMNIFICATION", "")
