"""Break-it round 2: a Dagster home's hand-edited dagster.yaml (instance_config.py)."""

from __future__ import annotations

import pytest

from instance_config import InstanceConfigError, instance_yaml, write_home_instance


def _home(tmp_path, text: str):
    (tmp_path / "dagster.yaml").write_text(text, encoding="utf-8")
    return tmp_path / "dagster.yaml"


@pytest.mark.parametrize("store", ["duckdb", "postgres"])
@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("storage: [postgres\n", "is not valid YAML (line 2)"),
        ("- storage\n- telemetry\n", "holds a YAML list, not the mapping Dagster reads"),
        ("storage postgres\n", "holds a YAML str, not the mapping Dagster reads"),
    ],
)
def test_a_hand_written_file_that_is_not_a_yaml_mapping_is_refused_naming_it(
    tmp_path, store, text, said
):
    path = _home(tmp_path, text)
    with pytest.raises(InstanceConfigError) as err:
        write_home_instance(tmp_path, store)
    assert str(err.value).startswith(f"{path} {said}")
    assert path.read_text(encoding="utf-8") == text  # the person's file is never overwritten


@pytest.mark.parametrize("text", ["storage: postgres\n", "storage:\n  postgres: null\n"])
def test_a_postgres_word_without_a_postgres_block_is_no_postgres_storage(tmp_path, text):
    path = _home(tmp_path, text)
    with pytest.raises(InstanceConfigError) as err:
        write_home_instance(tmp_path, "postgres")
    assert str(err.value).startswith(f"{path} keeps Dagster's runs outside Postgres")


def test_the_three_dagster_postgres_storages_count_as_postgres_storage(tmp_path):
    block = (
        "  module: dagster_postgres.{m}\n  class: {c}\n  config:\n    postgres_url: {{env: X}}\n"
    )
    text = "".join(
        f"{key}:\n" + block.format(m=m, c=c)
        for key, m, c in [
            ("run_storage", "run_storage", "PostgresRunStorage"),
            ("event_log_storage", "event_log", "PostgresEventLogStorage"),
            ("schedule_storage", "schedule_storage", "PostgresScheduleStorage"),
        ]
    )
    path = _home(tmp_path, text)
    assert write_home_instance(tmp_path, "postgres") == path
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    "text",
    [
        "concurrency:\n  runs:\n    max_concurrent_runs: 8\n",
        "run_queue:\n  max_concurrent_runs: 3\n",
    ],
)
def test_a_hand_written_file_letting_several_runs_at_once_is_refused_on_duckdb(tmp_path, text):
    path = _home(tmp_path, text)
    with pytest.raises(InstanceConfigError) as err:
        write_home_instance(tmp_path, "duckdb")
    assert str(err.value).startswith(f"{path} lets ")
    assert "set max_concurrent_runs to 1" in str(err.value)
    # the same file serves Postgres storage once it names it
    _home(tmp_path, text + "storage:\n  postgres:\n    postgres_url: {env: X}\n")
    write_home_instance(tmp_path, "postgres")


def test_a_generated_file_saved_with_a_byte_order_mark_is_still_ours(tmp_path):
    path = _home(tmp_path, "\ufeff" + instance_yaml("duckdb"))
    write_home_instance(tmp_path, "postgres")
    assert path.read_text(encoding="utf-8") == instance_yaml("postgres")
