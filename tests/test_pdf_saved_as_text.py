"""A PDF saved with a text extension is read as the PDF it is, not as its raw streams."""

from __future__ import annotations

import shutil
from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from tests.test_matrix_item_numbers import AFTER, LEAD, _pdf


def test_a_pdf_saved_as_markdown_is_read_as_pdf(tmp_path: Path):
    pdf = _pdf(tmp_path)
    saved = tmp_path / "rfp.md"
    shutil.copy(pdf, saved)
    doc = load_document(saved)
    assert doc.format == "pdf"
    assert "/Type /Catalog" not in doc.text and "endstream" not in doc.text
    assert LEAD in doc.text and AFTER in doc.text
    assert [s.number for s in doc.sections] == [s.number for s in load_document(pdf).sections]
    assert "1.1" in [s.number for s in doc.sections]
    assert doc.warnings == [f"{saved} is a PDF file saved with the extension '.md': read as PDF"]
