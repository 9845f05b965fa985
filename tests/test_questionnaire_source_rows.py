"""The compliance matrix of a questionnaire cites each row where the file has it: the sheet
row of an XLSX, the line a CSV record starts on (new-user trial 16: T-01 on sheet row 2 showed
line 4, the line of the rendered text under the sheet's name)."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import matrix_rows
from rfp_retrieval.documents.tables import document_frame, document_from_frames, outline_frame


def _workbook(path: Path) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Requirements"
    sheet["A3"] = "Answer every row; mark each requirement Y or N."  # rows 1-2 empty
    sheet.append(["Ref", "Category", "Requirement", "Response"])  # row 4
    sheet.append(["R-1", "Hosting", "The solution shall be hosted in two regions.", None])
    sheet.append(["R-2", "Hosting", "Describe your backup schedule.", None])
    sheet.append([None, None, None, None])  # row 7: blank
    sheet.append(["R-3", "Security", "Describe how administrators sign in.", None])  # row 8
    second = book.create_sheet("Service")
    second.append(["No.", "Question"])
    second.append(["S-1", "How do you report outages to the customer?"])
    book.save(path)
    return path


def test_xlsx_rows_are_cited_by_their_sheet_row(tmp_path: Path):
    doc = load_document(_workbook(tmp_path / "questionnaire.xlsx"))
    rows = [(r.label, r.section_path, r.line) for r in matrix_rows(doc) if r.label]
    assert rows == [
        ("R-1", "Requirements > Hosting", 5),
        ("R-2", "Requirements > Hosting", 6),
        ("R-3", "Requirements > Security", 8),
        ("S-1", "Service", 2),
    ]
    # the stored document keeps the rows: the pipeline's matrix cites them too
    stored = document_from_frames(document_frame("q", doc), outline_frame("q", doc))
    assert [r.line for r in matrix_rows(stored) if r.label] == [5, 6, 8, 2]


def test_csv_rows_are_cited_by_the_line_their_record_starts_on(tmp_path: Path):
    path = tmp_path / "questionnaire.csv"
    path.write_text(
        "No.,Question,Response\n"
        'Q1,"Describe your monitoring.\nInclude the tools you use.",\n'  # a cell over 2 lines
        "\n"
        "Q2,Do you hold a current SOC 2 report?,\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    assert [(r.label, r.line) for r in matrix_rows(doc)] == [("Q1", 2), ("Q2", 5)]


def test_other_formats_cite_the_line_of_the_text(tmp_path: Path):
    path = tmp_path / "rfp.md"
    path.write_text("# RFP\n\n## 1. Questions\n\n1.1 Describe your approach.\n", encoding="utf-8")
    doc = load_document(path)
    assert doc.source_rows == []
    assert [(r.label, r.line) for r in matrix_rows(doc)] == [("1.1", 5)]
