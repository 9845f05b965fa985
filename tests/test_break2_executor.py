"""Break-it round 2: odd executor settings in run config and the environment (jobs.py)."""

from __future__ import annotations

import dagster as dg
import pytest

from jobs import CELERY_BROKER_ENV, ExecutorSettingError, rfp_executor


@dg.op
def _noop() -> None:
    return None


@dg.job
def _a_job() -> None:
    _noop()


def _create(store: str, config: dict):
    executor = rfp_executor(store)
    context = dg.InitExecutorContext(
        job=dg.reconstructable(_a_job),
        executor_def=executor,
        executor_config=config,
        instance=dg.DagsterInstance.ephemeral(),
    )
    return executor.executor_creation_fn(context)


@pytest.mark.parametrize("junk", ["not a url at all", "localhost:6379", "s3cret-passw0rd"])
def test_a_junk_celery_broker_is_refused_naming_the_variable_not_the_value(junk):
    with pytest.raises(ExecutorSettingError) as err:
        _create("postgres", {"celery": {"broker": junk}})
    assert str(err.value).startswith(f"the celery broker is not a URL: set {CELERY_BROKER_ENV}")
    assert junk not in str(err.value)


def test_a_celery_broker_url_passes_the_check():
    executor = _create(
        "postgres", {"celery": {"broker": "redis://127.0.0.1:1/0", "retries": {"enabled": {}}}}
    )
    assert type(executor).__name__ == "CeleryExecutor"


@pytest.mark.parametrize(
    ("execution", "said"),
    [
        ({"dask": {}}, 'unexpected config entry "dask"'),
        ({"in_process": {}, "multiprocess": {}}, "You can only specify a single field"),
    ],
)
def test_an_unknown_or_second_executor_in_run_config_is_a_config_error(execution, said):
    with pytest.raises(dg.DagsterInvalidConfigError, match=said):
        dg.validate_run_config(
            _a_job.with_executor_def(rfp_executor("duckdb")),
            {"execution": {"config": execution}},
        )
