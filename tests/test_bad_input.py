"""A generated corpus of bad RFP files: each gets a specific error or a correct reading."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from pypdf import PdfWriter

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.records import DocumentError
from rfp_retrieval.scope import read_scope


def _blank_pdf(path, encrypt: bool = False) -> None:
    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    if encrypt:
        writer.encrypt("secret")
    with path.open("wb") as handle:
        writer.write(handle)


def _error(path) -> str:
    with pytest.raises(DocumentError) as info:
        load_document(path)
    assert str(path) in str(info.value)
    return info.value.reason.lower()


def test_zero_byte_file_is_reported_empty(tmp_path):
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    assert "empty" in _error(path)


def test_truncated_pdf_is_reported_corrupt(tmp_path):
    whole = tmp_path / "whole.pdf"
    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    with whole.open("wb") as handle:
        writer.write(handle)
    path = tmp_path / "truncated.pdf"
    path.write_bytes(whole.read_bytes()[:60])
    reason = _error(path)
    assert "corrupt" in reason or "truncated" in reason or "not a pdf" in reason


def test_encrypted_pdf_asks_for_an_unencrypted_copy(tmp_path):
    path = tmp_path / "locked.pdf"
    _blank_pdf(path, encrypt=True)
    assert "password" in _error(path) or "encrypted" in _error(path)


def test_pdf_without_text_layer_says_ocr_is_needed(tmp_path):
    path = tmp_path / "scan.pdf"
    _blank_pdf(path)
    assert "text layer" in _error(path)


def test_docx_that_is_not_a_zip_is_reported(tmp_path):
    path = tmp_path / "fake.docx"
    path.write_bytes(b"this is not a word file")
    assert "docx" in _error(path) or "word" in _error(path)


def test_docx_zip_bomb_is_refused_without_inflating_it(tmp_path):
    path = tmp_path / "bomb.docx"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", b"<" + b"a" * (300 * 1024 * 1024) + b"/>")
    path.write_bytes(buffer.getvalue())
    assert path.stat().st_size < 2 * 1024 * 1024
    reason = _error(path)
    assert "too large" in reason or "zip bomb" in reason or "uncompressed" in reason


def test_huge_text_file_is_refused_with_the_size_limit(tmp_path):
    path = tmp_path / "huge.txt"
    with path.open("wb") as handle:
        line = b"Describe your approach to data migration and validation.\n"
        for _ in range(100 * 1024 * 1024 // len(line) + 1):
            handle.write(line)
    assert path.stat().st_size >= 100 * 1024 * 1024
    assert "too large" in _error(path)


def test_cp1252_and_utf16_text_decode_to_the_same_words(tmp_path):
    text = "# Café RFP\n\n## 1. Scope\n\nThe vendor’s approach — “naïve” résumé.\n"
    cp = tmp_path / "cp1252.txt"
    cp.write_bytes(text.encode("cp1252"))
    u16 = tmp_path / "utf16.txt"
    u16.write_bytes(text.encode("utf-16"))
    for path in (cp, u16):
        doc = load_document(path)
        assert "The vendor’s approach — “naïve” résumé." in doc.text


@pytest.mark.parametrize(
    "name", ["RFP with spaces.md", "Ünïcødé RFP.md", "a..b.md", "line\nbreak.md", "x" * 200 + ".md"]
)
def test_awkward_file_names_load(tmp_path, name):
    path = tmp_path / name
    path.write_text("# Title\n\n## 1. Scope\n\nMigrate the system.\n", encoding="utf-8")
    assert load_document(path).title == "Title"


def test_section_numbers_are_not_read_as_dates_or_money(tmp_path):
    path = tmp_path / "rfp.md"
    path.write_text(
        "# Data Platform RFP\n\n**Issue Date:** March 3, 2026\n\n## 1. Scope\n\n"
        "Perform the work in Sections 2.3, 4.1 and 10.2 of the PWS.\n\n"
        "## 2. Past Performance\n\nSubmit three (3) references.\n",
        encoding="utf-8",
    )
    reading = read_scope(load_document(path))
    assert reading.value_min is None and reading.value_max is None
    assert reading.ended_after is None and reading.started_after is None
    assert str(reading.rfp_date) == "2026-03-03"


def _formula_workbook(path, rows) -> None:
    """An XLSX written without calculated results, as scripts and export tools write it."""
    import openpyxl

    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    book.save(path)


def test_xlsx_with_formulas_only_says_to_recalculate(tmp_path):
    path = tmp_path / "security questionnaire.xlsx"
    _formula_workbook(
        path,
        [["Question", "Response"], ['=CONCAT("Describe ", "your backups")', "=A2"], ["=1+1", ""]],
    )
    reason = _error(path)
    assert "formulas with no saved results" in reason
    assert "3 on sheet 'sheet'" in reason
    assert "recalculate" in reason


def test_xlsx_with_some_uncalculated_formulas_loads_with_a_warning(tmp_path):
    path = tmp_path / "questionnaire.xlsx"
    _formula_workbook(
        path,
        [
            ["ID", "Question", "Response"],
            ["Q1", "Describe your backup and recovery approach.", ""],
            ["Q2", "=B2", ""],
        ],
    )
    doc = load_document(path)
    assert "Describe your backup and recovery approach." in doc.text
    assert doc.warnings == [
        "formula cells with no saved result were read as empty (1 on sheet 'Sheet'); the "
        "workbook was saved by a program that does not calculate formulas; open it in Excel "
        "or LibreOffice, let it recalculate, and save it again"
    ]


def test_library_xlsx_formula_cells_become_defects_not_lost_rows(tmp_path):
    import csv

    from rfp_retrieval.library.ingest import load_library

    sample = (
        Path(__file__).resolve().parents[1] / "sample" / "library" / "past_performance_matrix.csv"
    )
    with sample.open(encoding="utf-8") as handle:
        header, first, second, third = list(csv.reader(handle))[:4]
    first, second = list(first), list(second)
    first[header.index("Contract Value")] = "=3700000*1"
    second[header.index("Period of Performance")] = '=TEXT(DATE(2011,8,1),"mm/yyyy")'
    (tmp_path / "library").mkdir()
    _formula_workbook(tmp_path / "library" / "matrix.xlsx", [header, first, second, third])
    loaded = load_library(tmp_path / "library")
    assert loaded.rejected == []
    defects = {e.id: e.defects for e in loaded.entries}
    assert defects == {
        first[0]: ["missing-value", "uncalculated-formula:Contract Value"],
        second[0]: [
            "missing-start-date",
            "missing-end-date",
            "uncalculated-formula:Period of Performance",
        ],
        third[0]: [],
    }


def test_a_pdf_without_its_eof_marker_is_read_and_its_damage_said_once(
    tmp_path, shared_data, capfd
):
    """break-it: pypdf printed a stray "EOF marker not found" line to stderr; the damage is
    now one warning of the document and nothing is printed."""
    source = (
        shared_data / "rfps" / "osd-cape-future-analytics-rfi-hq003417rfabpa.pdf"
    ).read_bytes()
    path = tmp_path / "damaged.pdf"
    path.write_bytes(source[: source.rfind(b"%%EOF")])
    whole = load_document(shared_data / "rfps" / "osd-cape-future-analytics-rfi-hq003417rfabpa.pdf")
    capfd.readouterr()
    doc = load_document(path)
    printed = capfd.readouterr()
    assert (printed.out, printed.err) == ("", "")
    assert doc.text == whole.text
    damaged = [w for w in doc.warnings if w.startswith("the file is damaged (")]
    assert len(damaged) == 1
    assert damaged[0].startswith(
        "the file is damaged (CAUTION: startxref found while searching for %%EOF."
    )
    assert not any(w.startswith("the file is damaged") for w in whole.warnings)


def test_a_pipe_is_named_as_not_a_regular_file_not_as_a_folder(tmp_path):
    """Break-it: `parse` on a FIFO said "is a folder"."""
    import os

    fifo = tmp_path / "rfp.md"
    os.mkfifo(fifo)
    with pytest.raises(DocumentError, match="is not a regular file \\(a pipe, socket or device\\)"):
        load_document(fifo)
    with pytest.raises(DocumentError, match="is a folder, not a file"):
        load_document(tmp_path)
