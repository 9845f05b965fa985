"""A page, word or time limit stated in an ask's own sentence is an instruction, and the
compliance matrix shows it in its ``limit`` column (new-user trial 16: the column was empty for
"shall not exceed 30 pages" and "250 words per question", and a numbered paragraph stating a
page limit was read as a pointer to a section, kind ``option``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.limits import response_limit
from rfp_retrieval.documents.matrix import matrix_rows


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("The Technical Volume shall not exceed 30 pages.", "30 pages"),
        ("Responses shall not exceed 250 words per question.", "250 words per question"),
        ("Describe your escalation path (limit: 500 words).", "500 words"),
        ("Resumes shall not exceed two pages each.", "two pages each"),
        (
            "Statements shall be limited to 25 single-sided pages, excluding forms.",
            "25 single-sided pages",
        ),
        ("Submit a capability statement of no more than ten (10) pages.", "10 pages"),
        ("Management Plan (10-page limit)", "10 pages"),
        ("Staffing Plan (5 pages maximum)", "5 pages"),
        ("Keep each answer to 300 words or fewer.", "300 words"),
        ("Limit responses to 1,000 characters.", "1,000 characters"),
        # counts that limit nothing
        ("Provide three (3) references within the last three (3) years.", None),
        ("Include a one-page executive summary.", None),
        ("Deliver the plan within 30 days of award.", None),
        ("Unplanned downtime shall not exceed 30 minutes per month.", None),  # a service level
        ("The contractor shall limit its staff to 5 people on site.", None),
    ],
)
def test_response_limit_reads_the_limit_a_sentence_states(text: str, limit: str | None):
    assert response_limit(text) == limit


RFP = """# Request for Proposals

## 4. Proposal Format

4.1 Proposals shall be submitted by e-mail.

4.2 The technical volume shall not exceed 25 pages.

### 4.3 Management Volume (limit: 12 pages, excluding resumes)

## 5. Questions

Answer each question below. Responses shall not exceed 300 words per question.

5.1 Describe your approach to data migration.
"""


def test_the_matrix_shows_a_stated_limit_and_keeps_the_sentence_an_instruction(tmp_path: Path):
    path = tmp_path / "rfp.md"
    path.write_text(RFP, encoding="utf-8")
    rows = {r.text: r for r in matrix_rows(load_document(path))}
    # a numbered paragraph's first sentence is not a section heading another ask could name
    page_limit = rows["The technical volume shall not exceed 25 pages."]
    assert (page_limit.label, page_limit.kind, page_limit.limit) == (
        "4.2",
        "requirement",
        "25 pages",
    )
    words = rows["Responses shall not exceed 300 words per question."]
    assert (words.kind, words.limit) == ("requirement", "300 words per question")
    heading = rows["4.3 Management Volume (limit: 12 pages, excluding resumes)"]
    assert (heading.kind, heading.limit) == ("requirement", "12 pages")
    assert rows["Proposals shall be submitted by e-mail."].limit is None
    assert rows["Describe your approach to data migration."].limit is None
