"""A questionnaire's summary counts its rows, a one-column sheet of one question included."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document


def test_a_one_question_csv_is_a_questionnaire_of_one_row(tmp_path: Path):
    path = tmp_path / "security-questions.csv"
    path.write_text("Question\nDescribe how you encrypt data at rest.\n", encoding="utf-8")
    assert load_document(path).summary == "Security Questions. A questionnaire of 1 row."


def test_a_two_column_csv_counts_its_data_rows(tmp_path: Path):
    path = tmp_path / "security-questions.csv"
    path.write_text(
        "ID,Question\nS-1,Describe how you encrypt data at rest.\n"
        "S-2,Describe how you rotate keys.\n",
        encoding="utf-8",
    )
    assert load_document(path).summary == "Security Questions. A questionnaire of 2 rows."
