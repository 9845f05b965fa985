"""Issue 16.6: a plain-text RFP with form feeds whose pages look alike.

Every page below has the same running header (``ACME RFP 2026-01 Page N of 6``) and footer, and
one requirement area whose heading and questions differ from the other pages' only in their
numbers. Masking every digit before comparing lines across pages made all of them "running
headers" (1 section, 0 questions); only page-number-like tokens and dates may be masked.
"""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.pages import clean_pages, furniture_key
from rfp_retrieval.documents.questions import find_questions

AREAS = 6
COVER = "ACME Corporation\nRequest for Proposal ACME RFP 2026-01\nData Platform Services"


def _page(n: int) -> str:
    """Page ``n + 1`` of the RFP: requirement area ``n`` between the running header and footer."""
    return "\n".join(
        [
            f"ACME RFP 2026-01 Page {n + 1} of {AREAS + 1}",
            "",
            f"{n}. Requirement Area {n}",
            "",
            f"{n}.1 Describe how your solution meets requirement area {n}.",
            f"{n}.2 Describe your staffing for requirement area {n}.",
            "",
            f"ACME Corporation | Issued March {n + 1}, 2026 | Proprietary",
        ]
    )


def _paged_rfp(tmp_path: Path) -> Path:
    path = tmp_path / "acme-rfp-2026-01.txt"
    pages = [COVER] + [_page(n) for n in range(1, AREAS + 1)]
    path.write_text("\f".join(pages), encoding="utf-8")
    return path


def test_similar_pages_keep_their_numbered_headings_and_questions(tmp_path: Path) -> None:
    doc = load_document(_paged_rfp(tmp_path))
    headings = [(s.number, s.heading, s.page) for s in doc.sections if s.kind == "heading"]
    assert headings == [(f"{n}.", f"Requirement Area {n}", n + 1) for n in range(1, AREAS + 1)]
    questions = [(q.label, q.text) for q in find_questions(doc)]
    assert questions == [
        pair
        for n in range(1, AREAS + 1)
        for pair in (
            (f"{n}.1", f"Describe how your solution meets requirement area {n}."),
            (f"{n}.2", f"Describe your staffing for requirement area {n}."),
        )
    ]


def test_running_header_and_footer_of_similar_pages_are_still_removed(tmp_path: Path) -> None:
    doc = load_document(_paged_rfp(tmp_path))
    assert doc.text.splitlines()[:5] == [
        "ACME Corporation",
        "Request for Proposal ACME RFP 2026-01",
        "Data Platform Services",
        "",
        "1. Requirement Area 1",
    ]
    assert "Page 2 of 7" not in doc.text
    assert "Proprietary" not in doc.text
    assert doc.issue_date is None  # the footer dates differ page to page: no issue date read


def test_only_page_numbers_and_dates_are_masked_when_comparing_pages() -> None:
    pages = [[line for line in _page(n).splitlines() if line] for n in range(1, AREAS + 1)]
    lines, page_of_line, removed, _ = clean_pages(pages)
    assert removed == [
        line
        for n in range(1, AREAS + 1)
        for line in (
            f"ACME RFP 2026-01 Page {n + 1} of {AREAS + 1}",
            f"ACME Corporation | Issued March {n + 1}, 2026 | Proprietary",
        )
    ]
    assert lines[:4] == [
        "1. Requirement Area 1",
        "1.1 Describe how your solution meets requirement area 1.",
        "1.2 Describe your staffing for requirement area 1.",
        "2. Requirement Area 2",
    ]
    assert page_of_line[:4] == [1, 1, 1, 2]
    assert len(lines) == 3 * AREAS


def test_folio_beside_a_running_title_is_masked_only_at_the_foot_of_the_page() -> None:
    assert furniture_key("5 RFP-26-001-HTDC", "bottom") == "<page> rfp-26-001-htdc"
    assert furniture_key("ii RFP-26-001-HTDC", "bottom") == "<page> rfp-26-001-htdc"
    assert furniture_key("3 Requirement Area", "top") == "3 requirement area"
    assert furniture_key("1 | P age Version 2 TMR September 21, 2018", "bottom") == (
        "<page> version 2 tmr <date>"
    )
    assert furniture_key("3.1 Describe your approach to item 3.", "bottom") == (
        "3.1 describe your approach to item 3."
    )


def test_a_line_at_the_top_of_some_pages_and_the_foot_of_others_is_kept() -> None:
    """Furniture repeats at one place: two tops and two feet of six pages are not furniture."""
    pages = []
    for n, word in enumerate(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"], start=1):
        body = [f"The {word} team reports weekly.", f"The {word} crew is on call."]
        if n <= 2:
            pages.append(["Scope of Work", *body, f"The {word} site opens in spring."])
        elif n <= 4:
            pages.append([f"The {word} site opens in spring.", *body, "Scope of Work"])
        else:
            pages.append([f"The {word} site opens in spring.", *body])
    lines, _, removed, _ = clean_pages(pages)
    assert removed == []
    assert lines.count("Scope of Work") == 4
