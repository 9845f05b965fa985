"""The Dagster instance for each store (``instance_config.py``): DuckDB runs one at a time on
SQLite; Postgres keeps runs, events and schedules in Postgres (URL from the environment only)
and starts several runs at once, one library run at a time; the code location validates
against the Postgres instance from a plain checkout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest
import yaml

from instance_config import (
    LIBRARY_WRITER_TAG,
    MARKER,
    InstanceConfigError,
    instance_yaml,
    write_home_instance,
)
from jobs import library_job
from tests.conftest import REPO

URL_ENV = "RFP_TEST_INSTANCE_URL"


def test_the_committed_instance_files_are_the_generated_ones():
    assert (REPO / "dagster.yaml").read_text() == instance_yaml("duckdb")
    assert (REPO / "deploy" / "dagster.yaml").read_text() == instance_yaml("postgres")


def test_the_duckdb_instance_runs_one_run_at_a_time_on_sqlite(tmp_path):
    write_home_instance(tmp_path, "duckdb")
    with dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        assert type(instance.run_storage).__name__ == "SqliteRunStorage"
        assert type(instance.run_coordinator).__name__ == "QueuedRunCoordinator"
        queue = instance.get_concurrency_config().run_queue_config
        assert queue.max_concurrent_runs == 1
        assert list(queue.tag_concurrency_limits) == []
        assert instance.run_monitoring_enabled


def test_the_postgres_instance_keeps_runs_in_postgres_and_runs_four_at_once(
    tmp_path, monkeypatch, fresh_postgres_url
):
    monkeypatch.setenv(URL_ENV, fresh_postgres_url)
    path = write_home_instance(tmp_path, "postgres", URL_ENV)
    text = path.read_text()
    assert fresh_postgres_url.split("@")[1] not in text  # only the variable's name is written
    assert yaml.safe_load(text)["storage"] == {"postgres": {"postgres_url": {"env": URL_ENV}}}
    with dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        assert type(instance.event_log_storage).__name__ == "PostgresEventLogStorage"
        assert type(instance.schedule_storage).__name__ == "PostgresScheduleStorage"
        queue = instance.get_concurrency_config().run_queue_config
        assert queue.max_concurrent_runs == 4
        assert list(queue.tag_concurrency_limits) == [
            {"key": "rfp-retrieval/writer", "value": "library", "limit": 1}
        ]
        instance.add_dynamic_partitions("rfp_documents", ["miami-dade-311-rfp"])
    # a second process (here: a second instance) sees what the first wrote
    with dg.DagsterInstance.from_config(str(tmp_path)) as again:
        assert again.get_dynamic_partitions("rfp_documents") == ["miami-dade-311-rfp"]


def test_the_library_job_carries_the_tag_the_limit_names():
    key, value = LIBRARY_WRITER_TAG
    assert library_job.tags[key] == value


def test_a_generated_file_follows_the_store_and_a_hand_written_one_is_kept(tmp_path):
    path = write_home_instance(tmp_path, "duckdb")
    assert path.read_text().startswith(MARKER + "duckdb\n")
    write_home_instance(tmp_path, "postgres", URL_ENV)
    assert path.read_text() == instance_yaml("postgres", URL_ENV)
    hand = "# ours\nconcurrency:\n  runs:\n    max_concurrent_runs: 1\n"
    path.write_text(hand)
    write_home_instance(tmp_path, "duckdb")
    assert path.read_text() == hand


def test_a_hand_written_file_without_postgres_storage_is_refused_for_postgres(tmp_path):
    (tmp_path / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    with pytest.raises(InstanceConfigError) as err:
        write_home_instance(tmp_path, "postgres")
    message = str(err.value)
    assert str(tmp_path / "dagster.yaml") in message
    assert "env: RFP_RETRIEVAL_POSTGRES_URL" in message


def test_bad_instance_settings_say_what_to_do():
    with pytest.raises(InstanceConfigError, match="unknown store 'sqlite'"):
        instance_yaml("sqlite")
    with pytest.raises(InstanceConfigError, match="set `store: postgres`"):
        instance_yaml("duckdb", max_concurrent_runs=4)
    with pytest.raises(InstanceConfigError, match="postgres_url_env is empty"):
        instance_yaml("postgres", "")


def plain_env(**extra: str) -> dict[str, str]:
    """The environment of a deployment's process: no PYTHONPATH, no inherited settings."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "PYTHONPATH" and not k.startswith(("RFP_RETRIEVAL_", "DAGSTER_"))
    }
    env.update(extra)
    return env


@pytest.mark.slow
def test_the_code_location_validates_against_the_postgres_instance(
    tmp_path, monkeypatch, fresh_postgres_url
):
    monkeypatch.setenv("RFP_RETRIEVAL_POSTGRES_URL", fresh_postgres_url)
    home = tmp_path / "home"
    write_home_instance(home, "postgres")
    env = plain_env(
        DAGSTER_HOME=str(home),
        RFP_RETRIEVAL_STORE="postgres",
        RFP_RETRIEVAL_POSTGRES_URL=fresh_postgres_url,
        RFP_RETRIEVAL_DB_PATH=str(tmp_path / "store.duckdb"),
    )
    dagster = Path(sys.executable).with_name("dagster")
    cmd = [str(dagster), "definitions", "validate", "-w", "workspace.yaml"]
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Validation successful for code location rfp_retrieval" in done.stdout + done.stderr
    with dg.DagsterInstance.from_config(str(home)) as instance:
        # the validation opened the Postgres instance (its tables exist there now)
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        assert instance.get_runs() == []
    # and with the URL's variable unset the same command fails, naming the variable
    env.pop("RFP_RETRIEVAL_POSTGRES_URL")
    failed = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert failed.returncode != 0
    assert "RFP_RETRIEVAL_POSTGRES_URL" in failed.stderr + failed.stdout
