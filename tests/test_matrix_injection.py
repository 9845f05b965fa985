"""Compliance-matrix export never turns an RFP's text into a live spreadsheet formula."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

from rfp_retrieval.documents.matrix import MatrixRow, write_matrix

ROWS = [
    MatrixRow(
        "q-001",
        "3.1",
        "RFP > 3 Questions",
        '=HYPERLINK("http://x.example","Open")',
        "question",
        None,
        4,
        12,
    ),
    MatrixRow(
        "q-002",
        "-1",
        "RFP > 3 Questions",
        "+1 describe your staffing plan.",
        "question",
        None,
        None,
        14,
    ),
    MatrixRow(
        "q-003", None, "@RFP", "Describe your hosting environment.", "question", None, None, 16
    ),
]


def test_xlsx_cells_starting_with_a_formula_sign_are_text_cells(tmp_path: Path):
    from openpyxl import load_workbook

    out = write_matrix(ROWS, tmp_path / "m.xlsx")
    sheet = load_workbook(out)["Compliance Matrix"]
    text = sheet.cell(row=2, column=4)
    assert text.value == '=HYPERLINK("http://x.example","Open")'
    assert text.data_type == "s"
    assert sheet.cell(row=3, column=2).value == "-1"
    assert sheet.cell(row=3, column=2).data_type == "s"
    assert sheet.cell(row=3, column=4).value == "+1 describe your staffing plan."
    assert sheet.cell(row=4, column=3).value == "@RFP"
    assert sheet.cell(row=4, column=3).data_type == "s"
    assert sheet.cell(row=2, column=7).value == 4  # page and line stay numbers
    with zipfile.ZipFile(out) as book:
        assert "<f>" not in book.read("xl/worksheets/sheet1.xml").decode()


def test_csv_cells_starting_with_a_formula_sign_get_a_leading_quote(tmp_path: Path):
    out = write_matrix(ROWS, tmp_path / "m.csv")
    with out.open(encoding="utf-8-sig", newline="") as fh:
        lines = list(csv.reader(fh))
    assert lines[1][3] == '\'=HYPERLINK("http://x.example","Open")'
    assert lines[2][1:4] == ["'-1", "RFP > 3 Questions", "'+1 describe your staffing plan."]
    assert lines[3][2:4] == ["'@RFP", "Describe your hosting environment."]
    assert lines[1][6:8] == ["4", "12"]


def test_an_interrupted_csv_export_keeps_the_previous_matrix_and_leaves_no_half_file(
    tmp_path: Path, monkeypatch
):
    """Break-it: Ctrl-C (or a full disk) in the middle of a CSV export left a truncated
    compliance_matrix.csv in place of the whole one; it is now written to
    ``.<name>.partial`` and renamed into place, as the workbook is."""
    from rfp_retrieval.documents import matrix

    out = write_matrix(ROWS, tmp_path / "m.csv")
    whole = out.read_bytes()
    calls = []

    def interrupted(value: object) -> object:
        calls.append(value)
        if len(calls) > 15:  # in the second row
            raise KeyboardInterrupt
        return value

    monkeypatch.setattr(matrix, "csv_safe", interrupted)
    try:
        write_matrix(ROWS[:1] * 50, out)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the export was not interrupted")
    assert out.read_bytes() == whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.csv"]
    monkeypatch.undo()
    write_matrix(ROWS[:1], out)
    with out.open(encoding="utf-8-sig", newline="") as fh:
        assert len(list(csv.reader(fh))) == 2
