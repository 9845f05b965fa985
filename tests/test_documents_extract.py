"""Text extraction from real RFP files (read in place from ../shared/data/rfps) and bad inputs.

Expected values below were read by hand from each document.
"""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest

from rfp_retrieval.documents.encoding import decode_text
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.records import DocumentError, RfpDocument
from rfp_retrieval.scope import read_scope
from tests.conftest import REPO

DATA = Path(__file__).parents[1] / ".." / "shared" / "data"
RFPS = DATA / "rfps"

_cache: dict[str, RfpDocument] = {}


def rfp(name: str) -> RfpDocument:
    """One real RFP, parsed once per test session (PDF parsing takes seconds)."""
    path = RFPS / name
    if not path.is_file():
        pytest.skip(f"{path} is missing: the public RFPs are read in place from ../shared/data")
    if name not in _cache:
        _cache[name] = load_document(path)
    return _cache[name]


def outline(doc: RfpDocument, n: int | None = None) -> list[tuple[str | None, str, int]]:
    rows = [(s.number, s.heading, s.level) for s in doc.sections]
    return rows[:n] if n else rows


def section(doc: RfpDocument, number: str):
    return next(s for s in doc.sections if s.number == number)


# --- Markdown ---------------------------------------------------------------------------


def test_talentmap_rfq_bold_paragraph_headings_are_top_level_sections():
    doc = rfp("18f-dos-talentmap-rfq.md")
    assert doc.format == "markdown"
    assert doc.title == "REQUEST FOR QUOTATION (RFQ)"
    assert doc.issue_date == dt.date(2017, 2, 10)  # "**February 10, 2017**" on the cover
    assert outline(doc, 6) == [
        (None, "REQUEST FOR QUOTATION (RFQ)", 0),
        # the second title line is part of the title block, not a section (issue 13)
        ("1.", "General", 1),
        ("2.", "Administration", 1),
        ("3.", "Type of Contract", 1),
        ("4.", "Special Instructions", 1),
        ("1.", "Quotation Validation Date", 2),
    ]
    assert [s.number for s in doc.sections if s.level == 1 and s.number][-1] == "10."
    general = section(doc, "1.")
    assert general.body.startswith("Please submit your quotation in accordance")
    assert general.parent == doc.sections[0].key


def test_tdrs_final_markdown_outline_levels_come_from_numbering_depth():
    doc = rfp("18f-hhs-tdrs-rfq-final.md")
    assert doc.title == "General Services Administration"
    assert doc.issue_date == dt.date(2020, 4, 17)  # "**Date:** April 17, 2020"
    assert outline(doc, 5) == [
        (None, "General Services Administration", 0),
        (None, "Deadlines and response formats", 1),
        ("1.0", "Purpose and Background", 1),
        ("1.1", "Purpose", 2),
        ("1.2", "Background", 2),
    ]
    # "**2.2 Expectations**" is a bold paragraph heading between two "###" headings
    assert (section(doc, "2.2").heading, section(doc, "2.2").level) == ("Expectations", 2)
    # "#### 9.2.2" (four hashes) and "### 9.2.1" (three) are both depth 3 under 9.2
    for number in ("9.2.1", "9.2.2", "9.2.3."):
        assert section(doc, number).level == 3
        assert section(doc, number).parent == "9.2"
    assert section(doc, "9.2.3.").heading == "Factor 2 - Staffing Plan"
    assert doc.section_path("9.2.4") == [
        "General Services Administration",
        "9.0 Submission Instructions and Evaluation",
        "9.2 Evaluation Factors and Quote Submission Instructions",
        "9.2.4 Factor 3 - Similar Experience",
    ]
    # the HTML table became pipe rows; pandoc escapes and spans are gone
    assert "| RFQ Questions | April 30, 2020 at noon, eastern |" in doc.text
    assert "<span" not in doc.text and "\\[" not in doc.text


def test_tdrs_docx_and_markdown_agree_on_top_level_sections():
    md = rfp("18f-hhs-tdrs-rfq-final.md")
    docx = rfp("18f-hhs-tdrs-rfq-final.docx")
    assert docx.format == "docx"
    assert docx.title == "Request for Quote"  # the Word "Title" style paragraph
    assert docx.issue_date == dt.date(2020, 4, 17)
    top_md = [(s.number, s.heading) for s in md.sections if s.level == 1]
    top_docx = [(s.number, s.heading) for s in docx.sections if s.level == 1]
    assert top_docx == top_md
    assert [n for n, _ in top_md] == [None] + [f"{i}.0" for i in range(1, 10)]
    # Word tables are rows of cells joined with " | "
    assert "| Item | Date responses due | Format |" in docx.text
    assert section(docx, "3.1.2").heading == "Preliminary user stories"


def test_markdown_setext_headings_and_cover_date():
    doc = rfp("18f-dol-whd-14c-first-order-pws.md")
    assert doc.title == "PERFORMANCE WORK STATEMENT (PWS)"
    assert doc.issue_date == dt.date(2016, 6, 30)
    # "1.0 BACKGROUND" / "------" is a setext H2; the cover line above it is plain text
    assert outline(doc, 2) == [("1.0", "BACKGROUND", 1), ("2.0", "OBJECTIVES", 1)]


def test_alaska_table_of_contents_is_not_the_outline():
    doc = rfp("alaska-dhss-aries-support-rfp-210000029.md")
    assert doc.issue_date == dt.date(2021, 2, 19)  # "Issued 2/19/2021"
    sec1 = [s for s in doc.sections if s.number and s.number.startswith("Section 1")]
    assert len(sec1) == 1 and sec1[0].line > 200  # the TOC copy near the top is dropped
    assert (section(doc, "Sec. 1.04").heading, section(doc, "Sec. 1.04").level) == (
        "Minimum Qualifications",
        2,
    )
    assert section(doc, "Sec. 1.04").parent == sec1[0].key


# --- PDF ---------------------------------------------------------------------------------


def test_disa_draft_rfp_ucf_addenda_outline():
    doc = rfp("disa-ebm-draft-rfp-hc1013-05-r-2001.pdf")
    assert doc.format == "pdf"
    assert doc.title == "DRAFT RFP HC1013-05-R-2001"
    assert doc.issue_date == dt.date(2004, 11, 10)  # "ISSUE DATE: 10 NOV 04"
    numbered = [row for row in outline(doc) if row[0]]
    assert numbered[:5] == [
        ("ADDENDUM A", "DRAFT RFP INFORMATION", 1),
        (
            "A.1.1.",
            "This is Draft RFP HC1013-05-R-2001 for the Enterprise Business Modernization (EBM) "
            "Project for the…",
            3,
        ),
        # a bold heading wrapped over two lines (same font, same left edge) is one heading
        (
            "A.1.2.",
            "FAR 52.215-3 - REQUEST FOR INFORMATION OR SOLICITATION FOR PLANNING PURPOSES "
            "(OCT 1997)",
            3,
        ),
        ("A.1.3.", "Projected Final RFP HC1013-05-R-2001 Milestone Schedule", 3),
        ("ADDENDUM B", "SUPPLIES OR SERVICES AND PRICES/COSTS", 1),
    ]
    assert section(doc, "A.1.1.").kind == "paragraph"
    assert (section(doc, "L.1.1.").heading, section(doc, "L.1.1.").page) == ("Purpose", 3)
    pp = section(doc, "M.5.1.2.")
    assert (pp.heading, pp.level, pp.parent) == ("Factor 2 - Past Performance", 4, "M.5.1")
    # "Section 1. Buyer Management" inside L.1.2 is a list under the addenda, not a section
    assert not any(s.number and s.number.startswith("Section") for s in doc.sections)
    # line-end hyphenation: "Addendum J-" / "3, Small Business" keeps its hyphen
    assert "complete Addendum J-3,\nSmall Business Information" in doc.text


def test_doc_rfi_label_headings_footer_removed_and_numbered_questions_stay_in_body():
    doc = rfp("doc-rfi-cybersecurity-operations-cloud-migration.pdf")
    assert doc.title == "Migration of DOC Cybersecurity Operations to the Cloud"
    # the only date is the running footer "July 11, 2017", which is removed from the text
    assert doc.issue_date == dt.date(2017, 7, 11)
    assert "July 11, 2017" not in doc.text
    assert "Dept. of Commerce (DOC) Migration of Cybersecurity Operations" not in doc.text
    assert outline(doc, 4) == [
        (None, "Description", 1),
        (None, "Objective", 1),
        (None, "Solution Overview", 1),
        (None, "Background", 1),
    ]
    # bold lines are headings by their typography; the appendix title is centred, the table
    # titles under it are left-aligned, so they are not one wrapped heading
    # the "... Vendor Response" lines are the header rows of flattened response tables under
    # "Organization Profile", not sections (their rows are table-row asks)
    assert outline(doc)[-4:] == [
        (None, "Disclaimer and Important Notes", 1),
        (None, "Confidentiality", 1),
        ("Appendix A", "General Response Tables", 1),
        (None, "Organization Profile", 1),
    ]
    # "B. DOC ECMO Program" in bold is a lettered subsection of the bold heading above it
    assert [row for row in outline(doc) if row[0] in ("A.", "B.", "C.")] == [
        ("A.", "DOC Enterprise Security Operations Center (ESOC)", 2),
        ("B.", "DOC ECMO Program", 2),
        ("C.", "Continuous Diagnostic and Mitigation (CDM) Program", 2),
    ]
    info = next(s for s in doc.sections if s.heading == "Information Requested")
    assert "2. What is the feasibility of the solution" in info.body
    assert not any(s.number in ("1.", "2.") for s in doc.sections)


def test_tdrs_draft_pdf_outline_pages_and_clean_text():
    doc = rfp("18f-hhs-tdrs-rfq-draft.pdf")
    assert doc.title == "General Services Administration"
    assert doc.issue_date == dt.date(2020, 2, 5)  # "Date: February 5, 2020"
    assert outline(doc, 5) == [
        ("1.0", "Purpose and Background", 1),
        ("1.1", "Purpose", 2),
        ("1.2", "Background", 2),
        ("1.3", "Problem", 2),
        ("1.4", "Vision", 2),
    ]
    assert (section(doc, "1.0").page, section(doc, "2.0").page) == (3, 5)
    assert len(doc.page_starts) == 39 and doc.page_starts[0] == 1
    assert "\u200b" not in doc.text
    lines = doc.text.splitlines()
    assert "3" not in lines and "39" not in lines  # bare page numbers removed
    assert doc.pages_without_text == []


# --- text files and errors -------------------------------------------------------------------


def test_text_file_repairs_hyphenation_but_keeps_compounds(tmp_path: Path):
    path = tmp_path / "rfp.txt"
    path.write_text(
        "Issue Date: 03/09/2026\n"
        "1. Background\n"
        "The agency will award a firm-\n"
        "fixed-price order for the modern-\n"
        "ization of its case system. Modernization starts in 2027.\n"
        "Contractors must be cloud-\n"
        "based. See Attachment J-\n"
        "3 for details.\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    assert doc.format == "text"
    assert doc.issue_date == dt.date(2026, 3, 9)  # US month/day order
    # the rest of the split word moves up; the line break after it stays
    assert doc.text.splitlines()[2:] == [
        "The agency will award a firm-fixed-price",
        "order for the modernization",
        "of its case system. Modernization starts in 2027.",
        "Contractors must be cloud-based.",
        "See Attachment J-3",
        "for details.",
    ]


def test_text_decoding_cp1252_utf16_and_bom(tmp_path: Path):
    cp = tmp_path / "cp1252.txt"
    cp.write_bytes("Caf\u00e9 \u201cquoted\u201d \u2013 RFP\n".encode("cp1252"))
    doc = load_document(cp)
    assert doc.text == "Caf\u00e9 \u201cquoted\u201d \u2013 RFP"
    assert any("cp1252" in w for w in doc.warnings)

    utf16 = tmp_path / "utf16.md"
    utf16.write_bytes("# Title\n\n**Issue Date:** June 8, 2026\n".encode("utf-16"))
    doc = load_document(utf16)
    assert (doc.title, doc.issue_date, doc.warnings) == ("Title", dt.date(2026, 6, 8), [])

    bom = tmp_path / "bom.md"
    bom.write_bytes(b"\xef\xbb\xbf" + "# Title\u200b\n".encode("utf-8"))
    assert load_document(bom).text == "# Title"
    assert decode_text(b"\xef\xbb\xbfabc") == ("abc", [])
    assert decode_text("RFP 12\n".encode("utf-16-le"), "x.txt") == (
        "RFP 12\n",
        ["x.txt: no byte-order mark; decoded as utf-16-le"],
    )


def _pdf_with_text(text: str) -> bytes:
    """A one-page PDF with a real text layer, written by hand (no fixture file needed)."""
    from tests.layout_pdf import HELVETICA, one_page_pdf

    return one_page_pdf([f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET"], (HELVETICA,), "utf-8")


def test_generated_pdf_reads_and_encrypted_copy_is_refused(tmp_path: Path):
    from pypdf import PdfReader, PdfWriter

    plain = tmp_path / "plain.pdf"
    plain.write_bytes(_pdf_with_text("1.0 Scope of Work"))
    doc = load_document(plain)
    assert doc.text == "1.0 Scope of Work"
    assert outline(doc) == [("1.0", "Scope of Work", 1)]

    writer = PdfWriter()
    writer.append(PdfReader(str(plain)))
    writer.encrypt(user_password="secret", owner_password="owner")
    locked = tmp_path / "locked.pdf"
    with locked.open("wb") as fh:
        writer.write(fh)
    with pytest.raises(DocumentError, match="password-protected") as err:
        load_document(locked)
    assert err.value.path == str(locked)


def test_pdf_without_any_text_layer_says_to_run_ocr(tmp_path: Path):
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    writer.add_blank_page(width=612, height=792)
    blank = tmp_path / "scanned.pdf"
    with blank.open("wb") as fh:
        writer.write(fh)
    with pytest.raises(DocumentError, match=r"no text layer on any of its 2 page\(s\).*OCR"):
        load_document(blank)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.pdf", b"", "empty \\(0 bytes\\)"),
        ("empty.md", b"", "empty \\(0 bytes\\)"),
        (
            "corrupt.pdf",
            b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R",
            "corrupt or truncated",
        ),
        ("renamed.pdf", b"<html><body>Not found</body></html>", "not a PDF"),
        ("old.doc", b"\xd0\xcf\x11\xe0 binary word", "unsupported file type '.doc'.*\\.docx"),
        ("notes.xyz", b"hello", "unsupported file type '.xyz'"),
        ("broken.docx", b"this is not a zip", "not a Word .docx package"),
        ("blank.md", b"  \n\n\t\n", "contains no text"),
    ],
)
def test_bad_files_raise_document_error_naming_the_file(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(DocumentError, match=message) as err:
        load_document(path)
    assert err.value.path == str(path)
    assert str(path) in str(err.value)


def test_missing_file_raises_document_error(tmp_path: Path):
    with pytest.raises(DocumentError, match="file not found"):
        load_document(tmp_path / "nope.pdf")


def test_every_markdown_and_docx_rfp_loads_with_an_outline():
    if not RFPS.is_dir():
        pytest.skip(f"{RFPS} is missing: the public RFPs are read in place from ../shared/data")
    for path in sorted(RFPS.glob("*.md")) + sorted(RFPS.glob("*.docx")):
        doc = load_document(path)
        assert doc.text and doc.title, path.name
        assert len(doc.summary.split()) <= 80, path.name
        keys = [s.key for s in doc.sections]
        assert len(keys) == len(set(keys)), path.name
        for s in doc.sections:
            assert s.parent is None or s.parent in keys, (path.name, s.key)


def test_markdown_saved_as_txt_is_read_as_markdown(tmp_path):
    # The Franklin RFP saved as .txt: its "#" outline, Section 5.4 and so its filters survive.
    source = Path(__file__).parents[1] / "sample" / "inbox"
    text = (source / "franklin-dhhs-iecms-modernization-rfp.md").read_text(encoding="utf-8")
    path = tmp_path / "franklin.txt"
    path.write_text(text, encoding="utf-8")
    doc = load_document(path)
    assert doc.format == "markdown"
    assert doc.warnings == [f"{doc.path} has Markdown headings: read as Markdown"]
    reading = read_scope(doc)
    assert (reading.value_min, reading.value_max) == (10_000_000, 75_000_000)
    assert reading.references_required == 3
    # plain text with one "#" line (a comment, a ticket number) stays plain text
    plain = tmp_path / "notes.txt"
    plain.write_text("# 2026-04\n\nThe contractor shall operate the help desk.\n", "utf-8")
    assert load_document(plain).format == "text"


def test_documents_modules_import_the_core_only_at_module_level():
    """No import inside a function dodges a cycle (extract <-> questionnaire was one)."""
    hidden = []
    for path in sorted((REPO / "rfp_retrieval" / "documents").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                hidden += [
                    f"{path.name}:{inner.lineno}"
                    for inner in ast.walk(node)
                    if isinstance(inner, ast.ImportFrom)
                    and (inner.module or "").startswith("rfp_retrieval")
                ]
    assert hidden == []
