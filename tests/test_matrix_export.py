"""Compliance matrix rows, CSV/XLSX export, the ``matrix`` and ``parse --json`` commands."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli.app import app
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import (
    MATRIX_COLUMNS,
    WRITER_COLUMNS,
    MatrixRow,
    matrix_rows,
    write_matrix,
)

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"
TREASURY = DATA / "rfps_synthetic" / "treasury-fiscal-service-dcdis-rfq-2032H5-26-Q-00117.md"

SMALL_RFP = """# Data Platform RFP

## 3 Technical Questions

3.1 Describe your hosting environment.

3.2 Describe your transition plan, including:

a. staffing; and
b. schedule.

## 4 Instructions

Proposals shall not exceed 20 pages.
"""


@pytest.fixture()
def small_rfp(tmp_path: Path) -> Path:
    path = tmp_path / "rfp.md"
    path.write_text(SMALL_RFP, encoding="utf-8")
    return path


def test_matrix_has_one_row_per_ask_with_section_path_and_line(small_rfp: Path):
    rows = matrix_rows(load_document(small_rfp))
    assert rows == [
        MatrixRow(
            "q-001",
            "3.1",
            "Data Platform RFP > 3 Technical Questions",
            "Describe your hosting environment.",
            "question",
            None,
            None,
            5,
        ),
        # a compound ask: its prompt, then each list item a row of its own
        MatrixRow(
            "q-002",
            "3.2",
            "Data Platform RFP > 3 Technical Questions",
            "Describe your transition plan, including:",
            "question",
            None,
            None,
            7,
        ),
        MatrixRow(
            "q-002a",
            "3.2(a)",
            "Data Platform RFP > 3 Technical Questions",
            "staffing; and",
            "question",
            None,
            None,
            7,
        ),
        MatrixRow(
            "q-002b",
            "3.2(b)",
            "Data Platform RFP > 3 Technical Questions",
            "schedule.",
            "question",
            None,
            None,
            7,
        ),
        MatrixRow(
            "q-003",
            "4",  # the paragraph of section 4 carries its number
            "Data Platform RFP > 4 Instructions",
            "Proposals shall not exceed 20 pages.",
            "requirement",
            None,
            None,
            14,
            "20 pages",  # the page limit the sentence states (limits.response_limit)
        ),
    ]


def test_csv_and_xlsx_exports_hold_the_rows_and_blank_writer_columns(small_rfp, tmp_path):
    from openpyxl import load_workbook

    rows = matrix_rows(load_document(small_rfp))
    csv_path = write_matrix(rows, tmp_path / "out" / "matrix.csv")
    with csv_path.open(encoding="utf-8-sig", newline="") as fh:
        table = list(csv.reader(fh))
    assert table[0] == [*MATRIX_COLUMNS, *WRITER_COLUMNS]
    assert table[1][:8] == [
        "q-001",
        "3.1",
        "Data Platform RFP > 3 Technical Questions",
        "Describe your hosting environment.",
        "question",
        "",
        "",
        "5",
    ]
    assert len(table) == 6
    assert table[5][MATRIX_COLUMNS.index("limit")] == "20 pages"

    xlsx_path = write_matrix(rows, tmp_path / "matrix.xlsx", "Data Platform RFP")
    sheet = load_workbook(xlsx_path).active
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values[0] == [*MATRIX_COLUMNS, *WRITER_COLUMNS]
    assert values[5][:5] == [
        "q-003",
        "4",
        "Data Platform RFP > 4 Instructions",
        "Proposals shall not exceed 20 pages.",
        "requirement",
    ]
    assert values[5][MATRIX_COLUMNS.index("limit")] == "20 pages"
    assert (sheet.title, sheet.freeze_panes, sheet.auto_filter.ref) == (
        "Compliance Matrix",
        "A2",
        "A1:M6",
    )
    with pytest.raises(ValueError, match=r"\.csv or \.xlsx, not \.pdf"):
        write_matrix(rows, tmp_path / "matrix.pdf")


def test_matrix_command_writes_the_xlsx(small_rfp: Path, tmp_path: Path):
    out = tmp_path / "cm.xlsx"
    result = CliRunner().invoke(app, ["matrix", str(small_rfp), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.is_file()
    assert "5 row(s) written to" in result.output


def test_matrix_command_refuses_other_suffixes_and_unreadable_files(tmp_path: Path):
    runner = CliRunner()
    bad_out = runner.invoke(app, ["matrix", str(tmp_path / "x.md"), "--out", "m.docx"])
    assert bad_out.exit_code == 2 and "write the matrix as .xlsx or .csv" in bad_out.output
    missing = runner.invoke(app, ["matrix", str(tmp_path / "nope.pdf"), "--out", "m.xlsx"])
    assert missing.exit_code == 1 and "file not found" in " ".join(missing.output.split())


def test_matrix_command_does_not_create_a_mistyped_folder(small_rfp: Path, tmp_path: Path):
    out = tmp_path / "no-such-folder" / "deeper" / "cm.xlsx"
    result = CliRunner().invoke(app, ["matrix", str(small_rfp), "--out", str(out)])
    assert result.exit_code == 2
    assert "does not exist; create it or give another path" in " ".join(result.output.split())
    assert not (tmp_path / "no-such-folder").exists()


def test_parse_json_has_the_issue_shape_with_questions():
    if not TREASURY.is_file():
        pytest.skip(f"{TREASURY} is missing: read in place from ../shared/data")
    result = CliRunner().invoke(app, ["parse", str(TREASURY), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert list(payload) == ["sections", "questions", "past_performance", "issuer", "summary"]
    assert list(payload["sections"][1]) == ["number", "heading", "level", "parent"]
    q7 = next(q for q in payload["questions"] if q["label"] == "Question 7.")
    assert q7 == {
        "label": "Question 7.",
        "text": "Describe how the service scales to the peak volumes described in Section 2.",
        "section_path": [
            "Bureau of the Fiscal Service — Request for Quotation 2032H5-26-Q-00117: Debtor "
            "Correspondence and Document Intake Service (DCDIS)",
            "4. Technical Questionnaire",
            "4.1 Platform and API",
        ],
        "kind": "question",
        "parts": [],
    }
    assert payload["past_performance"] == {
        "references_required": 2,
        "recency_years": 3,
        "ended_after": "2023-09-04",
        "started_after": None,
        # "an annual value between $2 million and $15 million": per year, not a total-value
        # filter (the library states total contract values)
        "value_min": None,
        "value_max": None,
        "customer_types": [],
        "require_prime": False,
    }
    assert payload["issuer"]["type"] == "federal-civilian"
