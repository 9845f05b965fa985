"""Ingest an answer-library folder: Markdown content blocks and Q/A-pair spreadsheets.

``load_answer_library(folder)`` reads, recursively and in sorted path order:

- every ``*.md`` file (except ``README.md``): YAML front matter between ``---`` lines with
  ``id``, ``title``, ``topic``, ``tags``, ``last_reviewed`` and ``owner``, then the Markdown
  body; a leading ``# Title`` heading that repeats the title is dropped from the body;
- every ``*.csv`` / ``*.xlsx`` file: one Q/A pair per row from a past questionnaire, columns
  ``question`` and ``answer`` (required) and ``topic``, ``id``, ``tags``, ``last_reviewed``,
  ``owner`` (optional); header names are matched case-insensitively (see ``QA_COLUMNS``).

Nothing is dropped silently. A file or row that cannot become a block (no front matter,
malformed YAML, no id, a spreadsheet without a question or answer column, an unreadable
workbook) is listed in ``rejected`` with its file, row and what to do. A block with an empty
body, or whose id was already used, is kept with the problem named in ``problems`` and is
never retrieved: when an id repeats, the copy with the latest ``last_reviewed`` wins (a copy
without a date is the oldest; on a tie the copy read first wins) and the others are marked
``duplicate-id`` with ``duplicate_of`` naming the winning file.

Row numbers are those a spreadsheet program shows (1-based, header row counted).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from pathlib import Path
from typing import Any

import yaml

from rfp_retrieval.answers.records import (
    DUPLICATE_ID,
    EMPTY_BODY,
    NO_REVIEW_DATE,
    UNREADABLE_REVIEW_DATE,
    AnswerBlock,
    AnswerLibrary,
    RejectedBlock,
)
from rfp_retrieval.documents.text import shown_text, without_controls
from rfp_retrieval.library.files import MARKDOWN_SUFFIXES, library_files
from rfp_retrieval.library.writeups import lenient_yaml_load

QA_COLUMNS: dict[str, tuple[str, ...]] = {
    "question": ("question", "questions", "question text"),
    "answer": ("answer", "response", "answer text", "vendor response"),
    "topic": ("topic", "domain", "category", "section"),
    "id": ("id", "block id", "answer id"),
    "tags": ("tags", "keywords"),
    "last_reviewed": ("last_reviewed", "last reviewed", "reviewed", "review date"),
    "owner": ("owner", "sme", "answer owner"),
}
"""Q/A spreadsheet field -> accepted header names (lower-case, spaces collapsed)."""

_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)(.*)\Z", re.S)


class _Rejected(Exception):
    """The file or row cannot become a block; the message is the reason."""


def load_answer_library(folder: str | Path) -> AnswerLibrary:
    """Every block of the answer library under ``folder``.

    Returns an ``AnswerLibrary`` whose ``blocks`` are in sorted file order (rows in sheet
    order). Which files are read is the one rule of ``library.files.library_files`` (shared
    with the past-performance library): every other file (an ``.xls``, a ``.docx``, a
    ``.txt``) becomes a ``RejectedBlock`` without a row, "not read: ... save it as ...", so
    nothing is dropped silently; hidden files, Office lock files and READMEs are skipped.
    Raises ``FileNotFoundError`` naming the folder when it does not exist.
    """
    root = Path(folder)
    if not root.is_dir():
        raise FileNotFoundError(
            f"answer library folder {root} does not exist; create it or set answers_dir"
        )
    library = AnswerLibrary(folder=str(root))
    spreadsheets, markdown, not_read = library_files(root)
    for path in sorted(spreadsheets + markdown, key=lambda p: p.relative_to(root).as_posix()):
        if path.suffix.lower() in MARKDOWN_SUFFIXES:
            try:
                library.blocks.append(read_markdown_block(path))
            except _Rejected as exc:
                library.rejected.append(RejectedBlock(str(path), None, str(exc)))
        else:
            blocks, rejected = read_qa_spreadsheet(path)
            library.blocks.extend(blocks)
            library.rejected.extend(rejected)
    for path, reason in not_read:
        library.rejected.append(RejectedBlock(str(path), None, reason))
    _mark_duplicates(library.blocks)
    return library


def read_markdown_block(path: Path) -> AnswerBlock:
    """One content block from a Markdown file with YAML front matter.

    Raises ``_Rejected`` (an internal error turned into a ``RejectedBlock`` by the caller) for
    a file that is not UTF-8, has no front matter, has malformed YAML or has no ``id``.
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _Rejected(f"not UTF-8 text ({exc}); re-save the file as UTF-8") from exc
    match = _FRONT_MATTER.match(text)
    if match is None:
        raise _Rejected(
            "no YAML front matter; start the file with '---', id/title/topic/tags/"
            "last_reviewed/owner lines and '---'"
        )
    try:
        meta = lenient_yaml_load(match.group(1)) or {}
    except yaml.YAMLError as exc:
        reason = str(exc).replace("\n", " ")
        raise _Rejected(f"front matter is not valid YAML ({reason}); fix the quoting") from exc
    if not isinstance(meta, dict):
        raise _Rejected("front matter is not a mapping of field: value lines")
    block_id = _clean(meta.get("id"))
    if not block_id:
        raise _Rejected("front matter has no id; add 'id: AB-###'")
    title = _clean(meta.get("title"))
    body = _strip_title_heading(without_controls(match.group(2)), title)
    block = AnswerBlock(
        id=block_id,
        title=title or block_id,
        topic=_clean(meta.get("topic")),
        body=body,
        source=str(path),
        tags=_tags(meta.get("tags")),
        owner=_clean(meta.get("owner")),
    )
    _set_review_date(block, meta.get("last_reviewed"))
    if not body.strip():
        block.problems.append(EMPTY_BODY)
    return block


def read_qa_spreadsheet(path: Path) -> tuple[list[AnswerBlock], list[RejectedBlock]]:
    """Q/A pairs from a past questionnaire (CSV or XLSX), one block per row.

    The header is the first row (of the first ten) that names a question and an answer
    column. Returns ``(blocks, rejected)``; a file without such a header is rejected whole
    (row None), a row without a question is rejected with its row number. A row with a
    question but no answer becomes a block with the ``empty-body`` problem.
    """
    try:
        rows, merged = _sheet_rows(path)
    except _Rejected as exc:
        return [], [RejectedBlock(str(path), None, str(exc))]
    header_index, columns = _find_header(rows)
    if merged and header_index is not None:  # a topic merged down over its questions
        from rfp_retrieval.library.spreadsheet_rows import with_merged_values

        below = with_merged_values(merged, enumerate(rows[header_index + 1 :], header_index + 2))
        rows = rows[: header_index + 1] + [cells for _, cells in below]
    if header_index is None:
        return [], [
            RejectedBlock(
                str(path),
                None,
                "no header row with a 'question' and an 'answer' column in the first ten "
                "rows; add them (optional: topic, id, tags, last_reviewed, owner)",
            )
        ]
    blocks: list[AnswerBlock] = []
    rejected: list[RejectedBlock] = []
    for offset, cells in enumerate(rows[header_index + 1 :], start=header_index + 2):
        if not any(_clean(c) for c in cells):
            continue
        value = {f: _clean(cells[i]) if i < len(cells) else "" for f, i in columns.items()}
        question = value.get("question", "")
        if not question:
            rejected.append(
                RejectedBlock(str(path), offset, "no question in this row; fill it or delete it")
            )
            continue
        answer = value.get("answer", "")
        block = AnswerBlock(
            id=value.get("id") or f"QA-{_slug(path.stem)}-{offset}",
            title=question,
            topic=value.get("topic", ""),
            body=answer,
            source=str(path),
            tags=_tags(value.get("tags", "")),
            owner=value.get("owner", ""),
            row=offset,
            kind="qa-pair",
            question=question,
        )
        _set_review_date(
            block,
            cells[columns["last_reviewed"]]
            if "last_reviewed" in columns and columns["last_reviewed"] < len(cells)
            else None,
        )
        if not answer:
            block.problems.append(EMPTY_BODY)
        blocks.append(block)
    return blocks, rejected


def block_text(block: AnswerBlock) -> str:
    """The text a block is indexed and embedded by: title, topic, tags and body.

    Q/A pairs carry their question as the title, so a new question phrased like an old one
    finds it.
    """
    parts = [block.title, block.topic, ", ".join(block.tags), block.body]
    return "\n".join(p for p in parts if p)


# --------------------------------------------------------------------------------------------


def _mark_duplicates(blocks: list[AnswerBlock]) -> None:
    by_id: dict[str, list[AnswerBlock]] = {}
    for block in blocks:
        if EMPTY_BODY not in block.problems:
            by_id.setdefault(block.id, []).append(block)
    for copies in by_id.values():
        if len(copies) < 2:
            continue
        winner = max(
            enumerate(copies),
            key=lambda item: (item[1].last_reviewed or dt.date.min, -item[0]),
        )[1]
        for block in copies:
            if block is not winner:
                block.problems.append(DUPLICATE_ID)
                block.duplicate_of = winner.source + (
                    f" row {winner.row}" if winner.row is not None else ""
                )


def _set_review_date(block: AnswerBlock, value: Any) -> None:
    if isinstance(value, dt.datetime):
        block.last_reviewed = value.date()
    elif isinstance(value, dt.date):
        block.last_reviewed = value
    elif value is None or not str(value).strip():
        block.problems.append(NO_REVIEW_DATE)
    else:  # the project's one date rule (quantities.dates: 11/30/2026 is US order)
        from rfp_retrieval.quantities.dates import parse_date_bound

        try:
            block.last_reviewed = parse_date_bound(str(value), "start")
        except ValueError:
            block.problems.append(UNREADABLE_REVIEW_DATE)


def _strip_title_heading(body: str, title: str) -> str:
    lines = body.strip().splitlines()
    if lines and re.match(r"^#\s+", lines[0]):
        heading = re.sub(r"^#\s+", "", lines[0]).strip()
        if not title or heading.lower() == title.lower():
            lines = lines[1:]
    return "\n".join(lines).strip()


def _clean(value: Any) -> str:
    """A field or cell as one line, invisible controls removed (``shown_text``)."""
    if value is None:
        return ""
    return shown_text(str(value))


def _tags(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list | tuple):
        items = [_clean(v) for v in value]
    else:
        items = [_clean(v) for v in re.split(r"[;,]", str(value))]
    return [t for t in items if t]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "sheet"


def _header_name(value: Any) -> str:
    return " ".join(str(value or "").lower().replace("_", " ").split())


def _find_header(rows: list[list[Any]]) -> tuple[int | None, dict[str, int]]:
    names = {_header_name(n): f for f, aliases in QA_COLUMNS.items() for n in aliases}
    for index, cells in enumerate(rows[:10]):
        columns: dict[str, int] = {}
        for i, cell in enumerate(cells):
            field_name = names.get(_header_name(cell))
            if field_name and field_name not in columns:
                columns[field_name] = i
        if "question" in columns and "answer" in columns:
            return index, columns
    return None, {}


def _sheet_rows(path: Path) -> tuple[list[list[Any]], list[tuple[int, int, int, int]]]:
    """The first sheet's rows (a CSV's records) and its merged ranges ((first row, first
    column, last row, last column), 1-based; none for a CSV)."""
    if path.suffix.lower() == ".csv":
        from rfp_retrieval.library.cells import read_text_file
        from rfp_retrieval.library.spreadsheet_rows import CSV_DELIMITERS

        text = read_text_file(path)  # the library's one encoding rule
        try:
            # newline="": line ends of any platform (\r\n, \n, a classic Mac's \r) end a
            # record, and a line break inside a quoted cell stays in the cell
            for delimiter in CSV_DELIMITERS:  # the library's delimiter rule: header decides
                rows = [
                    list(r) for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
                ]
                if _find_header(rows)[0] is not None:
                    return rows, []
            return [list(r) for r in csv.reader(io.StringIO(text, newline=""))], []
        except csv.Error as exc:
            raise _Rejected(
                f"cannot be read as CSV ({exc}); open it in a spreadsheet program and save it "
                "again as CSV (comma-separated)"
            ) from exc
    try:
        import openpyxl

        workbook = openpyxl.load_workbook(path, data_only=True)  # not read-only: merges
    except Exception as exc:  # openpyxl raises zipfile, KeyError, InvalidFileException...
        raise _Rejected(
            f"cannot be read as an .xlsx workbook ({type(exc).__name__}: {exc}); open it in "
            "a spreadsheet program and save it again as .xlsx"
        ) from exc
    try:
        sheet = workbook.worksheets[0]
        merged = [(r.min_row, r.min_col, r.max_row, r.max_col) for r in sheet.merged_cells.ranges]
        return [list(r) for r in sheet.iter_rows(values_only=True)], merged
    finally:
        workbook.close()
