"""A PDF text layer's lines of invisible characters are no paragraph breaks.

pypdf gives a line of zero-width spaces (``\\u200b \\u200b``) around bold or underlined words;
cleaned, such a line used to become blank, and a blank line ends a paragraph, so the ask
around it was cut in two and the compliance matrix lost its page limit or its date.
"""

from __future__ import annotations

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import matrix_rows
from rfp_retrieval.documents.pages import clean_pages
from tests.conftest import SHARED_DATA


def test_a_line_of_invisible_characters_inside_a_sentence_is_dropped():
    page = [
        "Technical submissions must consist of a technical proposal of no more than four (4)",
        "\u200b \u200b",
        "pages, a staffing plan of no more than three (3) pages.",
        "",
        "Questions are due by Friday.",
    ]
    lines, page_of_line, _, styles = clean_pages([page], [[None] * len(page)])
    assert lines == [page[0], page[2], "", page[4]]
    assert page_of_line == [1, 1, 1, 1] and styles == [None] * 4


def test_before_a_heading_or_a_new_sentence_it_stays_a_paragraph_break():
    page = [
        "Letting grantees upload and view their data will reduce the burden",
        "\u200b",
        "2.0 Scope",
        "",
        "Quotes are due Friday.",
        "\u200b \u200b",
        "Late quotes will not be read.",
        "\u200b",
        "Key Personnel - The Contractor must designate both a Project Manager (PM) and a",
        "\u200b",
        "Technical Lead as Key Personnel.",
    ]
    lines, _, _, _ = clean_pages([page], [[None] * len(page)])
    assert lines == [page[0], "", page[2], "", page[4], "", page[6], "", page[8], page[10]]


def test_the_asks_of_a_pdf_with_zero_width_lines_stay_whole(shared_data):
    path = SHARED_DATA / "rfps" / "ustaxcourt-ef-cms-rfq-18-0018.pdf"
    texts = [row.text for row in matrix_rows(load_document(path))]
    limits = [t for t in texts if "no more than four (4)" in t]
    assert len(limits) == 1
    assert "four (4) pages, a staffing plan of no more than three (3) pages" in limits[0]
    assert any(
        t.endswith(
            "must be received by the Court on or before 5:00 p.m. EDT on Friday, August 24, 2018."
        )
        for t in texts
    )
    assert not [t for t in texts if t.endswith("Project Manager (PM) and a")]
