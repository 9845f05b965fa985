"""The compliance matrix of an RFP: one row per question or requirement, exported to CSV/XLSX.

Every commercial proposal tool ships one: the proposal manager's checklist of everything the
response must address, where the RFP says it (section path, page or line), and blank columns
for the writer to fill in (where the proposal answers it, and whether it complies).

Rows come from ``documents.questions.find_questions`` in document order. The XLSX file has a
header row, frozen panes, an autofilter and wrapped text, every text a text cell; the CSV is
UTF-8 with a BOM so Excel opens it with the right encoding, and a text starting with a formula
sign gets a leading ``'`` (``csv_safe``).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from rfp_retrieval.documents.ask_kinds import (
    ASK_KINDS,
    GENERAL_COMPLIANCE,
    PROCUREMENT_PROCESS,
    WORK_STATEMENT,
    item_kind,
    matrix_kind,
)
from rfp_retrieval.documents.ask_patterns import (
    CHOICE_LIST,
    is_ask,
    is_bare_lead_in,
    is_requirement,
)
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.documents.records import Question, RfpDocument
from rfp_retrieval.documents.section_kinds import SectionKinds
from rfp_retrieval.documents.text import strip_inline_markdown

OPTION = "option"
"""The matrix kind of an item of a pick-from list (``at least ten of the following areas:``,
``ask_patterns.CHOICE_LIST``; items joined by "or", ``is_disjunction``) and of a list item
that only names a section of the document
(``Factor 1: Technical Approach`` over the section ``Factor 1 - Technical Approach``): the
prompt is the ask, the item an option or a pointer whose section has its own rows."""

__all__ = [
    "ASK_KINDS",
    "GENERAL_COMPLIANCE",
    "LEAD_IN",
    "OPTION",
    "PROCUREMENT_PROCESS",
    "WORK_STATEMENT",
    "MatrixRow",
    "item_kind",
    "matrix_kind",
    "matrix_rows",
    "write_matrix",
]

LEAD_IN = "lead-in"
"""The matrix kind of a prompt that only announces its list (``ask_patterns.is_bare_lead_in``:
"At a minimum, provide:", "Each case study should include:") when the items are rows of their
own: the items are the asks, the prompt their context (it keeps its row, so the matrix still
shows it)."""

MATRIX_COLUMNS = ("id", "label", "section_path", "text", "kind", "topic", "page", "line", "limit")
"""Columns of a compliance-matrix row, in export order."""

WRITER_COLUMNS = ("proposal_section", "compliant", "owner", "notes")
"""Blank columns added to the exported files for the proposal team to fill in."""

SECTION_SEPARATOR = " > "


@dataclass(frozen=True)
class MatrixRow:
    """One compliance-matrix row.

    ``section_path`` is the path joined with `` > ``; ``page`` is the 1-based PDF page (None
    for other formats) and ``line`` the 1-based line of the clean text (of a questionnaire:
    the row of the sheet or CSV file, ``RfpDocument.cited_line``); ``limit`` is the
    response limit of the ask (``Question.limit``: a response table's limit column or the
    limit its sentence states), on its items too.
    """

    id: str
    label: str | None
    section_path: str
    text: str
    kind: str
    topic: str | None
    page: int | None
    line: int | None
    limit: str | None = None


def matrix_rows(doc: RfpDocument, questions: list[Question] | None = None) -> list[MatrixRow]:
    """The compliance matrix of ``doc`` (``questions`` defaults to ``find_questions(doc)``).

    One row per question, requirement, evaluation criterion and response-table row, in
    document order. A compound ask (a prompt ending with ``:`` and its list items) gives its
    prompt a row and each item a row of its own right below it (id ``q-007a``, label
    ``3.2(a)`` or ``(a)``, its own kind: ``item_kind``; the item's own number when the document
    numbers it, ``3.2(1)`` for a ``1.`` item, else its letter in the list: ``part_label_of``): a
    proposal manager checks every sub-item of an instruction separately, so each one is a
    line of the matrix (issue 13). A requirement that binds the contractor after award (a
    contractor work statement, ``ask_patterns.is_work_statement``, or a proposal-free
    obligation in statement-of-work text, ``is_work_requirement``) keeps its row with kind
    ``WORK_STATEMENT``: the team checks it, the proposal does not answer it (issue 13). A
    prompt that only announces its items (``ask_patterns.is_bare_lead_in``) keeps its row
    with kind ``LEAD_IN``; each item has its own kind (``item_kind``: the prompt's unless its
    own wording says more).
    """
    found = find_questions(doc) if questions is None else questions
    kinds = SectionKinds(doc)
    headings = {
        _plain(s.heading)
        for s in doc.sections
        if s.level > 0 and s.heading and s.kind == "heading"  # a paragraph's first sentence
    }  # ("4.2 The technical response shall not exceed 40 pages.") names no section
    headings.discard("")
    rows = []
    for q in found:
        kind = matrix_kind(doc, kinds, q)
        own = {_plain(s.heading) for s in doc.ancestors(doc.section(q.section_key))}
        others = headings - own
        if kind == "requirement" and _names_a_section(q.text, others):
            kind = OPTION  # "Factor 1: Technical Approach" listed under the basis of award
        path = SECTION_SEPARATOR.join(q.section_path)
        line = doc.cited_line(q.line)  # a questionnaire's sheet or CSV row
        own_kind = kind
        if q.parts and kind in ASK_KINDS and is_bare_lead_in(q.text):
            own_kind = LEAD_IN  # "At a minimum, provide:": the items below are the asks
        rows.append(
            MatrixRow(q.id, q.label, path, q.text, own_kind, q.topic, q.page, line, q.limit)
        )
        choice = bool(CHOICE_LIST.search(q.text)) or is_disjunction(q.parts)
        for k, part in enumerate(q.parts):
            letter = part_letter(k)
            if choice or _names_a_section(part, others):
                part_kind = OPTION
            elif k + 1 < len(q.parts) and is_nested_lead_in(part):
                part_kind = LEAD_IN  # "Examples of considerations:" over the items below it
            else:
                part_kind = item_kind(doc, kinds, q, part, kind)
            if part.rstrip().endswith(":") and CHOICE_LIST.search(part):
                choice = True  # "... in at least ten of the following areas:": the items
                # after this part are its options (a nested list flattened into the parts)
            rows.append(
                MatrixRow(
                    id=f"{q.id}{letter}",
                    label=part_label_of(q, k),
                    section_path=path,
                    text=part,
                    kind=part_kind,
                    topic=q.topic,
                    limit=q.limit,
                    page=q.page,
                    line=line,
                )
            )
    return rows


_OR_AT_END = re.compile(r"[,;]?\s*\b(?:or|and/or)[\s,;:]*$", re.I)


NESTED_LEAD_IN_WORDS = 6
"""Longest list item (in words) read as the title of a nested list (``is_nested_lead_in``)."""


def is_nested_lead_in(part: str) -> bool:
    """A short list item ending with ``:`` that asks and requires nothing by its own wording
    (``Examples of considerations:``, ``Technical factors:``): the title of the nested list
    the next items form, not a line of its own (the items are the asks). At most
    ``NESTED_LEAD_IN_WORDS`` words. Source: proposal practice of shredding to the lowest
    level (the stem of a list is its items' context)."""
    text = _plain_item(part)
    return (
        text.endswith(":")
        and len(text.split()) <= NESTED_LEAD_IN_WORDS
        and not is_ask(text)
        and not is_requirement(text)
    )


def _plain_item(part: str) -> str:
    return strip_inline_markdown(part).strip()


def is_disjunction(parts: list[str]) -> bool:
    """True when the list items are alternatives joined by "or" (``1. Being able to render
    impartial advice, or`` / ``2. Being given an unfair advantage.``): the items complete one
    sentence and the prompt is the one ask they belong to, so they are options (``OPTION``)."""
    return len(parts) >= 2 and any(_OR_AT_END.search(p) for p in parts[:-1])


SECTION_NAME_WORDS = 8
"""Longest list item (in words) read as the name of a section (``_names_a_section``)."""


def _plain(text: str) -> str:
    """Words of ``text`` only: case folded, punctuation and numbering dropped."""
    words = re.findall(r"[a-z]+", strip_inline_markdown(text).casefold())
    return " ".join(words)


def _names_a_section(part: str, headings: set[str]) -> bool:
    """A short list item whose words are the words of a section heading of the document
    (``Factor 2: Staffing Plan`` and the heading ``9.2.3 Factor 2 - Staffing Plan``): the list
    points at sections that hold their own asks."""
    if len(part.split()) > SECTION_NAME_WORDS:
        return False
    plain = _plain(part)
    return bool(plain) and plain in headings


def part_label_of(q: Question, index: int) -> str:
    """The label of ``q``'s ``index``-th part (0-based) in the matrix, ``parse`` and the brief:
    the prompt's label followed by the item's own number as the document prints it
    (``Question.part_labels``: ``3.2(1)``, ``(iv)``), or by its letter in the list
    (``part_letter``) for a bullet (issue 13: the matrix cites the document's numbers)."""
    own = q.part_labels[index] if index < len(q.part_labels) else None
    return f"{q.label or ''}({own or part_letter(index)})"


def part_letter(index: int) -> str:
    """The letter of a compound ask's ``index``-th part (0-based): ``a`` ... ``z``, ``aa`` ..."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(97 + rem) + letters
    return letters


def write_matrix(rows: list[MatrixRow], path: str | Path, title: str = "") -> Path:
    """Write ``rows`` to ``path`` as ``.csv`` or ``.xlsx`` (chosen by the suffix).

    The writer columns (``WRITER_COLUMNS``) are added empty. Creates the parent folder.
    Returns the path written. Raises ``ValueError`` for another suffix (say ``.csv`` or
    ``.xlsx``) and ``OSError`` when the file cannot be written.
    """
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise ValueError(
            f"{out}: a compliance matrix is written as .csv or .xlsx, not {suffix or 'no suffix'}"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".csv":
        _write_csv(rows, out)
    else:
        _write_xlsx(rows, out, title)
    return out


def _cells(row: MatrixRow) -> list[object]:
    data = asdict(row)
    return [data[c] if data[c] is not None else "" for c in MATRIX_COLUMNS] + [
        "" for _ in WRITER_COLUMNS
    ]


FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a cell as a formula (the OWASP CSV-injection
rule): an ask quoted from an RFP ("=HYPERLINK(...)", "- staffing", "@risk") is data, never a
formula."""


def csv_safe(value: object) -> object:
    """``value`` for a CSV cell: a text starting with a formula trigger (``FORMULA_TRIGGERS``)
    gets a leading ``'`` so Excel, LibreOffice and Sheets show it as text (OWASP CSV
    injection); other text and numbers unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def _write_in_place(path: Path, write: Callable[[Path], None]) -> None:
    """``write`` the file to ``.<name>.partial`` beside ``path``, then rename it over ``path``
    (one atomic step on one file system), so an interrupted or failed export (Ctrl-C, a full
    disk, an error mid-way) never leaves a half-written matrix, nor removes the previous one;
    the partial file is removed whatever happens."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        write(partial)
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def _write_csv(rows: list[MatrixRow], path: Path) -> None:
    """The CSV is written beside ``path`` and moved into place (``_write_in_place``; break-it:
    an export interrupted mid-way left a truncated CSV a writer took for the whole matrix)."""

    def write(target: Path) -> None:
        with target.open("w", encoding="utf-8-sig", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow([*MATRIX_COLUMNS, *WRITER_COLUMNS])
            for row in rows:
                writer.writerow([csv_safe(value) for value in _cells(row)])

    _write_in_place(path, write)


_WIDTHS = {
    "id": 8,
    "label": 12,
    "section_path": 40,
    "text": 80,
    "kind": 18,
    "topic": 24,
    "limit": 10,
    "page": 6,
    "line": 7,
    "proposal_section": 18,
    "compliant": 11,
    "owner": 14,
    "notes": 30,
}


def _xlsx_text(value: object) -> object:
    """``value`` with the control characters a worksheet cannot hold removed (a DOS end-of-file
    mark ``\\x1a``, form feeds, NULs from a damaged text file); other values unchanged."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    return ILLEGAL_CHARACTERS_RE.sub("", value) if isinstance(value, str) else value


def _write_xlsx(rows: list[MatrixRow], path: Path, title: str) -> None:
    """The workbook is written beside ``path`` and moved into place (``_write_in_place``), so a
    failed write never leaves a half-written matrix."""
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    sheet.title = "Compliance Matrix"
    header = [*MATRIX_COLUMNS, *WRITER_COLUMNS]
    sheet.append(header)
    for i, row in enumerate(rows, start=2):
        for j, value in enumerate(_cells(row), start=1):
            cell = sheet.cell(row=i, column=j, value=_xlsx_text(value))
            if isinstance(value, str):
                cell.data_type = "s"  # a text cell: "=..." from an RFP is never a live formula
    bold = Font(bold=True)
    fill = PatternFill("solid", fgColor="DDEBF7")
    for j, name in enumerate(header, start=1):
        cell = sheet.cell(row=1, column=j)
        cell.font, cell.fill = bold, fill
        sheet.column_dimensions[get_column_letter(j)].width = _WIDTHS.get(name, 14)
    wrap = Alignment(wrap_text=True, vertical="top")
    for line in sheet.iter_rows(min_row=2):
        for cell in line:
            cell.alignment = wrap
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = sheet.dimensions
    if title:
        book.properties.title = _xlsx_text(f"Compliance matrix: {title}"[:250])
    _write_in_place(path, book.save)
