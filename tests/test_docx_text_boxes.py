"""Break-it: a DOCX whose questions sit in text boxes (a questionnaire laid out in boxes, a
page-limit call-out) lost every word in them: python-docx reads a paragraph's own runs only.
Text boxes are read after the paragraph that anchors them, once (Word's VML fallback copy of
each box is skipped)."""

from __future__ import annotations

from pathlib import Path

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions

NS = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    ' xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
    ' xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"'
    ' xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"'
    ' xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"'
    ' xmlns:v="urn:schemas-microsoft-com:vml"'
)


def _paragraphs(texts: list[str]) -> str:
    return "".join(f'<w:p><w:r><w:t xml:space="preserve">{t}</w:t></w:r></w:p>' for t in texts)


def _box_run(content: str, fallback: bool = True):
    """A run holding a text box as Word writes it: the DrawingML shape in ``mc:Choice`` and
    (``fallback``) the same text again in a VML shape in ``mc:Fallback``."""
    from docx.oxml import parse_xml

    choice = (
        '<w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" '
        'relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">'
        '<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0'
        '</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0'
        '</wp:posOffset></wp:positionV><wp:extent cx="3000000" cy="1000000"/>'
        '<wp:wrapSquare wrapText="bothSides"/><wp:docPr id="1" name="Text Box 1"/><a:graphic>'
        '<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
        f"<wps:wsp><wps:spPr/><wps:txbx><w:txbxContent>{content}</w:txbxContent></wps:txbx>"
        "<wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing>"
    )
    vml = f"<w:pict><v:shape><v:textbox><w:txbxContent>{content}</w:txbxContent></v:textbox></v:shape></w:pict>"  # noqa: E501
    if not fallback:
        return parse_xml(f"<w:r {NS}>{vml}</w:r>")  # an old VML-only box
    return parse_xml(
        f'<w:r {NS}><mc:AlternateContent><mc:Choice Requires="wps">{choice}</mc:Choice>'
        f"<mc:Fallback>{vml}</mc:Fallback></mc:AlternateContent></w:r>"
    )


def _docx(path: Path) -> Path:
    import docx

    document = docx.Document()
    document.add_heading("1. Scope of Work", 1)
    document.add_paragraph("The contractor shall operate the help desk.")
    anchor = document.add_paragraph("")
    anchor._p.append(
        _box_run(
            _paragraphs(
                [
                    "Describe your approach to tier 1 staffing.",
                    "Explain how you measure first-call resolution.",
                ]
            )
        )
    )
    call_out = document.add_paragraph("Submission:")
    call_out._p.append(_box_run(_paragraphs(["Format"])))
    # a box inside a box (in the first paragraph of the outer box): read once, after it
    inner = _box_run(_paragraphs(["Proposals shall not exceed 20 pages."]))
    call_out._p[-1].xpath(".//w:txbxContent")[0][0].append(inner)
    old = document.add_paragraph("")
    old._p.append(_box_run(_paragraphs(["Describe your transition plan."]), fallback=False))
    document.add_heading("2. Evaluation", 1)
    document.add_paragraph("Proposals will be evaluated on technical approach.")
    document.save(path)
    return path


def test_text_in_text_boxes_is_read_once_after_its_anchor(tmp_path: Path):
    doc = load_document(_docx(tmp_path / "rfp.docx"))
    lines = [line for line in doc.text.splitlines() if line.strip()]
    assert lines == [
        "# 1. Scope of Work",
        "The contractor shall operate the help desk.",
        "Describe your approach to tier 1 staffing.",
        "Explain how you measure first-call resolution.",
        "Submission:",
        "Format",
        "Proposals shall not exceed 20 pages.",
        "Describe your transition plan.",
        "# 2. Evaluation",
        "Proposals will be evaluated on technical approach.",
    ]
    asks = [q.text for q in find_questions(doc)]
    for ask in (
        "Describe your approach to tier 1 staffing.",
        "Explain how you measure first-call resolution.",
        "Proposals shall not exceed 20 pages.",
        "Describe your transition plan.",
    ):
        assert ask in asks, asks
    assert [s.number for s in doc.sections if s.number] == ["1.", "2."]


def test_custom_xml_blocks_and_runs_are_read(tmp_path: Path):
    """Break-it: a template that tags its requirements with custom XML (``w:customXml`` around
    a paragraph, a table cell's paragraph or a run) lost them."""
    import docx
    from docx.oxml import parse_xml

    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    document = docx.Document()
    document.add_heading("1. Scope", 1)
    body = document.element.body
    body.insert(
        len(body) - 1,
        parse_xml(
            f'<w:customXml {w} w:element="req"><w:p><w:r><w:t>The Offeror shall describe its '
            "staffing plan.</w:t></w:r></w:p></w:customXml>"
        ),
    )
    inline = document.add_paragraph("")
    inline._p.append(
        parse_xml(
            f'<w:customXml {w} w:element="q"><w:r><w:t>Describe your QA process.</w:t></w:r>'
            "</w:customXml>"
        )
    )
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "1.1"
    cell = table.cell(0, 1)._tc
    cell.append(
        parse_xml(
            f'<w:customXml {w} w:element="q"><w:p><w:r><w:t>Explain your security approach.'
            "</w:t></w:r></w:p></w:customXml>"
        )
    )
    path = tmp_path / "tagged.docx"
    document.save(path)
    doc = load_document(path)
    for text in (
        "The Offeror shall describe its staffing plan.",
        "Describe your QA process.",
        "| 1.1 | Explain your security approach. |",
    ):
        assert text in doc.text.splitlines(), doc.text


def test_a_text_box_in_a_table_cell_is_read_in_that_cell(tmp_path: Path):
    import docx

    document = docx.Document()
    document.add_heading("1. Questions", 1)
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "1.1"
    anchor = table.cell(0, 1).paragraphs[0]
    anchor._p.append(_box_run(_paragraphs(["Describe your escalation process."])))
    path = tmp_path / "boxed-cell.docx"
    document.save(path)
    doc = load_document(path)
    assert "| 1.1 | Describe your escalation process. |" in doc.text.splitlines(), doc.text
