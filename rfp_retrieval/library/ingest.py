"""Ingest a past-performance library folder into canonical entries (no Dagster here).

``load_library(folder)`` reads every ``*.csv`` and ``*.xlsx`` directly in the folder (one row per
entry, columns of ``SPREADSHEET_COLUMNS``) and every ``*.md`` write-up under it (YAML front
matter plus ``## Summary``, ``## Technical Approach`` and ``## Results`` sections).

Nothing is lost:

- a row or file that cannot be read goes to ``rejected`` with its file, row and the reason
  (no id, a required column missing from the file, a cell that is not a value or a period...);
- a row whose facts are inconsistent or incomplete is kept and its ``defects`` list the issues
  (``end-before-start``, ``min-above-max``, ``missing-value``, ``missing-start-date``,
  ``missing-end-date``, ``nonstandard-customer-type``, ``unknown-customer-type``,
  ``unknown-vehicle-type``, ``unknown-role``, ``unreadable-last-updated``);
- when an id appears more than once the most recently updated row wins (``Last Updated`` /
  ``last_updated``; a row without a date is the oldest; on a tie the row read last wins) and
  the others are listed in ``superseded``.

Spreadsheets: the header is the row (among the first ``HEADER_SEARCH_ROWS``) naming the most
known columns, so title rows above it are skipped; columns outside ``SPREADSHEET_COLUMNS`` are
ignored; a file missing a required column is rejected whole; an unreadable Contract Value or
Period of Performance rejects the row (empty or ``TBD`` is a defect instead). Write-ups: sections
other than Summary / Technical Approach / Results are appended to the narrative.

Row numbers are the row numbers a spreadsheet program shows: 1-based and counting the header
and any title rows above it, so in a CSV with the header on row 1 the first entry is row 2 (a
cell with line breaks still counts as one row). Rejections of a whole file carry the header's
row number, or None when no header was found. Write-ups have no row number (None).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from rfp_retrieval.library import dates, money, outcomes, vocab
from rfp_retrieval.library.records import (
    ONGOING,
    Contract,
    ContractValue,
    Customer,
    LibraryLoad,
    Outcomes,
    PastPerformanceEntry,
    RejectedRow,
    SupersededRow,
    Technical,
)
from rfp_retrieval.spreadsheets import formula_cells

UNREADABLE_LAST_UPDATED = "unreadable-last-updated"

# How far down a sheet to look for the header row (title rows may sit above it).
HEADER_SEARCH_ROWS = 30
ENTRY_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/#-]*$")


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


def _header_key(name: Any) -> str:
    return " ".join(str(name or "").lower().split())


_HEADER_TO_FIELD = {_header_key(name): c.field for c in SPREADSHEET_COLUMNS for name in c.names}
_FIELD_TO_HEADER = {c.field: c.names[0] for c in SPREADSHEET_COLUMNS}

WRITEUP_SECTIONS: dict[str, str] = {
    "summary": "summary",
    "overview": "summary",
    "technical approach": "technical",
    "technical description": "technical",
    "results": "results",
    "outcomes": "results",
    "results / outcomes": "results",
}


class _LenientLoader(yaml.SafeLoader):
    """PyYAML's safe loader, except that an impossible date stays text.

    ``safe_load`` turns ``2025-13-06`` (unquoted) into ``datetime.date(2025, 13, 6)`` and
    raises ``ValueError`` ("month must be in 1..12"), which is not a ``YAMLError``: one typo
    in one write-up would stop the whole load. Kept as text, the value reaches the date
    readers, which report it as a defect of that one entry or block.
    """


def _timestamp_or_text(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    try:
        return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
    except ValueError:
        return loader.construct_scalar(node)


_LenientLoader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_or_text)


def lenient_yaml_load(text: str) -> Any:
    """``yaml.safe_load`` that keeps an impossible date (``2025-02-30``) as its text.

    Raises ``yaml.YAMLError`` for malformed YAML, like ``safe_load``.
    """
    return yaml.load(text, Loader=_LenientLoader)  # noqa: S506 - a SafeLoader subclass


class RowRejected(Exception):
    """A row (or write-up) cannot become an entry; the message is the rejection reason."""


@dataclass(frozen=True)
class _Candidate:
    entry: PastPerformanceEntry
    order: int


# ------------------------------------------------------------------------------- load_library
def load_library(folder: Path | str) -> LibraryLoad:
    """Ingest a library folder: entries (sorted by id), rejected rows, superseded duplicates.

    Reads ``*.csv``/``*.xlsx`` directly in ``folder`` and ``*.md`` anywhere under it (README
    files and Excel lock files ``~$*`` are skipped). ``source`` is the path relative to
    ``folder`` (``past_performance_matrix.csv``, ``writeups/PP-151.md``). Rules: module
    docstring. Raises ``FileNotFoundError`` when ``folder`` is not a directory; problems inside
    files never raise, they are returned in ``rejected`` or as entry ``defects``.
    """
    root = Path(folder)
    if not root.is_dir():
        raise FileNotFoundError(f"past-performance library folder {root} does not exist")
    candidates: list[_Candidate] = []
    rejected: list[RejectedRow] = []
    order = 0
    for path in _library_files(root):
        rel = path.relative_to(root).as_posix()
        if path.suffix.lower() == ".md":
            results: Iterator[PastPerformanceEntry | RejectedRow] = _read_writeup(path, rel)
        else:
            results = _read_spreadsheet(path, rel)
        for item in results:
            if isinstance(item, RejectedRow):
                rejected.append(item)
            else:
                candidates.append(_Candidate(item, order))
                order += 1
    entries, superseded = _resolve_duplicates(candidates)
    return LibraryLoad(entries=entries, rejected=rejected, superseded=superseded)


def _library_files(root: Path) -> list[Path]:
    spreadsheets = [
        p
        for p in root.iterdir()
        if p.is_file() and p.suffix.lower() in {".csv", ".xlsx"} and not p.name.startswith("~$")
    ]
    writeups = [
        p for p in root.rglob("*.md") if p.is_file() and not p.name.lower().startswith("readme")
    ]
    return sorted(spreadsheets, key=lambda p: p.name) + sorted(
        writeups, key=lambda p: p.relative_to(root).as_posix()
    )


def entry_id_sort_key(entry_id: str) -> tuple:
    """Natural sort key for ids (``PP-9`` before ``PP-10``)."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", entry_id))


def _resolve_duplicates(
    candidates: list[_Candidate],
) -> tuple[list[PastPerformanceEntry], list[SupersededRow]]:
    by_id: dict[str, list[_Candidate]] = {}
    for candidate in candidates:
        by_id.setdefault(candidate.entry.id, []).append(candidate)
    entries: list[PastPerformanceEntry] = []
    superseded: list[SupersededRow] = []
    for entry_id in sorted(by_id, key=entry_id_sort_key):
        group = by_id[entry_id]
        winner = max(group, key=lambda c: (c.entry.last_updated or "", c.order))
        entries.append(winner.entry)
        for loser in sorted(group, key=lambda c: c.order):
            if loser is winner:
                continue
            superseded.append(
                SupersededRow(
                    id=entry_id,
                    file=loser.entry.source,
                    row=loser.entry.source_row,
                    last_updated=loser.entry.last_updated,
                    superseded_by_row=winner.entry.source_row,
                    superseded_by_file=winner.entry.source,
                )
            )
    return entries, superseded


# -------------------------------------------------------------------------------- spreadsheets
def read_text_file(path: Path) -> str:
    """A text file's content: UTF-16 (Excel's "Unicode Text" and UTF-16 CSV exports, with a
    byte-order mark or the NUL-byte pattern of one without), else UTF-8 (with or without
    BOM), else Windows-1252, else Latin-1."""
    raw = path.read_bytes()
    encodings = ["utf-8-sig", "cp1252"]
    head = raw[:2000]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        encodings.insert(0, "utf-16")
    elif head.count(b"\x00") > len(head) // 4:
        odd_nuls = head[1::2].count(b"\x00") > head[0::2].count(b"\x00")
        encodings.insert(0, "utf-16-le" if odd_nuls else "utf-16-be")
    for encoding in encodings:
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


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


def _raw_value(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return value


def _cell_text(value: Any) -> str:
    """A cell as clean text: None -> "", line breaks normalized, outer whitespace stripped."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ").strip()


def _optional(value: Any) -> str | None:
    text = _cell_text(value)
    return text or None


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


def _last_updated(value: Any) -> tuple[str | None, list[str]]:
    """ISO date of a Last Updated cell (``10/28/2014``, ``2025-09-06``, a spreadsheet date)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, []
    try:
        if isinstance(value, dt.date):
            return dates.parse_date_bound(value, "start").isoformat(), []
        return dates.parse_date_bound(_cell_text(value), "start").isoformat(), []
    except ValueError:
        return None, [UNREADABLE_LAST_UPDATED]


# ------------------------------------------------------------------------------------ write-ups
_FRONT_MATTER_RE = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
_HEADING_RE = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def _read_writeup(path: Path, rel: str) -> Iterator[PastPerformanceEntry | RejectedRow]:
    try:
        yield _entry_from_writeup(read_text_file(path), rel)
    except RowRejected as error:
        yield RejectedRow(file=rel, row=None, reason=f"{rel}: {error}")


def _split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    text = text.replace("\r\n", "\n").lstrip("\ufeff")
    match = _FRONT_MATTER_RE.match(text)
    if match is None:
        raise RowRejected("no YAML front matter (a '---' block at the top with at least an id)")
    try:
        front = lenient_yaml_load(match.group(1)) or {}
    except yaml.YAMLError as error:
        raise RowRejected(f"YAML front matter does not parse: {error}") from error
    if not isinstance(front, dict):
        raise RowRejected("YAML front matter is not a mapping of field: value")
    return front, text[match.end() :]


def _sections(body: str) -> tuple[str | None, dict[str, str], list[tuple[str, str]]]:
    """The H1 title, the known sections (summary/technical/results) and any other sections
    (heading, text) in order; text before the first ``##`` heading counts as another section."""
    title = None
    known: dict[str, str] = {}
    other: list[tuple[str, str]] = []
    headings = list(_HEADING_RE.finditer(body))
    preamble_end = headings[0].start() if headings else len(body)
    if body[:preamble_end].strip():
        other.append(("", body[:preamble_end]))
    for k, heading in enumerate(headings):
        text = body[heading.end() : headings[k + 1].start() if k + 1 < len(headings) else len(body)]
        name = heading.group(2).strip()
        if len(heading.group(1)) == 1 and title is None:
            title = name
            if text.strip():
                other.append(("", text))
            continue
        section = WRITEUP_SECTIONS.get(_header_key(name))
        if section and section not in known:
            known[section] = text
        else:
            other.append((name, text))
    return title, known, other


def _markdown_text(text: str) -> str:
    """Markdown paragraphs as plain text: paragraphs separated by a blank line, hard-wrapped
    lines joined (list lines kept)."""
    paragraphs = [p.strip() for p in re.split(r"\n[ \t]*\n", text) if p.strip()]
    return "\n\n".join(outcomes.join_markdown_lines(p) for p in paragraphs)


def _mapping(front: dict[str, Any], key: str) -> dict[str, Any]:
    value = front.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RowRejected(f"front matter '{key}' should be a mapping, got {value!r}")
    return value


def _front_text(value: Any) -> str | None:
    if value is None:
        return None
    text = _cell_text(value)
    return text or None


def _front_amount(value: Any, name: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise RowRejected(f"contract {name} {value!r} is not a dollar amount")
    if isinstance(value, int | float):
        return money.parse_contract_value(value).min
    try:
        return money.parse_amount(str(value))
    except ValueError as error:
        raise RowRejected(f"contract {name}: {error}") from error


def _front_value(contract: dict[str, Any]) -> ContractValue:
    low = _front_amount(contract.get("value_min"), "value_min")
    high = _front_amount(contract.get("value_max"), "value_max")
    funded = _front_amount(contract.get("value_funded"), "value_funded")
    if low is None and high is None and contract.get("value") is not None:
        try:
            return money.parse_contract_value(contract["value"])
        except ValueError as error:
            raise RowRejected(f"contract value: {error}") from error
    if low is None and high is not None:
        low = high
    if high is None and low is not None:
        high = low
    return ContractValue(low, high, funded=funded)


def _front_period(contract: dict[str, Any]) -> tuple[str | None, str | None]:
    start_raw, end_raw = contract.get("start_date"), contract.get("end_date")
    if start_raw is None and end_raw is None and contract.get("period") is not None:
        try:
            return dates.parse_period_of_performance(str(contract["period"]))
        except ValueError as error:
            raise RowRejected(str(error)) from error
    try:
        start = None
        if start_raw is not None and str(start_raw).strip():
            start = dates.parse_date_bound(start_raw, "start").isoformat()
        end = None
        if end_raw is not None and str(end_raw).strip():
            if str(end_raw).strip().lower() in dates.ONGOING_WORDS:
                end = ONGOING
            else:
                end = dates.parse_date_bound(end_raw, "end").isoformat()
    except ValueError as error:
        raise RowRejected(f"contract dates: {error}") from error
    return start, end


def _entry_from_writeup(text: str, rel: str) -> PastPerformanceEntry:
    front, body = _split_front_matter(text)
    entry_id = _cell_text(front.get("id"))
    if not entry_id:
        raise RowRejected("front matter has no id: add e.g. 'id: PP-181'")
    if not ENTRY_ID_RE.match(entry_id):
        raise RowRejected(f"id {entry_id!r} is not an entry id (expected e.g. PP-001)")
    h1, sections, other = _sections(body)
    title = _front_text(front.get("title")) or h1
    if not title:
        raise RowRejected(f"{entry_id}: no title (front matter 'title' or a '# Title' heading)")
    customer = _mapping(front, "customer")
    contract = _mapping(front, "contract")
    defects: list[str] = []

    customer_type, found = vocab.normalize_customer_type(_front_text(customer.get("type")))
    defects += found
    role, found = vocab.normalize_role(_front_text(front.get("role")))
    defects += found
    vehicle_type, found = vocab.normalize_vehicle_type(_front_text(contract.get("vehicle_type")))
    defects += found
    value = _front_value(contract)
    defects += money.value_defects(value)
    start, end = _front_period(contract)
    defects += dates.period_defects(start, end)
    last_updated, found = _last_updated(front.get("last_updated"))
    defects += found

    narrative_parts = [_markdown_text(sections.get("summary", ""))]
    for heading, section_text in other:  # nothing is lost: other sections join the narrative
        narrative_parts.append("\n\n".join(p for p in (heading, _markdown_text(section_text)) if p))
    stack = front.get("stack", front.get("stack_tags", front.get("technologies")))
    return PastPerformanceEntry(
        id=entry_id,
        title=title,
        role=role,
        prime_contractor=_front_text(front.get("prime_contractor")) if role == "sub" else None,
        customer=Customer(
            type=customer_type,
            named=_front_text(customer.get("name", customer.get("named"))),
            acronym=_front_text(customer.get("acronym")),
            industry=_front_text(customer.get("industry")),
        ),
        contract=Contract(
            number=_front_text(contract.get("number")),
            vehicle_type=vehicle_type,
            vehicle_name=vocab.normalize_vehicle_name(_front_text(contract.get("vehicle_name"))),
            value=value,
            start_date=start,
            end_date=end,
        ),
        technical=Technical(
            stack_tags=vocab.stack_tags(stack),
            domains=vocab.domain_tags(front.get("domains")),
            description=_markdown_text(sections.get("technical", "")),
        ),
        outcomes=outcomes.parse_results_section(sections.get("results", ""))
        if "results" in sections
        else Outcomes(metrics=[], narrative="", vague=True),
        narrative="\n\n".join(p for p in narrative_parts if p),
        defects=defects,
        source=rel,
        source_row=None,
        last_updated=last_updated,
        updated_by=_front_text(front.get("author", front.get("updated_by"))),
        cpars=_front_text(front.get("cpars")),
    )
