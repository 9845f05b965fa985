"""RFP runs with the Celery executor (``jobs.rfp_executor``) on two local worker processes
complete and agree with the in-process executor, on the Postgres instance and store.

Set up the way a deployment is (deploy/docker-compose.yaml), from a plain checkout: each
process gets ``DAGSTER_HOME`` (the Postgres instance), the project's settings file and the
URLs through its environment, no ``PYTHONPATH``; the workers are ``dagster-celery worker
start`` in the project folder, and the run is ``dagster job execute -m definitions -d
PROJECT`` with ``deploy/run_config_celery.yaml``'s executor block. The broker is a throwaway
``redis-server`` (``tests/redis_server.py``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg
import pytest
import yaml

from instance_config import write_home_instance
from jobs import (
    CELERY_BACKEND_ENV,
    CELERY_BROKER_ENV,
    ExecutorSettingError,
    default_execution,
    rfp_executor,
)
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from tests.conftest import REPO
from tests.redis_server import redis_server, redis_url  # noqa: F401 (fixtures)
from tests.small_project import MIAMI_RFP, project_config, small_answers, small_library

BIN = Path(sys.executable).parent
WORKERS = ("rfp-worker-1", "rfp-worker-2")
WORKER_START_S = 120
RUN_TIMEOUT_S = 900


def deployment_env(home: Path, config: Path, postgres_url: str, redis) -> dict[str, str]:
    """What every process of the stack gets: no PYTHONPATH, no settings from this shell."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "PYTHONPATH" and not k.startswith(("RFP_RETRIEVAL_", "DAGSTER_"))
    }
    env.update(
        {
            "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}",
            "DAGSTER_HOME": str(home),
            "RFP_RETRIEVAL_CONFIG": str(config),
            "RFP_RETRIEVAL_POSTGRES_URL": postgres_url,
            CELERY_BROKER_ENV: redis.url(0),
            CELERY_BACKEND_ENV: redis.url(1),
            "RFP_RETRIEVAL_PRECISION": os.environ.get("RFP_RETRIEVAL_PRECISION", "fp32"),
        }
    )
    return env


def start_worker(name: str, env: dict[str, str], log: Path) -> subprocess.Popen:
    """``dagster-celery worker start`` (one process, one task at a time) in the project."""
    cmd = [
        str(BIN / "dagster-celery"),
        "worker", "start",
        "-A", "dagster_celery.app",
        "-y", str(REPO / "deploy" / "celery_worker.yaml"),
        "-n", name,
        "--", "--concurrency=1", "--pool=prefork",
    ]  # fmt: skip
    return subprocess.Popen(
        cmd,
        cwd=REPO,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own group: the test stops exactly what it started
    )


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


def wait_until_ready(logs: list[Path], procs: list[subprocess.Popen]) -> None:
    deadline = time.monotonic() + WORKER_START_S
    while time.monotonic() < deadline:
        for proc, log in zip(procs, logs, strict=True):
            if proc.poll() is not None:
                raise AssertionError(f"worker exited: {log.read_text()[-3000:]}")
        if all(" ready." in log.read_text(errors="replace") for log in logs):
            return
        time.sleep(0.5)
    raise AssertionError("workers not ready: " + " | ".join(p.read_text()[-800:] for p in logs))


@pytest.fixture(scope="module")
def stack(tmp_path_factory, postgres_server, redis_server):  # noqa: F811
    """A project on a new Postgres database and instance, and two Celery workers.

    Yields ``(settings, env, folder, workers)``; the settings are the project's (``store:
    postgres``), ``env`` what every process of the deployment gets, ``workers`` ``{worker name:
    pid}`` of each ``dagster-celery worker start`` (the leader of its own session).
    """
    folder = tmp_path_factory.mktemp("celery")
    small_library(folder / "library")
    small_answers(folder / "answers")
    (folder / "inbox").mkdir()
    rfp = folder / "inbox" / MIAMI_RFP.name
    rfp.write_text(MIAMI_RFP.read_text(encoding="utf-8"), encoding="utf-8")
    config = project_config(folder)
    config.write_text(config.read_text() + "store: postgres\n")
    home = folder / "home"
    write_home_instance(home, "postgres")
    env = deployment_env(home, config, postgres_server.create_database(), redis_server)
    with pytest.MonkeyPatch.context() as patch:
        for name in ("RFP_RETRIEVAL_POSTGRES_URL", "RFP_RETRIEVAL_CONFIG"):
            patch.setenv(name, env[name])
        from rfp_retrieval.settings import load_settings

        settings = load_settings(REPO, config_file=config)
        assert settings.store == "postgres"
        logs = [folder / f"{name}.log" for name in WORKERS]
        procs = [start_worker(n, env, log) for n, log in zip(WORKERS, logs, strict=True)]
        try:
            wait_until_ready(logs, procs)
            yield settings, env, folder, {n: p.pid for n, p in zip(WORKERS, procs, strict=True)}
        finally:
            for proc in procs:
                stop(proc)


def launcher_for(settings, folder: Path):
    import launch

    return launch.Launcher(settings, folder / "home")


IN_PROCESS = {"execution": {"config": {"in_process": {}}}}
AGREEING_TABLES = (
    "rfp_questions",
    "scope_query",
    "rewritten_questions",
    "pp_references",
    "question_answers",
)
"""The rows of one RFP that the Celery run and the in-process run must store identically."""


def run_partition(
    folder: Path, env: dict[str, str], key: str, *select: str, celery: bool = True
) -> None:
    """``dagster job execute`` (all of ``rfp_job``) or ``dagster asset materialize``
    (``select``) of partition ``key`` with the Celery executor (``celery``) or in process, as
    a deployment runs it (its environment names Celery the default: ``in_process`` is
    explicit)."""
    celery_config = yaml.safe_load((REPO / "deploy" / "run_config_celery.yaml").read_text())
    run_config = dict(celery_config if celery else IN_PROCESS)
    run_config["ops"] = {
        "rfp_document": {"config": {"path": str(folder / "inbox" / MIAMI_RFP.name)}}
    }
    (folder / f"{key}.yaml").write_text(yaml.safe_dump(run_config))
    where = ["-m", "definitions", "-d", str(REPO), "-c", str(folder / f"{key}.yaml")]
    if select:
        cmd = [
            str(BIN / "dagster"), "asset", "materialize", *where,
            "--select", ",".join(select), "--partition", key,
        ]  # fmt: skip
    else:
        tags = json.dumps({"dagster/partition": key})
        cmd = [str(BIN / "dagster"), "job", "execute", *where, "-j", "rfp_job", "--tags", tags]
    done = subprocess.run(
        cmd, cwd=folder, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]


def celery_steps(instance: dg.DagsterInstance, key: str, workers: dict[str, int]) -> dict[str, str]:
    """``{step key: worker name}`` of the one successful run of partition ``key``, from the
    engine event each Celery worker reports for a step it runs.

    Also checks that each step really ran in a process of the worker that reported it: the
    process that recorded the step's STEP_START (its ``pid``) belongs to the session of that
    worker's ``dagster-celery worker start`` (``workers``), not to the process that ran the
    run (its RUN_START), and the steps of one worker ran in one process."""
    (run,) = instance.get_runs(dg.RunsFilter(tags={"dagster/partition": key}))
    assert run.status == dg.DagsterRunStatus.SUCCESS
    assert "celery" in run.run_config["execution"]["config"]
    hosts: dict[str, str] = {}
    for record in instance.get_records_for_run(run.run_id).records:
        event = record.event_log_entry.dagster_event
        if event is None or event.event_type_value != "ENGINE_EVENT":
            continue
        metadata = event.engine_event_data.metadata
        if "Celery worker" in metadata:
            hosts[event.step_key] = metadata["Celery worker"].value.split("@")[0]
    succeeded = {
        r.event_log_entry.dagster_event.step_key
        for r in instance.get_records_for_run(
            run.run_id, of_type=dg.DagsterEventType.STEP_SUCCESS
        ).records
    }
    assert set(hosts) == succeeded  # every step ran in a worker
    assert set(hosts.values()) <= set(WORKERS)
    pids = {
        r.event_log_entry.dagster_event.step_key: r.event_log_entry.dagster_event.pid
        for r in instance.get_records_for_run(
            run.run_id, of_type=dg.DagsterEventType.STEP_START
        ).records
    }
    (run_start,) = instance.get_records_for_run(
        run.run_id, of_type=dg.DagsterEventType.RUN_START
    ).records
    assert pids.keys() == hosts.keys()
    assert run_start.event_log_entry.dagster_event.pid not in pids.values()
    per_worker: dict[str, set[int]] = {}
    for step, pid in pids.items():
        assert os.getsid(pid) == workers[hosts[step]], (step, hosts[step], pid)
        per_worker.setdefault(hosts[step], set()).add(pid)
    assert all(len(found) == 1 for found in per_worker.values()), per_worker
    return hosts


@pytest.mark.slow
@pytest.mark.extended  # the parsing steps only: the whole run below covers them
def test_the_parsing_steps_of_an_rfp_run_on_two_celery_workers(stack):
    settings, env, folder, workers = stack
    launcher = launcher_for(settings, folder)
    parse = ("rfp_document", "rfp_outline", "rfp_questions", "compliance_matrix")
    launcher.instance.add_dynamic_partitions("rfp_documents", ["parse-celery"])
    run_partition(folder, env, "parse-celery", *parse)
    hosts = celery_steps(launcher.instance, "parse-celery", workers)
    assert {"rfp_document", "rfp_questions", "compliance_matrix"} <= set(hosts)

    # what the core finds in this process is what the workers stored
    expected = find_questions(load_document(folder / "inbox" / MIAMI_RFP.name))
    celery = launcher.store.read_partition("rfp_questions", "parse-celery")
    assert celery["label"].to_list() == [q.label for q in expected]
    assert celery["section_path"].to_list() == [q.section_path for q in expected]
    assert celery["label"].to_list() == [None, None, "3.1", "3.3", "3.5", None]
    assert celery["section_path"].to_list()[0][-1] == "2.3 Resident Self-Service"


# the only cover of issue 17's "RFP runs with the Celery executor on two local workers agree
# with the in-process executor": in the default suite (about 4 minutes on the shared machine)
@pytest.mark.slow
def test_an_rfp_run_on_two_celery_workers_agrees_with_the_in_process_run(stack):
    settings, env, folder, workers = stack
    launcher = launcher_for(settings, folder)
    assert launcher.run_library().success
    assert launcher.run_rfp("miami-in-process", folder / "inbox" / MIAMI_RFP.name).success
    launcher.instance.add_dynamic_partitions("rfp_documents", ["miami-celery"])
    run_partition(folder, env, "miami-celery")
    hosts = celery_steps(launcher.instance, "miami-celery", workers)
    assert {"rfp_document", "scope_query", "pp_references", "response_brief"} <= set(hosts)
    assert set(hosts.values()) == set(WORKERS)  # parallel branches went to both workers

    in_process = launcher.store.read_partition("pp_references", "miami-in-process")
    celery = launcher.store.read_partition("pp_references", "miami-celery")
    assert in_process.height == celery.height >= 3
    top3 = celery.filter(celery["rank"] > 0).sort("rank")["id"].to_list()
    assert len(top3) == 3 and len(set(top3)) == 3
    # every table the run wrote, value for value and in row order (vectors included)
    for table in AGREEING_TABLES:
        ours = launcher.store.read_partition(table, "miami-celery").drop("rfp_partition")
        theirs = launcher.store.read_partition(table, "miami-in-process").drop("rfp_partition")
        assert ours.height == theirs.height > 0, table
        differ = [c for c in theirs.columns if not ours[c].equals(theirs[c], check_names=True)]
        assert ours.columns == theirs.columns and differ == [], (table, differ)


def test_a_broker_in_the_environment_makes_celery_the_default_on_postgres_only():
    broker = {CELERY_BROKER_ENV: "redis://redis:6379/0", CELERY_BACKEND_ENV: "redis://r:6379/1"}
    assert default_execution("postgres", broker) == {
        "celery": {"broker": {"env": CELERY_BROKER_ENV}, "backend": {"env": CELERY_BACKEND_ENV}}
    }
    assert default_execution("postgres", {}) == {"in_process": {}}
    assert default_execution("duckdb", broker) == {"in_process": {}}
    executor = rfp_executor("postgres", default_execution("postgres", broker))
    assert executor.config_schema.as_field().default_value == {
        "celery": {"broker": {"env": CELERY_BROKER_ENV}, "backend": {"env": CELERY_BACKEND_ENV}}
    }


def test_several_process_executors_are_refused_on_the_duckdb_store():
    for mode in ("multiprocess", "celery"):
        executor = rfp_executor("duckdb")
        context = dg.InitExecutorContext(
            job=dg.reconstructable(_a_job),
            executor_def=executor,
            executor_config={mode: {}},
            instance=dg.DagsterInstance.ephemeral(),
        )
        with pytest.raises(ExecutorSettingError, match=f"the {mode} executor .* DuckDB"):
            executor.executor_creation_fn(context)


@dg.op
def _noop() -> None:
    return None


@dg.job
def _a_job() -> None:
    _noop()
