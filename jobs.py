"""The jobs (rebuild the library, process one RFP partition, evaluate) and the executor every
run picks its step executor from (``rfp_executor``: in process, multiprocess or Celery)."""

from collections.abc import Mapping

import dagster as dg

from instance_config import LIBRARY_WRITER_TAG

LIBRARY_JOB = "library_job"
RFP_JOB = "rfp_job"
EVALUATION_JOB = "evaluation_job"
OVERRIDE_GOLDEN_JOB = "override_golden_job"
RFP_RUN_MAX_SECONDS = 1800

library_job = dg.define_asset_job(
    LIBRARY_JOB,
    selection=dg.AssetSelection.groups("library", "answers"),
    description="Ingest, validate and embed the past-performance library and answer library.",
    # one library run at a time on the Postgres instance (its tag concurrency limit): two
    # would rewrite the same unpartitioned tables
    tags=dict([LIBRARY_WRITER_TAG]),
)
rfp_job = dg.define_asset_job(
    RFP_JOB,
    selection=dg.AssetSelection.groups("rfp", "retrieval", "report"),
    description=(
        "Read one RFP partition, pick its past-performance references and write its brief."
    ),
    # One RFP takes about a minute; a run still STARTED after 30 minutes lost its process
    # (run monitoring in dagster.yaml fails it so the queue moves on).
    tags={"dagster/max_runtime": str(RFP_RUN_MAX_SECONDS)},
)
evaluation_job = dg.define_asset_job(
    EVALUATION_JOB,
    selection=dg.AssetSelection.groups("evaluation"),
    description=(
        "Score every ranking mode on the golden set(s) (recall@3, MRR, hits per scope) and "
        "export the writers' overrides as golden-set lines."
    ),
)
override_golden_job = dg.define_asset_job(
    OVERRIDE_GOLDEN_JOB,
    selection=dg.AssetSelection.assets("override_golden_lines"),
    description=(
        "Export the writers' overrides as golden-set lines (<output_dir>/golden/"
        "overrides.jsonl); run after RFP runs and review-page swaps when overrides exist."
    ),
)


EXECUTOR_MODES = ("in_process", "multiprocess", "celery")
"""The step executors a run can pick with ``execution: {config: {<mode>: {...}}}`` (README:
Scaling out). ``in_process`` is the default and the only one the DuckDB store allows."""


class ExecutorSettingError(ValueError):
    """A run asked for an executor the configured store cannot serve."""


def _celery_config_field() -> dg.Field:
    """The Celery executor's own config (broker, backend, include, config_source, retries), or
    a placeholder when ``dagster-celery`` is not installed (the run then fails saying so)."""
    try:
        from dagster_celery import celery_executor
    except ImportError:
        return dg.Field(dg.Permissive(), is_required=False)
    return celery_executor.config_schema.as_field()


CELERY_BROKER_ENV = "RFP_RETRIEVAL_CELERY_BROKER"
"""Environment variable: the Celery broker URL (``redis://host:6379/0``). When it is set as the
definitions are built on the Postgres store, ``celery`` is every run's default executor (a
deployment's sensor-started runs spread their steps over the workers); a run's own
``execution`` config still wins."""
CELERY_BACKEND_ENV = "RFP_RETRIEVAL_CELERY_BACKEND"
"""Environment variable: the Celery result backend URL (``redis://host:6379/1``), read with
``CELERY_BROKER_ENV``."""


def default_execution(store: str, environ: Mapping[str, str]) -> dict:
    """The executor config a run gets when its run config names none: ``celery`` with the
    broker and backend read from ``CELERY_BROKER_ENV`` / ``CELERY_BACKEND_ENV`` by each
    process (``{env: VAR}``, so no URL is stored in a run) when ``environ`` sets the broker and
    ``store`` is ``"postgres"``; else ``in_process``."""
    if store == "postgres" and environ.get(CELERY_BROKER_ENV):
        celery = {"broker": {"env": CELERY_BROKER_ENV}}
        if environ.get(CELERY_BACKEND_ENV):
            celery["backend"] = {"env": CELERY_BACKEND_ENV}
        return {"celery": celery}
    return {"in_process": {}}


def _check_broker(broker: object) -> None:
    """Refuse a Celery broker that is not a URL (``redis://host:6379/0``) before any step is
    sent: kombu would fail on it with a bare "Name or service not known". The value is not
    echoed (a broker URL may hold a password); None leaves Celery its own default.

    Raises:
        ExecutorSettingError: ``broker`` is set and holds no ``scheme://``.
    """
    if broker is None or "://" in str(broker):
        return
    raise ExecutorSettingError(
        f"the celery broker is not a URL: set {CELERY_BROKER_ENV} (or the run's "
        "execution.config.celery.broker) to scheme://host:port/db, e.g. redis://host:6379/0"
    )


def _mode_requirements(config: dict) -> list:
    return [] if "in_process" in config else dg.multiple_process_executor_requirements()


def rfp_executor(store: str, default: dict | None = None) -> dg.ExecutorDefinition:
    """The code location's executor for ``store`` (``"duckdb"`` or ``"postgres"``): one of
    ``EXECUTOR_MODES`` chosen per run by run config, default ``default`` (``in_process``;
    ``default_execution`` gives the deployment's)::

        execution: {config: {in_process: {}}}
        execution: {config: {multiprocess: {max_concurrent: 2}}}
        execution: {config: {celery: {broker: "redis://host:6379/0",
                                      backend: "redis://host:6379/1"}}}

    ``multiprocess`` and ``celery`` run each step in its own process (a Celery worker's, on
    any machine that can import the code location), so they need a persistent instance
    (``instance_config``: Postgres) and a store several processes can write at once.

    Raises (when a run starts):
        ExecutorSettingError: ``multiprocess`` or ``celery`` on the DuckDB store (one writer:
            DuckDB locks the file per process), ``celery`` without ``dagster-celery``, or a
            Celery broker that is not a URL (``scheme://...``; the value is not echoed).
    """

    @dg.executor(
        name="rfp_executor",
        config_schema=dg.Field(
            dg.Selector(
                {
                    "in_process": dg.in_process_executor.config_schema.as_field(),
                    "multiprocess": dg.multiprocess_executor.config_schema.as_field(),
                    "celery": _celery_config_field(),
                }
            ),
            default_value=default or {"in_process": {}},
        ),
        requirements=_mode_requirements,
    )
    def executor(init_context: dg.InitExecutorContext) -> dg.Executor:
        ((mode, config),) = init_context.executor_config.items()
        if mode != "in_process" and store == "duckdb":
            raise ExecutorSettingError(
                f"the {mode} executor runs steps in several processes, but the DuckDB store "
                "has one writer: use `execution: {config: {in_process: {}}}` or set "
                "`store: postgres` (README: Scaling out)"
            )
        if mode == "celery":
            _check_broker(config.get("broker"))
            try:
                from dagster_celery import celery_executor as inner
            except ImportError as exc:
                raise ExecutorSettingError(
                    "the celery executor needs dagster-celery: pip install 'rfp-retrieval[scale]'"
                ) from exc
        else:
            inner = {
                "in_process": dg.in_process_executor,
                "multiprocess": dg.multiprocess_executor,
            }[mode]
        return inner.executor_creation_fn(
            dg.InitExecutorContext(
                job=init_context.job,
                executor_def=inner,
                executor_config=config,
                instance=init_context.instance,
            )
        )

    return executor
