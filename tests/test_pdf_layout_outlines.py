"""Outlines of small PDFs written in the layouts real solicitations use (issue 13): bold
headings without numbers, a title block in larger type, two roman top-level headings in
capitals with lettered sub-sections, a UCF heading wrapped onto a second line. The PDFs are
written by ``layout_pdf`` (real text layer, Helvetica / Helvetica-Bold), nothing is fetched."""

from __future__ import annotations

from pathlib import Path

from layout_pdf import Line, layout_pdf

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import matrix_rows

SOURCES_SOUGHT = [
    Line("Sources Sought Notice", bold=True, size=16, x=200),
    Line("Airport Wayfinding Support Services", bold=True, size=13, x=180, gap=4),
    Line("Background", bold=True, gap=14),
    Line("The agency operates signage and kiosks at forty airports and seeks input.", gap=4),
    Line("I. REQUIREMENTS", bold=True, gap=10),
    Line("A. Program Management", bold=True, gap=6),
    Line("The agency needs monthly status reporting and a single point of contact.", gap=4),
    Line("B. Technical Support", bold=True, gap=6),
    Line("Support covers kiosk software updates and field repairs within 24 hours.", gap=4),
    Line("II. SUBMISSION INSTRUCTIONS", bold=True, gap=10),
    Line("Respondents shall provide the following information:", gap=4),
    Line("1. Company name, address and point of contact;", x=90, gap=2),
    Line("2. Business size under NAICS 541512;", x=90),
    Line("3. A description of similar work performed in the last three years.", x=90),
    Line("Responses shall not exceed five pages.", gap=4),
    Line("Questions", bold=True, gap=10),
    Line("Describe any risks you see in a phased rollout.", gap=4),
]

UCF_RFQ = [
    Line("REQUEST FOR QUOTATION 70-26-Q-0012", bold=True, size=14, x=150),
    Line("SECTION B - SUPPLIES OR SERVICES AND PRICES", bold=True, gap=14),
    Line("B.1 The Government anticipates award of a firm-fixed-price contract for grounds", gap=6),
    Line("maintenance services at the national cemetery described in Section C."),
    Line("B.2 PRICE SCHEDULE", bold=True, gap=6),
    Line("The offeror shall complete the price schedule in Attachment 1 for each item.", gap=4),
    Line("SECTION C - STATEMENT OF WORK", bold=True, gap=8),
    Line("C.1 SCOPE", bold=True, gap=6),
    Line("The contractor shall furnish all labor and equipment to maintain the grounds.", gap=4),
    Line("C.2 TURF MOWING AND", bold=True, gap=6),
    Line("TRIMMING", bold=True),
    Line("The contractor shall mow all turf areas to a height of three inches.", gap=4),
    Line("SECTION L - INSTRUCTIONS, CONDITIONS AND NOTICES TO OFFERORS", bold=True, gap=8),
    Line("L.1 QUOTE SUBMISSION", bold=True, gap=6),
    Line("Quotes shall be submitted by email as one PDF file of no more than 10 pages.", gap=4),
    Line("L.2 TECHNICAL CAPABILITY", bold=True, gap=6),
    Line(
        "The offeror shall describe its equipment and staffing for each task in Section C.", gap=4
    ),
]


def _load(tmp_path: Path, lines: list[Line]):
    path = tmp_path / "rfp.pdf"
    path.write_bytes(layout_pdf([lines]))
    return load_document(path)


def test_sources_sought_pdf_title_block_roman_caps_and_bold_headings(tmp_path: Path):
    """The larger-type title block is the root, not sections; two roman capitals headings
    are top-level sections (a two-item run in sentence case stays a list); a bold heading in
    the type of the earlier top-level "Background" is top level again after II."""
    doc = _load(tmp_path, SOURCES_SOUGHT)
    assert doc.title == "Sources Sought Notice"
    assert [(s.level, s.number, s.heading) for s in doc.sections] == [
        (0, None, "Sources Sought Notice"),
        (1, None, "Background"),
        (1, "I.", "REQUIREMENTS"),
        (2, "A.", "Program Management"),
        (2, "B.", "Technical Support"),
        (1, "II.", "SUBMISSION INSTRUCTIONS"),
        (1, None, "Questions"),
    ]
    rows = [(r.section_path.split(" > ")[-1], r.kind, r.text) for r in matrix_rows(doc)]
    assert rows[0] == (
        "II. SUBMISSION INSTRUCTIONS",
        "question",
        "Respondents shall provide the following information:",
    )
    assert rows[-1] == ("Questions", "question", "Describe any risks you see in a phased rollout.")


def test_ucf_pdf_wrapped_heading_and_numbered_sentence(tmp_path: Path):
    """A bold UCF heading wrapped onto a second bold line is one heading; "B.1 The Government
    anticipates ..." in body type is a numbered paragraph, not a titled section."""
    doc = _load(tmp_path, UCF_RFQ)
    assert [(s.level, s.number, s.kind) for s in doc.sections if s.level > 0] == [
        (1, "SECTION B", "heading"),
        (2, "B.1", "paragraph"),
        (2, "B.2", "heading"),
        (1, "SECTION C", "heading"),
        (2, "C.1", "heading"),
        (2, "C.2", "heading"),
        (1, "SECTION L", "heading"),
        (2, "L.1", "heading"),
        (2, "L.2", "heading"),
    ]
    assert doc.section("C.2").heading == "TURF MOWING AND TRIMMING"
    kinds = {r.text[:30]: r.kind for r in matrix_rows(doc)}
    assert kinds["The contractor shall mow all t"] == "work-statement"
    assert kinds["The offeror shall describe its"] == "question"
