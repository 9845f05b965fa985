"""Outline rules on small hand-written texts: numbering schemes, levels, lists, TOCs."""

from __future__ import annotations

import datetime as dt

import pytest

from rfp_retrieval.documents.front_matter import find_due_date, find_issue_date, find_title
from rfp_retrieval.documents.numbering import NUMBERING_SCHEMES, normalise_number, roman_value
from rfp_retrieval.documents.outline import parse_outline
from rfp_retrieval.documents.summary import SUMMARY_WORDS, summarize


def rows(text: str, mode: str = "markdown") -> list[tuple[str | None, str, int, str | None]]:
    sections = parse_outline(text.splitlines(), mode)
    by_key = {s.key: s for s in sections}
    return [
        (
            s.number,
            s.heading,
            s.level,
            by_key[s.parent].number or by_key[s.parent].heading if s.parent else None,
        )
        for s in sections
    ]


def test_markdown_title_root_numbered_headings_and_list_items():
    text = """# SNAP Modernization

## 1. Background

Text.

## 3. Past Performance Instructions (Section L.6)

**L.6.1 Number of references.** The Offeror shall submit three (3) references.

**L.6.3 Relevance.** To be considered relevant, each reference shall:
1. have a total contract value of $10-30M, including exercised options;
2. have been performed for federal civilian agencies; and

L.6.4 The Offeror shall limit each reference to two pages.

### Unnumbered subsection
"""
    assert rows(text) == [
        (None, "SNAP Modernization", 0, None),
        ("1.", "Background", 1, "SNAP Modernization"),
        ("3.", "Past Performance Instructions (Section L.6)", 1, "SNAP Modernization"),
        ("L.6.1", "Number of references", 3, "3."),
        ("L.6.3", "Relevance", 3, "3."),
        ("L.6.4", "The Offeror shall limit each reference to two pages.", 3, "3."),
        (None, "Unnumbered subsection", 2, "3."),
    ]
    sections = parse_outline(text.splitlines(), "markdown")
    relevance = next(s for s in sections if s.number == "L.6.3")
    assert "1. have a total contract value of $10-30M" in relevance.body
    assert next(s for s in sections if s.number == "L.6.4").kind == "paragraph"


def test_question_items_nest_under_the_section_they_appear_in():
    text = """# RFQ

## 4. Technical Questionnaire

### 4.1 Platform and API

Question 1. Describe your API design conventions.

Question 2. What is the maximum file size?

### 4.2 Security

Question 9. Is data encrypted at rest? If so, describe the algorithm.
"""
    assert rows(text)[1:] == [
        ("4.", "Technical Questionnaire", 1, "RFQ"),
        ("4.1", "Platform and API", 2, "4."),
        ("Question 1.", "Describe your API design conventions.", 3, "4.1"),
        ("Question 2.", "What is the maximum file size?", 3, "4.1"),
        ("4.2", "Security", 2, "4."),
        ("Question 9.", "Is data encrypted at rest?", 3, "4.2"),
    ]


def test_ucf_roman_sec_and_section_word_levels():
    text = """# Solicitation

## Section C — Description/Specifications

### C.3 Requirements

#### C.3.2 Data Conversion

## Section L — Instructions

L.4.2.1 Describe your technical approach to meeting the requirements of C.3.1.

## Section IV — Technical Requirements

### IV.B Cybersecurity

IV.B.2 Describe how CUI will be protected.

# Section 1. Introduction

## Sec. 1.04 Minimum Qualifications

### (a) Authorized Signature
"""
    assert rows(text)[1:] == [
        ("Section C", "Description/Specifications", 1, "Solicitation"),
        ("C.3", "Requirements", 2, "Section C"),
        ("C.3.2", "Data Conversion", 3, "C.3"),
        ("Section L", "Instructions", 1, "Solicitation"),
        (
            "L.4.2.1",
            "Describe your technical approach to meeting the requirements of C.3.1.",
            4,
            "Section L",
        ),
        ("Section IV", "Technical Requirements", 1, "Solicitation"),
        ("IV.B", "Cybersecurity", 2, "Section IV"),
        ("IV.B.2", "Describe how CUI will be protected.", 3, "IV.B"),
        ("Section 1.", "Introduction", 1, "Solicitation"),
        ("Sec. 1.04", "Minimum Qualifications", 2, "Section 1."),
        ("(a)", "Authorized Signature", 3, "Sec. 1.04"),
    ]


def test_unnumbered_markdown_headings_take_their_level_from_hashes():
    text = "## Overview\n\nText\n\n### Goals\n\n#### Detail\n\n## Process\n"
    assert rows(text) == [
        (None, "Overview", 2, None),
        (None, "Goals", 3, "Overview"),
        (None, "Detail", 4, "Goals"),
        (None, "Process", 2, None),
    ]


def test_plain_text_skips_table_of_contents_and_numbered_lists():
    text = """REQUEST FOR PROPOSALS
Contents
SECTION ONE: INTRODUCTION 1
SECTION TWO: SCOPE OF WORK 3
SECTION ONE
INTRODUCTION
1.01 TERMS USED IN THIS SOLICITATION
The following terms are used.
1. Offeror means a firm that submits a proposal;
2. State means the State of Hawaii.
SECTION TWO
SCOPE OF WORK
2.01 OVERVIEW
The contractor shall:
1. Analyze the current environment;
2. Recommend a hosting architecture.
3. Migrate the applications.
"""
    assert rows(text, "plain") == [
        (None, "REQUEST FOR PROPOSALS", 1, None),
        ("SECTION ONE", "INTRODUCTION", 1, None),
        ("1.01", "TERMS USED IN THIS SOLICITATION", 2, "SECTION ONE"),
        ("SECTION TWO", "SCOPE OF WORK", 1, None),
        ("2.01", "OVERVIEW", 2, "SECTION TWO"),
    ]


def test_plain_text_label_headings_and_restarting_list_inside_appendix():
    lines = (
        ["Title: A Request"]
        + ["filler line."] * 40
        + [
            "Background:",
            "The agency runs a system.",
            "Information Requested:",
            "1. What is the feasibility of the solution?",
            "2. What are the risks?",
            "Appendix B - Workflows",
            "1. Bench Opinion",
            "Text.",
            "2. Decision Following Opinion",
            "Text.",
            "3. Stipulated Decision",
        ]
    )
    assert rows("\n".join(lines), "plain") == [
        (None, "Background", 1, None),
        (None, "Information Requested", 1, None),
        ("Appendix B", "Workflows", 1, None),
    ]


def test_plain_numbered_headings_need_sequence_and_title_form():
    text = "\n".join(
        [
            "1.0 Purpose and Background",
            "1.1 Purpose",
            "The purpose is stated here.",
            "2.0 Scope",
            "OFA seeks services as described in paragraph",
            "3.2 of the PWS and more.",
            "3.0 Objectives",
            "3.1 The contractor shall deliver the backlog and",
            "continue to refine it.",
        ]
    )
    sections = parse_outline(text.splitlines(), "plain")
    assert [(s.number, s.heading, s.level, s.kind) for s in sections] == [
        ("1.0", "Purpose and Background", 1, "heading"),
        ("1.1", "Purpose", 2, "heading"),
        ("2.0", "Scope", 1, "heading"),
        ("3.0", "Objectives", 1, "heading"),
        (
            "3.1",
            "The contractor shall deliver the backlog and continue to refine it.",
            2,
            "paragraph",
        ),
    ]


def test_numbering_table_is_the_single_source_of_schemes():
    names = [s.name for s in NUMBERING_SCHEMES]
    assert names == [
        "question",
        "factor",
        "tab",
        "section-word",
        "ucf-letter",
        "addendum",
        "appendix",
        "sec",
        "ucf",
        "roman",
        "decimal",
        "paren",
        "letter",
    ]
    assert roman_value("XIV") == 14 and roman_value("IX") == 9 and roman_value("ABC") is None
    with pytest.raises(ValueError, match="unknown outline mode"):
        parse_outline([], "html")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("**Issue Date:** June 8, 2026", dt.date(2026, 6, 8)),
        ("**Issue Date:** 08/03/2026", dt.date(2026, 8, 3)),  # US month/day
        ("**Date Issued:** 08 JUL 2026", dt.date(2026, 7, 8)),
        ("**Date of Issue:** 2026-09-15", dt.date(2026, 9, 15)),
        ("**Release Date:** August 14, 2026", dt.date(2026, 8, 14)),
        ("**Issue Date:** 11 June 2026", dt.date(2026, 6, 11)),
        ("ISSUE DATE: 10 NOV 04", dt.date(2004, 11, 10)),
        ("Issued 2/19/2021", dt.date(2021, 2, 19)),
        ("LEGAL AD DATE: August 1, 2025", dt.date(2025, 8, 1)),
        ("| RFQ Posting Date | *April 17, 2020* |", dt.date(2020, 4, 17)),
        ("Posted Date: March 3, 2026", dt.date(2026, 3, 3)),
        ("Published Date: 2026-03-04", dt.date(2026, 3, 4)),
        ("Original Published Date: Mar 05, 2026 10:00 am EST", dt.date(2026, 3, 5)),
        ("Date Published: 03/06/2026", dt.date(2026, 3, 6)),
        ("6. SOLICITATION ISSUE DATE 22-Jun-2020", dt.date(2020, 6, 22)),
        ("Date: February 5, 2020", dt.date(2020, 2, 5)),
        ("**February 10, 2017**", dt.date(2017, 2, 10)),
        ("Questions Due: May 8, 2026", None),
        ("Issued by: General Services Administration", None),
    ],
)
def test_issue_date_forms(line, expected):
    assert find_issue_date(["# Title", line]) == expected


def test_issue_date_label_alone_reads_the_next_line_and_due_date_is_separate():
    lines = [
        "REQUEST FOR QUOTE",
        "Release Date",
        "August 2, 2018",
        "Response Due Date",
        "August 24, 2018",
    ]
    assert find_issue_date(lines) == dt.date(2018, 8, 2)
    assert find_due_date(lines) == dt.date(2018, 8, 24)
    assert find_due_date(["**Proposals Due:** June 12, 2026, 3:00 p.m."]) == dt.date(2026, 6, 12)


def test_title_prefers_label_then_h1_then_first_line():
    assert find_title(["Request for Information", "Title: Cloud Migration"], "plain") == (
        "Cloud Migration"
    )
    assert find_title(["Cover text", "# The Title", "## 1. Scope"], "markdown") == "The Title"
    assert find_title(["PWS", "", "## 1.0 BACKGROUND"], "markdown") == "PWS"
    assert find_title(["", "First line", "Second"], "plain") == "First line"


def test_summary_is_short_deterministic_and_starts_with_title_and_issuer():
    text = """# Grants Platform

## 1. Background

ACF awards about $74 billion a year through more than 12,000 grants to states and tribes.
Staff manage these awards in a legacy system built in 2005. The system is hard to change. It
lacks a recipient portal. It relies on manual re-keying of data from external systems and on
spreadsheets kept by hand in each of the ten regional offices across the country, every
single month of the year, by grants specialists who would rather spend that time monitoring
recipients and closing out awards on schedule.
"""
    sections = parse_outline(text.splitlines(), "markdown")
    one = summarize("Grants Platform", "HHS, ACF", sections, text)
    assert one == summarize("Grants Platform", "HHS, ACF", sections, text)
    assert one.startswith("Grants Platform. Issued by HHS, ACF. ACF awards about $74 billion")
    assert len(one.split()) <= SUMMARY_WORDS
    assert one.endswith("It lacks a recipient portal.")


def test_plain_ucf_section_letters_need_their_numbering_to_follow():
    text = "\n".join(
        [
            "B. Supplies or Services and Prices/Costs",
            "B.1 Contract Type",
            "The Government anticipates a fixed-price award.",
            "C \u2013 Statement of Objectives",
            "C.1 INTRODUCTION",
            "The purpose is stated here.",
            "A. Enterprise Security Operations Center",
            "The ESOC monitors the network.",
        ]
    )
    assert rows(text, "plain") == [
        ("B", "Supplies or Services and Prices/Costs", 1, None),
        ("B.1", "Contract Type", 2, "B"),
        ("C", "Statement of Objectives", 1, None),
        ("C.1", "INTRODUCTION", 2, "C"),
    ]


def test_section_numbers_normalise_to_one_key_and_references_drop_addendum_and_paragraph():
    assert normalise_number("Section 2.0.") == "2"
    assert normalise_number("  sec.  1.04: ") == "1.04"
    assert normalise_number("c.3.2") == "C.3.2"
    # the outline keeps "ADDENDUM L" apart from "Section L"; a cross-reference does not
    assert normalise_number("ADDENDUM L") == "ADDENDUM L"
    assert normalise_number("Addendum L", reference=True) == "L"
    assert normalise_number("Paragraph 3.1", reference=True) == "3.1"
    assert normalise_number("Para. 4.0", reference=True) == "4"


def test_sec_numbers_without_the_dot_are_numbered_like_with_it():
    text = (
        "# Request for Proposals\n\n## Sec. 6.01 Proposal Format\n\nText.\n\n"
        "## Sec 6.02 Evaluation\n\nText.\n\n### Sec 6.02.1 Cost\n\nText.\n"
    )
    got = [(s.number, s.heading, s.level) for s in parse_outline(text.splitlines(), "markdown")]
    assert got[1:] == [
        ("Sec. 6.01", "Proposal Format", 2),
        ("Sec 6.02", "Evaluation", 2),
        ("Sec 6.02.1", "Cost", 3),
    ]
    assert normalise_number("Sec 6.02") == "6.02" == normalise_number("Sec. 6.02")
    assert normalise_number("SECURITY") == "SECURITY"  # a word, not the "Sec" label
