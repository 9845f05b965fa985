"""``load_library_frame`` (streamed ingest) gives exactly ``load_library`` + ``entries_frame``."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_library_ingest import LIBRARY, MISSING_DATA, _row, _write_csv

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
        0,
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
