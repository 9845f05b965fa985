"""``load_library_frame`` (streamed ingest) gives exactly ``load_library`` + ``entries_frame``."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from test_library_ingest import HEADER, LIBRARY, MISSING_DATA, _row, _write_csv

from rfp_retrieval.library import spreadsheet_rows
from rfp_retrieval.library.cells import read_text_file
from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.ingest import load_library, load_library_frame


def _same_as_load_library(folder: Path, batch: int) -> None:
    load = load_library(folder)
    streamed = load_library_frame(folder, batch=batch)
    assert streamed.entries.equals(entries_frame(load.entries))
    assert streamed.entries.schema == entries_frame(load.entries).schema
    assert streamed.rejected == load.rejected
    assert streamed.superseded == load.superseded


@pytest.mark.parametrize("batch", [1, 7, 20_000])
def test_streamed_ingest_of_the_real_library_equals_load_library(batch: int) -> None:
    if not LIBRARY.is_dir():
        pytest.skip(MISSING_DATA)
    streamed = load_library_frame(LIBRARY, batch=batch)
    assert (streamed.entries.height, len(streamed.rejected), len(streamed.superseded)) == (
        180,
        1,
        1,
    )
    _same_as_load_library(LIBRARY, batch)


def test_streamed_ingest_resolves_duplicates_across_batches_and_keeps_natural_id_order(
    tmp_path: Path,
) -> None:
    _write_csv(
        tmp_path / "a.csv",
        [
            _row(PP="PP-10", Last_Updated="1/5/2024"),
            _row(PP="PP-9", Contract_Value="$2M"),
            _row(PP="PP-10", Contract_Value="$7M", Last_Updated="3/5/2025"),  # newer: wins
            _row(PP="PP-01", Contract_Value="$1M"),  # natural key equal to PP-1's
            _row(PP="PP-1", Contract_Value="$3M"),
            _row(PP="PP-9", Contract_Value="$4M"),  # same date (none): read last wins
            _row(PP="", Contract_Value="$4M"),  # no id: rejected
        ],
    )
    _write_csv(tmp_path / "b.csv", [_row(PP="PP-10", Last_Updated="2/5/2025")])
    streamed = load_library_frame(tmp_path, batch=2)
    assert streamed.entries.select("id", "value_max", "source", "source_row").rows() == [
        ("PP-01", 1_000_000, "a.csv", 5),
        ("PP-1", 3_000_000, "a.csv", 6),
        ("PP-9", 4_000_000, "a.csv", 7),
        ("PP-10", 7_000_000, "a.csv", 4),
    ]
    assert [(s.id, s.file, s.row, s.superseded_by_row) for s in streamed.superseded] == [
        ("PP-9", "a.csv", 3, 7),
        ("PP-10", "a.csv", 2, 4),
        ("PP-10", "b.csv", 2, 4),
    ]
    assert [r.row for r in streamed.rejected] == [8]
    for batch in (1, 2, 3, 100):
        _same_as_load_library(tmp_path, batch)


def test_streamed_ingest_of_an_empty_folder_has_typed_columns(tmp_path: Path) -> None:
    _same_as_load_library(tmp_path, 5)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_library_frame(tmp_path / "missing")


# ----------------------------------------------------------------------------- streamed CSV
def _eager_rows(path: Path, delimiter: str) -> list[tuple[int, list[str]]]:
    """The rows of an eager read: the whole file decoded by ``read_text_file``, then parsed."""
    text = read_text_file(path)
    return list(enumerate(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter), 1))


def test_streamed_csv_decides_the_encoding_on_a_byte_past_the_first_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(spreadsheet_rows, "_ENCODING_CHUNK", 64)
    rows = [_row(PP=f"PP-{n}") for n in range(1, 40)]
    rows.append(_row(PP="PP-40", Customer="Caf\u00e9 Municipal \u2013 Works"))  # cp1252 bytes
    _write_csv(tmp_path / "library.csv", rows, encoding="cp1252")
    raw = (tmp_path / "library.csv").read_bytes()
    assert raw.index(b"\xe9") > 40 * 64  # the only non-UTF-8 bytes sit in the last row
    assert spreadsheet_rows.text_file_encoding(tmp_path / "library.csv") == "cp1252"
    sheet = spreadsheet_rows._csv_sheet(tmp_path / "library.csv")
    assert len(sheet.rows) == spreadsheet_rows._CSV_HEAD_ROWS  # the rest is streamed
    streamed = list(sheet.rows_from(0))
    assert streamed == _eager_rows(tmp_path / "library.csv", ",")
    assert streamed[-1][0] == 41 and streamed[-1][1][2] == "Caf\u00e9 Municipal \u2013 Works"
    entry = load_library(tmp_path).entries[-1]
    assert (entry.id, entry.customer.named) == ("PP-40", "Caf\u00e9 Municipal \u2013 Works")
    _same_as_load_library(tmp_path, 7)


@pytest.mark.parametrize(
    "encoding, delimiter, expected",
    [("utf-16", ";", "utf-16"), ("utf-8-sig", "\t", "utf-8-sig"), ("utf-8", ",", "utf-8-sig")],
)
def test_streamed_csv_reads_what_an_eager_read_reads(
    tmp_path: Path, encoding: str, delimiter: str, expected: str
) -> None:
    path = tmp_path / "library.csv"
    with path.open("w", encoding=encoding, newline="") as handle:
        writer = csv.writer(handle, delimiter=delimiter)
        writer.writerow(HEADER)
        for n in range(1, 60):  # multi-line cells: a record is one row number
            writer.writerow([_row(PP=f"PP-{n}").get(name, "") for name in HEADER])
    assert spreadsheet_rows.text_file_encoding(path) == expected
    streamed = list(spreadsheet_rows._csv_sheet(path).rows_from(0))
    assert streamed == _eager_rows(path, delimiter)
    assert [n for n, _ in streamed[:3]] == [1, 2, 3] and len(streamed) == 60
    load = load_library(tmp_path)
    assert [e.id for e in load.entries][:3] == ["PP-1", "PP-2", "PP-3"]
    assert [e.source_row for e in load.entries][-1] == 60
    _same_as_load_library(tmp_path, 11)


def test_streamed_csv_counts_every_row_of_a_file_it_rejects(tmp_path: Path) -> None:
    header = [h for h in HEADER if h != "Contract Value"]
    _write_csv(tmp_path / "library.csv", [_row(PP=f"PP-{n}") for n in range(1, 51)], header)
    (rejected,) = load_library(tmp_path).rejected
    assert rejected.row == 1
    assert "none of its 50 rows were loaded" in rejected.reason
