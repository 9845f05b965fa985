"""Questionnaires (CSV, XLSX, JSON) load as documents whose rows are questions with a topic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.documents.records import DocumentError

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"


def _shared(relative: str) -> Path:
    path = DATA / relative
    if not path.is_file():
        pytest.skip(f"{path} is missing: questionnaires are read in place from ../shared/data")
    return path


def test_csv_domain_column_becomes_sections_and_topic():
    doc = load_document(_shared("questionnaires_synthetic/vendor-security-questionnaire.csv"))
    assert (doc.format, doc.title) == ("csv", "Vendor Security Questionnaire")
    assert doc.summary.startswith(
        "Vendor Security Questionnaire. A questionnaire of 42 rows in 25 sections: "
        "Information Security Program, Third-Party Attestations,"
    )
    assert [(s.heading, s.level, s.parent) for s in doc.sections[:2]] == [
        ("Information Security Program", 1, None),
        ("Third-Party Attestations", 1, None),
    ]
    found = find_questions(doc)
    assert len(found) == 42
    first, last = found[0], found[-1]
    assert (first.label, first.topic, first.section_path, first.kind, first.text) == (
        "ISP-01",
        "Information Security Program",
        ["Information Security Program"],
        "table-row",
        "Is there a documented program, approved by management and reviewed at least annually?",
    )
    assert (last.label, last.topic, last.text) == (
        "ACC-01",
        "Accessibility",
        "Do you have a current conformance report?",
    )


def test_alaska_xlsx_header_on_row_two_merged_banner_and_category_topics():
    doc = load_document(_shared("questionnaires/alaska-doh-it-contractual-requirements.xlsx"))
    assert doc.format == "xlsx"
    # the banner merged over A1:W6 is read once; "DropDownValues" is a hidden sheet
    assert doc.text.count("This workbook provides the current Department of Health") == 1
    assert [(s.heading, s.level) for s in doc.sections] == [
        ("Instructions", 1),
        ("Instructions", 2),
        ("Note", 2),
        ("Technical Requirements", 1),
        ("Glossary of Acronyms", 1),
    ]
    rows = [q for q in find_questions(doc) if q.kind == "table-row"]
    assert [q.label for q in rows] == [f"IT{i}" for i in range(1, 33)]
    assert (rows[0].topic, rows[0].section_path) == (
        "Security / Standard Policy",
        ["Technical Requirements"],
    )
    assert rows[0].text.startswith("The State of Alaska (and by extension DOH) requires")
    assert rows[-1].topic == "Mobile Device"  # no subcategory on IT28-IT32
    # the instruction notes are requirements of the Instructions sheet, the glossary is not asked
    others = [q for q in find_questions(doc) if q.kind != "table-row"]
    assert [(q.kind, q.section_path) for q in others] == [
        ("requirement", ["Instructions", "Instructions"]),
    ] * 3


def test_vsaq_json_blocks_become_nested_sections_and_items_questions():
    doc = load_document(_shared("questionnaires/google-vsaq-webapp.json"))
    assert (doc.format, doc.title) == ("json", "Web Application Security Questionnaire")
    assert [(s.heading, s.level) for s in doc.sections[:3]] == [
        ("Application", 1),
        ("Application Metadata", 2),
        ("Vulnerability Reporting and Management", 2),
    ]
    rows = [q for q in find_questions(doc) if q.kind == "table-row"]
    assert len(rows) == 73
    assert [(q.label, q.topic, q.text) for q in rows[:3]] == [
        ("application_name", "Application Metadata", "The name of the application:"),
        ("application_description", "Application Metadata", "A brief description:"),
        (
            "application_frameworks",
            "Application Metadata",
            "What frameworks (if any) does this application require?",
        ),
    ]
    programs = find_questions(
        load_document(_shared("questionnaires/google-vsaq-security-privacy-programs.json"))
    )
    assert (programs[0].label, programs[0].section_path) == ("secprog", ["Security and Privacy"])


def test_csv_with_preamble_blank_rows_and_section_rows(tmp_path: Path):
    path = tmp_path / "q.csv"
    path.write_text(
        "Vendor questionnaire v2,,\n"
        "Answer every row.,,\n"
        ",,\n"
        "No.,Question,Response\n"
        "Security,,\n"
        "1,Do you encrypt backups?,\n"
        ",,\n"
        "2,Who reviews access logs?,\n"
        "Privacy,,\n"
        "3,Where is personal data stored?,\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    assert [s.heading for s in doc.sections] == ["Security", "Privacy"]
    found = find_questions(doc)
    assert [(q.label, q.text, q.section_path, q.topic) for q in found] == [
        ("1", "Do you encrypt backups?", ["Security"], "Security"),
        ("2", "Who reviews access logs?", ["Security"], "Security"),
        ("3", "Where is personal data stored?", ["Privacy"], "Privacy"),
    ]
    assert doc.text.splitlines()[0] == "Vendor questionnaire v2"  # prose before the header


def test_xlsx_vertical_merge_fills_the_category_down(tmp_path: Path):
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Requirements"
    sheet.append(["Title banner"])
    sheet.merge_cells("A1:D1")
    sheet.append(["Category", "ID", "Requirement", "Response"])
    sheet.append(["Hosting", "H1", "Describe your hosting region.", None])
    sheet.append([None, "H2", "Describe your backup schedule.", None])
    sheet.append(["Support", "S1", "Describe your support hours.", None])
    sheet.merge_cells("A3:A4")
    path = tmp_path / "reqs.xlsx"
    book.save(path)
    found = find_questions(load_document(path))
    assert [(q.label, q.topic, q.section_path) for q in found] == [
        ("H1", "Hosting", ["Requirements", "Hosting"]),
        ("H2", "Hosting", ["Requirements", "Hosting"]),
        ("S1", "Support", ["Requirements", "Support"]),
    ]


def test_json_list_of_question_objects_reads_like_a_csv(tmp_path: Path):
    path = tmp_path / "q.json"
    path.write_text(
        json.dumps(
            [
                {"id": "Q1", "domain": "Backup", "question": "How often are backups taken?"},
                {"id": "Q2", "domain": "Backup", "question": "Are restores tested?"},
            ]
        ),
        encoding="utf-8",
    )
    found = find_questions(load_document(path))
    assert [(q.label, q.topic, q.text) for q in found] == [
        ("Q1", "Backup", "How often are backups taken?"),
        ("Q2", "Backup", "Are restores tested?"),
    ]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.json", b"{not json", "is not valid JSON"),
        ("other.json", b'{"a": 1}', "not a questionnaire this reader knows"),
        pytest.param(
            "deep.json", b"[" * 100000 + b"]" * 100000, "is JSON nested too deeply", id="deep"
        ),
        ("old.xls", b"\xd0\xcf\x11\xe0", "old Excel .xls"),
        ("fake.xlsx", b"not a zip", "not an Excel .xlsx workbook"),
        ("empty.csv", b",,\n,,\n", "holds no rows with text"),
    ],
)
def test_unreadable_questionnaires_raise_document_error(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(DocumentError, match=message) as err:
        load_document(path)
    assert err.value.path == str(path)
