"""``rfp-retrieval store migrate`` while runs are queued or in progress: refused (exit 2,
nothing copied, the runs named), on either Dagster instance of the project (the SQLite one of
``store: duckdb`` in the Dagster home, the Postgres one of ``store: postgres``); and a run that
starts while the tables are copied makes the copy "not verified" (exit 1).

The runs are real run records in the instances (``DagsterInstance.add_run``), in the statuses
the queue and the run launcher give them; ``instance_config.active_runs`` reads them.
"""

from __future__ import annotations

import json
import uuid

import dagster as dg
import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from instance_config import ACTIVE_STATUSES, active_runs, write_home_instance
from rfp_retrieval.cli import app
from rfp_retrieval.settings import POSTGRES_URL_ENV
from rfp_retrieval.storage import postgres as pg
from tests.conftest import REPO

pytestmark = pytest.mark.slow

runner = CliRunner()
PARTITION = "miami-dade-311-rfp-md"


@pytest.fixture
def duckdb_store(tmp_path):
    path = tmp_path / "store.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE SCHEMA rfp")
    con.execute("CREATE TABLE rfp.pp_references (rfp_partition VARCHAR, rank BIGINT, id VARCHAR)")
    con.execute(
        f"INSERT INTO rfp.pp_references VALUES ('{PARTITION}', 1, 'PP-078'), "
        f"('{PARTITION}', 2, 'PP-117'), ('{PARTITION}', 3, 'PP-112')"
    )
    con.close()
    return path


@pytest.fixture
def project(tmp_path, monkeypatch, fresh_postgres_url):
    """DAGSTER_HOME in tmp_path, the URL set; returns (home, url)."""
    home = tmp_path / "home"
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    monkeypatch.setenv(POSTGRES_URL_ENV, fresh_postgres_url)
    for name in ("RFP_RETRIEVAL_CONFIG", "RFP_RETRIEVAL_STORE"):
        monkeypatch.delenv(name, raising=False)
    return home, fresh_postgres_url


def _instance(home, store: str) -> dg.DagsterInstance:
    """The project's instance for ``store`` (the home's dagster.yaml written for it)."""
    write_home_instance(home, store)
    return dg.DagsterInstance.from_config(str(home))


def _add_run(instance, status: dg.DagsterRunStatus, job="rfp_job", partition=PARTITION) -> str:
    """A run record of ``job`` from the code location, moved to ``status`` by the run event
    Dagster records for that change."""
    from dagster._core.events import PIPELINE_RUN_STATUS_TO_EVENT_TYPE, DagsterEvent
    from dagster._core.remote_origin import RegisteredCodeLocationOrigin, RemoteRepositoryOrigin

    origin = RemoteRepositoryOrigin(
        RegisteredCodeLocationOrigin("rfp_retrieval"), "__repository__"
    ).get_job_origin(job)
    run_id = str(uuid.uuid4())
    tags = {"dagster/partition": partition} if partition else {}
    instance.add_run(
        dg.DagsterRun(
            job_name=job,
            run_id=run_id,
            status=dg.DagsterRunStatus.NOT_STARTED,
            tags=tags,
            remote_job_origin=origin,
        )
    )
    if status != dg.DagsterRunStatus.NOT_STARTED:
        event = DagsterEvent(PIPELINE_RUN_STATUS_TO_EVENT_TYPE[status].value, job_name=job)
        instance.run_storage.handle_run_event(run_id, event)
    assert instance.get_run_by_id(run_id).status == status
    return run_id


def _migrate(duckdb_store):
    return runner.invoke(
        app, ["store", "migrate", "--project", str(REPO), "--db", str(duckdb_store), "--json"]
    )


def _postgres_tables(url) -> list[str]:
    connection = pg.connect(url)
    try:
        with pg.transaction(connection, read_only=True) as cur:
            return pg.table_names(cur, "rfp")
    finally:
        connection.close()


def test_migrate_is_refused_while_a_duckdb_run_is_in_progress_and_copies_nothing(
    project, duckdb_store
):
    home, url = project
    with _instance(home, "duckdb") as instance:
        running = _add_run(instance, dg.DagsterRunStatus.STARTED)
        queued = _add_run(instance, dg.DagsterRunStatus.QUEUED, partition="disa-cyber-icam-rfp-md")
        _add_run(instance, dg.DagsterRunStatus.SUCCESS)  # finished runs do not count
        _add_run(instance, dg.DagsterRunStatus.FAILURE)

        result = _migrate(duckdb_store)
        assert result.exit_code == 2, result.output
        message = " ".join(result.output.split())
        assert "Migration refused: 2 run(s) queued or in progress" in message
        assert f"rfp_job [{PARTITION}] run {running} (STARTED, duckdb instance)" in message
        assert f"rfp_job [disa-cyber-icam-rfp-md] run {queued} (QUEUED, duckdb instance)" in (
            message
        )
        assert "nothing was copied" in message
        assert _postgres_tables(url) == []

        # once they end, the same command copies the store
        for run_id in (running, queued):
            instance.report_run_canceled(instance.get_run_by_id(run_id))
        done = _migrate(duckdb_store)
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["ok"] is True and report["failed"] == {}
    assert _postgres_tables(url) == ["pp_references"]


def test_migrate_is_refused_while_a_run_on_the_postgres_instance_writes_the_target(
    project, duckdb_store
):
    """After the switch, a second migrate would drop the tables those runs are writing."""
    home, url = project
    connection = pg.connect(url)
    try:
        with pg.transaction(connection) as cur:  # what a Postgres run already wrote
            pg.write_frame(
                cur,
                "rfp",
                "pp_references",
                pl.DataFrame({"rfp_partition": ["new-rfp-md"], "rank": [1], "id": ["PP-004"]}),
                "rfp_partition",
                ["new-rfp-md"],
            )
    finally:
        connection.close()
    with _instance(home, "postgres") as instance:
        library = _add_run(
            instance, dg.DagsterRunStatus.STARTING, job="library_job", partition=None
        )
        result = _migrate(duckdb_store)
    assert result.exit_code == 2, result.output
    message = " ".join(result.output.split())
    assert f"library_job run {library} (STARTING, postgres instance)" in message
    connection = pg.connect(url)
    try:
        with pg.transaction(connection, read_only=True) as cur:
            kept = pg.read_frame(cur, "rfp", "pp_references")
    finally:
        connection.close()
    assert kept["rfp_partition"].to_list() == ["new-rfp-md"]  # not replaced by the copy


def test_a_run_that_starts_during_the_copy_makes_it_unverified(project, duckdb_store, monkeypatch):
    home, url = project
    from rfp_retrieval.storage import migrate

    copy = migrate.copy_duckdb_store
    started: list[str] = []

    def copy_while_a_run_starts(*args, **kwargs):
        report = copy(*args, **kwargs)
        with _instance(home, "duckdb") as instance:
            started.append(_add_run(instance, dg.DagsterRunStatus.STARTED))
        return report

    with _instance(home, "duckdb"):
        pass  # the home has its SQLite instance, with no run yet
    monkeypatch.setattr(migrate, "copy_duckdb_store", copy_while_a_run_starts)
    result = _migrate(duckdb_store)
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["library_stamp"] == "not carried"
    reason = report["failed"]["(every table)"]
    assert f"rfp_job [{PARTITION}] run {started[0]} (STARTED, duckdb instance)" in reason
    assert "Re-run `rfp-retrieval store migrate`" in reason
    assert all(row["match"] for row in report["tables"])  # the counts alone looked fine


def test_active_runs_lists_only_queued_and_running_runs_and_creates_no_instance(
    tmp_path, monkeypatch
):
    monkeypatch.delenv(POSTGRES_URL_ENV, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    assert active_runs(home) == []
    assert not (home / "history").exists()  # no SQLite instance was made by asking
    with _instance(home, "duckdb") as instance:
        ids = {s: _add_run(instance, dg.DagsterRunStatus[s]) for s in ACTIVE_STATUSES}
        for status in ("NOT_STARTED", "SUCCESS", "FAILURE", "CANCELED"):
            _add_run(instance, dg.DagsterRunStatus[status])
    found = active_runs(home)
    assert sorted((r.status, r.run_id) for r in found) == sorted(
        (s, run_id) for s, run_id in ids.items()
    )
    assert {r.store for r in found} == {"duckdb"}
