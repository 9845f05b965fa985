"""The deployable stack (``deploy/``) agrees with the code: docker-compose's services, the
Helm values for the official chart, the worker and run configs. Nothing here starts a
container (this machine has no compose plugin); the files are checked as data against the
modules that own each rule."""

from __future__ import annotations

import re
import tomllib

import dagster as dg
import pytest
import yaml

from instance_config import (
    LIBRARY_RUNS_AT_ONCE,
    LIBRARY_WRITER_TAG,
    POSTGRES_MAX_RUNS,
    RUN_MONITORING_POLL_S,
    instance_config,
)
from jobs import CELERY_BACKEND_ENV, CELERY_BROKER_ENV
from rfp_retrieval.settings import DEFAULTS, ENV_PREFIX, POSTGRES_URL_ENV
from tests.conftest import REPO

DEPLOY = REPO / "deploy"
KNOWN_ENV = {ENV_PREFIX + name.upper() for name in DEFAULTS} | {
    POSTGRES_URL_ENV,
    CELERY_BROKER_ENV,
    CELERY_BACKEND_ENV,
}
"""Every RFP_RETRIEVAL_ variable the code reads (settings, Postgres URL, Celery URLs)."""
APP = "/opt/dagster/app"


def load(name: str) -> dict:
    return yaml.safe_load((DEPLOY / name).read_text(encoding="utf-8"))


def location_name() -> str:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return pyproject["tool"]["dagster"]["code_location_name"]


def test_compose_runs_the_six_services_on_postgres_and_redis():
    compose = load("docker-compose.yaml")
    services = compose["services"]
    assert set(services) == {
        "postgres",
        "redis",
        "code_location",
        "webserver",
        "daemon",
        "celery_worker",
    }
    for name, service in services.items():
        for needed in service.get("depends_on", {}):
            assert needed in services, (name, needed)
    ours = [services[n] for n in ("code_location", "webserver", "daemon", "celery_worker")]
    for service in ours:
        env = service["environment"]
        assert env["RFP_RETRIEVAL_STORE"] == "postgres"
        assert env["DAGSTER_HOME"] == "/opt/dagster/home"
        assert set(k for k in env if k.startswith(ENV_PREFIX)) <= KNOWN_ENV
        assert env[CELERY_BROKER_ENV] == "redis://redis:6379/0"
    url = services["code_location"]["environment"][POSTGRES_URL_ENV]
    assert url == "postgresql://rfp:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}@postgres:5432/rfp"
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith("${")
    # runs start in the code location and their steps in the worker: same folders, same paths
    assert services["code_location"]["volumes"] == services["celery_worker"]["volumes"]


def test_no_password_is_written_in_a_deploy_file():
    for path in sorted(DEPLOY.rglob("*")):
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        # user:secret@host in a URL: the secret must be a ${VARIABLE}
        for secret in re.findall(r"://[^:/@\s]+:([^@\s]+)@", text):
            assert secret.startswith("${"), (path.name, secret)
        # a password key holds a ${VARIABLE}
        for value in re.findall(r"(?i)password:[ \t]+(\S+)", text):
            assert value.startswith("${"), (path.name, value)


def test_the_compose_commands_name_files_the_image_holds():
    services = load("docker-compose.yaml")["services"]
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert 'cp deploy/dagster.yaml deploy/workspace.yaml "$DAGSTER_HOME"/' in dockerfile
    worker = services["celery_worker"]["command"]
    config = worker[worker.index("-y") + 1]
    assert config == f"{APP}/deploy/celery_worker.yaml"
    assert (REPO / config.removeprefix(APP + "/")).is_file()
    for name in ("webserver", "daemon"):
        command = services[name]["command"]
        assert command[command.index("-w") + 1] == "/opt/dagster/home/workspace.yaml"
    server = services["code_location"]["command"]
    assert server[:3] == ["dagster", "code-server", "start"]
    assert server[server.index("-m") + 1] == "definitions"
    assert server[server.index("-d") + 1] == APP
    workspace = load("workspace.yaml")["load_from"][0]["grpc_server"]
    assert workspace == {
        "host": "code_location",
        "port": int(server[server.index("-p") + 1]),
        "location_name": location_name(),
    }
    assert server[server.index("--location-name") + 1] == location_name()


def test_the_helm_values_carry_the_instance_limits_and_no_secret():
    values = load("helm/values.yaml")
    instance = instance_config("postgres")
    queue = values["dagsterDaemon"]["runCoordinator"]
    assert queue["type"] == instance["run_coordinator"]["class"] == "QueuedRunCoordinator"
    limits = queue["config"]["queuedRunCoordinator"]
    assert limits["maxConcurrentRuns"] == POSTGRES_MAX_RUNS == 4
    key, value = LIBRARY_WRITER_TAG
    assert limits["tagConcurrencyLimits"] == [
        {"key": key, "value": value, "limit": LIBRARY_RUNS_AT_ONCE}
    ]
    assert (
        instance["concurrency"]["runs"]["tag_concurrency_limits"]
        == (limits["tagConcurrencyLimits"])
    )
    assert values["dagsterDaemon"]["runMonitoring"]["pollIntervalSeconds"] == (
        RUN_MONITORING_POLL_S
    )
    assert values["postgresql"]["enabled"] is False
    assert values["generatePostgresqlPasswordSecret"] is False
    assert "postgresqlPassword" not in values["postgresql"]
    (deployment,) = values["dagster-user-deployments"]["deployments"]
    assert deployment["dagsterApiGrpcArgs"] == ["-m", "definitions", "-d", APP]
    env = {item["name"]: item["value"] for item in deployment["env"]}
    assert env["RFP_RETRIEVAL_STORE"] == "postgres"
    assert set(env) <= KNOWN_ENV
    assert deployment["envSecrets"] == [{"name": "rfp-retrieval-env"}]
    assert values["runLauncher"]["config"]["k8sRunLauncher"]["envSecrets"] == [
        {"name": "rfp-retrieval-env"}
    ]


def test_the_worker_and_run_configs_are_valid_celery_config(monkeypatch, tmp_path):
    from dagster_celery.cli import get_validated_config

    from code_location import build_definitions
    from rfp_retrieval.settings import load_settings

    monkeypatch.setenv(CELERY_BROKER_ENV, "redis://redis:6379/0")
    monkeypatch.setenv(CELERY_BACKEND_ENV, "redis://redis:6379/1")
    worker = get_validated_config(str(DEPLOY / "celery_worker.yaml"))
    assert (worker["broker"], worker["backend"]) == (
        "redis://redis:6379/0",
        "redis://redis:6379/1",
    )
    settings = load_settings(tmp_path, {"db_path": str(tmp_path / "store.duckdb")})
    job = build_definitions(settings).resolve_job_def("rfp_job")
    run_config = {
        **load("run_config_celery.yaml"),
        "ops": {"rfp_document": {"config": {"path": str(tmp_path / "a.md")}}},
    }
    resolved = dg.validate_run_config(job, run_config)["execution"]["rfp_executor"]
    assert resolved["celery"]["broker"] == "redis://redis:6379/0"
    assert resolved["celery"]["backend"] == "redis://redis:6379/1"
    with pytest.raises(dg.DagsterInvalidConfigError):
        dg.validate_run_config(job, {**run_config, "execution": {"config": {"celry": {}}}})
