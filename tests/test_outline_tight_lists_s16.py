"""Numbered paragraphs on consecutive Markdown lines are items of their own (new-user trial,
session 16: "2.1 ...", "2.2 ...", ... "2.7 ..." with no blank line between them were one
outline node, and the scope items under it were missing from the compliance matrix)."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions

RFP = """# County RFP 12-34: Permitting System

## 2. Scope of Work

2.1 Configure the permitting platform for building and zoning permits.
2.2 The Contractor shall migrate 1.2 million permit records from the legacy system.
2.3 Training for 60 county staff.
2.5 is not the next item and 2.4 was skipped: this line continues 2.3.

## 3. Proposal

3.1 Describe your approach to the migration in item 2.2.
"""


def test_consecutive_numbered_lines_are_sections_of_their_own(tmp_path: Path) -> None:
    path = tmp_path / "rfp.md"
    path.write_text(RFP, encoding="utf-8")
    doc = load_document(path)
    numbered = {s.number: s for s in doc.sections if s.number}
    assert sorted(numbered) == ["2.", "2.1", "2.2", "2.3", "3.", "3.1"]
    assert numbered["2.2"].parent == numbered["2."].key
    # a number out of sequence on the next line is text of the item above
    assert "2.5 is not the next item" in numbered["2.3"].body
    rows = [(q.kind, q.label, q.section_path[-1]) for q in find_questions(doc)]
    assert rows[0] == ("work-statement", "2.2", "2. Scope of Work")  # its own row, labelled
