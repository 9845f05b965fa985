"""Run-in list headings (``a.  *Format.* ...``) and how they nest (issue 13)."""

from __future__ import annotations

import pytest

from rfp_retrieval.documents.headings import runin_list_heading
from rfp_retrieval.documents.numbering import list_family
from rfp_retrieval.documents.outline import parse_outline


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "a.  *Format.* Quotations shall be concise.",
            ("a.", "Format", "Quotations shall be concise."),
        ),
        (
            "1. *Quotation Validation Date*. Valid 60 days.",
            ("1.", "Quotation Validation Date", "Valid 60 days."),
        ),
        (
            "*a. Evaluation Process.* The Government will",
            ("a.", "Evaluation Process", "The Government will"),
        ),
        ("> ii.  *Pricing Narrative.* Describe", ("ii.", "Pricing Narrative", "Describe")),
        (
            "b.  *Page Limits. The quote must not exceed",
            ("b.", "Page Limits", "The quote must not exceed"),
        ),
        ("a\\. ***Cover Page***.", ("a.", "Cover Page", "")),
        ("(c) _Staffing Plan._ Submit a plan", ("(c)", "Staffing Plan", "Submit a plan")),
    ],
)
def test_runin_list_heading_reads_label_title_and_body(line, expected):
    assert runin_list_heading(line) == expected


@pytest.mark.parametrize(
    "line",
    [
        "1. *Note* that the offeror shall comply.",  # emphasis inside a sentence
        "a. Quotations shall be formatted.",  # no emphasis: a list item
        "c. *The offeror shall submit a plan.* Then",  # a sentence, not a title
        "2. **Bold** words",
    ],
)
def test_list_items_without_a_run_in_title_are_not_headings(line):
    assert runin_list_heading(line) is None


def test_list_family_tells_roman_from_letters():
    assert list_family("i.") == "roman"
    assert list_family("i.", previous_letter="h.") == "letter"
    assert list_family("v.", previous_letter="c.") == "roman"
    assert list_family("(b)") == "paren-letter"
    assert list_family("3.") == "decimal"


DOC = """# Request for Quotation

**1. General.** Submit your quote.

**2. Quotation Instructions.**

a.  *Format.* Use 8.5 by 11 inch paper.

b.  *Price Quotation.* Submit a price file.

> i.  *Pricing Schedule.* Use the template.

> ii.  *Pricing Narrative.* Explain the basis.

c.  *Cover Page.* One page.

*Rules.* No slides.

**3. Evaluation.**

a. *Evaluation Process.* Phased.

b. *Scoring Plan*
"""


def test_run_in_items_nest_by_family_under_their_sections():
    sections = parse_outline(DOC.splitlines(), "markdown")
    by_key = {s.key: s for s in sections}
    got = [
        (s.number, s.heading, s.level, by_key[s.parent].heading if s.parent else None)
        for s in sections
    ]
    assert got == [
        (None, "Request for Quotation", 0, None),
        ("1.", "General", 1, "Request for Quotation"),
        ("2.", "Quotation Instructions", 1, "Request for Quotation"),
        ("a.", "Format", 2, "Quotation Instructions"),
        ("b.", "Price Quotation", 2, "Quotation Instructions"),
        ("i.", "Pricing Schedule", 3, "Price Quotation"),
        ("ii.", "Pricing Narrative", 3, "Price Quotation"),
        ("c.", "Cover Page", 2, "Quotation Instructions"),
        (None, "Rules", 3, "Cover Page"),
        ("3.", "Evaluation", 1, "Request for Quotation"),
        ("a.", "Evaluation Process", 2, "Evaluation"),
        ("b.", "Scoring Plan", 2, "Evaluation"),
    ]


def test_a_second_title_line_is_part_of_the_title_block():
    lines = [
        "# REQUEST FOR QUOTATION",
        "",
        "# Department of Records Portal",
        "",
        "## 1. Scope",
        "Text.",
    ]
    assert [(s.number, s.heading, s.level) for s in parse_outline(lines, "markdown")] == [
        (None, "REQUEST FOR QUOTATION", 0),
        ("1.", "Scope", 1),
    ]
