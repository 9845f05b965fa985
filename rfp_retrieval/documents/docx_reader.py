"""A Word .docx body as Markdown-flavoured lines: ``#`` headings from Word heading styles,
Word's automatic numbers rebuilt (``docx_numbering``), bold-only paragraphs as ``**text**``,
tables as rows of cells joined with `` | ``, text boxes read after the paragraph that anchors
them."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

from rfp_retrieval.documents.docx_numbering import NumberingTracker
from rfp_retrieval.documents.records import DocumentError


def _iter_block_items(parent) -> Iterator[object]:
    """Paragraphs and tables of a python-docx body in document order (content controls and
    custom XML blocks too)."""
    from docx.oxml.ns import qn
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    for child in parent.element.body.iterchildren() if hasattr(parent, "element") else []:
        yield from _walk(child, parent, qn, Paragraph, Table)


def _walk(child, parent, qn, paragraph_cls, table_cls) -> Iterator[object]:
    if child.tag == qn("w:p"):
        yield paragraph_cls(child, parent)
    elif child.tag == qn("w:tbl"):
        yield table_cls(child, parent)
    elif child.tag == qn("w:sdt"):
        content = child.find(qn("w:sdtContent"))
        if content is not None:
            for sub in content.iterchildren():
                yield from _walk(sub, parent, qn, paragraph_cls, table_cls)
    elif child.tag == qn("w:customXml"):  # a template's tagged block (break-it: text lost)
        for sub in child.iterchildren():
            yield from _walk(sub, parent, qn, paragraph_cls, table_cls)


# The runs of a paragraph as it reads with every tracked change accepted: inserted
# (``w:ins``) and moved-in (``w:moveTo``) runs kept; deleted runs (``w:del``, whose text is
# ``w:delText``) and moved-out runs (``w:moveFrom``) left out. python-docx's
# ``Paragraph.text`` reads only the paragraph's direct runs and hyperlinks.
_ACCEPTED_RUNS = (
    "w:r | w:hyperlink | w:ins/w:r | w:ins/w:hyperlink | w:moveTo/w:r | w:smartTag/w:r"
    " | w:fldSimple/w:r | w:sdt/w:sdtContent/w:r | w:ins/w:smartTag/w:r"
    " | w:customXml/w:r | w:customXml/w:hyperlink | w:customXml/w:ins/w:r | w:ins/w:customXml/w:r"
)


def _paragraph_text(p_element) -> str:
    """A ``w:p`` element's text with tracked changes accepted (tabs ``\\t``, breaks ``\\n``)."""
    return "".join(e.text or "" for e in p_element.xpath(_ACCEPTED_RUNS))


def _cell_text(cell, qn) -> str:
    """A python-docx cell's text, changes accepted: its paragraphs and the text of any table
    nested in it (its cells' texts in reading order, as paragraphs of the cell: no `` | `` is
    added, which would split the outer row into more columns), in document order."""
    from docx.table import Table

    parts: list[str] = []
    children = list(cell._tc.iterchildren())
    while children:
        child = children.pop(0)
        if child.tag == qn("w:p"):
            parts.append(_paragraph_text(child))
            for box in _text_boxes(child, qn):  # a text box in the cell: read in the cell
                children[:0] = list(box.iterchildren())
        elif child.tag == qn("w:tbl"):
            rows = _table_rows(Table(child, cell), qn)
            parts.extend(" ".join(row) for row in rows if any(row))
        elif child.tag == qn("w:sdt"):
            content = child.find(qn("w:sdtContent"))
            if content is not None:
                children[:0] = list(content.iterchildren())
        elif child.tag == qn("w:customXml"):
            children[:0] = list(child.iterchildren())
    return "\n".join(parts)


def _table_rows(table, qn) -> list[list[str]]:
    """A python-docx table as rows of whitespace-collapsed cell texts (python-docx repeats a
    merged cell in each grid column it spans; a cell equal to its left neighbour is not
    repeated). A row that is one cell holding a table (a layout frame around a grid) gives
    the rows of what it holds: its paragraphs as one-cell rows, its table's rows as rows."""
    from docx.table import Table

    rows: list[list[str]] = []
    for row in table.rows:
        distinct = {id(cell._tc): cell for cell in row.cells}
        if len(distinct) == 1:
            (cell,) = distinct.values()
            if cell._tc.find(qn("w:tbl")) is not None:
                for child in cell._tc.iterchildren():
                    if child.tag == qn("w:p"):
                        text = re.sub(r"\s+", " ", _paragraph_text(child)).strip()
                        if text:
                            rows.append([text])
                    elif child.tag == qn("w:tbl"):
                        rows.extend(_table_rows(Table(child, cell), qn))
                continue
        cells: list[str] = []
        for cell in row.cells:
            text = re.sub(r"\s+", " ", _cell_text(cell, qn)).strip()
            if not cells or cells[-1] != text:  # merged cells repeat
                cells.append(text)
        rows.append(cells)
    return rows


def _all_bold(paragraph) -> bool:
    """Every run with text is bold (directly or through its character style)."""
    runs = [r for r in paragraph.runs if r.text.strip()]
    return bool(runs) and all(
        r.bold or (r.style is not None and r.style.font is not None and r.style.font.bold)
        for r in runs
    )


_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


def _text_boxes(p_element, qn) -> list[object]:
    """The text boxes anchored in a ``w:p`` (``w:txbxContent``: a DrawingML ``wps:txbx`` or a
    VML ``v:textbox``), in document order; the copy Word keeps in ``mc:Fallback`` for older
    readers is left out (it repeats the ``mc:Choice`` box), and so is a box inside another box
    (read with the box that holds it)."""
    boxes = []
    for box in p_element.iter(qn("w:txbxContent")):
        up = box.getparent()
        while up is not None and up is not p_element:
            if up.tag in (qn("w:txbxContent"), _MC_FALLBACK):
                break
            up = up.getparent()
        else:
            boxes.append(box)
    return boxes


def _block_lines(block, parent, numbering, qn, lines: list[str]) -> None:
    """Append one paragraph's or table's lines to ``lines`` (a blank line after each), then
    the paragraphs and tables of the text boxes anchored in the paragraph (break-it: a
    questionnaire laid out in text boxes lost every question: python-docx reads a paragraph's
    own runs only)."""
    if block.__class__.__name__ == "Table":
        for cells in _table_rows(block, qn):
            if any(cells):
                lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        return
    text = _paragraph_text(block._p)
    text = re.sub(r"[ \t]+", " ", text.replace("\t", " ")).strip()
    text = text.replace("\n", " ")
    if text:
        style = (block.style.name if block.style is not None else "") or ""
        heading = re.match(r"Heading\s*(\d)", style, re.I)
        kind, label = numbering.label(block)
        if kind == "number" and not text.startswith(label):
            text = f"{label} {text}"  # Word's automatic number, rebuilt
        if style.lower() == "title":
            lines.append("# " + text)
        elif heading:
            lines.append("#" * min(6, max(1, int(heading.group(1)))) + " " + text)
        elif kind == "number":
            lines.append(text)
        elif kind == "bullet" or "list" in style.lower():
            lines.append("- " + text)
        elif _all_bold(block) and len(text.split()) <= 12:
            lines.append(f"**{text}**")  # a bold paragraph, as Markdown writes it
        else:
            lines.append(text)
        lines.append("")
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    for box in _text_boxes(block._p, qn):
        for child in box.iterchildren():
            for inner in _walk(child, parent, qn, Paragraph, Table):
                _block_lines(inner, parent, numbering, qn, lines)


def docx_lines(p: Path) -> list[str]:
    """A DOCX body as Markdown-flavoured lines: ``#`` headings from styles, tables as pipe rows."""
    name = str(p)
    if not zipfile.is_zipfile(p):
        raise DocumentError(
            name,
            "is not a Word .docx package (not a zip file); if it is an old .doc, save it "
            "as .docx or PDF, otherwise re-download it",
        )
    try:
        import docx
        from docx.oxml.ns import qn

        document = docx.Document(str(p))
        numbering = NumberingTracker(document)
        lines: list[str] = []
        for block in _iter_block_items(document):
            _block_lines(block, document, numbering, qn, lines)
        return lines
    except DocumentError:
        raise
    except Exception as exc:  # python-docx raises KeyError, BadZipFile, lxml errors...
        raise DocumentError(
            name,
            f"cannot be read as a Word document ({type(exc).__name__}: {exc}); open it in "
            "Word and save it again as .docx, or export it to PDF",
        ) from exc
