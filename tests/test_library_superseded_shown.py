"""``rfp-retrieval library`` names every superseded (older duplicate) row: id, file, row, its
update date and the row that replaced it, in the text output and in ``--json`` (break-it: only
a count was printed, so an entry replaced by a duplicate id vanished without a trace)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from rfp_retrieval.cli.app import app
from tests.conftest import SHARED_DATA


def test_the_shared_library_s_stale_duplicate_is_named(shared_data, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    folder = str(SHARED_DATA / "library")
    payload = json.loads(CliRunner().invoke(app, ["library", "--library", folder, "--json"]).output)
    assert payload["superseded"] == [
        {
            "id": "PP-122",
            "file": "past_performance_matrix.csv",
            "row": 125,
            "last_updated": "2022-08-15",
            "superseded_by_file": "past_performance_matrix.csv",
            "superseded_by_row": 123,
            "reason": "older Last Updated (2022-08-15 before 2026-06-01)",
        }
    ]
    text = CliRunner().invoke(app, ["library", "--library", folder]).output
    assert (
        "superseded PP-122 in past_performance_matrix.csv row 125 (updated 2022-08-15): "
        "replaced by past_performance_matrix.csv row 123; older Last Updated (2022-08-15 "
        "before 2026-06-01)"
    ) in text
    assert "180 entries, 1 rejected, 1 superseded" in text


def test_the_library_table_shows_role_and_values_as_the_brief_writes_them(shared_data):
    """new-user trial: piped, the table was squeezed to 80 columns ("3,700,000.…") and had no
    prime/sub column. Piped output is as wide as its rows; values read as in the brief."""
    folder = str(SHARED_DATA / "library")
    text = CliRunner().invoke(app, ["library", "--library", folder]).output
    row = next(line for line in text.splitlines() if line.strip().startswith("PP-001 "))
    assert row.split()[:9] == [
        "PP-001", "Data", "Center", "Consolidation", "Support", "federal-civilian", "sub",
        "$3.7M", "2011-08-01",
    ]  # fmt: skip
    assert "2014-07-31" in row
