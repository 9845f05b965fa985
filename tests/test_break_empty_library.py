"""Issue 16.1: an empty library folder, or one whose every row is rejected, never crashes the
library job; the checks, the run summary and ``rfp-retrieval library`` say why no RFP gets a
reference, naming the folder and the first rejected row."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import dagster as dg
import polars as pl
import pytest
from typer.testing import CliRunner

from checks.library import pp_facet_embeddings_match_model
from resources import EmbeddingModel
from resources.partition_store import DuckDBPartitionStore
from rfp_retrieval.cli.app import app
from rfp_retrieval.cli.run import library_shortfall
from rfp_retrieval.library.frames import entries_frame, rejected_frame
from rfp_retrieval.library.quality import empty_library_reason, validate_entries
from rfp_retrieval.library.records import RejectedRow
from rfp_retrieval.settings import load_settings
from tests.conftest import REPO
from tests.small_project import MIAMI_RFP, SAMPLE_LIBRARY, project_config, small_answers

NO_ID = "no PP # (entry id): give the row an id such as PP-181"
BAD_PERIOD = (
    "PP-002: Period of Performance: period of performance 'sometime soon': 'sometime soon' is "
    "not a date: write e.g. 2019-08-12, 06/01/2021, Oct 2019, 2016 or FY20"
)


def rejected_library(folder: Path) -> Path:
    """``folder`` holding the sample matrix's header and two rows that are both rejected: the
    first has no PP #, the second an unreadable Period of Performance."""
    folder.mkdir(parents=True, exist_ok=True)
    with (SAMPLE_LIBRARY / "past_performance_matrix.csv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))[:3]
    header = rows[0]
    rows[1][header.index("PP #")] = ""
    rows[2][header.index("Period of Performance")] = "sometime soon"
    with (folder / "past_performance_matrix.csv").open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    return folder


def empty_folder_reason(folder: Path) -> str:
    return (
        f"the library folder {folder} has no usable entries: no past-performance row or "
        "write-up was found in it (*.csv and *.xlsx files directly in it, *.md write-ups under "
        "it); add the team's library there or point --library / library_dir at it"
    )


def rejected_reason(folder: Path) -> str:
    return (
        f"the library folder {folder} has no usable entries: every row read was rejected "
        f"(2 rejected; the first: past_performance_matrix.csv row 2: {NO_ID}); fix them "
        "(`rfp-retrieval library` lists each with its reason) and run again"
    )


def test_the_empty_library_reason_names_the_folder_and_the_first_rejected_row(tmp_path):
    assert empty_library_reason(tmp_path) == empty_folder_reason(tmp_path)
    assert empty_library_reason(tmp_path, rejected_frame([])) == empty_folder_reason(tmp_path)
    rejected = rejected_frame(
        [
            RejectedRow("past_performance_matrix.csv", 2, NO_ID, {}),
            RejectedRow("past_performance_matrix.csv", 3, BAD_PERIOD, {}),
        ]
    )
    assert empty_library_reason(tmp_path, rejected) == rejected_reason(tmp_path)
    whole_file = rejected_frame([RejectedRow("writeups/PP-9.md", None, "no front matter", {})])
    assert "(1 rejected; the first: writeups/PP-9.md: no front matter)" in empty_library_reason(
        tmp_path, whole_file
    )


def test_the_quality_suite_fails_an_empty_library_with_the_reason(tmp_path):
    outcomes = {o.expectation: o for o in validate_entries(entries_frame([]), tmp_path)}
    has_entries = outcomes.pop("library has entries")
    assert (has_entries.success, has_entries.blocking) == (False, True)
    assert has_entries.summary == empty_folder_reason(tmp_path)
    assert all(o.success and o.summary == "ok" for o in outcomes.values())


def test_the_embeddings_check_passes_a_library_without_vectors():
    frame = pl.DataFrame(
        schema={
            "id": pl.String,
            "facet": pl.String,
            "model": pl.String,
            "dim": pl.Int64,
            "vector": pl.List(pl.Float32),
        }
    )
    result = pp_facet_embeddings_match_model(frame, EmbeddingModel())
    assert result.passed
    assert result.metadata["not_unit_length"].value == 0
    assert result.metadata["dimensions"].value == "[]"


@pytest.mark.slow
def test_an_all_rejected_library_job_succeeds_keeps_the_rejects_and_the_checks_say_why(tmp_path):
    library = rejected_library(tmp_path / "library")
    settings = load_settings(
        tmp_path,
        {
            "library_dir": str(library),
            "answers_dir": str(small_answers(tmp_path / "answers", topics=("api",))),
            "inbox_dir": str(tmp_path / "inbox"),
            "db_path": str(tmp_path / "store.duckdb"),
            "output_dir": str(tmp_path / "out"),
        },
    )
    from definitions import build_definitions

    with dg.instance_for_test() as instance:
        result = (
            build_definitions(settings)
            .resolve_job_def("library_job")
            .execute_in_process(instance=instance, raise_on_error=False)
        )
    assert result.success
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    suite = checks["pp_entries_quality_suite"]
    assert (suite.passed, suite.severity) == (False, dg.AssetCheckSeverity.ERROR)
    assert suite.metadata["library has entries"].value == rejected_reason(library)
    assert suite.metadata["rows"].value == 0
    assert checks["pp_facet_embeddings_match_model"].passed
    store = DuckDBPartitionStore(database=str(settings.db_path), read_only=True)
    stored = store.read_table("pp_rejected_entries", ["file", "row", "reason"])
    assert stored.rows() == [
        ("past_performance_matrix.csv", 2, NO_ID),
        ("past_performance_matrix.csv", 3, BAD_PERIOD),
    ]
    # what `rfp-retrieval run` then says for every RFP
    assert library_shortfall(store, library) == rejected_reason(library)
    # and the rejected rows stay listed
    listed = CliRunner().invoke(app, ["library", "--library", str(library), "--json"])
    assert listed.exit_code == 0, listed.output
    assert json.loads(listed.stdout)["rejected"] == [
        {"file": "past_performance_matrix.csv", "row": 2, "reason": NO_ID},
        {"file": "past_performance_matrix.csv", "row": 3, "reason": BAD_PERIOD},
    ]


@pytest.mark.slow
def test_run_on_an_empty_library_folder_reports_each_rfp_with_the_reason(tmp_path, monkeypatch):
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.delenv("RFP_RETRIEVAL_CONFIG", raising=False)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy(MIAMI_RFP, inbox / MIAMI_RFP.name)
    library = tmp_path / "library"
    library.mkdir()
    small_answers(tmp_path / "answers", topics=("api",))
    config = project_config(tmp_path)
    result = CliRunner().invoke(
        app, ["run", "--project", str(REPO), "--config", str(config), "--json"]
    )
    assert result.exit_code == 1, result.output  # processed, but no RFP got a reference
    (item,) = json.loads(result.stdout)["rfps"]
    assert item["status"] == "failed"
    assert item["error"] == "no references: " + empty_folder_reason(library)
    assert item["references"] == []
    assert item["scope_query"]["customer_types"] == ["local"]  # the RFP itself was read
    assert Path(item["brief"]).is_file()
    warning = "Warning: " + empty_folder_reason(library)
    assert " ".join(warning.split()) in " ".join(result.stderr.split())
