"""Response tables (issue 14): the topic column wherever it stands, header rows below a title
row, merged cells, and rows whose ask is a second sentence."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.documents.response_tables import header_index, spanning_label

HEAD = "# Sample RFP\n\n## 4 Security Questionnaire\n\nComplete every row.\n\n"


def _table_rows(tmp_path: Path, table: str) -> list[tuple]:
    path = tmp_path / "rfp.md"
    path.write_text(HEAD + table, encoding="utf-8")
    questions = find_questions(load_document(path))
    return [(q.label, q.topic, q.text) for q in questions if q.kind == "table-row"]


def test_topic_column_in_the_middle_is_the_row_context(tmp_path):
    table = (
        "| Item | Control Area | Question | Answer Options |\n"
        "| --- | --- | --- | --- |\n"
        "| SQ-1 | Encryption of backups held by a third-party storage provider | "
        "Is this in place? Name the algorithm. | Yes / No |\n"
        "| SQ-2 | Quarterly review of administrator accounts | "
        "How often is it done? | Yes / No |\n"
    )
    assert _table_rows(tmp_path, table) == [
        (
            "SQ-1",
            "Encryption of backups held by a third-party storage provider",
            "Is this in place? Name the algorithm.",
        ),
        ("SQ-2", "Quarterly review of administrator accounts", "How often is it done?"),
    ]


def test_control_column_before_the_requirement_is_the_topic(tmp_path):
    table = (
        "| Ref | Requirement | Control | Vendor Response |\n"
        "| --- | --- | --- | --- |\n"
        "| 7 | Describe how keys are rotated and who can approve an exception. | "
        "Key Management | |\n"
    )
    assert _table_rows(tmp_path, table) == [
        ("7", "Key Management", "Describe how keys are rotated and who can approve an exception.")
    ]


def test_header_row_below_a_title_row_and_spanning_rows_name_the_topic(tmp_path):
    table = (
        "| Table 4 — Vendor Security Questions | | |\n"
        "| No. | Question | Response |\n"
        "| --- | --- | --- |\n"
        "| Access Control | | |\n"
        "| 1 | Is it enforced for every administrator? | |\n"
        "| 2 | Describe how dormant accounts are disabled. | |\n"
        "| Backup and Recovery | Backup and Recovery | Backup and Recovery |\n"
        "| 3 | How often are they tested? | |\n"
    )
    assert _table_rows(tmp_path, table) == [
        ("1", "Access Control", "Is it enforced for every administrator?"),
        ("2", "Access Control", "Describe how dormant accounts are disabled."),
        ("3", "Backup and Recovery", "How often are they tested?"),
    ]


def test_blank_topic_cell_continues_the_merged_cell_above(tmp_path):
    table = (
        "| Domain | ID | Question | Response |\n"
        "| --- | --- | --- | --- |\n"
        "| Incident Response | IR-1 | Describe your notification timeline. | |\n"
        "| | IR-2 | Is it tested every year? | |\n"
        "| Logging | LG-1 | How long are they kept? | |\n"
    )
    assert [(label, topic) for label, topic, _ in _table_rows(tmp_path, table)] == [
        ("IR-1", "Incident Response"),
        ("IR-2", "Incident Response"),
        ("LG-1", "Logging"),
    ]


def test_a_lone_question_cell_with_blank_answers_is_an_ask_not_a_spanning_row():
    assert (
        spanning_label(["Describe your approach to patching.", ""])
        == "Describe your approach to patching."
    )
    assert spanning_label(["Access Control", "", ""]) == "Access Control"
    assert spanning_label(["1", "Is it enforced?", ""]) is None
    assert header_index([["Title", "", ""], ["No.", "Question", "Response"], ["---"] * 3]) == 1
    assert header_index([["No.", "Question"], ["1", "Is it?"]]) == 0


def test_two_column_form_with_blank_responses_keeps_every_ask(tmp_path):
    table = (
        "| Question | Response |\n"
        "| --- | --- |\n"
        "| Describe your approach to patching servers. | |\n"
        "| How are backups encrypted? | |\n"
    )
    assert [text for _, _, text in _table_rows(tmp_path, table)] == [
        "Describe your approach to patching servers.",
        "How are backups encrypted?",
    ]
