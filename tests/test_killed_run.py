"""A run killed (SIGKILL) in the middle of a partition write leaves no half-written partition.

The chain is the real one for an uploaded RFP: ``rfp_document`` (+ ``rfp_outline``) ->
``rfp_questions``, stored by the project's DuckDB IO manager, on a persistent Dagster
instance shared with a child process. The child materializes a partition with the IO
manager's polars handler wrapped so that, for ``rfp_questions`` only, it stops at a chosen
point of the write (after the old rows were deleted, or after the new rows were inserted but
before the transaction commits), reports what its own connection sees, and waits. The test
then SIGKILLs it and checks what a reader and the instance see, and that a re-run repairs
the partition. No embedding model is loaded.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import dagster as dg
import duckdb
import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.inbox import partition_key_for
from tests.conftest import REPO

MIAMI = REPO / "sample" / "inbox" / "Miami-Dade 311 RFP.md"
DISA = REPO / "sample" / "inbox" / "disa-cyber-icam-rfp.md"
EXTRA_SECTION = """

## 5. Additional Questions

5.1 Describe how the platform routes calls to backup agents during a hurricane activation.

5.2 Explain how service request data is migrated from the legacy CRM without losing case history.
"""
GATE_TIMEOUT_S = 90

CHILD = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path

    import dagster as dg

    from assets.questions import rfp_questions
    from assets.rfp import rfp_document
    from jobs import rfp_job
    from resources import build_resources
    from resources.duckdb_io import EvolvingPolarsTypeHandler
    from rfp_retrieval.settings import load_settings

    project, home, key, gate = sys.argv[1:5]
    ready = Path(project) / "gate.json"
    original = EvolvingPolarsTypeHandler.handle_output

    def stop(connection, table_slice, where):
        table = f'{table_slice.schema}."{table_slice.table}"'
        try:
            seen = connection.execute(
                f"SELECT count(*) FROM {table} WHERE rfp_partition = ?", [key]
            ).fetchone()[0]
        except Exception as exc:  # the table does not exist yet
            seen = type(exc).__name__
        staged = ready.with_suffix(".tmp")
        staged.write_text(json.dumps({"where": where, "writer_sees": seen}))
        staged.replace(ready)  # atomic: the test never reads half a file
        time.sleep(600)  # killed here

    def gated(self, context, table_slice, obj, connection):
        if context.asset_key.path[-1] != "rfp_questions":
            return original(self, context, table_slice, obj, connection)
        if gate == "after-delete":
            stop(connection, table_slice, gate)
        result = original(self, context, table_slice, obj, connection)
        stop(connection, table_slice, gate)
        return result

    EvolvingPolarsTypeHandler.handle_output = gated
    overrides = json.loads((Path(project) / "settings.json").read_text())
    settings = load_settings(Path(project), overrides)
    with dg.instance_for_test(temp_dir=home) as instance:
        dg.materialize(
            [rfp_document, rfp_questions],
            partition_key=key,
            instance=instance,
            resources=build_resources(settings),
            tags=rfp_job.tags,  # as a queued rfp_job run carries them
        )
    """
)


def _project(tmp_path: Path) -> tuple[Path, object]:
    from rfp_retrieval.settings import load_settings

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    overrides = {
        "inbox_dir": str(inbox),
        "db_path": str(tmp_path / "store.duckdb"),
        "output_dir": str(tmp_path / "out"),
    }
    (tmp_path / "settings.json").write_text(json.dumps(overrides))
    (tmp_path / "child.py").write_text(CHILD)
    return inbox, load_settings(tmp_path, overrides)


def _materialize(settings, instance, key: str) -> dg.ExecuteInProcessResult:
    from assets.questions import rfp_questions
    from assets.rfp import rfp_document
    from resources import build_resources

    return dg.materialize(
        [rfp_document, rfp_questions],
        partition_key=key,
        instance=instance,
        resources=build_resources(settings),
    )


def _kill_mid_write(tmp_path: Path, home: Path, key: str, gate: str) -> dict:
    """Run the child until it stops inside the ``rfp_questions`` write, then SIGKILL it.

    Returns what the child's own connection saw at the gate (``where``, ``writer_sees``).
    """
    ready = tmp_path / "gate.json"
    ready.unlink(missing_ok=True)
    log = (tmp_path / f"child-{gate}.log").open("wb")  # a file: a full pipe would block it
    child = subprocess.Popen(
        [sys.executable, str(tmp_path / "child.py"), str(tmp_path), str(home), key, gate],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + GATE_TIMEOUT_S
        while not ready.exists():
            if child.poll() is not None:
                pytest.fail(
                    f"child exited {child.returncode} before the gate:\n"
                    + Path(log.name).read_text(errors="replace")[-3000:]
                )
            if time.monotonic() > deadline:
                pytest.fail(f"child did not reach the gate in {GATE_TIMEOUT_S} s")
            time.sleep(0.05)
        gate_seen = json.loads(ready.read_text())
        child.send_signal(signal.SIGKILL)
        assert child.wait(timeout=30) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=30)
        log.close()
    return gate_seen


def _stored(settings, key: str) -> list[tuple[str, str]]:
    """(id, text) of the partition's stored rows, as a fresh reader sees them."""
    con = duckdb.connect(str(settings.db_path), read_only=True)
    try:
        return con.execute(
            "SELECT id, text FROM rfp.rfp_questions WHERE rfp_partition = ? ORDER BY id", [key]
        ).fetchall()
    finally:
        con.close()


def _expected(path: Path) -> list[tuple[str, str]]:
    return sorted((q.id, q.text) for q in find_questions(load_document(path)))


def _materializations(instance, key: str, run_id: str | None = None) -> list:
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey("rfp_questions"), asset_partitions=[key]),
        limit=100,
    ).records
    return [r for r in records if run_id is None or r.run_id == run_id]


def _killed_run(instance) -> dg.DagsterRun:
    runs = instance.get_runs(filters=dg.RunsFilter(statuses=[dg.DagsterRunStatus.STARTED]))
    assert len(runs) == 1, [r.status for r in instance.get_runs()]
    return runs[0]


def _run_monitoring_fails_it_after_max_runtime(instance, killed: dg.DagsterRun) -> None:
    """The dead run stays STARTED (the default launcher cannot see a dead process) until the
    daemon's run monitoring (enabled in dagster.yaml) passes rfp_job's ``dagster/max_runtime``:
    then it is failed and the one run slot is free again."""
    import logging
    from unittest import mock

    import yaml
    from dagster._daemon.monitoring import run_monitoring

    from jobs import RFP_RUN_MAX_SECONDS

    project_yaml = yaml.safe_load(
        (Path(__file__).resolve().parents[1] / "dagster.yaml").read_text()
    )
    assert project_yaml["run_monitoring"]["enabled"] is True
    assert killed.tags["dagster/max_runtime"] == str(RFP_RUN_MAX_SECONDS)
    record = instance.get_run_record_by_id(killed.run_id)
    clock = "dagster._daemon.monitoring.run_monitoring.get_current_timestamp"
    with mock.patch(clock, return_value=record.start_time + RFP_RUN_MAX_SECONDS - 5):
        run_monitoring.check_run_timeout(instance, record, logging.getLogger("test"), 0)
    assert instance.get_run_by_id(killed.run_id).status == dg.DagsterRunStatus.STARTED
    with mock.patch(clock, return_value=record.start_time + RFP_RUN_MAX_SECONDS + 5):
        run_monitoring.check_run_timeout(instance, record, logging.getLogger("test"), 0)
    assert instance.get_run_by_id(killed.run_id).status == dg.DagsterRunStatus.FAILURE


def test_kill_after_the_delete_keeps_the_previous_rows_and_a_rerun_repairs(tmp_path):
    inbox, settings = _project(tmp_path)
    source = inbox / MIAMI.name
    source.write_text(MIAMI.read_text(encoding="utf-8"), encoding="utf-8")
    key = partition_key_for(source.name)
    home = tmp_path / "dagster_home"
    home.mkdir()
    with dg.instance_for_test(temp_dir=str(home)) as instance:
        instance.add_dynamic_partitions("rfp_documents", [key])
        assert _materialize(settings, instance, key).success
        before = _stored(settings, key)
        assert before == _expected(source)
        assert len(before) == 6

        # The proposal team drops a revised RFP with two more questions; that run is killed
        # after the old rows were deleted and before the new ones were inserted.
        source.write_text(MIAMI.read_text(encoding="utf-8") + EXTRA_SECTION, encoding="utf-8")
        revised = _expected(source)
        assert len(revised) == 8
        gate = _kill_mid_write(tmp_path, home, key, "after-delete")
        assert gate == {"where": "after-delete", "writer_sees": 0}  # really mid-write

        assert _stored(settings, key) == before  # the old rows, not an empty partition
        killed = _killed_run(instance)
        assert _materializations(instance, key, killed.run_id) == []
        assert len(_materializations(instance, key)) == 1
        _run_monitoring_fails_it_after_max_runtime(instance, killed)

        rerun = _materialize(settings, instance, key)
        assert rerun.success
        after = _stored(settings, key)
        assert after == revised
        assert len({qid for qid, _ in after}) == len(after) == 8
        assert len(_materializations(instance, key, rerun.run_id)) == 1
        meta = rerun.asset_materializations_for_node("rfp_questions")[0].metadata
        assert meta["row_count"].value == 8


def test_kill_before_commit_of_a_first_write_leaves_no_rows_and_a_rerun_repairs(tmp_path):
    inbox, settings = _project(tmp_path)
    for path in (MIAMI, DISA):
        (inbox / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    other, key = partition_key_for(MIAMI.name), partition_key_for(DISA.name)
    home = tmp_path / "dagster_home"
    home.mkdir()
    with dg.instance_for_test(temp_dir=str(home)) as instance:
        instance.add_dynamic_partitions("rfp_documents", [other, key])
        assert _materialize(settings, instance, other).success
        other_rows = _stored(settings, other)
        assert len(other_rows) == 6
        expected = _expected(inbox / DISA.name)
        assert len(expected) == 10

        # All ten rows are inserted in the child's transaction, then it is killed.
        gate = _kill_mid_write(tmp_path, home, key, "after-insert")
        assert gate == {"where": "after-insert", "writer_sees": 10}

        assert _stored(settings, key) == []  # none of the uncommitted rows
        assert _stored(settings, other) == other_rows  # the other partition is untouched
        killed = _killed_run(instance)
        assert _materializations(instance, key, killed.run_id) == []
        assert _materializations(instance, key) == []

        rerun = _materialize(settings, instance, key)
        assert rerun.success
        after = _stored(settings, key)
        assert after == expected
        assert len({qid for qid, _ in after}) == 10
        assert len(_materializations(instance, key)) == 1
