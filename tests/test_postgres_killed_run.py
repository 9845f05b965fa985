"""A run killed (SIGKILL) in the middle of a partition write on the Postgres store leaves the
previous rows visible, and a re-run repairs the partition (tests/test_killed_run.py is the
DuckDB version).

A child process materializes ``rfp_document`` -> ``rfp_questions`` through the project's
resources with ``store: postgres``; its IO manager's handler is wrapped so that, for
``rfp_questions``, it stops after the whole write (old rows deleted, new rows copied) and
before COMMIT, reports what its own transaction sees, and waits. While it waits, a reader
sees the previous rows without waiting for the writer's lock; then the child is SIGKILLed:
Postgres rolls back the transaction of the dead connection.
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
import pytest

from rfp_retrieval.inbox import partition_key_for
from rfp_retrieval.settings import POSTGRES_URL_ENV
from tests.conftest import REPO
from tests.test_killed_run import EXTRA_SECTION, MIAMI, _expected, _killed_run, _materializations

GATE_TIMEOUT_S = 120

CHILD = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path

    import dagster as dg

    from assets.questions import rfp_questions
    from assets.rfp import rfp_document
    from jobs import rfp_job
    from resources import build_resources
    from resources.postgres_io import PostgresPolarsTypeHandler
    from rfp_retrieval.settings import load_settings
    from rfp_retrieval.storage import postgres as pg

    project, home, key = sys.argv[1:4]
    ready = Path(project) / "gate.json"
    original = PostgresPolarsTypeHandler.handle_output

    def gated(self, context, table_slice, obj, connection):
        result = original(self, context, table_slice, obj, connection)
        if context.asset_key.path[-1] == "rfp_questions":
            seen = pg.row_counts(connection, "rfp", "rfp_questions", "rfp_partition").get(key, 0)
            staged = ready.with_suffix(".tmp")
            staged.write_text(json.dumps({"writer_sees": seen}))
            staged.replace(ready)  # atomic: the test never reads half a file
            time.sleep(600)  # killed here, before COMMIT
        return result

    PostgresPolarsTypeHandler.handle_output = gated
    overrides = json.loads((Path(project) / "settings.json").read_text())
    settings = load_settings(Path(project), overrides)
    with dg.instance_for_test(temp_dir=home) as instance:
        dg.materialize(
            [rfp_document, rfp_questions],
            partition_key=key,
            instance=instance,
            resources=build_resources(settings),
            tags=rfp_job.tags,
        )
    """
)


def _project(tmp_path: Path):
    from rfp_retrieval.settings import load_settings

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    overrides = {
        "inbox_dir": str(inbox),
        "db_path": str(tmp_path / "var" / "store.duckdb"),  # the rewriter cache's folder
        "output_dir": str(tmp_path / "out"),
        "store": "postgres",
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


def _stored(settings, key: str) -> list[tuple[str, str]] | None:
    """(id, text) of the partition's rows as a fresh reader sees them; None: no table."""
    from resources.partition_store import partition_store_for

    frame = partition_store_for(settings, read_only=True).read_partition(
        "rfp_questions", key, ["id", "text"]
    )
    return None if frame is None else sorted(frame.iter_rows())


def _kill_before_commit(tmp_path: Path, home: Path, key: str, settings) -> tuple[dict, object]:
    """Run the child until it waits before COMMIT; read the partition meanwhile; SIGKILL it.

    Returns (what the child's transaction saw, what a reader saw while it waited).
    """
    ready = tmp_path / "gate.json"
    ready.unlink(missing_ok=True)
    log = (tmp_path / "child.log").open("wb")
    child = subprocess.Popen(
        [sys.executable, str(tmp_path / "child.py"), str(tmp_path), str(home), key],
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
        reader_saw = _stored(settings, key)  # while the writer holds its lock
        child.send_signal(signal.SIGKILL)
        assert child.wait(timeout=30) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=30)
        log.close()
    return gate_seen, reader_saw


def test_killed_writes_on_postgres_keep_the_previous_rows_and_a_rerun_repairs(
    tmp_path, fresh_postgres_url, monkeypatch
):
    monkeypatch.setenv(POSTGRES_URL_ENV, fresh_postgres_url)
    inbox, settings = _project(tmp_path)
    source = inbox / MIAMI.name
    source.write_text(MIAMI.read_text(encoding="utf-8"), encoding="utf-8")
    key = partition_key_for(source.name)
    home = tmp_path / "dagster_home"
    home.mkdir()
    with dg.instance_for_test(temp_dir=str(home)) as instance:
        instance.add_dynamic_partitions("rfp_documents", [key])

        # The very first write is killed before COMMIT: no table is left behind.
        gate, reader_saw = _kill_before_commit(tmp_path, home, key, settings)
        assert gate == {"writer_sees": 6}
        assert reader_saw is None
        assert _stored(settings, key) is None
        killed = _killed_run(instance)
        assert _materializations(instance, key, killed.run_id) == []
        instance.report_run_canceled(killed)

        first = _materialize(settings, instance, key)
        assert first.success
        before = _stored(settings, key)
        assert before == _expected(source)
        assert len(before) == 6

        # A revised RFP with two more questions: that write is killed after its DELETE and
        # COPY, before COMMIT. Readers saw, and still see, the previous six rows.
        source.write_text(MIAMI.read_text(encoding="utf-8") + EXTRA_SECTION, encoding="utf-8")
        revised = _expected(source)
        assert len(revised) == 8
        gate, reader_saw = _kill_before_commit(tmp_path, home, key, settings)
        assert gate == {"writer_sees": 8}  # really mid-transaction
        assert reader_saw == before
        assert _stored(settings, key) == before
        killed = _killed_run(instance)
        assert _materializations(instance, key, killed.run_id) == []
        assert len(_materializations(instance, key)) == 1

        rerun = _materialize(settings, instance, key)
        assert rerun.success
        after = _stored(settings, key)
        assert after == revised
        assert len({qid for qid, _ in after}) == len(after) == 8
        meta = rerun.asset_materializations_for_node("rfp_questions")[0].metadata
        assert meta["row_count"].value == 8
