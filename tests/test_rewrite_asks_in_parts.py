"""A requirement whose listed items are questions is answered from the answer library (new-user
trial: a sources-sought notice's capability questions showed "0 question(s)" in the brief)."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.rewrite.chain import asks_in_parts, rewrite_questions

NOTICE = """SOURCES SOUGHT NOTICE
Title: Document Intake Support
Posted Date: November 2, 2026

1. PURPOSE
This is a Sources Sought notice for market research only.

2. CAPABILITY STATEMENT REQUIREMENTS
Respondents shall submit a capability statement (10 pages) that addresses the following:
a. Describe your experience with high-volume document ingestion in a federal environment.
b. Describe your experience operating systems at FedRAMP Moderate or higher.
c. State your business size and socioeconomic status.

3. SUBMISSION FORMAT
The response shall include the following:
a. A cover page.
b. A table of contents.
"""


def test_question_items_of_a_requirement_are_rewritten_and_a_list_of_parts_is_not(
    tmp_path: Path,
) -> None:
    path = tmp_path / "notice.txt"
    path.write_text(NOTICE, encoding="utf-8")
    doc = load_document(path)
    found = find_questions(doc)
    by_lead = {q.text.split()[1]: q for q in found if q.kind == "requirement"}
    capability, fmt = by_lead["shall"], by_lead["response"]
    assert capability.parts[0].startswith("Describe your experience with high-volume")
    assert asks_in_parts(capability, doc) is True
    assert asks_in_parts(fmt, doc) is False
    assert asks_in_parts(capability, None) is False  # the item rule reads the section
    rewritten = rewrite_questions(found, doc)
    assert [r.question_id for r in rewritten] == [capability.id]
    queries = {q.role: q.text for q in rewritten[0].queries}
    assert queries["part_1"].startswith("Describe your experience with high-volume")


def test_a_cover_field_whose_value_opens_with_an_ask_verb_is_no_ask() -> None:
    from rfp_retrieval.documents.ask_patterns import is_ask

    assert is_ask("Title: Document Intake Support") is False
    assert is_ask("RFP Title: Provide Managed Print Services") is False
    assert is_ask("Subject: Support for the grants system") is False
    # a run-in topic before an ask stays an ask
    assert is_ask("Staffing Plan: Describe your approach to staffing.") is True
    assert is_ask("Technical Approach: Provide a narrative of no more than 5 pages.") is True
