"""Break-it: an RTF file saved as ``.md`` was parsed as its control words ("{\\rtf1\\ansi...
Scope of Work\\b0\\par}" became the RFP's one requirement); a DOCX saved as ``.md`` or ``.txt``
was refused as "a binary file". The RTF is refused naming what to do, the DOCX read as DOCX."""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.records import DocumentError

RTF = (
    "{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Times New Roman;}}\n"
    "{\\pard\\b 1. Scope of Work\\b0\\par}\n"
    "{\\pard The Offeror shall describe its approach to data migration.\\par}\n}\n"
)


@pytest.mark.parametrize("name", ["rfp.md", "rfp.txt"])
@pytest.mark.parametrize("prefix", ["", "\ufeff", "\n "])
def test_an_rtf_file_with_a_text_extension_is_a_document_error(tmp_path: Path, name, prefix):
    path = tmp_path / name
    path.write_text(prefix + RTF, encoding="utf-8")
    with pytest.raises(DocumentError) as raised:
        load_document(path)
    assert str(raised.value) == (
        f"{path}: is a Rich Text (RTF) file saved with the extension '{path.suffix}': its "
        "control words would be read as requirements; save it as .docx or PDF"
    )


def test_markdown_that_mentions_rtf_is_still_markdown(tmp_path: Path):
    path = tmp_path / "rfp.md"
    path.write_text(
        "# RFP\n\n## 1. Format\n\nDo not submit {\\rtf files; the Offeror shall submit PDF.\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    assert doc.format == "markdown"
    assert [s.number for s in doc.sections if s.number] == ["1."]


@pytest.mark.parametrize("suffix", [".md", ".txt"])
def test_a_docx_saved_with_a_text_extension_is_read_as_docx(tmp_path: Path, suffix):
    import docx

    document = docx.Document()
    document.add_heading("1. Scope of Work", 1)
    document.add_paragraph("The Offeror shall describe its approach to data migration.")
    real = tmp_path / "rfp.docx"
    document.save(real)
    saved = tmp_path / f"rfp{suffix}"
    saved.write_bytes(real.read_bytes())
    doc = load_document(saved)
    assert doc.format == "docx"
    assert doc.text == load_document(real).text
    assert "The Offeror shall describe its approach to data migration." in doc.text
    assert [s.number for s in doc.sections] == ["1."]
    assert doc.warnings == [
        f"{saved} is a Word (DOCX) file saved with the extension '{suffix}': read as DOCX"
    ]


def test_another_zip_file_saved_as_markdown_is_still_refused_as_binary(tmp_path: Path):
    import zipfile

    path = tmp_path / "rfp.md"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data.bin", bytes(range(256)) * 40)
    with pytest.raises(DocumentError, match="looks like a binary file, not text"):
        load_document(path)
