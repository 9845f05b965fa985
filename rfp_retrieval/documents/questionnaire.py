"""Read a questionnaire (CSV, XLSX, VSAQ-style JSON) into an ``RfpDocument``.

Security and IT questionnaires arrive as spreadsheets, not prose. They are rendered as
Markdown-flavoured text so that one question finder reads them like any RFP table:

- every sheet (XLSX) is a level-1 section named after the sheet; a CSV is one sheet with no
  section of its own;
- the header row is found wherever it is (not necessarily the first line): the first row of
  two or more short cells that is followed by a row of two or more cells;
- a grouping column (``Domain``, ``Category``, ``Section``, ``Family``...) whose values form
  contiguous runs becomes one section per run (the qrels' ``section_path`` of a questionnaire
  row is its domain); the column stays in the rendered rows so each row keeps its topic;
- a row with a single short cell inside a table is a section row (a sub-heading), a single
  long cell is a note (prose);
- blank rows separate, and are dropped; merged cells (XLSX) take the top-left value down a
  column but not across a row, so a banner merged over ten columns is written once;
- rows before the header are prose (instructions), kept as paragraphs.

JSON questionnaires in Google's VSAQ layout (``{"questionnaire": [{"type": "block", "items":
[...]}]}``, with ``//`` comments and ``"a" + "b"`` string concatenation) become nested
sections per block and a table of the block's questions (``line``, ``box``, ``radiogroup``,
``checkgroup``, ``yesno``: id, text, answer options); ``info`` items are kept as prose and
``tip`` items (conditional warnings) are dropped. A plain JSON list of objects with a
``question``/``text`` field is read like a CSV.

Every failure raises ``DocumentError`` naming the file and saying what to do.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from rfp_retrieval.documents.encoding import decode_text, read_bytes
from rfp_retrieval.documents.records import DocumentError, RfpDocument, Section
from rfp_retrieval.documents.summary import summarize
from rfp_retrieval.documents.text import HTML_TAG, normalise_line
from rfp_retrieval.spreadsheets import formula_cells

QUESTIONNAIRE_FORMATS = {".csv": "csv", ".xlsx": "xlsx", ".xlsm": "xlsx", ".json": "json"}
"""File extension -> ``RfpDocument.format`` for questionnaires."""

GROUP_HEADERS = re.compile(
    r"^(?:domain|category|sub-?category|section|topic|area|family|control family|group|"
    r"capability|function|module|requirement (?:area|category|type)|service area)$",
    re.I,
)
"""Header names of a column that groups rows (the row's implicit context)."""

_HEADER_CELL_MAX_WORDS = 6
_SECTION_ROW_MAX_WORDS = 12


@dataclass
class _Block:
    """One piece of rendered output: a heading, a paragraph or a table.

    ``at`` holds the 1-based row of the source file (sheet row, CSV line) of each line the
    block renders (one for a heading or paragraph, one per table row, header first); empty
    when the source has no rows (JSON, a sheet's own name)."""

    kind: str  # "heading" | "paragraph" | "table"
    level: int = 1
    text: str = ""
    rows: list[list[str]] = field(default_factory=list)
    at: list[int] = field(default_factory=list)


def load_questionnaire(path: Path, fmt: str) -> RfpDocument:
    """A questionnaire file as an ``RfpDocument`` (see the module docstring for the layout).

    ``fmt`` is ``csv`` | ``xlsx`` | ``json``. ``text`` is Markdown-flavoured (``#`` headings,
    ``| a | b |`` rows, a header row first in every table); ``sections`` are built from the
    sheets, groups and blocks, not guessed from the text. Raises ``DocumentError`` for an
    unreadable, empty or unrecognised file.
    """
    name = str(path)
    warnings: list[str] = []
    if fmt == "csv":
        blocks, title = _csv_blocks(path), ""
    elif fmt == "xlsx":
        blocks, title, warnings = _xlsx_blocks(path)
    elif fmt == "json":
        blocks, title = _json_blocks(path)
    else:
        raise DocumentError(name, f"unknown questionnaire format {fmt!r}; use CSV, XLSX or JSON")
    if not any(b.kind == "table" for b in blocks) and not any(
        b.kind == "paragraph" for b in blocks
    ):
        raise DocumentError(name, "holds no rows with text; check that the right file was uploaded")
    lines, sections, source = _render(blocks)
    title = title or _title_from_stem(path.stem)
    text = "\n".join(lines)
    summary = summarize(title, None, sections, text)
    rows = sum(len(b.rows) - 1 for b in blocks if b.kind == "table") or _list_rows(blocks)
    if summary.rstrip(".") == title.rstrip("."):  # no prose to summarise: say what it holds
        shown = ", ".join(s.heading for s in sections[:6]) + (
            " and more" if len(sections) > 6 else ""
        )
        summary = f"{title.rstrip('.')}. A questionnaire of {rows} row{'s' * (rows != 1)}" + (
            f" in {len(sections)} sections: {shown}." if sections else "."
        )
    return RfpDocument(
        path=name,
        format=fmt,
        title=title,
        text=text,
        sections=sections,
        summary=summary,
        warnings=warnings,
        source_rows=source if any(source) else [],
    )


def _title_from_stem(stem: str) -> str:
    words = re.split(r"[-_\s]+", stem)
    return " ".join(w if w.isupper() else w.capitalize() for w in words if w)


def _clean_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).replace("|", "/")
    return normalise_line(re.sub(r"\s+", " ", text)).strip()


# --------------------------------------------------------------------------------------------
# grids (CSV rows, XLSX sheets)


def _is_blank(row: list[str]) -> bool:
    return not any(c for c in row)


def _header_like(row: list[str]) -> bool:
    cells = [c for c in row if c]
    return (
        len(cells) >= 2
        and all(len(c.split()) <= _HEADER_CELL_MAX_WORDS and len(c) <= 60 for c in cells)
        and not any(c.endswith("?") for c in cells)
    )


def _find_header(rows: list[list[str]]) -> int | None:
    """Index of the header row: short cells, and one of the next three non-blank rows has 2+
    cells (a section row may come first)."""
    for i, row in enumerate(rows):
        if not _header_like(row):
            continue
        following = [r for r in rows[i + 1 :] if not _is_blank(r)][:3]
        if any(sum(1 for c in r if c) >= 2 for r in following):
            return i
    return None


def _grid_blocks(
    rows: list[list[str]], level: int, numbers: list[int] | None = None
) -> list[_Block]:
    """Blocks of one grid: prose before the header, then the table with groups and section rows.

    ``level`` is the outline level given to group and section-row headings; ``numbers`` the
    1-based source row of each grid row (sheet row, CSV line; None: no source rows), kept on
    the blocks (``_Block.at``).
    """
    numbers = list(numbers) if numbers is not None else [0] * len(rows)
    width = max((len(r) for r in rows), default=0)
    rows = [r + [""] * (width - len(r)) for r in rows]
    # drop columns that are empty everywhere
    keep = [j for j in range(width) if any(r[j] for r in rows)]
    rows = [[r[j] for j in keep] for r in rows]
    header_at = _find_header(rows)
    blocks: list[_Block] = []
    prose_rows = rows if header_at is None else rows[:header_at]
    for row, number in zip(prose_rows, numbers, strict=False):
        text = " ".join(c for c in row if c)
        if text:
            blocks.append(_Block("paragraph", text=text, at=[number]))
    if header_at is None:
        return blocks
    header = rows[header_at]
    used = [j for j in range(len(header)) if header[j] or any(r[j] for r in rows[header_at + 1 :])]
    header = [header[j] or f"Column {j + 1}" for j in used]
    data = [[r[j] for j in used] for r in rows[header_at + 1 :]]
    group_col = _contiguous_group_column(header, data)
    table: list[list[str]] = []
    table_at: list[int] = []
    current_group: str | None = None

    def flush() -> None:
        if table:
            blocks.append(_Block("table", rows=[header, *table], at=[header_number, *table_at]))
            table.clear()
            table_at.clear()

    header_number = numbers[header_at]
    for row, number in zip(data, numbers[header_at + 1 :], strict=False):
        if _is_blank(row):
            continue
        cells = [c for c in row if c]
        if len(cells) == 1:
            flush()
            one = cells[0]
            if len(one.split()) <= _SECTION_ROW_MAX_WORDS and not one.endswith(("?", ".")):
                text = one.rstrip(":").strip()
                blocks.append(_Block("heading", level=level, text=text, at=[number]))
            else:  # a note row inside the table is prose
                blocks.append(_Block("paragraph", text=one, at=[number]))
            continue
        if group_col is not None and row[group_col] and row[group_col] != current_group:
            flush()
            current_group = row[group_col]
            blocks.append(_Block("heading", level=level, text=current_group, at=[number]))
        table.append(row)
        table_at.append(number)
    flush()
    return blocks


def _contiguous_group_column(header: list[str], data: list[list[str]]) -> int | None:
    """The first grouping column whose values come in contiguous runs (each value one run)."""
    for j, name in enumerate(header):
        if not GROUP_HEADERS.match(name.strip().rstrip(":")):
            continue
        runs: list[str] = []
        for row in data:
            value = row[j] if j < len(row) else ""
            if value and (not runs or runs[-1] != value):
                runs.append(value)
        if runs and len(runs) == len(set(runs)) and len(runs) < len([r for r in data if r[j]]):
            return j
    return None


def _list_rows(blocks: list[_Block]) -> int:
    """The rows of a questionnaire without a table (a one-column sheet: each cell a
    paragraph): its paragraphs, less a first one that is a column name (at most three words,
    no sentence end: ``Question``)."""
    texts = [b.text.strip() for b in blocks if b.kind == "paragraph" and b.text.strip()]
    header = bool(texts) and len(texts[0].split()) <= 3 and not texts[0].endswith((".", "?"))
    return len(texts) - int(header)


def _csv_blocks(path: Path) -> list[_Block]:
    text, _ = decode_text(read_bytes(path), str(path))
    sample = text[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    rows: list[list[str]] = []
    numbers: list[int] = []  # the file line each record starts on (a quoted cell may wrap)
    try:
        reader = csv.reader(io.StringIO(text), dialect)
        end = 0
        for row in reader:
            numbers.append(end + 1)
            end = reader.line_num
            rows.append([_clean_cell(c) for c in row])
    except csv.Error as exc:
        raise DocumentError(
            str(path), f"is not a readable CSV file ({exc}); re-export it from the spreadsheet"
        ) from exc
    return _grid_blocks(rows, level=1, numbers=numbers)


def _xlsx_blocks(path: Path) -> tuple[list[_Block], str, list[str]]:
    """Blocks, workbook title and warnings of an XLSX questionnaire.

    A formula cell keeps only the result Excel saved with it; a workbook written by a
    program that does not calculate (a script, an export tool) has formulas and no results.
    Such cells read as empty and are counted: a warning names the sheets, and a workbook
    whose rows are all such formulas raises ``DocumentError`` (nothing to read).
    """
    import warnings
    import zipfile

    name = str(path)
    if not zipfile.is_zipfile(path):
        raise DocumentError(
            name,
            "is not an Excel .xlsx workbook (not a zip file); if it is an old .xls, save it as "
            ".xlsx, otherwise re-download it",
        )
    try:
        import openpyxl

        # read-only: the sheets are streamed row by row, never held as cell objects (a
        # 10,000-row questionnaire peaked at 9 GB fully loaded; issue 16.8)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Data Validation extension is not supported"
            book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises InvalidFileException, KeyError, BadZipFile...
        raise DocumentError(
            name,
            f"cannot be read as an Excel workbook ({type(exc).__name__}: {exc}); open it in "
            "Excel and save it again as .xlsx",
        ) from exc
    try:
        formulas = formula_cells(path)
        blocks: list[_Block] = []
        uncalculated: dict[str, int] = {}
        with warnings.catch_warnings(), zipfile.ZipFile(path) as archive:
            # "Data Validation extension is not supported": read-only sheets are parsed while
            # iterated, so the filter covers the whole pass
            warnings.simplefilter("ignore")
            for sheet in book.worksheets:
                if getattr(sheet, "sheet_state", "visible") != "visible":
                    continue
                written = formulas.get(sheet.title, {})
                grid, count = _sheet_grid(sheet, _merged_ranges(archive, sheet), written)
                if count:
                    uncalculated[sheet.title] = count
                inner = _grid_blocks(grid, level=2, numbers=list(range(1, len(grid) + 1)))
                if not inner:
                    continue
                blocks.append(_Block("heading", level=1, text=sheet.title.strip()))
                blocks.extend(inner)
        title = (book.properties.title or "").strip() if book.properties else ""
    except DocumentError:
        raise
    except Exception as exc:  # a damaged sheet is only parsed while it is read
        raise DocumentError(
            name,
            f"cannot be read as an Excel workbook ({type(exc).__name__}: {exc}); open it in "
            "Excel and save it again as .xlsx",
        ) from exc
    finally:
        book.close()
    if not uncalculated:
        return blocks, title, []
    where = ", ".join(f"{count} on sheet {sheet!r}" for sheet, count in uncalculated.items())
    advice = (
        "the workbook was saved by a program that does not calculate formulas; open it in "
        "Excel or LibreOffice, let it recalculate, and save it again"
    )
    if not any(b.kind == "table" and len(b.rows) > 1 for b in blocks):
        raise DocumentError(
            name, f"holds formulas with no saved results and no rows of text ({where}); {advice}"
        )
    warning = f"formula cells with no saved result were read as empty ({where}); {advice}"
    return blocks, title, [warning]


_MERGE_CELL = re.compile(rb"<(?:\w+:)?mergeCell\s[^>]*?\bref=\"([A-Z]+)(\d+):([A-Z]+)(\d+)\"")


_XML_CHUNK_BYTES = 2**20


def _column_number(letters: bytes) -> int:
    number = 0
    for c in letters:
        number = number * 26 + c - 64
    return number


def _merge_refs(text: bytes, end: int) -> list[tuple[int, int, int, int]]:
    out = []
    for m in _MERGE_CELL.finditer(text, 0, end):
        c1, r1, c2, r2 = m.groups()
        out.append((int(r1), _column_number(c1), int(r2), _column_number(c2)))
    return out


def _merged_ranges(archive, sheet) -> list[tuple[int, int, int, int]]:
    """Merged ranges of a read-only sheet as (min_row, min_col, max_row, max_col), 1-based.

    Read-only worksheets carry no merge information, so the ``<mergeCell ref="A3:A7"/>``
    elements are read from the sheet's XML in the archive, streamed in 1 MB chunks (they
    follow the cell data). A sheet that is not in the archive has no merges.
    """
    try:
        handle = archive.open(sheet._worksheet_path)  # openpyxl's path of the sheet's XML part
    except (KeyError, AttributeError):
        return []
    ranges: list[tuple[int, int, int, int]] = []
    tail = b""
    with handle:
        while chunk := handle.read(_XML_CHUNK_BYTES):
            text = tail + chunk
            end = text.rfind(b"<")  # the element cut by the chunk boundary is read next time
            if end < 0:
                end = len(text)
            ranges.extend(_merge_refs(text, end))
            tail = text[end:]
        ranges.extend(_merge_refs(tail, len(tail)))
    return ranges


def _sheet_grid(
    sheet, merged: list[tuple[int, int, int, int]], formulas: dict[tuple[int, int], str]
) -> tuple[list[list[str]], int]:
    """Cell texts of a read-only sheet, and its formula cells with no saved result.

    Trailing empty cells are dropped (``_grid_blocks`` pads the rows): a formatted but empty
    cell far to the right does not widen every row. A vertical merge (one column, several rows)
    fills down; a block merged across columns (a banner, an instruction box) keeps its value in
    its top-left cell only, so its text is read once. ``merged`` holds the sheet's merged
    ranges (``_merged_ranges``); ``formulas`` its formula cells (``spreadsheets.formula_cells``),
    one whose saved value is empty being counted.
    """
    sheet.reset_dimensions()  # trust the cells, not the stored (sometimes stale) dimension
    grid: list[list[str]] = []
    uncalculated = 0
    for r, row in enumerate(sheet.iter_rows(values_only=True), 1):
        if formulas:
            uncalculated += sum(1 for c, v in enumerate(row, 1) if v is None and (r, c) in formulas)
        cells = [_clean_cell(v) for v in row]
        while cells and not cells[-1]:
            cells.pop()
        grid.append(cells)
    for min_row, min_col, max_row, max_col in merged:
        top, left = min_row - 1, min_col - 1
        if min_col != max_col or top >= len(grid) or left >= len(grid[top]):
            continue
        value = grid[top][left]
        for r in range(top + 1, min(max_row, len(grid))):
            grid[r].extend([""] * (left + 1 - len(grid[r])))
            grid[r][left] = value
    while grid and _is_blank(grid[-1]):
        grid.pop()
    return grid, uncalculated


# --------------------------------------------------------------------------------------------
# JSON

_VSAQ_QUESTION_TYPES = {"line", "box", "radiogroup", "checkgroup", "yesno", "textarea", "check"}
_JSON_HEADER = ["ID", "Question", "Answer Options", "Response"]


def _lenient_json(text: str) -> object:
    """JSON with ``//`` line comments and ``"a" + "b"`` concatenation (VSAQ files)."""
    out: list[str] = []
    i, n, in_str = 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_str = False
            i += 1
            continue
        if c == '"':
            in_str = True
            out.append(c)
            i += 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "+":
            k = len(out) - 1
            while k >= 0 and out[k].isspace():
                k -= 1
            j = i + 1
            while j < n and text[j].isspace():
                j += 1
            if k >= 0 and out[k] == '"' and j < n and text[j] == '"':
                del out[k:]
                i, in_str = j + 1, True
                continue
        out.append(c)
        i += 1
    return json.loads("".join(out))


def _strip_html(text: str) -> str:
    text = HTML_TAG.sub(" ", text or "")
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


def _json_blocks(path: Path) -> tuple[list[_Block], str]:
    """A JSON questionnaire's blocks and title; DocumentError naming the file when it is not
    JSON, not a known questionnaire shape, or nested deeper than Python can walk."""
    try:
        return _json_blocks_of(path)
    except RecursionError as exc:
        raise DocumentError(
            str(path),
            "is JSON nested too deeply to read (arrays or objects inside each other "
            "hundreds of levels deep); check the file or export it as CSV",
        ) from exc


def _json_blocks_of(path: Path) -> tuple[list[_Block], str]:
    name = str(path)
    try:
        raw, _ = decode_text(path.read_bytes(), name)
        data = _lenient_json(raw)
    except (OSError, ValueError) as exc:
        raise DocumentError(
            name, f"is not valid JSON ({exc}); check the file or export it as CSV"
        ) from exc
    if isinstance(data, dict) and isinstance(data.get("questionnaire"), list):
        blocks: list[_Block] = []
        roots = data["questionnaire"]
        title = ""
        if len(roots) == 1 and isinstance(roots[0], dict) and roots[0].get("type") == "block":
            title = _strip_html(roots[0].get("text", ""))
            _vsaq_items(roots[0].get("items", []), 1, blocks)
        else:
            _vsaq_items(roots, 1, blocks)
        if not any(b.kind == "table" for b in blocks):
            raise DocumentError(name, "is a VSAQ questionnaire with no questions in it")
        return blocks, title
    if isinstance(data, list) and data and all(isinstance(d, dict) for d in data):
        keys = list(dict.fromkeys(k for d in data for k in d))
        if any(re.fullmatch(r"question|text|prompt|requirement", k, re.I) for k in keys):
            rows = [keys] + [[_clean_cell(d.get(k)) for k in keys] for d in data]
            return _grid_blocks(rows, level=1), ""
    raise DocumentError(
        name,
        "is JSON but not a questionnaire this reader knows: expected a VSAQ file "
        '({"questionnaire": [...]}) or a list of objects with a "question" field',
    )


def _vsaq_items(items: list, level: int, blocks: list[_Block]) -> None:
    """Render VSAQ ``items``: this level's prose and questions first, then sub-blocks."""
    rows: list[list[str]] = []
    subs: list[dict] = []

    def flush() -> None:
        if rows:
            blocks.append(_Block("table", rows=[_JSON_HEADER, *rows]))
            rows.clear()

    for item in items:
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind == "block":
            subs.append(item)
        elif kind == "info":
            flush()
            text = _strip_html(item.get("text", ""))
            if text:
                blocks.append(_Block("paragraph", text=text))
        elif kind in _VSAQ_QUESTION_TYPES:
            text = _strip_html(item.get("text", ""))
            if not text:
                continue
            options = []
            for choice in item.get("choices", []) or []:
                if isinstance(choice, dict):
                    options += [_strip_html(str(v)) for v in choice.values()]
            if kind == "yesno":
                options = options or ["Yes", "No"]
            rows.append([item.get("id") or "", text, " / ".join(options)[:300], ""])
    flush()
    for sub in subs:
        heading = _strip_html(sub.get("text", "")) or (sub.get("id") or "Questions")
        blocks.append(_Block("heading", level=level, text=heading))
        _vsaq_items(sub.get("items", []), level + 1, blocks)


# --------------------------------------------------------------------------------------------
# rendering


def _render(blocks: list[_Block]) -> tuple[list[str], list[Section], list[int]]:
    """Markdown lines, the outline built from the heading blocks (levels as given) and the
    source row of each line (``_Block.at``; 0 for a blank or a line with no row)."""
    lines: list[str] = []
    source: list[int] = []
    heads: list[tuple[int, str, int]] = []  # (level, heading, 0-based line)
    for block in blocks:
        if lines:
            lines.append("")
            source.append(0)
        if block.kind == "heading":
            heads.append((block.level, block.text, len(lines)))
            lines.append("#" * min(6, block.level + 1) + " " + block.text)
        elif block.kind == "paragraph":
            lines.append(block.text)
        else:
            for row in block.rows:
                lines.append("| " + " | ".join(row) + " |")
        source.extend(
            block.at[k] if k < len(block.at) else 0 for k in range(len(lines) - len(source))
        )
    sections: list[Section] = []
    used: set[str] = set()
    stack: list[tuple[int, str]] = []
    for idx, (level, heading, line) in enumerate(heads):
        end = heads[idx + 1][2] if idx + 1 < len(heads) else len(lines)
        base = re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")[:48] or "section"
        key = base if base not in used else f"{base}@{line + 1}"
        used.add(key)
        while stack and stack[-1][0] >= level:
            stack.pop()
        sections.append(
            Section(
                key=key,
                number=None,
                heading=heading,
                level=level,
                parent=stack[-1][1] if stack else None,
                body="\n".join(lines[line + 1 : end]).strip(),
                line=line + 1,
                title=heading,
            )
        )
        stack.append((level, key))
    return lines, sections, source
