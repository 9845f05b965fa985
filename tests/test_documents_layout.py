"""Layout-aware extraction: PDF typography, Word numbering, pandoc tables, text repairs, and
the storage round trip of documents and questions."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.docx_numbering import format_number, to_letters, to_roman
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.documents.tables import (
    document_frame,
    document_from_frames,
    outline_frame,
    questions_frame,
    questions_from_frame,
)
from tests.layout_pdf import one_page_pdf


def _pdf(lines: list[tuple[str, float, float, float, str]]) -> bytes:
    """A one-page PDF; each line is (font F1 regular | F2 bold, size, x, y, text)."""
    ops = [f"BT /{font} {size} Tf {x} {y} Td ({text}) Tj ET" for font, size, x, y, text in lines]
    return one_page_pdf(ops, encoding="utf-8")


BODY = "The agency runs a legacy system that must be replaced within two years."


def test_pdf_headings_come_from_font_size_and_weight_not_capitals(tmp_path: Path):
    path = tmp_path / "styled.pdf"
    path.write_bytes(
        _pdf(
            [
                ("F2", 18, 72, 720, "Statement of Work"),
                ("F2", 14, 72, 690, "Background"),
                ("F1", 11, 72, 670, BODY),
                ("F1", 11, 72, 656, "It serves every regional office of the agency today."),
                ("F1", 11, 72, 630, "SIGNATURE OF OFFEROR"),
                ("F1", 11, 72, 604, BODY),
                ("F2", 14, 72, 574, "Scope of the Work to Be"),
                ("F2", 14, 72, 558, "Performed"),
                ("F1", 11, 72, 538, BODY),
            ]
        )
    )
    doc = load_document(path)
    assert [(s.number, s.heading, s.level) for s in doc.sections] == [
        # the first line in the document's largest type is its title: the outline's root
        # (outline._layout_title_block, as a Markdown "# Title" over "## Section")
        (None, "Statement of Work", 0),
        (None, "Background", 1),
        # a heading wrapped over two lines (same font, same left edge) is one heading
        (None, "Scope of the Work to Be Performed", 1),
    ]  # the plain ALL-CAPS form label is not a heading in a document that styles its headings
    # a vertical gap larger than the leading is a paragraph break (a blank line)
    lines = doc.text.splitlines()
    assert lines[4:7] == [BODY, "It serves every regional office of the agency today.", ""]


def test_pdf_bold_side_column_label_is_split_from_the_body_line(tmp_path: Path):
    path = tmp_path / "side.pdf"
    path.write_bytes(
        _pdf(
            [
                ("F2", 11, 72, 700, "Contract"),
                (
                    "F1",
                    9.5,
                    160,
                    700,
                    "The Government desires that the Contractor propose the type.",
                ),
                ("F1", 9.5, 160, 688, "Pricing arrangements shall include incentives."),
            ]
        )
    )
    lines = load_document(path).text.splitlines()
    assert lines[:2] == [
        "Contract",
        "The Government desires that the Contractor propose the type.",
    ]


def test_text_repairs_split_capitals_and_keeps_real_words(tmp_path: Path):
    path = tmp_path / "cover.txt"
    path.write_text(
        "S EALED PROPOSALS FOR SERVICES\f"
        "A PPLICATION FORMAT\nThe SEALED proposal follows the APPLICATION rules.\f"
        "Offerors join A VENDOR list after review.\n",
        encoding="utf-8",
    )
    text = load_document(path).text
    assert "SEALED PROPOSALS FOR SERVICES" in text
    assert "APPLICATION FORMAT" in text
    assert "A VENDOR list" in text  # "VENDOR" is a word on its own: nothing to repair


def test_plain_ucf_letter_digit_numbers_are_sections(tmp_path: Path):
    path = tmp_path / "gsa.txt"
    path.write_text(
        "SECTION B - SUPPLIES OR SERVICES\n"
        "B1. Contract Type\n"
        "The contract is a firm-fixed-price award.\n"
        "B2. Schedule\n"
        "The schedule is attached.\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    assert [(s.number, s.heading, s.level) for s in doc.sections] == [
        ("SECTION B", "SUPPLIES OR SERVICES", 1),
        ("B1.", "Contract Type", 2),
        ("B2.", "Schedule", 2),
    ]


def test_word_automatic_numbering_is_rebuilt_from_numbering_definitions(tmp_path: Path):
    import docx
    from docx.oxml import parse_xml

    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    document = docx.Document()
    numbering = document.part.numbering_part.element
    numbering.append(
        parse_xml(
            f'<w:abstractNum {w} w:abstractNumId="90">'
            '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
            '<w:lvlText w:val="%1.0"/></w:lvl>'
            '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
            '<w:lvlText w:val="%1.%2"/></w:lvl>'
            '<w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/>'
            '<w:lvlText w:val="(%3)"/></w:lvl></w:abstractNum>'
        )
    )
    numbering.append(parse_xml(f'<w:num {w} w:numId="90"><w:abstractNumId w:val="90"/></w:num>'))

    def numbered(text: str, style: str, level: int) -> None:
        paragraph = document.add_paragraph(text, style=style)
        ppr = paragraph._p.get_or_add_pPr()
        ppr.append(
            parse_xml(f'<w:numPr {w}><w:ilvl w:val="{level}"/><w:numId w:val="90"/></w:numPr>')
        )

    numbered("Scope", "Heading 1", 0)
    numbered("Hosting", "Heading 2", 1)
    document.add_paragraph("The contractor shall host the platform in the United States.")
    numbered("Describe your hosting region.", "Normal", 2)
    numbered("Describe your backup schedule.", "Normal", 2)
    numbered("Security", "Heading 2", 1)
    numbered("Evaluation", "Heading 1", 0)
    path = tmp_path / "numbered.docx"
    document.save(path)
    doc = load_document(path)
    assert [(s.number, s.heading, s.level) for s in doc.sections] == [
        ("1.0", "Scope", 1),
        ("1.1", "Hosting", 2),
        ("1.2", "Security", 2),
        ("2.0", "Evaluation", 1),
    ]
    assert [(q.label, q.text, q.section_path) for q in find_questions(doc)][1:] == [
        ("1.1 (a)", "Describe your hosting region.", ["1.0 Scope", "1.1 Hosting"]),
        ("1.1 (b)", "Describe your backup schedule.", ["1.0 Scope", "1.1 Hosting"]),
    ]
    assert (to_roman(14), to_letters(28), format_number(3, "upperRoman")) == ("XIV", "bb", "III")


def test_pandoc_grid_and_multiline_tables_become_one_row_per_table_row(tmp_path: Path):
    path = tmp_path / "tables.md"
    path.write_text(
        "# RFP\n\n"
        "+--------+----------------------+\n"
        "| ID     | Requirement          |\n"
        "+========+======================+\n"
        "| R-1    | Describe your backup |\n"
        "|        | schedule.            |\n"
        "+--------+----------------------+\n"
        "| R-2    | Describe your support|\n"
        "|        | hours.               |\n"
        "+--------+----------------------+\n\n"
        "  -------------------------------------\n"
        "  **Event**        **Date**\n"
        "  ---------------- --------------------\n"
        "  Questions due    June 1, 2026\n\n"
        "  Proposals due\\   June 20, 2026\n"
        "  (noon)\n"
        "  -------------------------------------\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    assert [ln for ln in doc.text.splitlines() if ln.startswith("|")] == [
        "| ID | Requirement |",
        "| R-1 | Describe your backup schedule. |",
        "| R-2 | Describe your support hours. |",
        "| **Event** | **Date** |",
        "| Questions due | June 1, 2026 |",
        "| Proposals due (noon) | June 20, 2026 |",
    ]
    assert [(q.label, q.text) for q in find_questions(doc)] == [
        ("R-1", "Describe your backup schedule."),
        ("R-2", "Describe your support hours."),
    ]


def test_markdown_heading_split_by_an_empty_atx_line_and_table_cell_breaks(tmp_path: Path):
    path = tmp_path / "pandoc.md"
    path.write_text(
        "# RFP\n\n## 9.0 Evaluation\n\n####   \n9.6.4 Phase 2 - Oral Interview\n\n"
        "| # | Question | Response |\n|---|---|---|\n"
        "| 1 | Describe your team.<br>Include resumes. | |\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    assert [(s.number, s.heading, s.level) for s in doc.sections] == [
        (None, "RFP", 0),
        ("9.0", "Evaluation", 1),
        ("9.6.4", "Phase 2 - Oral Interview", 3),
    ]
    assert [(q.label, q.text) for q in find_questions(doc)] == [
        ("1", "Describe your team. Include resumes."),
    ]


def test_document_outline_and_questions_round_trip_through_their_tables(tmp_path: Path):
    path = tmp_path / "styled.pdf"
    path.write_bytes(
        _pdf(
            [
                ("F2", 16, 72, 720, "Section L - Instructions"),
                ("F1", 11, 72, 690, "L.1 Describe your approach to the migration in detail."),
                ("F1", 11, 72, 676, BODY),
            ]
        )
    )
    doc = load_document(path)
    back = document_from_frames(document_frame("p", doc), outline_frame("p", doc))
    assert back.sections == doc.sections  # kind and title included
    assert (back.page_starts, back.format, back.text) == (doc.page_starts, "pdf", doc.text)
    assert [s.kind for s in back.sections] == ["heading", "paragraph"]
    assert back.sections[0].title == "Section L - Instructions"
    questions = find_questions(doc)
    assert questions_from_frame(questions_frame("p", questions)) == questions
    assert [(q.label, q.page) for q in questions] == [("L.1", 1)]


def test_a_wrapped_capitals_heading_takes_its_second_line_once(tmp_path: Path):
    """New-user trial: "SECTION L – INSTRUCTIONS, CONDITIONS, AND NOTICES" wrapped before "TO
    OFFERORS" (same bold font) became "... NOTICES TO OFFERORS TO OFFERORS": the styled join
    and the capitals join both took the second line."""
    path = tmp_path / "ucf.pdf"
    path.write_bytes(
        _pdf(
            [
                ("F2", 12, 72, 720, "SECTION L - INSTRUCTIONS, CONDITIONS, AND NOTICES"),
                ("F2", 12, 72, 706, "TO OFFERORS"),
                ("F2", 11, 72, 680, "L.1 Quotation Format"),
                ("F1", 11, 72, 664, "Quotations shall consist of three volumes."),
                ("F2", 12, 72, 630, "SECTION M - EVALUATION FACTORS FOR AWARD"),
                ("F1", 11, 72, 614, BODY),
            ]
        )
    )
    doc = load_document(path)
    assert [(s.number, s.heading, s.level) for s in doc.sections] == [
        ("SECTION L", "INSTRUCTIONS, CONDITIONS, AND NOTICES TO OFFERORS", 1),
        ("L.1", "Quotation Format", 2),
        ("SECTION M", "EVALUATION FACTORS FOR AWARD", 1),
    ]
