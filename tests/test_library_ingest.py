"""Library ingest: canonical records, duplicates, rejections, spreadsheets and write-ups."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import polars as pl
import pytest

from rfp_retrieval.library.frames import (
    ENTRY_SCHEMA,
    REJECTED_SCHEMA,
    SUPERSEDED_SCHEMA,
    entries_frame,
    rejected_frame,
    superseded_frame,
)
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.library.records import (
    ContractValue,
    LibraryLoad,
    PastPerformanceEntry,
    SupersededRow,
)

LIBRARY = Path(__file__).parents[1] / ".." / "shared" / "data" / "library"
MATRIX = LIBRARY / "past_performance_matrix.csv"
MISSING_DATA = (
    f"shared test data not found at {LIBRARY.resolve()}: these tests read the real library "
    "from ../shared/data/library next to the repository"
)

HEADER = [
    "PP #",
    "Contract Name",
    "Customer",
    "Acronym",
    "Customer Type",
    "Industry",
    "Contract #",
    "Role",
    "Prime Contractor",
    "Contract Type",
    "Vehicle",
    "Contract Value",
    "Period of Performance",
    "Technologies",
    "Domains",
    "Description",
    "Technical Approach",
    "Results / Outcomes",
    "CPARS / Rating",
    "Last Updated",
    "Updated By",
]


def _canonical_params() -> list[Any]:
    path = LIBRARY / "canonical_dev.jsonl"
    if not path.exists():
        return [
            pytest.param(None, id="no-shared-data", marks=pytest.mark.skip(reason=MISSING_DATA))
        ]
    lines = path.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return [pytest.param(record, id=record["id"]) for record in records]


@pytest.fixture(scope="module")
def library() -> LibraryLoad:
    if not LIBRARY.is_dir():
        pytest.skip(MISSING_DATA)
    return load_library(LIBRARY)


def _by_id(load: LibraryLoad) -> dict[str, PastPerformanceEntry]:
    return {entry.id: entry for entry in load.entries}


def _row(**cells: str) -> dict[str, str]:
    """A valid spreadsheet row; keyword names are header names with spaces as underscores."""
    row = {
        "PP #": "PP-901",
        "Contract Name": "Benefits Portal Modernization",
        "Customer": "Department of Examples",
        "Acronym": "DOE-X",
        "Customer Type": "Federal - Civilian",
        "Industry": "",
        "Contract #": "EX-1",
        "Role": "Prime",
        "Prime Contractor": "",
        "Contract Type": "Task Order",
        "Vehicle": "N/A",
        "Contract Value": "$12.5M",
        "Period of Performance": "Oct 2019 – Present",
        "Technologies": "Java; Postgres",
        "Domains": "App Modernization",
        "Description": "We modernized the portal.",
        "Technical Approach": "Java services on PostgreSQL.",
        "Results / Outcomes": "Cut processing time 40%\n\nClaimants apply online.",
        "CPARS / Rating": "Exceptional",
        "Last Updated": "3/18/2024",
        "Updated By": "J. Tate",
    }
    for key, value in cells.items():
        name = {"PP": "PP #", "Contract_No": "Contract #"}.get(key, key.replace("_", " "))
        assert name in row, name
        row[name] = value
    return row


def _write_csv(
    path: Path, rows: list[dict[str, str]], header: list[str] = HEADER, encoding: str = "utf-8"
) -> None:
    with path.open("w", encoding=encoding, newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for row in rows:
            writer.writerow([row.get(name, "") for name in header])


# ----------------------------------------------------------------------------- real library
@pytest.mark.parametrize("expected", _canonical_params())
def test_canonical_record_reproduced_exactly(library: LibraryLoad, expected: dict) -> None:
    entry = _by_id(library)[expected["id"]]
    assert entry.to_canonical() == expected


def test_real_library_loads_every_entry_and_one_superseded_duplicate(library: LibraryLoad) -> None:
    assert (len(library.entries), len(library.rejected), len(library.superseded)) == (180, 1, 1)
    # the folder's JSON lines file (expected canonical records) is no library input: named
    assert [(r.file, r.row, r.reason) for r in library.rejected] == [
        (
            "canonical_dev.jsonl",
            None,
            "not read: JSON lines are not a library format (a library reads .csv and .xlsx "
            "spreadsheets and Markdown (.md) files)",
        )
    ]
    assert [entry.id for entry in library.entries][:2] == ["PP-001", "PP-002"]
    assert library.entries[-1].id == "PP-180"


def test_duplicate_id_keeps_most_recently_updated_row(library: LibraryLoad) -> None:
    kept = _by_id(library)["PP-122"]
    assert (kept.source_row, kept.last_updated) == (123, "2026-06-01")
    assert (
        kept.title == "Cybersecurity Operations Center Tier 2/3 Analysis and Detection Engineering"
    )
    assert kept.contract.value == ContractValue(38_500_000, 38_500_000)
    assert library.superseded == [
        SupersededRow(
            id="PP-122",
            file="past_performance_matrix.csv",
            row=125,
            last_updated="2022-08-15",
            superseded_by_row=123,
            superseded_by_file="past_performance_matrix.csv",
            reason="older Last Updated (2022-08-15 before 2026-06-01)",
        )
    ]


def test_spreadsheet_entry_keeps_row_number_and_metadata(library: LibraryLoad) -> None:
    entry = _by_id(library)["PP-001"]
    assert (entry.source_row, entry.last_updated, entry.updated_by, entry.cpars) == (
        2,
        "2014-10-28",
        "D. Marsh",
        "N/A - subcontract",
    )


def test_writeup_entry_keeps_author_and_last_updated(library: LibraryLoad) -> None:
    entry = _by_id(library)["PP-151"]
    assert (entry.source, entry.source_row, entry.last_updated, entry.updated_by) == (
        "writeups/PP-151.md",
        None,
        "2025-09-06",
        "J. Tate",
    )


def test_inconsistent_rows_in_real_library_are_kept_with_defects(library: LibraryLoad) -> None:
    defects = {entry.id: entry.defects for entry in library.entries if entry.defects}
    assert defects == {
        "PP-025": ["nonstandard-customer-type"],
        "PP-044": ["end-before-start"],
        "PP-060": ["nonstandard-customer-type"],
        "PP-084": ["missing-value"],
        "PP-114": ["min-above-max"],
        "PP-148": ["missing-value"],
        "PP-163": ["missing-value"],
        "PP-164": ["end-before-start"],
    }


def test_xlsx_with_title_row_gives_same_canonical_records_as_csv(
    library: LibraryLoad, tmp_path: Path
) -> None:
    wanted = ["PP-024", "PP-039", "PP-045", "PP-114"]
    with MATRIX.open(encoding="utf-8-sig", newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["PP #"] in wanted]
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["Kestrelwood Consulting — Past Performance Matrix"])
    sheet.append([])
    sheet.append(HEADER)
    for row in rows:
        cells: list[Any] = [row[name] for name in HEADER]
        month, day, year = (int(part) for part in row["Last Updated"].split("/"))
        cells[HEADER.index("Last Updated")] = dt.datetime(year, month, day)  # a real date cell
        sheet.append(cells)
    workbook.save(tmp_path / "past_performance_matrix.xlsx")

    load = load_library(tmp_path)

    expected = _by_id(library)
    assert [entry.id for entry in load.entries] == wanted
    assert [entry.source_row for entry in load.entries] == [4, 5, 6, 7]
    for entry in load.entries:
        assert entry.source == "past_performance_matrix.xlsx"
        canonical = entry.to_canonical() | {"source": "past_performance_matrix.csv"}
        assert canonical == expected[entry.id].to_canonical()
        assert entry.last_updated == expected[entry.id].last_updated


# ------------------------------------------------------------------------ synthetic folders
def test_rows_that_cannot_be_parsed_are_rejected_with_file_row_and_reason(tmp_path: Path) -> None:
    _write_csv(
        tmp_path / "matrix.csv",
        [
            _row(),  # row 2
            _row(PP=""),  # row 3
            _row(PP="PP-903", Contract_Value="call the COR"),  # row 4
            _row(PP="PP-904", Period_of_Performance="sometime soon"),  # row 5
            _row(PP="Total entries: 4"),  # row 6
        ],
    )

    load = load_library(tmp_path)

    assert [entry.id for entry in load.entries] == ["PP-901"]
    assert [(r.file, r.row) for r in load.rejected] == [
        ("matrix.csv", 3),
        ("matrix.csv", 4),
        ("matrix.csv", 5),
        ("matrix.csv", 6),
    ]
    reasons = [r.reason for r in load.rejected]
    assert reasons[0].startswith("no PP # (entry id)")
    assert reasons[1].startswith("PP-903: Contract Value: no dollar amount in contract value")
    assert reasons[2].startswith("PP-904: Period of Performance: period of performance")
    assert reasons[3] == "PP # 'Total entries: 4' is not an entry id (expected e.g. PP-001)"
    assert load.rejected[1].raw["Contract Value"] == "call the COR"


def test_blank_rows_are_skipped_and_row_numbers_count_multiline_cells_once(
    tmp_path: Path,
) -> None:
    _write_csv(
        tmp_path / "matrix.csv",
        [_row(Description="First paragraph.\n\nSecond paragraph."), {}, _row(PP="PP-902")],
    )

    load = load_library(tmp_path)

    assert [(e.id, e.source_row) for e in load.entries] == [("PP-901", 2), ("PP-902", 4)]
    assert load.rejected == []


def test_row_with_cells_beyond_the_header_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "matrix.csv"
    _write_csv(path, [_row()])
    with path.open("a", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerow([*_row(PP="PP-902").values(), "stray"])

    load = load_library(tmp_path)

    assert [entry.id for entry in load.entries] == ["PP-901"]
    assert [(r.row, r.reason.split(" (")[0]) for r in load.rejected] == [
        (3, "row has 1 filled cell(s) right of the last named column")
    ]
    assert load.rejected[0].raw["column 22"] == "stray"


def test_repeated_header_reads_the_first_column_and_keeps_the_other_value_as_a_defect(
    tmp_path: Path,
) -> None:
    path = tmp_path / "matrix.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([*HEADER, "Contract Value"])
        for row, second in (
            (_row(), "$99,000,000"),  # disagrees: flagged, nothing lost
            (_row(PP="PP-902"), "$12.5M"),  # agrees: clean
            (_row(PP="PP-903"), ""),  # empty: clean
        ):
            writer.writerow([*(row.get(name, "") for name in HEADER), second])

    load = load_library(tmp_path)

    assert load.rejected == []
    entries = {entry.id: entry for entry in load.entries}
    assert entries["PP-901"].contract.value.min == 12_500_000  # the first column is read
    assert "repeated-column:Contract Value (ignored: $99,000,000)" in entries["PP-901"].defects
    assert not any(d.startswith("repeated-column") for d in entries["PP-902"].defects)
    assert not any(d.startswith("repeated-column") for d in entries["PP-903"].defects)


def test_missing_required_column_rejects_file_naming_file_and_columns(tmp_path: Path) -> None:
    header = [name for name in HEADER if name not in {"Contract Value", "Domains"}]
    _write_csv(tmp_path / "old_matrix.csv", [_row(), _row(PP="PP-902")], header=header)

    load = load_library(tmp_path)

    assert load.entries == []
    (rejection,) = load.rejected
    assert (rejection.file, rejection.row) == ("old_matrix.csv", 1)
    assert rejection.reason == (
        "old_matrix.csv: missing required column(s) 'Contract Value', 'Domains' in the header "
        "on row 1; none of its 2 rows were loaded. Add the column(s) or rename the header to match."
    )


def test_missing_optional_columns_load_as_empty_fields(tmp_path: Path) -> None:
    optional = {"Acronym", "Industry", "Vehicle", "CPARS / Rating", "Last Updated", "Updated By"}
    _write_csv(tmp_path / "matrix.csv", [_row()], header=[h for h in HEADER if h not in optional])

    (entry,) = load_library(tmp_path).entries

    assert (entry.customer.acronym, entry.cpars, entry.last_updated) == (None, None, None)


def test_inconsistent_row_is_kept_with_every_defect_listed(tmp_path: Path) -> None:
    _write_csv(
        tmp_path / "matrix.csv",
        [_row(Customer_Type="Fed Civ", Contract_Value="TBD", Period_of_Performance="2020 - 2019")],
    )

    (entry,) = load_library(tmp_path).entries

    assert entry.customer.type == "federal-civilian"
    assert entry.contract.value == ContractValue(None, None)
    assert (entry.contract.start_date, entry.contract.end_date) == ("2020-01-01", "2019-12-31")
    assert entry.defects == ["nonstandard-customer-type", "missing-value", "end-before-start"]


def test_empty_period_is_kept_with_missing_date_defects(tmp_path: Path) -> None:
    _write_csv(tmp_path / "matrix.csv", [_row(Period_of_Performance="")])

    (entry,) = load_library(tmp_path).entries

    assert entry.defects == ["missing-start-date", "missing-end-date"]


def test_stale_duplicate_after_current_row_is_superseded(tmp_path: Path) -> None:
    _write_csv(
        tmp_path / "matrix.csv",
        [
            _row(Contract_Value="$38.5 Million", Last_Updated="6/1/2026"),
            _row(PP="PP-902"),
            _row(Contract_Value="$29M", Last_Updated="8/15/2022"),
        ],
    )

    load = load_library(tmp_path)

    assert [(e.id, e.source_row) for e in load.entries] == [("PP-901", 2), ("PP-902", 3)]
    assert load.entries[0].contract.value.max == 38_500_000
    assert [(s.id, s.row, s.superseded_by_row) for s in load.superseded] == [("PP-901", 4, 2)]


def test_ids_differing_only_in_case_or_dash_are_one_entry(tmp_path: Path) -> None:
    """break-it: ``pp-901`` and ``PP-901`` were kept as two entries."""
    from rfp_retrieval.library.ingest import load_library_frame

    _write_csv(
        tmp_path / "matrix.csv",
        [
            _row(Contract_Value="$29M", Last_Updated="8/15/2022"),
            _row(PP="PP-902"),
            _row(PP="pp-901", Contract_Value="$38.5 Million", Last_Updated="6/1/2026"),
            _row(PP="Pp-902", Last_Updated="1/1/2020"),
        ],
    )

    load = load_library(tmp_path)

    # the later row wins, under the id as the library first spelled it (canonical_spelling)
    assert [(e.id, e.source_row) for e in load.entries] == [("PP-901", 4), ("PP-902", 3)]
    assert load.entries[0].contract.value.max == 38_500_000
    assert [(s.id, s.row, s.superseded_by_row) for s in load.superseded] == [
        ("PP-901", 2, 4),
        ("PP-902", 5, 3),
    ]
    streamed = load_library_frame(tmp_path, batch=2)
    assert streamed.entries["id"].to_list() == ["PP-901", "PP-902"]
    assert [(s.id, s.row) for s in streamed.superseded] == [("PP-901", 2), ("PP-902", 5)]


def test_a_duplicate_with_the_same_or_no_last_updated_says_a_person_should_check(tmp_path: Path):
    """break-it: two rows of one id with the same Last Updated: the later row won with no word
    that nothing showed which is current. Both reading paths give the same reasons."""
    from rfp_retrieval.library.ingest import load_library_frame

    _write_csv(
        tmp_path / "matrix.csv",
        [
            _row(Contract_Value="$29M", Last_Updated="6/1/2026"),
            _row(Contract_Value="$31M", Last_Updated="6/1/2026"),
            _row(PP="PP-902", Last_Updated=""),
            _row(PP="PP-902", Last_Updated="1/1/2020"),
            _row(PP="PP-903", Last_Updated=""),
            _row(PP="PP-903", Last_Updated=""),
        ],
    )

    load = load_library(tmp_path)

    assert load.entries[0].contract.value.max == 31_000_000
    expected = [
        (
            "PP-901",
            2,
            3,
            "same Last Updated (2026-06-01) as the kept row: the row read last is kept; "
            "check which one is current",
        ),
        ("PP-902", 4, 5, "no Last Updated; the kept row's is 2020-01-01"),
        (
            "PP-903",
            6,
            7,
            "neither row has a Last Updated: the row read last is kept; check which one is current",
        ),
    ]
    assert [(s.id, s.row, s.superseded_by_row, s.reason) for s in load.superseded] == expected
    streamed = load_library_frame(tmp_path, batch=2)
    assert [(s.id, s.row, s.superseded_by_row, s.reason) for s in streamed.superseded] == expected


def test_a_customer_merged_over_rows_or_in_a_hidden_column_is_every_row_s(tmp_path: Path) -> None:
    """break-it: a customer merged down over three contracts' rows was read for the first row
    only (openpyxl keeps a merged range's value in its top-left cell)."""
    from openpyxl.utils import get_column_letter

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(HEADER)
    for pp_id in ("PP-901", "PP-902", "PP-903", "PP-904"):
        cells: list[Any] = list(_row(PP=pp_id).values())
        cells[HEADER.index("Last Updated")] = dt.datetime(2024, 3, 18)
        if pp_id == "PP-904":
            cells[HEADER.index("Customer")] = "State Agency of Examples"
            cells[HEADER.index("Customer Type")] = "State Government"
        sheet.append(cells)
    column = get_column_letter(HEADER.index("Customer") + 1)
    kind = get_column_letter(HEADER.index("Customer Type") + 1)
    sheet.merge_cells(f"{column}2:{column}4")
    sheet.merge_cells(f"{kind}2:{kind}3")
    sheet.column_dimensions[get_column_letter(HEADER.index("Acronym") + 1)].hidden = True
    workbook.save(tmp_path / "matrix.xlsx")

    load = load_library(tmp_path)

    assert [
        (e.id, e.customer.named, e.customer.type, e.customer.acronym) for e in load.entries
    ] == [
        ("PP-901", "Department of Examples", "federal-civilian", "DOE-X"),
        ("PP-902", "Department of Examples", "federal-civilian", "DOE-X"),
        ("PP-903", "Department of Examples", "federal-civilian", "DOE-X"),
        ("PP-904", "State Agency of Examples", "state", "DOE-X"),
    ]


def test_windows_1252_csv_is_read(tmp_path: Path) -> None:
    _write_csv(
        tmp_path / "matrix.csv",
        [_row(Customer="Secretaría de Hacienda", Period_of_Performance="Jan 2020 – Dec 2021")],
        encoding="cp1252",
    )

    (entry,) = load_library(tmp_path).entries

    assert entry.customer.named == "Secretaría de Hacienda"
    assert (entry.contract.start_date, entry.contract.end_date) == ("2020-01-01", "2021-12-31")


def test_xlsx_numeric_value_and_date_cells_are_read(tmp_path: Path) -> None:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(HEADER)
    cells: list[Any] = list(_row().values())
    cells[HEADER.index("Contract Value")] = 3_700_000
    cells[HEADER.index("Last Updated")] = dt.datetime(2024, 3, 18)
    sheet.append(cells)
    workbook.save(tmp_path / "matrix.xlsx")

    (entry,) = load_library(tmp_path).entries

    assert entry.contract.value == ContractValue(3_700_000, 3_700_000)
    assert (entry.last_updated, entry.source, entry.source_row) == ("2024-03-18", "matrix.xlsx", 2)


def test_writeup_without_front_matter_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "writeups").mkdir()
    (tmp_path / "writeups" / "draft.md").write_text("# A draft\n\nNo front matter here.\n")

    load = load_library(tmp_path)

    assert load.entries == []
    assert [(r.file, r.row) for r in load.rejected] == [("writeups/draft.md", None)]
    assert "no YAML front matter" in load.rejected[0].reason


def test_writeup_with_missing_value_and_slug_tags_is_kept(tmp_path: Path) -> None:
    (tmp_path / "PP-950.md").write_text(
        "---\nid: PP-950\ntitle: Example\nrole: sub\nprime_contractor: Acme\n"
        "customer:\n  type: state\n  name: Example State\n"
        "contract:\n  vehicle_type: standalone\n  value_min:\n  value_max:\n"
        "  start_date: 2021-03-01\n  end_date: ongoing\n"
        "stack: [Postgres, .net]\ndomains: [GIS, case-management]\n"
        "author: P. Srinivasan\nlast_updated: 2024-05-02\n---\n\n# Example\n\n"
        "## Summary\n\nWe did the work.\n\n## Technical Approach\n\nRails.\n\n"
        "## Results\n\nResidents file online.\n\nKey results:\n\n- Filings up 30%\n"
    )

    (entry,) = load_library(tmp_path).entries

    assert entry.defects == ["missing-value"]
    assert (entry.role, entry.prime_contractor) == ("sub", "Acme")
    assert (entry.contract.start_date, entry.contract.end_date) == ("2021-03-01", "ongoing")
    assert (entry.technical.stack_tags, entry.technical.domains) == (
        ["postgresql", ".net"],
        ["geospatial", "case-management"],
    )
    assert entry.outcomes.metrics == ["Filings up 30%"]
    assert (entry.last_updated, entry.updated_by) == ("2024-05-02", "P. Srinivasan")


def test_missing_library_folder_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_library(tmp_path / "nowhere")


def test_a_library_setting_naming_a_file_says_it_is_a_file(tmp_path: Path) -> None:
    """Break-it: library_dir pointing at a file was reported as a folder that does not exist."""
    sheet = tmp_path / "past_performance_matrix.csv"
    sheet.write_text("PP #\n", encoding="utf-8")
    with pytest.raises(FileNotFoundError) as info:
        load_library(sheet)
    assert str(info.value) == (
        f"past-performance library folder {sheet} is a file, not a folder: point it at the "
        f"folder holding the library spreadsheet and write-ups (perhaps {tmp_path})"
    )


# ------------------------------------------------------------------------------------ frames
def test_empty_library_frames_still_have_typed_columns(tmp_path: Path) -> None:
    load = load_library(tmp_path)

    frames = (entries_frame(load.entries), rejected_frame(load.rejected), superseded_frame([]))

    assert [f.height for f in frames] == [0, 0, 0]
    assert frames[0].schema == pl.Schema(ENTRY_SCHEMA)
    assert frames[0].schema["stack_tags"] == pl.List(pl.String)
    assert frames[0].schema["start_date"] == pl.Date
    assert frames[0].schema["value_min"] == pl.Int64
    assert frames[1].schema == pl.Schema(REJECTED_SCHEMA)
    assert frames[2].schema == pl.Schema(SUPERSEDED_SCHEMA)


def test_entries_frame_round_trips_through_from_row(tmp_path: Path) -> None:
    _write_csv(
        tmp_path / "matrix.csv",
        [_row(), _row(PP="PP-902", Period_of_Performance="03/2020 - 02/2024")],
    )
    entries = load_library(tmp_path).entries

    frame = entries_frame(entries)

    assert frame.get_column("end_date").to_list() == [None, dt.date(2024, 2, 29)]
    assert frame.get_column("ongoing").to_list() == [True, False]
    assert [PastPerformanceEntry.from_row(row) for row in frame.iter_rows(named=True)] == entries


def test_rejected_frame_keeps_raw_cells_as_json(tmp_path: Path) -> None:
    _write_csv(tmp_path / "matrix.csv", [_row(PP="")])

    frame = rejected_frame(load_library(tmp_path).rejected)

    assert frame.select("file", "row").rows() == [("matrix.csv", 2)]
    assert json.loads(frame.item(0, "raw"))["Contract Name"] == "Benefits Portal Modernization"


@pytest.mark.parametrize(
    ("period", "start", "end", "defects"),
    [
        ("Jan 2019 - TBD", "2019-01-01", None, ["missing-end-date"]),
        ("TBD", None, None, ["missing-start-date", "missing-end-date"]),
        ("N/A – Dec 2024", None, "2024-12-31", ["missing-start-date"]),
    ],
)
def test_a_placeholder_period_end_is_unknown_and_the_row_is_kept(
    tmp_path: Path, period: str, start: str | None, end: str | None, defects: list[str]
) -> None:
    """Break-it: "Jan 2019 - TBD" and "TBD" rejected the whole row, while an empty period or
    a TBD value kept it with missing-* defects; an unknown stays unknown."""
    _write_csv(tmp_path / "matrix.csv", [_row(Period_of_Performance=period)])

    load = load_library(tmp_path)

    assert load.rejected == []
    (entry,) = load.entries
    assert (entry.contract.start_date, entry.contract.end_date) == (start, end)
    assert entry.defects == defects


def test_rows_swallowed_by_an_unclosed_quote_are_named_on_the_row_that_holds_them(
    tmp_path: Path,
) -> None:
    """Break-it: a quote opened in one cell and never closed put the next rows into that
    cell; PP-906 and PP-907 vanished with no word. The holding row is kept and names them;
    a cell with ordinary line breaks (a results list) gets no such defect."""
    path = tmp_path / "matrix.csv"
    _write_csv(
        path, [_row(**{"Results / Outcomes": "Cut backlog 40%\nSaved $2M, on time, in budget"})]
    )
    good = path.read_text(encoding="utf-8")
    bad_line = ",".join(["PP-905", '"Open quote'] + [""] * (len(HEADER) - 2))
    swallowed = "PP-906,Next Contract,Customer\nPP-907,Another,Customer\n"
    path.write_text(good + bad_line + "\n" + swallowed, encoding="utf-8")

    load = load_library(tmp_path)

    first, holder = load.entries
    assert not [d for d in first.defects if d.startswith("possible-unbalanced-quote")]
    assert holder.id == "PP-905"
    assert holder.defects[-1] == (
        "possible-unbalanced-quote:Contract Name (the cell holds 2 line(s) that look like "
        "rows: PP-906, PP-907; close the quote that opens it)"
    )
