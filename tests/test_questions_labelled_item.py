"""The questions of one labelled item are one question (new-user trial, session 16: "Q1.
Describe your experience ... What volumes and latencies did you achieve?" became two asks
labelled "Q1.", the second with no context). Requirements stay one per sentence."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions

NOTICE = """SOURCES SOUGHT NOTICE

4. CAPABILITY QUESTIONS

Respondents shall answer the following questions:

Q1. Describe your experience moving call-center recordings into a cloud archive. What volumes did you move, and how long did it take?
Q2. How do you keep recordings searchable after the move?

5. SUBMISSION

5.1 Responses shall not exceed ten pages. Respondents shall include a cover letter.
"""  # noqa: E501


def test_a_numbered_item_with_two_question_sentences_is_one_question(tmp_path: Path) -> None:
    path = tmp_path / "notice.txt"
    path.write_text(NOTICE, encoding="utf-8")
    found = find_questions(load_document(path))
    questions = [(q.label, q.text) for q in found if q.kind == "question"]
    assert questions == [
        (
            "Q1.",
            "Describe your experience moving call-center recordings into a cloud archive. "
            "What volumes did you move, and how long did it take?",
        ),
        ("Q2.", "How do you keep recordings searchable after the move?"),
    ]
    rules = [q.text for q in found if q.label == "5.1"]
    assert rules == [
        "Responses shall not exceed ten pages.",
        "Respondents shall include a cover letter.",
    ]
