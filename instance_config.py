"""The Dagster instance (``DAGSTER_HOME/dagster.yaml``) for the store the settings name.

Two shapes, both written from ``instance_config(...)`` so the rules live here only:

- **DuckDB** (the laptop default): Dagster's SQLite storage in the home, and one run at a
  time (``DUCKDB_MAX_RUNS``): DuckDB allows a single writer, so the queue holds the rest.
- **Postgres** (``store: postgres``): run, event-log and schedule storage in Postgres through
  ``dagster-postgres``, the URL read from the environment variable the settings name
  (``postgres_url: {env: RFP_RETRIEVAL_POSTGRES_URL}``), so no password is ever written to a
  file. The queued run coordinator starts up to ``POSTGRES_MAX_RUNS`` runs at once; the
  library job carries ``LIBRARY_WRITER_TAG`` and the tag limit lets one library run go at a
  time (two re-embedding runs would race on the same unpartitioned tables).

Both keep run retries, run monitoring (a run whose process died is failed after its
``dagster/max_runtime`` tag, ``jobs.py``) and telemetry off.

The project's ``dagster.yaml`` is the DuckDB file and ``deploy/dagster.yaml`` the Postgres one,
each as this module writes it (``tests/test_instance_config.py`` keeps them equal).
``write_home_instance`` writes the home's copy; a file that lacks ``MARKER`` on its first line
was written by a person and is kept.

No Dagster import at module level: ``rfp-retrieval ui`` prepares the home before starting
``dagster dev``. ``active_runs`` (what ``rfp-retrieval store migrate`` asks before and after
its copy) imports Dagster inside the call.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from rfp_retrieval.settings import POSTGRES_URL_ENV, STORES

MARKER = "# Written by rfp-retrieval (instance_config.py) for store: "
"""First line of every generated ``dagster.yaml``, followed by the store name."""

DUCKDB_MAX_RUNS = 1
"""Runs at once on the DuckDB store: one writer (DuckDB locks the file per process)."""
POSTGRES_MAX_RUNS = 4
"""Runs at once on the Postgres store: each RFP run holds one connection per step and about
1 GB of memory (the embedding model), so 4 fits a 4-core, 8 GB worker; raise it with the
machine (README: Scaling out)."""

LIBRARY_WRITER_TAG = ("rfp-retrieval/writer", "library")
"""Tag (key, value) of the library job (``jobs.py``): at most ``LIBRARY_RUNS_AT_ONCE`` such
runs at once on the Postgres instance."""
LIBRARY_RUNS_AT_ONCE = 1

RUN_MONITORING_POLL_S = 60
"""How often the daemon looks for runs whose process died (seconds)."""


ACTIVE_STATUSES = ("QUEUED", "STARTING", "STARTED", "CANCELING", "SUSPENDED")
"""Run statuses (``dagster.DagsterRunStatus`` names) of a run that may still write the store:
waiting in the queue, starting, running, or being stopped. ``NOT_STARTED`` is left out: a run
the queue never received stays there for good and writes nothing."""


class InstanceConfigError(ValueError):
    """The Dagster home's ``dagster.yaml`` cannot serve the configured store."""


@dataclass(frozen=True)
class ActiveRun:
    """A run on one of the project's Dagster instances (``active_runs``).

    ``store`` is the instance it was found on (``"duckdb"``: SQLite in the Dagster home;
    ``"postgres"``: the Postgres instance); ``status`` a ``DagsterRunStatus`` name;
    ``partition`` the RFP partition key (None for the library job).
    """

    run_id: str
    job: str
    status: str
    partition: str | None
    store: str

    def describe(self) -> str:
        """``"<job> [<partition>] run <run_id> (<STATUS>, <store> instance)"``."""
        part = f" [{self.partition}]" if self.partition else ""
        return f"{self.job}{part} run {self.run_id} ({self.status}, {self.store} instance)"


def active_runs(
    home: Path,
    postgres_url_env: str = POSTGRES_URL_ENV,
    updated_after: datetime | None = None,
) -> list[ActiveRun]:
    """Runs that may be writing either store, on both instances a project's Dagster home can
    have: the SQLite one of ``store: duckdb`` (only when ``home/history/runs.db`` exists, so
    nothing is created) and the Postgres one of ``store: postgres`` (when ``postgres_url_env``
    is set). Both are opened with ``instance_config(store)``, whatever ``home/dagster.yaml``
    holds now.

    Without ``updated_after``: the runs whose status is one of ``ACTIVE_STATUSES``. With it (a
    timezone-aware time): also every run whose record changed after it (one that started or
    ended meanwhile), so a caller can tell that something ran during its work.

    Returns them sorted by store, job and partition.

    Raises:
        InstanceConfigError: an instance cannot be opened (the message names the store and
            the home; a URL in it has its password replaced).
    """
    import os

    import dagster as dg
    from dagster._core.instance.ref import InstanceRef

    from rfp_retrieval.settings import scrub_secrets

    home = Path(home).resolve()
    stores = []
    if (home / "history" / "runs.db").is_file():
        stores.append("duckdb")
    if os.environ.get(postgres_url_env):
        stores.append("postgres")
    found: dict[str, ActiveRun] = {}
    for store in stores:
        filters = [dg.RunsFilter(statuses=[dg.DagsterRunStatus[s] for s in ACTIVE_STATUSES])]
        if updated_after is not None:
            filters.append(dg.RunsFilter(updated_after=updated_after))
        with tempfile.TemporaryDirectory(prefix="rfp-instance-") as folder:
            (Path(folder) / "dagster.yaml").write_text(
                instance_yaml(store, postgres_url_env), encoding="utf-8"
            )
            try:
                ref = InstanceRef.from_dir(str(home), config_dir=folder)
                with dg.DagsterInstance.from_ref(ref) as instance:
                    records = [r for f in filters for r in instance.get_run_records(f)]
            except Exception as exc:  # SQLAlchemy / psycopg2 errors may quote the URL
                reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                reason = scrub_secrets(
                    reason or type(exc).__name__, os.environ.get(postgres_url_env, "")
                )
                raise InstanceConfigError(
                    f"cannot read the runs of the {store} Dagster instance in {home}: {reason}"
                ) from None
        for record in records:
            run = record.dagster_run
            found.setdefault(
                run.run_id,
                ActiveRun(
                    run_id=run.run_id,
                    job=run.job_name,
                    status=run.status.value,
                    partition=run.tags.get("dagster/partition"),
                    store=store,
                ),
            )
    return sorted(found.values(), key=lambda r: (r.store, r.job, r.partition or "", r.run_id))


def instance_config(
    store: str,
    postgres_url_env: str = POSTGRES_URL_ENV,
    max_concurrent_runs: int | None = None,
) -> dict[str, Any]:
    """The ``dagster.yaml`` mapping for ``store`` (``"duckdb"`` or ``"postgres"``).

    ``postgres_url_env`` is the *name* of the environment variable holding the Postgres URL
    (read by each Dagster process when it opens the instance); ``max_concurrent_runs`` defaults
    to ``DUCKDB_MAX_RUNS`` / ``POSTGRES_MAX_RUNS``.

    Raises:
        InstanceConfigError: an unknown store, more than one run at a time on DuckDB, or an
            empty variable name.
    """
    if store not in STORES:
        raise InstanceConfigError(f"unknown store {store!r}: expected one of {', '.join(STORES)}")
    if store == "duckdb":
        runs = DUCKDB_MAX_RUNS if max_concurrent_runs is None else max_concurrent_runs
        if runs != DUCKDB_MAX_RUNS:
            raise InstanceConfigError(
                f"max_concurrent_runs {runs} on the DuckDB store: DuckDB has one writer, so "
                "runs go one at a time; set `store: postgres` for concurrent runs"
            )
        concurrency: dict[str, Any] = {"runs": {"max_concurrent_runs": runs}}
        storage: dict[str, Any] = {}
    else:
        if not postgres_url_env:
            raise InstanceConfigError("postgres_url_env is empty: name the URL's variable")
        runs = POSTGRES_MAX_RUNS if max_concurrent_runs is None else max_concurrent_runs
        key, value = LIBRARY_WRITER_TAG
        concurrency = {
            "runs": {
                "max_concurrent_runs": runs,
                "tag_concurrency_limits": [
                    {"key": key, "value": value, "limit": LIBRARY_RUNS_AT_ONCE}
                ],
            }
        }
        storage = {"storage": {"postgres": {"postgres_url": {"env": postgres_url_env}}}}
    return {
        **storage,
        "run_coordinator": {
            "module": "dagster.core.run_coordinator",
            "class": "QueuedRunCoordinator",
        },
        "concurrency": concurrency,
        "run_retries": {"enabled": True, "max_retries": 1},
        "run_monitoring": {"enabled": True, "poll_interval_seconds": RUN_MONITORING_POLL_S},
        "telemetry": {"enabled": False},
    }


def instance_yaml(
    store: str,
    postgres_url_env: str = POSTGRES_URL_ENV,
    max_concurrent_runs: int | None = None,
) -> str:
    """``instance_config(...)`` as the text of a ``dagster.yaml``, ``MARKER`` line first.

    Raises:
        InstanceConfigError: as ``instance_config``.
    """
    config = instance_config(store, postgres_url_env, max_concurrent_runs)
    if store == "duckdb":
        note = (
            "# DuckDB allows one writer: one run at a time, the rest wait in the queue.\n"
            "# Dagster's own storage is SQLite in this folder (the Dagster home).\n"
        )
    else:
        note = (
            f"# Dagster's run, event-log and schedule storage in Postgres; the URL is read from\n"
            f"# ${postgres_url_env} by every Dagster process (never written here).\n"
        )
    monitoring = (
        "# A run whose process was killed (laptop closed, OOM) stays STARTED: the default\n"
        "# launcher cannot see a dead process. With run monitoring the daemon fails an rfp_job\n"
        "# run past its `dagster/max_runtime` tag (jobs.py), which frees its run slot; re-run\n"
        "# the partition to repair it (a partition write is one transaction: nothing\n"
        "# half-written is visible).\n"
    )
    body = yaml.safe_dump(config, sort_keys=False)
    return f"{MARKER}{store}\n{note}{monitoring}{body}"


def write_home_instance(
    home: Path,
    store: str,
    postgres_url_env: str = POSTGRES_URL_ENV,
) -> Path:
    """Make ``home/dagster.yaml`` serve ``store``; returns its path.

    Written when missing, and rewritten when it was generated (``MARKER``) for other
    contents; a file without the marker (edited by a person) is kept, unless the store is
    Postgres and the file keeps Dagster's storage elsewhere.

    Raises:
        InstanceConfigError: a hand-written ``dagster.yaml`` that is not a YAML mapping, one
            without Postgres storage (``storage: {postgres: {...}}`` or the three
            ``dagster_postgres`` storages) in a home used with ``store: postgres``, or one
            that lets more than ``DUCKDB_MAX_RUNS`` runs go at once with ``store: duckdb``
            (the message names the file and the fix).
    """
    home = Path(home)
    home.mkdir(parents=True, exist_ok=True)
    path = home / "dagster.yaml"
    wanted = instance_yaml(store, postgres_url_env)
    if not path.exists():
        path.write_text(wanted, encoding="utf-8")
        return path
    current = path.read_text(encoding="utf-8")
    if current.removeprefix("\ufeff").startswith(MARKER):
        if current != wanted:
            path.write_text(wanted, encoding="utf-8")
        return path
    parsed = _hand_written(path, current)
    if store == "duckdb":
        runs = _max_runs(parsed)
        if runs is not None and runs != DUCKDB_MAX_RUNS:
            raise InstanceConfigError(
                f"{path} lets {runs} runs go at once but the store is duckdb, which has one "
                f"writer: set max_concurrent_runs to {DUCKDB_MAX_RUNS} there, or delete the "
                "file (it is rewritten for DuckDB)"
            )
    if store == "postgres":
        if not _keeps_runs_in_postgres(parsed):
            raise InstanceConfigError(
                f"{path} keeps Dagster's runs outside Postgres but the store is postgres: "
                f"delete the file (it is rewritten for Postgres) or add "
                f"`storage: {{postgres: {{postgres_url: {{env: {postgres_url_env}}}}}}}`"
            )
    return path


_LEGACY_STORAGES = ("run_storage", "event_log_storage", "schedule_storage")


def _hand_written(path: Path, text: str) -> dict[str, Any]:
    """The mapping of a person's ``dagster.yaml`` (``{}`` for an empty file).

    Raises:
        InstanceConfigError: the text is not YAML or not a mapping (names ``path``).
    """
    try:
        parsed = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise InstanceConfigError(
            f"{path} is not valid YAML{where}: fix it, or delete it to have it rewritten"
        ) from None
    if parsed is None:
        return {}
    if not isinstance(parsed, dict):
        raise InstanceConfigError(
            f"{path} holds a YAML {type(parsed).__name__}, not the mapping Dagster reads "
            "(storage:, run_coordinator:, ...): fix it, or delete it to have it rewritten"
        )
    return parsed


def _max_runs(parsed: dict[str, Any]) -> Any:
    """The runs-at-once limit a ``dagster.yaml`` mapping sets (``concurrency: runs:`` or the
    older ``run_queue:``), or None when it sets none."""
    for outer, inner in (("concurrency", "runs"), ("run_queue", None)):
        block = parsed.get(outer)
        if inner is not None and isinstance(block, dict):
            block = block.get(inner)
        if isinstance(block, dict) and block.get("max_concurrent_runs") is not None:
            return block["max_concurrent_runs"]
    return None


def _keeps_runs_in_postgres(parsed: dict[str, Any]) -> bool:
    """Whether a ``dagster.yaml`` mapping keeps runs, event logs and schedules in Postgres:
    ``storage: {postgres: {...}}``, or each of ``run_storage``, ``event_log_storage`` and
    ``schedule_storage`` naming a ``dagster_postgres`` module."""
    storage = parsed.get("storage")
    if isinstance(storage, dict) and isinstance(storage.get("postgres"), dict):
        return True
    return all(
        isinstance(parsed.get(key), dict)
        and str(parsed[key].get("module") or "").startswith("dagster_postgres")
        for key in _LEGACY_STORAGES
    )
