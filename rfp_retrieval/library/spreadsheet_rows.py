"""Library spreadsheets (``*.csv``, ``*.xlsx``): the header row, the columns, one entry a row.

Columns are ``SPREADSHEET_COLUMNS``; rules: ``library.ingest``'s docstring.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rfp_retrieval.library import dates, money, outcomes, vocab
from rfp_retrieval.library.cells import (
    ENTRY_ID_RE,
    MIXED_UTF8,
    STRAY_MARK,
    TEXT_HEAD_BYTES,
    RowRejected,
    _cell_text,
    _header_key,
    _last_updated,
    _optional,
    _raw_value,
    candidate_encodings,
    mostly_utf8,
    spelled_entry_id,
    utf8_counts,
)
from rfp_retrieval.library.records import (
    Contract,
    Customer,
    PastPerformanceEntry,
    RejectedRow,
    Technical,
)
from rfp_retrieval.spreadsheets import formula_cells

# How far down a sheet to look for the header row (title rows may sit above it).
HEADER_SEARCH_ROWS = 30


# Sub-headers under a merged "Period of Performance" that name its two ends.
PERIOD_START_WORDS = ("Start", "Start Date", "Begin", "Begin Date", "From")
PERIOD_END_WORDS = ("End", "End Date", "Finish", "Through", "To")


@dataclass(frozen=True)
class Column:
    """A spreadsheet column: the entry field it feeds, accepted header names, and whether a
    file without it is rejected."""

    field: str
    names: tuple[str, ...]
    required: bool


SPREADSHEET_COLUMNS: tuple[Column, ...] = (
    Column("id", ("PP #", "PP#", "PP ID", "ID"), True),
    Column("title", ("Contract Name", "Title", "Project Name"), True),
    Column("customer", ("Customer", "Customer Name"), True),
    Column("acronym", ("Acronym", "Customer Acronym"), False),
    Column("customer_type", ("Customer Type",), True),
    Column("industry", ("Industry",), False),
    Column("contract_number", ("Contract #", "Contract Number", "Contract No."), False),
    Column("role", ("Role",), True),
    Column("prime_contractor", ("Prime Contractor",), False),
    Column("vehicle_type", ("Contract Type", "Vehicle Type"), True),
    Column("vehicle_name", ("Vehicle", "Contract Vehicle", "Vehicle Name"), False),
    Column("value", ("Contract Value", "Value"), True),
    Column("period", ("Period of Performance", "PoP"), True),
    # a period in two columns: "Period of Performance" merged over Start / End sub-columns
    # (named parent + sub-header, see _header_names) or plain "Start Date" / "End Date"
    Column(
        "period_start",
        (
            *(f"{p} {s}" for p in ("Period of Performance", "PoP") for s in PERIOD_START_WORDS),
            "Start Date",
        ),
        False,
    ),
    Column(
        "period_end",
        (
            *(f"{p} {s}" for p in ("Period of Performance", "PoP") for s in PERIOD_END_WORDS),
            "End Date",
        ),
        False,
    ),
    Column("technologies", ("Technologies", "Technology", "Tech Stack"), True),
    Column("domains", ("Domains", "Domain"), True),
    Column("description", ("Description",), True),
    Column("technical_approach", ("Technical Approach",), False),
    Column("results", ("Results / Outcomes", "Results", "Outcomes"), True),
    Column("cpars", ("CPARS / Rating", "CPARS", "Rating"), False),
    Column("last_updated", ("Last Updated",), False),
    Column("updated_by", ("Updated By",), False),
)


_HEADER_TO_FIELD = {_header_key(name): c.field for c in SPREADSHEET_COLUMNS for name in c.names}
_FIELD_TO_HEADER = {c.field: c.names[0] for c in SPREADSHEET_COLUMNS}


# Bytes read at a time when a CSV's encoding is checked (the file is never held whole).
_ENCODING_CHUNK = 1 << 20
# Rows of a CSV read ahead to find the header and its delimiter (the header is within the
# first ``HEADER_SEARCH_ROWS``; a two-row header needs the row below it).
_CSV_HEAD_ROWS = HEADER_SEARCH_ROWS + 2


def text_file_encoding(path: Path) -> str:
    """The encoding ``cells.read_text_file`` decodes ``path`` with, found without holding the
    file: the first of ``cells.candidate_encodings`` (the one rule) that reads the whole file,
    else Latin-1, each candidate checked ``_ENCODING_CHUNK`` bytes at a time (a byte that only
    the last megabyte holds decides as it does when the file is decoded at once). Raises
    ``OSError`` when unreadable."""
    with path.open("rb") as handle:
        head = handle.read(TEXT_HEAD_BYTES)
    for encoding in candidate_encodings(head):
        decoder = codecs.getincrementaldecoder(encoding)()
        try:
            with path.open("rb") as handle:
                while chunk := handle.read(_ENCODING_CHUNK):
                    decoder.decode(chunk)
            decoder.decode(b"", final=True)
            return encoding
        except UnicodeDecodeError:
            if encoding.startswith("utf-8") and _mostly_utf8_file(path):
                return MIXED_UTF8  # MIXED_ENCODING_RULE: rows marked stray-byte:<column>
            continue
    return "latin-1"


def _mostly_utf8_file(path: Path) -> bool:
    """``cells.mostly_utf8`` over the whole file, read ``_ENCODING_CHUNK`` bytes at a time (a
    character split at a chunk edge is missed: a count, not a decision, depends on it)."""
    valid = stray = 0
    with path.open("rb") as handle:
        while chunk := handle.read(_ENCODING_CHUNK):
            v, s = utf8_counts(chunk)
            valid, stray = valid + v, stray + s
    return mostly_utf8(valid, stray)


class StrayByteText(str):
    """A cell that held a byte no UTF-8 (``cells.MIXED_ENCODING_RULE``): its text with the byte
    read as Windows-1252; the row gets the defect ``stray-byte:<column>``."""


MAX_CELL_CHARS = 100_000
"""Longest library cell read (characters; ~40 pages of text). A longer cell is a pasted
document or a broken quote, and its row is rejected naming the column (break-it: a 160,000-
character Description stopped the whole library in Python's CSV reader, whose own limit is
131,072). Long narratives belong in a write-up file (``writeups/<id>.md``)."""

CSV_FIELD_LIMIT = 64 * 1024 * 1024
"""The CSV reader's field limit (characters), raised from Python's 131,072 so that an
oversized cell reaches ``MAX_CELL_CHARS``'s row rejection instead of failing the file."""

CSV_DELIMITERS = (",", ";", "\t")
"""The delimiters a CSV of either library is read with, tried in order: the first under which
its header row is found wins (comma when none is). Rule: Excel saves "CSV" with the list
separator of the machine's locale, a semicolon where the decimal mark is a comma."""


def _csv_records(path: Path, encoding: str, delimiter: str) -> Iterator[tuple[int, list[Any]]]:
    """The CSV's records as ``(row number, cells)``, read as they are parsed (a cell with
    line breaks is one record, numbered as one row)."""
    if csv.field_size_limit() < CSV_FIELD_LIMIT:
        csv.field_size_limit(CSV_FIELD_LIMIT)
    with path.open(encoding=encoding, newline="") as handle:
        for number, record in enumerate(csv.reader(handle, delimiter=delimiter), start=1):
            if encoding == MIXED_UTF8:
                record = [
                    StrayByteText(c.replace(STRAY_MARK, "")) if STRAY_MARK in c else c
                    for c in record
                ]
            yield number, record


def _csv_sheet(path: Path) -> Sheet:
    """The CSV as a ``Sheet`` whose rows are streamed: its first ``_CSV_HEAD_ROWS`` records in
    ``rows``, the rest read on demand (``Sheet.rest``). The delimiter is the first of comma,
    semicolon and tab under which a header row is found (comma when none is)."""
    encoding = text_file_encoding(path)
    chosen = ","
    for delimiter in CSV_DELIMITERS:
        head = list(itertools.islice(_csv_records(path, encoding, delimiter), _CSV_HEAD_ROWS))
        if _find_header(head) is not None:
            chosen = delimiter
            break
    head = list(itertools.islice(_csv_records(path, encoding, chosen), _CSV_HEAD_ROWS))

    def rest() -> Iterator[tuple[int, list[Any]]]:
        return itertools.islice(_csv_records(path, encoding, chosen), len(head), None)

    return Sheet("", head, rest=rest if len(head) == _CSV_HEAD_ROWS else None)


class UncalculatedFormula(str):
    """An XLSX formula cell saved without its result: reads as empty text.

    A workbook written by a program that does not calculate (a script, an export) keeps the
    formula and no value; the row is kept and gets the defect ``uncalculated-formula:<column>``
    so the writer knows to open and re-save the file in Excel or LibreOffice.
    """

    def __new__(cls, formula: str) -> UncalculatedFormula:
        cell = super().__new__(cls, "")
        cell.formula = formula
        return cell


@dataclass(frozen=True)
class Sheet:
    """One table of a library file: its title ("" for a CSV), its rows as ``(row number, cell
    values)`` (a CSV's first rows; the rest streamed by ``rest``) and its merged cells as
    ``(first row, first column, last row, last column)`` (1-based; a CSV has none:
    ``_spans_over_blank_headers`` infers them)."""

    title: str
    rows: list[tuple[int, list[Any]]]
    merged: tuple[tuple[int, int, int, int], ...] = ()
    merges_known: bool = False  # an XLSX records its merged cells; a CSV does not
    hidden: bool = False  # an XLSX sheet hidden in the workbook (``HIDDEN_RULE``)
    hidden_rows: frozenset[int] = frozenset()  # an XLSX sheet's hidden row numbers
    # the rows after ``rows``, read on demand (a CSV is streamed: ``_csv_sheet``); None: none
    rest: Callable[[], Iterator[tuple[int, list[Any]]]] | None = None

    def rows_from(self, index: int) -> Iterator[tuple[int, list[Any]]]:
        """Every row from position ``index`` on (``rows``, then the streamed ``rest``)."""
        yield from self.rows[index:]
        if self.rest is not None:
            yield from itertools.islice(self.rest(), max(0, index - len(self.rows)), None)


HIDDEN_RULE = (
    "A row or sheet hidden in an XLSX workbook is loaded like any other (hiding is how a "
    "spreadsheet keeps a view short, not how a library retires an entry) and gets the defect "
    "'hidden-row' or 'hidden-sheet:<sheet>', so the team sees that the entry it cannot see in "
    "Excel is cited; delete the row to leave it out."
)
"""The one rule for hidden spreadsheet rows and sheets (break-it: they loaded with no note)."""


def _xlsx_sheets(path: Path) -> list[Sheet]:
    """Every sheet of the workbook; formulas without a saved result become
    ``UncalculatedFormula`` cells."""
    import openpyxl  # imported here: only spreadsheets need it

    formulas = formula_cells(path)
    workbook = openpyxl.load_workbook(path, data_only=True)
    try:
        sheets = []
        for sheet in workbook.worksheets:
            written = formulas.get(sheet.title, {})
            rows = [
                (
                    cells[0].row,
                    [
                        UncalculatedFormula(written[(c.row, c.column)])
                        if c.value is None and (c.row, c.column) in written
                        else c.value
                        for c in cells
                    ],
                )
                for cells in sheet.iter_rows()
                if cells
            ]
            merged = tuple(
                (r.min_row, r.min_col, r.max_row, r.max_col) for r in sheet.merged_cells.ranges
            )
            hidden_rows = frozenset(
                number for number, row in sheet.row_dimensions.items() if row.hidden
            )
            sheets.append(
                Sheet(
                    sheet.title,
                    rows,
                    merged,
                    merges_known=True,
                    hidden=sheet.sheet_state != "visible",
                    hidden_rows=hidden_rows,
                )
            )
        return sheets
    finally:
        workbook.close()


def _find_header(rows: list[tuple[int, list[Any]]]) -> int | None:
    """Index in ``rows`` of the header: the row (among the first ``HEADER_SEARCH_ROWS``) naming
    the most known columns, at least three."""
    best_index, best_count = None, 2
    for index, (_, cells) in enumerate(rows[:HEADER_SEARCH_ROWS]):
        count = len(
            {_HEADER_TO_FIELD[k] for c in cells if (k := _header_key(c)) in _HEADER_TO_FIELD}
        )
        if count > best_count:
            best_index, best_count = index, count
    return best_index


def _read_spreadsheet(path: Path, rel: str) -> Iterator[PastPerformanceEntry | RejectedRow]:
    if path.suffix.lower() == ".csv":
        sheets = [_csv_sheet(path)]
    else:
        try:
            sheets = _xlsx_sheets(path)
        except Exception as error:  # openpyxl raises many types for a damaged workbook
            yield RejectedRow(file=rel, row=None, reason=f"{rel}: cannot open workbook: {error}")
            return
    with_header = [(sheet, _find_header(sheet.rows)) for sheet in sheets]
    data_sheets = [s for s in with_header if s[1] is not None]
    if not data_sheets:
        names = ", ".join(c.names[0] for c in SPREADSHEET_COLUMNS if c.required)
        yield RejectedRow(
            file=rel,
            row=None,
            reason=f"{rel}: no header row found; expected a row with the columns {names}",
        )
        return
    for sheet, header_index in data_sheets:
        assert header_index is not None
        source = rel if len(data_sheets) == 1 else f"{rel}#{sheet.title}"
        where = f"{rel}, sheet {sheet.title!r}" if sheet.title else rel
        try:
            header_rows, header = _header_names(sheet, header_index)
        except UnreadableHeader as error:
            header_row = sheet.rows[header_index][0]
            rows_below = sum(1 for _, c in sheet.rows_from(header_index + 2) if _has_content(c))
            yield RejectedRow(
                file=source,
                row=header_row,
                reason=(
                    f"{where}: the header on rows {header_row}-{header_row + 1} cannot be read: "
                    f"{error}; none of its {rows_below} rows were loaded."
                ),
                raw={"header": [_cell_text(c) for c in sheet.rows[header_index][1]]},
            )
            continue
        yield from _read_table(source, sheet, header_index, header_rows, header)


class UnreadableHeader(Exception):
    """A two-row header whose sub-headers do not name columns the library reads."""


def _horizontal_merges(sheet: Sheet, row: int) -> list[tuple[int, int]]:
    """(first, last) 1-based columns of the cells merged across columns on ``row`` alone."""
    return [(c1, c2) for r1, c1, r2, c2 in sheet.merged if r1 == r2 == row and c2 > c1]


def _header_names(sheet: Sheet, header_index: int) -> tuple[int, list[Any]]:
    """How many rows the header takes (1 or 2) and the name of each column.

    A header row whose cells are merged over sub-columns is a two-row header when the row
    right below it is not an entry (no PP #) and fills a cell under a merged header: each
    sub-column is named parent + sub-header (``Period of Performance`` over ``Start`` and
    ``End`` gives ``Period of Performance Start`` / ``Period of Performance End``); a
    sub-header that is itself a column name (``Customer`` under a ``Client`` group) keeps its
    own name; a column not under a merged header keeps its own name (or, left blank on the
    first row, the name on the second). Raises ``UnreadableHeader`` when a sub-column under a
    merged library column (``Period of Performance`` over ``Q1`` / ``Q2``, or with a blank
    sub-header) names nothing the library reads, so no value is read under a wrong name.
    A CSV keeps no merges: a header cell followed by blank header cells, with a row below that
    names each of them and nothing else, reads the same way.
    """
    header_row, header = sheet.rows[header_index]
    below = sheet.rows[header_index + 1] if header_index + 1 < len(sheet.rows) else None
    if below is None or below[0] != header_row + 1:
        return 1, header
    sub = below[1]
    merges = _horizontal_merges(sheet, header_row) if sheet.merges_known else []
    if not sheet.merges_known:  # a CSV keeps no merges: infer them from blank header cells
        merges = _spans_over_blank_headers(header, sub)
    under = {col: (c1, c2) for c1, c2 in merges for col in range(c1, c2 + 1)}
    filled = [col for col, cell in enumerate(sub, 1) if _cell_text(cell)]
    ids = [k for k, name in enumerate(header) if _HEADER_TO_FIELD.get(_header_key(name)) == "id"]
    has_id = any(k < len(sub) and _cell_text(sub[k]) for k in ids)
    inferred_outside = not sheet.merges_known and any(col not in under for col in filled)
    if has_id or inferred_outside or not any(col in under for col in filled):
        return 1, header  # the row below is data: a merged header names its first column
    width = max(len(header), len(sub))
    names: list[Any] = []
    for k in range(width):
        own = _cell_text(header[k]) if k < len(header) else ""
        part = _cell_text(sub[k]) if k < len(sub) else ""
        if k + 1 not in under:
            names.append(own or part)
            continue
        first, last = under[k + 1]
        parent = _cell_text(header[first - 1])
        combined = f"{parent} {part}".strip()
        if _header_key(combined) in _HEADER_TO_FIELD:
            names.append(combined)
        elif part and _header_key(part) in _HEADER_TO_FIELD:
            names.append(part)
        elif _header_key(parent) in _HEADER_TO_FIELD:
            subs = [
                _cell_text(sub[c - 1]) if c - 1 < len(sub) else "" for c in range(first, last + 1)
            ]
            raise UnreadableHeader(
                f"{parent!r} is merged over {last - first + 1} columns whose sub-headers "
                f"{', '.join(repr(x) for x in subs)} (row {header_row + 1}) are not parts the "
                f"library reads; name them {_sub_header_hint(parent)}, or unmerge the header "
                "and give each column one name"
            )
        else:
            names.append(combined)  # a column the library does not read, like any other
    return 2, names


def _spans_over_blank_headers(header: list[Any], sub: list[Any]) -> list[tuple[int, int]]:
    """(first, last) 1-based columns of a CSV header cell and the blank header cells after it,
    where the row below names every one of them: how a header merged over sub-columns reads
    once saved as CSV ("Period of Performance", "" over "Start", "End")."""
    spans = []
    for k, cell in enumerate(header):
        if not _cell_text(cell) or k >= len(sub) or not _cell_text(sub[k]):
            continue
        last = k
        while (
            last + 1 < len(sub)
            and _cell_text(sub[last + 1])
            and not (_cell_text(header[last + 1]) if last + 1 < len(header) else "")
        ):
            last += 1
        if last > k:
            spans.append((k + 1, last + 1))
    return spans


def _sub_header_hint(parent: str) -> str:
    field = _HEADER_TO_FIELD.get(_header_key(parent))
    if field == "period":
        return f"{PERIOD_START_WORDS[0]!r} and {PERIOD_END_WORDS[0]!r}"
    return "after the columns they hold"


def _read_table(
    source: str,
    sheet: Sheet,
    header_index: int,
    header_rows: int,
    header: list[Any],
) -> Iterator[PastPerformanceEntry | RejectedRow]:
    header_row = sheet.rows[header_index][0]
    columns: dict[str, int] = {}
    repeated: dict[str, list[int]] = {}  # field -> positions of its second, third... column
    for position, name in enumerate(header):
        field = _HEADER_TO_FIELD.get(_header_key(name))
        if field is not None and field not in columns:
            columns[field] = position
        elif field is not None:
            repeated.setdefault(field, []).append(position)
    split_period = {"period_start", "period_end"} <= columns.keys()  # Start and End columns
    missing = [
        c.names[0]
        for c in SPREADSHEET_COLUMNS
        if c.required and c.field not in columns and not (c.field == "period" and split_period)
    ]
    rows_below = _with_merged_values(sheet, sheet.rows_from(header_index + header_rows))
    data_rows = ((n, cells) for n, cells in rows_below if _has_content(cells))
    if missing:
        yield RejectedRow(
            file=source,
            row=header_row,
            reason=(
                f"{source}: missing required column(s) {', '.join(repr(m) for m in missing)} "
                f"in the header on row {header_row}; none of its {sum(1 for _ in data_rows)} rows "
                "were loaded. Add the column(s) or rename the header to match."
            ),
            raw={"header": [_cell_text(c) for c in header]},
        )
        return
    width = max(columns.values()) + 1
    header_width = len(header)
    while header_width and not _cell_text(header[header_width - 1]):
        header_width -= 1
    names = [(_cell_text(h) or f"column {k + 1}") for k, h in enumerate(header)]
    names = [n if names.index(n) == k else f"{n} (column {k + 1})" for k, n in enumerate(names)]
    for number, cells in data_rows:
        raw = {
            (names[k] if k < len(names) else f"column {k + 1}"): _raw_value(cell)
            for k, cell in enumerate(cells)
            if _cell_text(cell)
        }
        oversized = {
            name: size for name, v in raw.items() if (size := len(str(v))) > MAX_CELL_CHARS
        }
        try:
            if oversized:
                for name, size in oversized.items():  # the kept raw row stays readable
                    raw[name] = f"{str(raw[name])[:200]}... ({size:,} characters)"
                at = columns.get("id")
                row_id = _cell_text(cells[at]) if at is not None and at < len(cells) else ""
                raise RowRejected(
                    (f"{row_id}: " if row_id else "")
                    + "; ".join(
                        f"{name}: {size:,} characters, more than the {MAX_CELL_CHARS:,} a "
                        "library cell holds (a pasted document or an unclosed quote?); "
                        "shorten it, or move the narrative to writeups/<id>.md"
                        for name, size in oversized.items()
                    )
                )
            overflow = [c for c in cells[max(header_width, width) :] if _cell_text(c)]
            if overflow:
                raise RowRejected(
                    f"row has {len(overflow)} filled cell(s) right of the last named column "
                    "(a stray delimiter or a shifted row?)"
                )
            values = {
                field: cells[position] if position < len(cells) else None
                for field, position in columns.items()
            }
            entry = _entry_from_spreadsheet(values, source, number)
            conflicts = _repeated_column_conflicts(cells, columns, repeated)
            if sheet.hidden:  # HIDDEN_RULE
                conflicts.append(f"hidden-sheet:{sheet.title}")
            if number in sheet.hidden_rows:
                conflicts.append("hidden-row")
            if conflicts:
                entry = replace(entry, defects=[*entry.defects, *conflicts])
            yield entry
        except RowRejected as error:
            yield RejectedRow(file=source, row=number, reason=str(error), raw=raw)


def _with_merged_values(
    sheet: Sheet, rows: Iterator[tuple[int, list[Any]]]
) -> Iterator[tuple[int, list[Any]]]:
    """``rows`` (below the header) with each merged range's value in every cell of the range
    (``with_merged_values``)."""
    return with_merged_values(sheet.merged, rows)


def with_merged_values(
    merged: Iterable[tuple[int, int, int, int]], rows: Iterable[tuple[int, list[Any]]]
) -> Iterator[tuple[int, list[Any]]]:
    """``rows`` (``(1-based row number, cells)``, below a header) with each merged range's
    value in every cell of the range; ``merged``: ``(first row, first column, last row, last
    column)``, 1-based, as openpyxl's ``merged_cells.ranges``.

    Rule (both libraries): a spreadsheet stores a merged range's value in its top-left cell
    only, but the writer who merged one customer (or one topic) over several rows states it
    for each of them. Ranges that start above ``rows`` (header merges) are left to the header
    rules; a cell that holds its own value keeps it."""
    starts: dict[int, list[tuple[int, int, int, int]]] = {}
    for merge in merged:
        starts.setdefault(merge[0], []).append(merge)
    fills: dict[int, dict[int, Any]] = {}  # row -> {0-based column: value}
    for number, cells in rows:
        for r1, c1, r2, c2 in starts.get(number, []):
            value = cells[c1 - 1] if c1 - 1 < len(cells) else None
            for r in range(r1, r2 + 1):
                for c in range(c1, c2 + 1):
                    if (r, c) != (r1, c1):
                        fills.setdefault(r, {})[c - 1] = value
        fill = fills.pop(number, None)
        if fill:
            cells = list(cells) + [None] * max(0, max(fill) + 1 - len(cells))
            for k, value in fill.items():
                if cells[k] is None or not _cell_text(cells[k]):
                    cells[k] = value
        yield number, cells


def _repeated_column_conflicts(
    cells: list[Any], columns: dict[str, int], repeated: dict[str, list[int]]
) -> list[str]:
    """One defect per field whose header appears more than once and whose later column holds
    a different non-empty value in this row: the first column is read, and the defect
    ``repeated-column:<Header> (ignored: <value>; ...)`` keeps the other value(s) so the
    writer can merge the columns."""
    found = []
    for field, positions in repeated.items():
        used = _cell_text(cells[columns[field]]) if columns[field] < len(cells) else ""
        others = [
            text
            for p in positions
            if p < len(cells) and (text := _cell_text(cells[p])) and text != used
        ]
        if others:
            header = _FIELD_TO_HEADER.get(field, field)
            found.append(f"repeated-column:{header} (ignored: {'; '.join(others)})")
    return found


# A line inside one cell that starts like a row of the file: an id-like token holding a digit,
# then a delimiter, and at least one more delimiter on the line (``PP-506,Next,Cust``).
_ROW_LIKE_LINE = re.compile(
    r"^\s*\"?[A-Za-z0-9._/#-]*\d[A-Za-z0-9._/#-]*\"?\s*[,;\t][^,;\t]*[,;\t]"
)


def _swallowed_rows(values: dict[str, Any]) -> list[str]:
    """``possible-unbalanced-quote:<column> (...)`` for a cell whose later lines look like rows
    of the file (``_ROW_LIKE_LINE``): a quote opened and never closed makes a CSV reader put
    the next rows into that one cell, so they vanish with no word (break-it). The row is kept;
    the defect names the ids of the lines it holds, so the writer can close the quote."""
    found = []
    for field, cell in values.items():
        if not isinstance(cell, str) or "\n" not in cell:
            continue
        rows = [line for line in cell.splitlines()[1:] if _ROW_LIKE_LINE.match(line)]
        if rows:
            ids = ", ".join(re.split(r"[,;\t]", line, maxsplit=1)[0].strip(' "') for line in rows)
            found.append(
                f"possible-unbalanced-quote:{_FIELD_TO_HEADER.get(field, field)} (the cell holds "
                f"{len(rows)} line(s) that look like rows: {ids}; close the quote that opens it)"
            )
    return found


def _split_period_conflict(
    values: dict[str, Any], read: tuple[str | None, str | None]
) -> list[str]:
    """``repeated-column:Period of Performance (ignored: Start ...; End ...)`` when a row has
    both a Period of Performance cell (read) and Start / End cells that say otherwise."""
    if not _cell_text(values.get("period")):
        return []
    cells = [_date_cell(values.get(f)) for f in ("period_start", "period_end")]
    if not any(_cell_text(c) for c in cells):
        return []
    try:
        if dates.period_from_columns(*cells) == read:
            return []
    except ValueError:
        pass
    ignored = "; ".join(
        f"{n} {_cell_text(c)}" for n, c in zip(("Start", "End"), cells, strict=True) if c
    )
    return [f"repeated-column:Period of Performance (ignored: {ignored})"]


def _date_cell(value: Any) -> Any:
    """A date cell as a date (a spreadsheet date) or as clean text."""
    return value if isinstance(value, dt.date) else _cell_text(value)


def _has_content(cells: list[Any]) -> bool:
    return any(_cell_text(c) for c in cells)


def _entry_from_spreadsheet(values: dict[str, Any], source: str, row: int) -> PastPerformanceEntry:
    entry_id = _cell_text(values.get("id"))
    if not entry_id:
        raise RowRejected("no PP # (entry id): give the row an id such as PP-181")
    entry_id, id_defects = spelled_entry_id(entry_id)
    if not ENTRY_ID_RE.match(entry_id):
        raise RowRejected(f"PP # {entry_id!r} is not an entry id (expected e.g. PP-001)")
    title = _cell_text(values.get("title"))
    if not title:
        raise RowRejected(f"{entry_id}: Contract Name is empty")
    defects: list[str] = list(id_defects)

    customer_type, found = vocab.normalize_customer_type(
        _cell_text(values.get("customer_type")), _cell_text(values.get("customer"))
    )
    defects += found
    role, found = vocab.normalize_role(_cell_text(values.get("role")))
    defects += found
    vehicle_type, found = vocab.normalize_vehicle_type(_cell_text(values.get("vehicle_type")))
    defects += found

    raw_value = values.get("value")
    try:
        value = money.parse_contract_value(
            raw_value if isinstance(raw_value, int | float) else _cell_text(raw_value)
        )
    except ValueError as error:
        raise RowRejected(f"{entry_id}: Contract Value: {error}") from error
    value, found = money.checked_value(value, raw_value)
    defects += found

    try:
        if not _cell_text(values.get("period")) and {"period_start", "period_end"} & values.keys():
            start, end = dates.period_from_columns(
                *(_date_cell(values.get(f)) for f in ("period_start", "period_end"))
            )
        else:
            start, end = dates.parse_period_of_performance(_cell_text(values.get("period")))
    except ValueError as error:
        raise RowRejected(f"{entry_id}: Period of Performance: {error}") from error
    defects += _split_period_conflict(values, (start, end))
    start, end, found = dates.plausible_period(start, end)
    defects += found + dates.period_defects(start, end)

    last_updated, found = _last_updated(values.get("last_updated"))
    defects += found
    defects += [
        f"uncalculated-formula:{_FIELD_TO_HEADER.get(field, field)}"
        for field, cell in values.items()
        if isinstance(cell, UncalculatedFormula)
    ]
    defects += [
        f"stray-byte:{_FIELD_TO_HEADER.get(field, field)}"
        for field, cell in values.items()
        if isinstance(cell, StrayByteText)
    ]
    defects += _swallowed_rows(values)

    return PastPerformanceEntry(
        id=entry_id,
        title=title,
        role=role,
        prime_contractor=_optional(values.get("prime_contractor")) if role == "sub" else None,
        customer=Customer(
            type=customer_type,
            named=_optional(values.get("customer")),
            acronym=_optional(values.get("acronym")),
            industry=_optional(values.get("industry")),
        ),
        contract=Contract(
            number=_optional(values.get("contract_number")),
            vehicle_type=vehicle_type,
            vehicle_name=vocab.normalize_vehicle_name(_cell_text(values.get("vehicle_name"))),
            value=value,
            start_date=start,
            end_date=end,
        ),
        technical=Technical(
            stack_tags=vocab.stack_tags(_cell_text(values.get("technologies"))),
            domains=vocab.domain_tags(_cell_text(values.get("domains"))),
            description=_cell_text(values.get("technical_approach")),
        ),
        outcomes=outcomes.parse_outcomes_cell(_cell_text(values.get("results"))),
        narrative=_cell_text(values.get("description")),
        defects=defects,
        source=source,
        source_row=row,
        last_updated=last_updated,
        updated_by=_optional(values.get("updated_by")),
        cpars=_optional(values.get("cpars")),
    )
