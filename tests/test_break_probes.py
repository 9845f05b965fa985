"""Probes of a break-it pass on the restructured code: each small input failed or misled."""

from __future__ import annotations

import dataclasses
import datetime as dt

import openpyxl
import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli import app
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import matrix_rows, write_matrix
from rfp_retrieval.documents.records import DocumentError
from rfp_retrieval.scope import read_scope


def test_stray_control_characters_are_removed_with_a_warning(tmp_path):
    rfp = tmp_path / "dos.txt"
    # a DOS end-of-file mark and a stray NUL: no text reader or worksheet should see them
    rfp.write_text(
        "Small RFP\n\n1. Scope of Work\n\nDescribe your approach to data\x00 migration.\n\x1a"
    )
    doc = load_document(rfp)
    assert "\x1a" not in doc.text and "\x00" not in doc.text
    assert f"{rfp}: 2 control character(s) removed (e.g. a DOS end-of-file mark)" in doc.warnings
    out = write_matrix(matrix_rows(doc), tmp_path / "m.xlsx")
    sheet = openpyxl.load_workbook(out).active
    assert [c.value for c in sheet[1]][3] == "text"
    texts = [row[3] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert texts == ["Describe your approach to data migration."]
    assert not list(tmp_path.glob(".*.partial"))


def test_a_binary_file_named_txt_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"\x00\x01\x02binary\x00\xff" * 20)
    with pytest.raises(DocumentError, match="looks like a binary file, not text"):
        load_document(path)


def test_the_xlsx_matrix_drops_characters_a_worksheet_cannot_hold(tmp_path):
    row = matrix_rows(load_document(_small(tmp_path)))[0]
    row = dataclasses.replace(row, text="Describe the \x1a approach.")
    sheet = openpyxl.load_workbook(write_matrix([row], tmp_path / "m.xlsx")).active
    assert sheet.cell(row=2, column=4).value == "Describe the  approach."


def _small(tmp_path):
    rfp = tmp_path / "small.md"
    rfp.write_text("# RFP\n\n## 1. Scope of Work\n\nDescribe your approach to hosting.\n")
    return rfp


def test_run_on_a_missing_inbox_is_a_settings_error(tmp_path, monkeypatch):
    config = tmp_path / "rfp-retrieval.yaml"
    config.write_text("inbox_dir: no-such-inbox\n", encoding="utf-8")
    monkeypatch.delenv("RFP_RETRIEVAL_INBOX_DIR", raising=False)
    result = CliRunner().invoke(app, ["run", "--config", str(config)], env={"COLUMNS": "300"})
    assert result.exit_code == 2
    assert f"inbox_dir {tmp_path / 'no-such-inbox'} is not a folder" in result.output
    assert "Traceback" not in result.output


def test_a_relative_dagster_home_is_made_absolute(tmp_path, monkeypatch):
    from launch import dagster_home

    monkeypatch.chdir(tmp_path)
    assert dagster_home(tmp_path / "project", environ={"DAGSTER_HOME": "rel_home"}) == (
        tmp_path / "rel_home"
    )


def test_an_issue_date_too_early_to_count_back_from_leaves_recency_unknown(tmp_path):
    rfp = tmp_path / "rfp.md"
    rfp.write_text(
        "# Request for Proposals\n\n**Issue Date:** 0001-01-01\n\n"
        "## 1. Scope of Work\n\nThe contractor shall modernize the eligibility system.\n\n"
        "## 2. Past Performance\n\nSubmit three (3) references for contracts performed "
        "within the last three (3) years.\n"
    )
    doc = load_document(rfp)
    assert doc.issue_date == dt.date(1, 1, 1)
    reading = read_scope(doc)
    assert reading.ended_after is None and reading.started_after is None
    [note] = [t for t in reading.trace if t["filter"] == "recency"]
    assert note["reading"]["unknown"].startswith("the window would start before year 1")
