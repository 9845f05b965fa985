"""Merged spreadsheet headers: "Period of Performance" merged over Start and End sub-columns is
a two-row header (each sub-column is named parent + sub-header); a two-row header whose
sub-headers name nothing the library reads is reported with the sheet and row."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils import get_column_letter

from rfp_retrieval.library.ingest import load_library
from tests.test_library_ingest import HEADER, _row, _write_csv

PERIOD = HEADER.index("Period of Performance")  # 0-based; Start is this column, End the next


def _two_row_workbook(
    path: Path,
    rows: list[tuple[dict[str, str], Any, Any]],
    *,
    sub_headers: tuple[str, str] = ("Start", "End"),
    merge_down: bool = True,
) -> None:
    """The header of ``HEADER`` with "Period of Performance" merged over two sub-columns on
    row 2; every other header cell merged down over rows 1-2 (``merge_down``) or left with a
    blank cell below it. ``rows``: (cells, start cell, end cell)."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Past Performance"
    top = [*HEADER[: PERIOD + 1], None, *HEADER[PERIOD + 1 :]]
    sheet.append(top)
    sheet.append([None] * PERIOD + list(sub_headers))
    start_col = PERIOD + 1  # 1-based
    sheet.merge_cells(start_row=1, start_column=start_col, end_row=1, end_column=start_col + 1)
    if merge_down:
        for col in [*range(1, start_col), *range(start_col + 2, len(top) + 1)]:
            sheet.merge_cells(f"{get_column_letter(col)}1:{get_column_letter(col)}2")
    for cells, start, end in rows:
        values = [cells[name] for name in HEADER]
        sheet.append([*values[:PERIOD], start, end, *values[PERIOD + 1 :]])
    book.save(path)


@pytest.mark.parametrize("merge_down", [True, False])
def test_period_merged_over_start_and_end_reads_both_ends(tmp_path: Path, merge_down) -> None:
    _two_row_workbook(
        tmp_path / "matrix.xlsx",
        [
            (_row(), dt.datetime(2019, 10, 1), "Present"),
            (_row(PP="PP-902"), "03/2018", dt.datetime(2021, 6, 30)),
            (_row(PP="PP-903"), dt.datetime(2020, 1, 6), ""),
        ],
        merge_down=merge_down,
    )

    load = load_library(tmp_path)

    assert load.rejected == []  # the sub-header row is part of the header, not a row without id
    assert [
        (e.id, e.source_row, e.contract.start_date, e.contract.end_date, e.defects)
        for e in load.entries
    ] == [
        ("PP-901", 3, "2019-10-01", "ongoing", []),
        ("PP-902", 4, "2018-03-01", "2021-06-30", []),
        ("PP-903", 5, "2020-01-06", None, ["missing-end-date"]),
    ]
    assert load.entries[0].title == "Benefits Portal Modernization"
    assert load.entries[0].contract.value.max == 12_500_000


def test_unreadable_end_cell_rejects_the_row_naming_the_sub_column(tmp_path: Path) -> None:
    _two_row_workbook(
        tmp_path / "matrix.xlsx",
        [(_row(), "Oct 2019", "when funded"), (_row(PP="PP-902"), "Oct 2019", "Sep 2020")],
    )

    load = load_library(tmp_path)

    assert [e.id for e in load.entries] == ["PP-902"]
    (rejected,) = load.rejected
    assert (rejected.file, rejected.row) == ("matrix.xlsx", 3)
    assert rejected.reason.startswith(
        "PP-901: Period of Performance: End when funded: 'when funded' is not a date"
    )
    assert rejected.raw["Period of Performance End"] == "when funded"


def test_merged_period_with_unknown_sub_headers_is_reported_with_sheet_and_row(
    tmp_path: Path,
) -> None:
    _two_row_workbook(
        tmp_path / "matrix.xlsx",
        [(_row(), "Oct 2019", "Present"), (_row(PP="PP-902"), "Oct 2019", "Sep 2020")],
        sub_headers=("Q1", "Q2"),
    )

    load = load_library(tmp_path)

    assert load.entries == []
    (rejected,) = load.rejected
    assert (rejected.file, rejected.row) == ("matrix.xlsx", 1)
    assert rejected.reason == (
        "matrix.xlsx, sheet 'Past Performance': the header on rows 1-2 cannot be read: "
        "'Period of Performance' is merged over 2 columns whose sub-headers 'Q1', 'Q2' (row 2) "
        "are not parts the library reads; name them 'Start' and 'End', or unmerge the header "
        "and give each column one name; none of its 2 rows were loaded."
    )


def test_start_date_and_end_date_columns_are_a_period(tmp_path: Path) -> None:
    header = [*HEADER[:PERIOD], "Start Date", "End Date", *HEADER[PERIOD + 1 :]]
    row = _row() | {"Start Date": "2019-01-01", "End Date": "2021-06-30"}
    _write_csv(tmp_path / "matrix.csv", [row], header=header)

    (entry,) = load_library(tmp_path).entries

    assert (entry.contract.start_date, entry.contract.end_date) == ("2019-01-01", "2021-06-30")
    assert entry.defects == []


def test_sub_header_row_with_a_unit_under_a_plain_column_is_still_a_header(
    tmp_path: Path,
) -> None:
    path = tmp_path / "matrix.xlsx"
    _two_row_workbook(path, [(_row(), "Oct 2019", "Sep 2020")], merge_down=False)
    book = openpyxl.load_workbook(path)
    book.active.cell(row=2, column=HEADER.index("Contract Value") + 1, value="(USD)")
    book.save(path)

    load = load_library(tmp_path)

    assert load.rejected == []
    (entry,) = load.entries
    assert (entry.source_row, entry.contract.start_date, entry.contract.end_date) == (
        3,
        "2019-10-01",
        "2020-09-30",
    )
    assert entry.contract.value.max == 12_500_000


def test_period_and_start_end_columns_that_disagree_keep_the_other_value(tmp_path: Path) -> None:
    header = [*HEADER, "Start Date", "End Date"]
    rows = [
        _row() | {"Start Date": "2019-10-01", "End Date": "Present"},  # agrees
        _row(PP="PP-902") | {"Start Date": "2018-01-01", "End Date": "2020-06-30"},
    ]
    _write_csv(tmp_path / "matrix.csv", rows, header=header)

    entries = {e.id: e for e in load_library(tmp_path).entries}

    assert entries["PP-901"].defects == []
    assert (entries["PP-902"].contract.start_date, entries["PP-902"].contract.end_date) == (
        "2019-10-01",
        "ongoing",
    )
    assert entries["PP-902"].defects == [
        "repeated-column:Period of Performance (ignored: Start 2018-01-01; End 2020-06-30)"
    ]


def test_merged_period_header_saved_as_csv_reads_start_and_end(tmp_path: Path) -> None:
    top = [*HEADER[: PERIOD + 1], "", *HEADER[PERIOD + 1 :]]
    sub = [""] * PERIOD + ["Start", "End"] + [""] * (len(HEADER) - PERIOD - 1)
    cells = list(_row().values())
    data = [*cells[:PERIOD], "2019-01-01", "2021-06-30", *cells[PERIOD + 1 :]]
    with (tmp_path / "matrix.csv").open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([top, sub, data])

    load = load_library(tmp_path)

    assert load.rejected == []
    (entry,) = load.entries
    assert (entry.source_row, entry.contract.start_date, entry.contract.end_date) == (
        3,
        "2019-01-01",
        "2021-06-30",
    )
