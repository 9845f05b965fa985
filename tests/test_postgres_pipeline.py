"""The same project through DuckDB and through Postgres gives identical tables and briefs.

One project (the sample library, a dev golden RFP and a synthetic RFP with labelled
questions from ``sample/``, a slice of the answer library) runs through the CLI's launcher
on DuckDB; ``rfp-retrieval store migrate`` copies the store to Postgres; the same RFPs then
run on Postgres, on the same Dagster home, with the library read from Postgres (the
migration leaves it current: no library job), and finally the library job runs on Postgres
too. Every stored table, the references with every score component, the answers and the
brief Markdown must be equal to the DuckDB ones, value for value and in the same row order.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli import app
from rfp_retrieval.inbox import partition_key_for
from rfp_retrieval.settings import POSTGRES_URL_ENV, load_settings
from tests.conftest import REPO
from tests.small_project import small_answers

pytestmark = pytest.mark.slow

GOLDEN_RFPS = ("S22.md",)  # a dev golden scope (tuning part: not divisible by 3)
ANSWERS_RFP = "franklin-dhhs-iecms-modernization-rfp.md"  # a dev answers-qrels document
ANSWER_TOPICS = ("case-management", "data-conversion", "integration", "api")
COMPARED_OUTPUTS = ("pp_references", "question_answers", "rewritten_questions", "scope_query")


def _tables(store) -> dict[str, pl.DataFrame]:
    from resources.partition_store import PARTITION_COLUMN

    frames = {}
    for name in _table_names(store):
        frame = store.read_table(name)
        if PARTITION_COLUMN in frame.columns:  # partitions in key order, rows as written
            frame = frame.sort(PARTITION_COLUMN, maintain_order=True)
        frames[name] = frame
    return frames


def _table_names(store) -> list[str]:
    names = [
        "pp_entries", "pp_rejected_entries", "pp_superseded_entries", "pp_facet_embeddings",
        "answer_blocks", "answer_block_embeddings", "rfp_document", "rfp_outline",
        "rfp_questions", "scope_query", "rewritten_questions", "pp_references",
        "question_answers", "response_brief", "compliance_matrix",
    ]  # fmt: skip
    return [n for n in names if store.columns(n)]


def _briefs(output_dir: Path) -> dict[str, str]:
    return {
        str(p.relative_to(output_dir)): p.read_text(encoding="utf-8")
        for p in sorted(output_dir.rglob("brief.md"))
    }


def test_dev_rfps_give_identical_tables_and_briefs_through_duckdb_and_postgres(
    tmp_path, fresh_postgres_url, monkeypatch
):
    import launch

    monkeypatch.setenv(POSTGRES_URL_ENV, fresh_postgres_url)
    for name in ("RFP_RETRIEVAL_STORE", "RFP_RETRIEVAL_CONFIG", "DAGSTER_HOME"):
        monkeypatch.delenv(name, raising=False)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    files = [REPO / "sample" / "golden" / n for n in GOLDEN_RFPS]
    files.append(REPO / "sample" / "inbox" / ANSWERS_RFP)
    for source in files:
        shutil.copy(source, inbox / source.name)
    small_answers(tmp_path / "answers", ANSWER_TOPICS)
    config = tmp_path / "rfp-retrieval.yaml"
    config.write_text(
        f"library_dir: {REPO / 'sample' / 'library'}\nanswers_dir: answers\ninbox_dir: inbox\n"
        "db_path: var/store.duckdb\noutput_dir: out\noverrides_dir: overrides\n"
        f"golden_dir: {REPO / 'sample' / 'golden'}\n",
        encoding="utf-8",
    )
    home = launch.dagster_home(REPO, config)
    duck = load_settings(REPO, config_file=config)
    assert duck.store == "duckdb"
    runs = [(partition_key_for(p.name), inbox / p.name) for p in files]

    launcher = launch.Launcher(duck, home)
    assert launcher.run_library().success
    for key, path in runs:
        assert launcher.run_rfp(key, path).success, key
    expected = _tables(launcher.store)
    expected_briefs = _briefs(tmp_path / "out")
    assert len(expected_briefs) == 2
    references = expected["pp_references"]
    assert references.height == 6  # 3 references for each RFP
    assert expected["question_answers"]["block_id"].null_count() == 0
    assert expected["question_answers"].height > 0

    migrated = CliRunner().invoke(
        app, ["store", "migrate", "--project", str(REPO), "--config", str(config), "--json"]
    )
    assert migrated.exit_code == 0, migrated.output
    report = json.loads(migrated.stdout)
    assert report["ok"] and report["library_stamp"] == "carried"
    counted = {(r["table"], r["partition"]): r["postgres_rows"] for r in report["tables"]}
    assert counted[("pp_entries", None)] == expected["pp_entries"].height
    for key, _ in runs:
        assert counted[("pp_references", key)] == 3
    assert all(r["match"] for r in report["tables"])

    postgres = load_settings(REPO, {"store": "postgres"}, config_file=config)
    on_postgres = launch.Launcher(postgres, home)
    assert type(on_postgres.store).__name__ == "PostgresPartitionStore"
    assert _tables(on_postgres.store).keys() == expected.keys()
    # store: postgres also moves the Dagster instance to Postgres, which has no run history
    # (README "Postgres store"): the library job runs once, rebuilding through Postgres with
    # every stored vector reused, and gives the same tables
    assert not on_postgres.library_is_current()
    assert on_postgres.run_library().success
    rebuilt = _tables(on_postgres.store)
    assert rebuilt.keys() == expected.keys()
    for name, frame in expected.items():
        assert rebuilt[name].schema == frame.schema, name
        assert rebuilt[name].equals(frame), name
    assert on_postgres.library_is_current()
    for key, path in runs:
        assert on_postgres.run_rfp(key, path).success, key
    after_rfps = _tables(on_postgres.store)
    for name in COMPARED_OUTPUTS:
        assert after_rfps[name].equals(expected[name]), name
    assert _briefs(tmp_path / "out") == expected_briefs
