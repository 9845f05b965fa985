"""Issue 16.8: XLSX questionnaires are streamed (openpyxl read-only mode), not loaded whole.

A 10,000-row questionnaire peaked at 9 GB fully loaded (benchmarks/bench_questionnaire_memory.py
prints the figure). Read-only worksheets carry no merge information and trust the stored sheet
dimension, so these tests pin what the full load read: vertical merges fill down, a banner
merged across columns is written once, a wrong ``<dimension>`` loses no cell, hidden sheets
stay unread and uncalculated formulas are still counted.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from rfp_retrieval.documents import questionnaire
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions


def _workbook(path: Path) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Requirements"
    sheet.append(["Hosting questionnaire"])
    sheet.merge_cells("A1:D1")
    sheet.append(["Category", "ID", "Requirement", "Response"])
    sheet.append(["Hosting", "H1", "Describe your hosting region.", None])
    sheet.append([None, "H2", "Describe your backup schedule.", None])
    sheet.append(["Support", "S1", "Describe your support hours.", None])
    sheet.append([None, "S2", "=C5", None])  # a formula saved without its result
    sheet.merge_cells("A3:A4")
    sheet.merge_cells("A5:A6")
    sheet["F9"].font = openpyxl.styles.Font(bold=True)  # a styled empty cell widens the sheet
    hidden = book.create_sheet("Scoring")
    hidden.append(["Weight", "Score"])
    hidden.append(["Describe the hidden scoring.", "5"])
    hidden.sheet_state = "hidden"
    book.save(path)
    return path


def _with_wrong_dimension(path: Path) -> Path:
    """The same workbook with ``<dimension ref="A1:B2"/>``: some writers store a stale one."""
    out = path.with_name("stale-dimension.xlsx")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb'<dimension ref="[^"]+"', b'<dimension ref="A1:B2"', data)
            dst.writestr(item, data)
    return out


EXPECTED_QUESTIONS = [
    ("H1", "Hosting", ["Requirements", "Hosting"], "Describe your hosting region."),
    ("H2", "Hosting", ["Requirements", "Hosting"], "Describe your backup schedule."),
    ("S1", "Support", ["Requirements", "Support"], "Describe your support hours."),
]


@pytest.mark.parametrize("stale_dimension", [False, True])
def test_streamed_xlsx_reads_merges_dimension_hidden_sheets_and_formulas_as_before(
    tmp_path: Path, stale_dimension: bool
) -> None:
    path = _workbook(tmp_path / "hosting.xlsx")
    if stale_dimension:
        path = _with_wrong_dimension(path)
    doc = load_document(path)
    assert [(q.label, q.topic, q.section_path, q.text) for q in find_questions(doc)] == (
        EXPECTED_QUESTIONS
    )
    assert [(s.heading, s.level) for s in doc.sections] == [
        ("Requirements", 1),
        ("Hosting", 2),
        ("Support", 2),
    ]
    assert doc.text.count("Hosting questionnaire") == 1  # the banner is written once
    assert "hidden scoring" not in doc.text
    assert doc.warnings == [
        "formula cells with no saved result were read as empty (1 on sheet 'Requirements'); "
        "the workbook was saved by a program that does not calculate formulas; open it in "
        "Excel or LibreOffice, let it recalculate, and save it again"
    ]


def test_merges_cut_by_the_xml_chunk_boundary_are_all_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(questionnaire, "_XML_CHUNK_BYTES", 7)  # every element is cut somewhere
    doc = load_document(_workbook(tmp_path / "hosting.xlsx"))
    assert [(q.label, q.topic) for q in find_questions(doc)] == [
        (label, topic) for label, topic, _, _ in EXPECTED_QUESTIONS
    ]


def test_xlsx_questionnaire_is_read_in_read_only_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[dict] = []
    load = openpyxl.load_workbook

    def recording_load(*args, **kwargs):
        calls.append(kwargs)
        return load(*args, **kwargs)

    monkeypatch.setattr(openpyxl, "load_workbook", recording_load)
    load_document(_workbook(tmp_path / "hosting.xlsx"))
    assert calls and all(kwargs.get("read_only") is True for kwargs in calls)
