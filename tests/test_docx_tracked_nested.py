"""DOCX bodies read as they read with tracked changes accepted, and nested tables' text kept
(break-it: an inserted word and a requirement inside a nested table were lost)."""

from __future__ import annotations

from pathlib import Path

import docx
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from rfp_retrieval.documents.docx_reader import docx_lines
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions

W = nsdecls("w")


def _tracked_paragraph() -> object:
    return parse_xml(
        f"<w:p {W}><w:r><w:t xml:space='preserve'>The offeror shall provide </w:t></w:r>"
        f"<w:del w:id='1' w:author='a' w:date='2026-01-01T00:00:00Z'><w:r>"
        f"<w:delText>five</w:delText></w:r></w:del>"
        f"<w:ins w:id='2' w:author='a' w:date='2026-01-01T00:00:00Z'><w:r>"
        f"<w:t>three</w:t></w:r></w:ins>"
        f"<w:r><w:t xml:space='preserve'> references.</w:t></w:r></w:p>"
    )


def test_tracked_insertions_are_kept_and_deletions_dropped(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("Section 1 Instructions")
    document.element.body.insert(1, _tracked_paragraph())
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Item 1"
    cell = table.cell(0, 1)
    cell._tc.remove(cell.paragraphs[0]._p)
    cell._tc.append(_tracked_paragraph())
    path = tmp_path / "tracked.docx"
    document.save(str(path))
    lines = [line for line in docx_lines(path) if line]
    assert lines[1] == "The offeror shall provide three references."
    assert lines[2] == "| Item 1 | The offeror shall provide three references. |"
    assert not any("five" in line for line in lines)


def test_a_table_nested_in_a_cell_keeps_its_text(tmp_path: Path) -> None:
    document = docx.Document()
    outer = document.add_table(rows=2, cols=1)
    outer.cell(0, 0).text = "Requirements"
    inner_cell = outer.cell(1, 0)
    inner = inner_cell.add_table(rows=2, cols=2)
    inner.cell(0, 0).text = "L.1"
    inner.cell(0, 1).text = "The offeror shall provide 3 references."
    inner.cell(1, 0).text = "L.2"
    inner.cell(1, 1).text = "The offeror shall state its price."
    path = tmp_path / "nested.docx"
    document.save(str(path))
    lines = [line for line in docx_lines(path) if line]
    assert lines == [
        "| Requirements |",
        "| L.1 | The offeror shall provide 3 references. |",
        "| L.2 | The offeror shall state its price. |",
    ]


def test_a_table_nested_beside_other_cells_is_read_into_its_cell(tmp_path: Path) -> None:
    document = docx.Document()
    outer = document.add_table(rows=1, cols=2)
    outer.cell(0, 0).text = "Item 4"
    inner = outer.cell(0, 1).add_table(rows=2, cols=2)
    inner.cell(0, 0).text = "a"
    inner.cell(0, 1).text = "Describe your staffing plan."
    inner.cell(1, 0).text = "b"
    inner.cell(1, 1).text = "Describe your transition plan."
    path = tmp_path / "beside.docx"
    document.save(str(path))
    lines = [line for line in docx_lines(path) if line]
    assert lines == ["| Item 4 | a Describe your staffing plan. b Describe your transition plan. |"]


def test_a_requirement_in_a_nested_table_is_a_question(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_heading("1 Instructions", 1)
    outer = document.add_table(rows=2, cols=2)
    outer.cell(0, 0).text = "Item"
    outer.cell(0, 1).text = "Requirement"
    outer.cell(1, 0).text = "1.1"
    inner = outer.cell(1, 1).add_table(rows=1, cols=1)
    inner.cell(0, 0).text = "The offeror shall provide 3 references."
    path = tmp_path / "nested_ask.docx"
    document.save(str(path))
    questions = [(q.label, q.text) for q in find_questions(load_document(path))]
    assert questions == [("1.1", "The offeror shall provide 3 references.")]


def test_a_one_cell_frame_around_a_table_gives_the_table_rows(tmp_path: Path) -> None:
    document = docx.Document()
    frame = document.add_table(rows=1, cols=1)
    cell = frame.cell(0, 0)
    cell.text = "Submission requirements"
    grid = cell.add_table(rows=2, cols=2)
    grid.cell(0, 0).text = "L.1"
    grid.cell(0, 1).text = "The offeror shall provide 3 references."
    grid.cell(1, 0).text = "L.2"
    grid.cell(1, 1).text = "The offeror shall state its price."
    path = tmp_path / "frame.docx"
    document.save(str(path))
    lines = [line for line in docx_lines(path) if line]
    assert lines == [
        "| Submission requirements |",
        "| L.1 | The offeror shall provide 3 references. |",
        "| L.2 | The offeror shall state its price. |",
    ]
