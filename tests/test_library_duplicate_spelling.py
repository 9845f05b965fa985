"""A duplicate id's kept row: the library's spelling of the id, and a future Last Updated
said in the reason it won (break-it: ``' pp-004 '`` dated 2030 won the tie silently and
renamed the entry ``pp-004``). The library here is a small CSV written for the test."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from rfp_retrieval.library.ingest import load_library, load_library_frame, superseded_reason

HEADER = (
    "PP #,Contract Name,Customer,Customer Type,Role,Contract Type,Contract Value,"
    "Period of Performance,Technologies,Domains,Description,Results / Outcomes,Last Updated\n"
)


def _row(pp: str, updated: str) -> str:
    return (
        f'"{pp}",Permit Portal,State Department of Revenue,State,Prime,FFP,$3.1M,'
        f"04/2019 - 03/2022,Java,Permitting,Built the permit portal.,Went live.,{updated}\n"
    )


def _library(tmp_path: Path) -> Path:
    (tmp_path / "matrix.csv").write_text(
        HEADER + _row("PP-004", "2026-01-15") + _row(" pp-004 ", "2030-01-01"),
        encoding="utf-8",
    )
    return tmp_path


def test_the_kept_duplicate_takes_the_library_s_spelling_of_the_id(tmp_path: Path) -> None:
    folder = _library(tmp_path)
    load = load_library(folder)
    assert [e.id for e in load.entries] == ["PP-004"]
    assert load.entries[0].last_updated == "2030-01-01"  # the later row still wins
    assert [s.id for s in load.superseded] == ["PP-004"]
    assert load_library_frame(folder).entries["id"].to_list() == ["PP-004"]


def test_a_future_last_updated_that_wins_a_duplicate_is_flagged(tmp_path: Path) -> None:
    (superseded,) = load_library(_library(tmp_path)).superseded
    assert superseded.row == 2 and superseded.superseded_by_row == 3
    assert "Last Updated 2030-01-01 is after today" in superseded.reason
    assert "check which one is current" in superseded.reason
    assert superseded_reason("2026-01-15", "2030-01-01", dt.date(2026, 12, 3)) == (
        "the kept row's Last Updated 2030-01-01 is after today (2026-12-03), so it won on a "
        "date that cannot be right (this row's: 2026-01-15); check which one is current"
    )
    assert superseded_reason("2026-01-15", "2026-06-01", dt.date(2026, 12, 3)) == (
        "older Last Updated (2026-01-15 before 2026-06-01)"
    )
