"""Numbered list items under a lead-in ("Proposals shall address each of the following:"
1. ... 5.) keep the document's own numbers in ``parse``, the compliance matrix and the brief's
question list, whatever the format: Markdown, Word automatic numbering (``w:numPr``) and a PDF
text layer (issue 13, new-user trial)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
from typer.testing import CliRunner

from rfp_retrieval.cli import app
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.matrix import matrix_rows
from rfp_retrieval.documents.questions import find_questions, part_label
from rfp_retrieval.documents.tables import questions_frame, questions_from_frame
from rfp_retrieval.report.questions import question_views
from tests.layout_pdf import one_page_pdf

LEAD = "Proposals shall address each of the following:"
ITEMS = [
    "The offeror's approach to migrating the legacy data.",
    "The staffing plan, with the key personnel named.",
    "How the offeror will manage risks during transition.",
    "The quality control plan.",
    "Three similar contracts performed in the last five years.",
]
AFTER = "The price volume shall not exceed 10 pages."
NUMBERED = [("(1)", ITEMS[0]), ("(2)", ITEMS[1]), ("(3)", ITEMS[2]), ("(4)", ITEMS[3])]
NUMBERED.append(("(5)", ITEMS[4]))
LABELLED = [(f"1.1{label}", text) for label, text in NUMBERED]
"""The items' matrix labels: the prompt's paragraph number 1.1, then the item's number."""


def _markdown(tmp_path: Path) -> Path:
    items = "\n".join(f"{k}. {text}" for k, text in enumerate(ITEMS, start=1))
    path = tmp_path / "rfp.md"
    path.write_text(
        "# Request for Proposals\n\n## 1. Instructions to Offerors\n\n"
        f"### 1.1 Technical Volume\n\n{LEAD}\n\n{items}\n\n### 1.2 Price Volume\n\n{AFTER}\n",
        encoding="utf-8",
    )
    return path


def _docx(tmp_path: Path) -> Path:
    """The same document with the items numbered by Word (a ``decimal`` list, ``%1.``)."""
    import docx
    from docx.oxml import parse_xml

    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    document = docx.Document()
    numbering = document.part.numbering_part.element
    numbering.append(
        parse_xml(
            f'<w:abstractNum {w} w:abstractNumId="70">'
            '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
            '<w:lvlText w:val="%1."/></w:lvl></w:abstractNum>'
        )
    )
    numbering.append(parse_xml(f'<w:num {w} w:numId="70"><w:abstractNumId w:val="70"/></w:num>'))
    document.add_heading("Request for Proposals", level=1)
    document.add_heading("1. Instructions to Offerors", level=2)
    document.add_heading("1.1 Technical Volume", level=3)
    document.add_paragraph(LEAD)
    for text in ITEMS:
        paragraph = document.add_paragraph(text, style="List Number")
        ppr = paragraph._p.get_or_add_pPr()
        for old in ppr.findall(f"{{{ppr.nsmap['w']}}}numPr"):
            ppr.remove(old)
        ppr.append(parse_xml(f'<w:numPr {w}><w:ilvl w:val="0"/><w:numId w:val="70"/></w:numPr>'))
    document.add_heading("1.2 Price Volume", level=3)
    document.add_paragraph(AFTER)
    path = tmp_path / "rfp.docx"
    document.save(path)
    return path


def _pdf(tmp_path: Path) -> Path:
    """The same document as a one-page PDF with a text layer (bold headings, body text)."""
    lines = [
        ("F2", 16, 72, 740, "Request for Proposals"),
        ("F2", 13, 72, 710, "1. Instructions to Offerors"),
        ("F2", 12, 72, 685, "1.1 Technical Volume"),
        ("F1", 11, 72, 665, LEAD),
    ]
    y = 650
    for k, text in enumerate(ITEMS, start=1):
        lines.append(("F1", 11, 90, y, f"{k}. {text}"))
        y -= 15
    lines += [("F2", 12, 72, y - 10, "1.2 Price Volume"), ("F1", 11, 72, y - 30, AFTER)]
    ops = [f"BT /{f} {size} Tf {x} {yy} Td ({t}) Tj ET" for f, size, x, yy, t in lines]
    out = one_page_pdf(ops)
    path = tmp_path / "rfp.pdf"
    path.write_bytes(out)
    return path


def _matrix(path: Path) -> list[tuple[str | None, str, str]]:
    doc = load_document(path)
    return [(r.label, r.kind, r.text.replace("’", "'")) for r in matrix_rows(doc)]


EXPECTED = [
    ("1.1", "question", LEAD),
    *[(label, "question", text) for label, text in LABELLED],
    ("1.2", "requirement", AFTER),
]


def test_numbered_items_under_a_lead_in_keep_their_numbers_in_every_format(tmp_path: Path):
    for make in (_markdown, _docx, _pdf):
        folder = tmp_path / make.__name__
        folder.mkdir()
        path = make(folder)
        assert _matrix(path) == EXPECTED, path.name
        [prompt, _] = find_questions(load_document(path))
        assert prompt.part_labels == ["1", "2", "3", "4", "5"], path.name
        assert prompt.section_path[-1] == "1.1 Technical Volume", path.name


def test_parse_lists_the_items_with_the_matrix_labels(tmp_path: Path):
    path = _markdown(tmp_path)
    result = CliRunner().invoke(app, ["parse", str(path), "--json"])
    assert result.exit_code == 0, result.output
    [prompt, after] = json.loads(result.output)["questions"]
    assert (prompt["text"], after["parts"]) == (LEAD, [])
    assert [(p["label"], p["text"]) for p in prompt["parts"]] == LABELLED
    text = CliRunner().invoke(app, ["parse", str(path)], env={"COLUMNS": "200"}).output
    assert f"1.1(3) {ITEMS[2]}" in text


def test_brief_question_list_shows_the_items_with_their_numbers(tmp_path: Path):
    questions = find_questions(load_document(_markdown(tmp_path)))
    frame = questions_frame("p", questions)
    assert questions_from_frame(frame) == questions  # part labels survive the table
    rewritten = pl.DataFrame(
        {
            "question_id": ["q-001", "q-002"],
            "label": [None, None],
            "original": [LEAD, AFTER],
            "section_path": [questions[0].section_path, questions[1].section_path],
        }
    )
    views = question_views(rewritten, None, frame)
    assert [(i["label"], i["text"]) for i in views[0]["items"]] == LABELLED
    assert views[1]["items"] == []
    assert question_views(rewritten, None)[0]["items"] == []  # no questions table: none


def test_part_label_is_the_printed_number_without_punctuation():
    assert [part_label(m) for m in ("1.", "(a)", "iv)", "A.", "-", "•", None, "R-01")] == [
        "1",
        "a",
        "iv",
        "A",
        None,
        None,
        None,
        None,
    ]


def test_bulleted_items_are_lettered_in_order(tmp_path: Path):
    path = tmp_path / "bullets.md"
    path.write_text(
        f"# RFP\n\n## 2.1 Technical Volume\n\n{LEAD}\n\n- {ITEMS[0]}\n- {ITEMS[1]}\n",
        encoding="utf-8",
    )
    rows = matrix_rows(load_document(path))
    assert [(r.label, r.text) for r in rows[1:]] == [("2.1(a)", ITEMS[0]), ("2.1(b)", ITEMS[1])]


def test_a_question_ending_on_the_following_list_holds_the_list_as_options(tmp_path: Path):
    """An evaluator's question "... in at least three of the following areas?" introduces its
    list as a prompt ending with ":" does: the items are its options, not asks."""
    path = tmp_path / "eval.md"
    path.write_text(
        "# RFQ\n\n## 9.6 Evaluation\n\n### 9.6.2 Staffing Plan\n\n"
        "Did the proposed team have experience in at least three of the following areas?\n\n"
        "- Cloud deployment\n- Automated testing\n- Content design\n- Database design\n"
        "- Did the contractor include a resume for each key person?\n",
        encoding="utf-8",
    )
    rows = matrix_rows(load_document(path))
    assert [(r.label, r.kind, r.text) for r in rows] == [
        (
            "9.6.2",
            "evaluation-criterion",
            "Did the proposed team have experience in at least three of the following areas?",
        ),
        ("9.6.2(a)", "option", "Cloud deployment"),
        ("9.6.2(b)", "option", "Automated testing"),
        ("9.6.2(c)", "option", "Content design"),
        ("9.6.2(d)", "option", "Database design"),
        (None, "evaluation-criterion", "Did the contractor include a resume for each key person?"),
    ]


def test_items_joined_by_or_are_options_of_one_ask(tmp_path: Path):
    path = tmp_path / "oci.md"
    path.write_text(
        "# RFQ\n\n## 5. Instructions\n\n"
        "Offerors shall describe any interest bearing on a conflict with respect to:\n\n"
        "1. Being able to render impartial advice, or\n"
        "2. Being given an unfair competitive advantage.\n\n"
        "Offerors shall address each of the following:\n\n"
        "1. The transition plan, and\n2. The staffing plan.\n",
        encoding="utf-8",
    )
    rows = matrix_rows(load_document(path))
    assert [(r.label, r.kind) for r in rows] == [
        ("5", "question"),
        ("5(1)", "option"),
        ("5(2)", "option"),
        ("5", "question"),
        ("5(1)", "question"),
        ("5(2)", "question"),
    ]
