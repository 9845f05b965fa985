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

No Dagster import here: ``rfp-retrieval ui`` prepares the home before starting ``dagster dev``.
"""

from __future__ import annotations

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


class InstanceConfigError(ValueError):
    """The Dagster home's ``dagster.yaml`` cannot serve the configured store."""


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
        InstanceConfigError: a hand-written ``dagster.yaml`` without Postgres storage in a home
            used with ``store: postgres`` (the message names the file and the fix).
    """
    home = Path(home)
    home.mkdir(parents=True, exist_ok=True)
    path = home / "dagster.yaml"
    wanted = instance_yaml(store, postgres_url_env)
    if not path.exists():
        path.write_text(wanted, encoding="utf-8")
        return path
    current = path.read_text(encoding="utf-8")
    if current.startswith(MARKER):
        if current != wanted:
            path.write_text(wanted, encoding="utf-8")
        return path
    if store == "postgres":
        parsed = yaml.safe_load(current) or {}
        if "postgres" not in (parsed.get("storage") or {}):
            raise InstanceConfigError(
                f"{path} keeps Dagster's runs outside Postgres but the store is postgres: "
                f"delete the file (it is rewritten for Postgres) or add "
                f"`storage: {{postgres: {{postgres_url: {{env: {postgres_url_env}}}}}}}`"
            )
    return path
