"""Library spreadsheets (``*.csv``, ``*.xlsx``): the header row, the columns, one entry a row.

Columns are ``SPREADSHEET_COLUMNS``; rules: ``library.ingest``'s docstring.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rfp_retrieval.library import dates, money, outcomes, vocab
from rfp_retrieval.library.cells import (
    ENTRY_ID_RE,
    RowRejected,
    _cell_text,
    _header_key,
    _last_updated,
    _optional,
    _raw_value,
    read_text_file,
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


def _csv_rows(path: Path) -> list[tuple[int, list[Any]]]:
    text = read_text_file(path)
    best: list[tuple[int, list[Any]]] = []
    for delimiter in (",", ";", "\t"):
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        rows = [(number, cells) for number, cells in enumerate(reader, start=1)]
        if _find_header(rows) is not None:
            return rows
        best = best or rows
    return best


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


def _xlsx_sheets(path: Path) -> list[tuple[str, list[tuple[int, list[Any]]]]]:
    """(sheet title, [(row number, cell values)]) of every sheet; formulas without a saved
    result become ``UncalculatedFormula`` cells."""
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
            sheets.append((sheet.title, rows))
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
        sheets = [("", _csv_rows(path))]
    else:
        try:
            sheets = _xlsx_sheets(path)
        except Exception as error:  # openpyxl raises many types for a damaged workbook
            yield RejectedRow(file=rel, row=None, reason=f"{rel}: cannot open workbook: {error}")
            return
    with_header = [(name, rows, _find_header(rows)) for name, rows in sheets]
    data_sheets = [s for s in with_header if s[2] is not None]
    if not data_sheets:
        names = ", ".join(c.names[0] for c in SPREADSHEET_COLUMNS if c.required)
        yield RejectedRow(
            file=rel,
            row=None,
            reason=f"{rel}: no header row found; expected a row with the columns {names}",
        )
        return
    for name, rows, header_index in data_sheets:
        assert header_index is not None
        source = rel if len(data_sheets) == 1 else f"{rel}#{name}"
        yield from _read_table(source, rows, header_index)


def _read_table(
    source: str, rows: list[tuple[int, list[Any]]], header_index: int
) -> Iterator[PastPerformanceEntry | RejectedRow]:
    header_row, header = rows[header_index]
    columns: dict[str, int] = {}
    repeated: dict[str, list[int]] = {}  # field -> positions of its second, third... column
    for position, name in enumerate(header):
        field = _HEADER_TO_FIELD.get(_header_key(name))
        if field is not None and field not in columns:
            columns[field] = position
        elif field is not None:
            repeated.setdefault(field, []).append(position)
    missing = [c.names[0] for c in SPREADSHEET_COLUMNS if c.required and c.field not in columns]
    data_rows = [(n, cells) for n, cells in rows[header_index + 1 :] if _has_content(cells)]
    if missing:
        yield RejectedRow(
            file=source,
            row=header_row,
            reason=(
                f"{source}: missing required column(s) {', '.join(repr(m) for m in missing)} "
                f"in the header on row {header_row}; none of its {len(data_rows)} rows were "
                "loaded. Add the column(s) or rename the header to match."
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
        try:
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
            if conflicts:
                entry = replace(entry, defects=[*entry.defects, *conflicts])
            yield entry
        except RowRejected as error:
            yield RejectedRow(file=source, row=number, reason=str(error), raw=raw)


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


def _has_content(cells: list[Any]) -> bool:
    return any(_cell_text(c) for c in cells)


def _entry_from_spreadsheet(values: dict[str, Any], source: str, row: int) -> PastPerformanceEntry:
    entry_id = _cell_text(values.get("id"))
    if not entry_id:
        raise RowRejected("no PP # (entry id): give the row an id such as PP-181")
    if not ENTRY_ID_RE.match(entry_id):
        raise RowRejected(f"PP # {entry_id!r} is not an entry id (expected e.g. PP-001)")
    title = _cell_text(values.get("title"))
    if not title:
        raise RowRejected(f"{entry_id}: Contract Name is empty")
    defects: list[str] = []

    customer_type, found = vocab.normalize_customer_type(_cell_text(values.get("customer_type")))
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
    defects += money.value_defects(value)

    try:
        start, end = dates.parse_period_of_performance(_cell_text(values.get("period")))
    except ValueError as error:
        raise RowRejected(f"{entry_id}: Period of Performance: {error}") from error
    defects += dates.period_defects(start, end)

    last_updated, found = _last_updated(values.get("last_updated"))
    defects += found
    defects += [
        f"uncalculated-formula:{_FIELD_TO_HEADER.get(field, field)}"
        for field, cell in values.items()
        if isinstance(cell, UncalculatedFormula)
    ]

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
