"""The code location as a function of the settings: ``build_definitions(settings)``.

Groups: library (past-performance facets and embeddings), rfp (one dynamic partition per
uploaded RFP), retrieval (references per RFP), report (the response brief per RFP). Steps run
in process by default; on the Postgres store a run may pick the multiprocess or Celery
executor (``jobs.rfp_executor``). DuckDB has a single writer, so its instance runs one run at
a time (``instance_config.py``).

Sensors: ``rfp_inbox_sensor`` (on by default) runs each new or edited RFP;
``embedding_automation_sensor`` (off by default) re-embeds and re-runs every RFP after a
model change (``sensors/automation.py``).

Importing this module reads no settings and builds nothing: ``definitions.py`` (what
``dagster dev`` loads) builds the definitions for the project's settings, the CLI's launcher
(``launch.py``) for the settings of the command, and tests for a temporary project.
"""

from __future__ import annotations

import os

import dagster as dg

from assets import answers, evaluation, library, questions, report, retrieval, rfp
from checks import answers as answer_checks
from checks import library as library_checks
from checks import retrieval as retrieval_checks
from jobs import (
    default_execution,
    evaluation_job,
    library_job,
    override_golden_job,
    rfp_executor,
    rfp_job,
)
from resources import build_resources
from resources.project import embedding_code_version
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.embedding import Embedder
from rfp_retrieval.settings import Settings, settings_with
from sensors.automation import (
    embedding_automation_sensor,
    reembed_on_code_version_change,
    rerun_after_upstream_update,
)
from sensors.inbox import rfp_inbox_sensor

library_assets = dg.load_assets_from_modules([library])
answer_assets = dg.load_assets_from_modules([answers])
rfp_assets = dg.load_assets_from_modules([rfp, questions, retrieval])
evaluation_assets = dg.load_assets_from_modules([evaluation])
report_assets = dg.load_assets_from_modules([report])


VECTOR_ASSETS = ("pp_facet_embeddings", "answer_block_embeddings", "scope_query")
"""The assets that store vectors: their code version is the model id + ``EMBEDDING_RECIPE``."""
RANKING_ASSETS = ("pp_references",)
"""The assets whose code version is the ranking config's fingerprint (a changed weight, bump
or mode marks the stored references stale)."""


def code_versions(settings: Settings) -> dict[dg.AssetKey, str]:
    """The code version of every versioned asset for ``settings``.

    Vector-storing assets get ``embedding_code_version(model id)``
    (``resources.project``), so building the definitions for another model marks exactly
    those assets stale ("new code version"), and their downstream partitions after they are
    re-materialized (field notes §2d); the ranking assets get
    ``RankingConfig(mode=settings.ranking_mode).fingerprint()``.
    """
    vectors = embedding_code_version(Embedder(settings.model).model_id)
    ranking = RankingConfig(mode=settings.ranking_mode).fingerprint()
    return {
        **{dg.AssetKey(key): vectors for key in VECTOR_ASSETS},
        **{dg.AssetKey(key): ranking for key in RANKING_ASSETS},
    }


def with_code_versions(assets: list, settings: Settings) -> list:
    """``assets`` with the code versions of ``code_versions(settings)`` attached."""
    versions = code_versions(settings)

    def attach(spec: dg.AssetSpec) -> dg.AssetSpec:
        if spec.key in versions:
            return spec.replace_attributes(code_version=versions[spec.key])
        return spec

    return dg.map_asset_specs(attach, assets)


def vector_asset_keys(assets: list) -> set[dg.AssetKey]:
    """Keys of the assets in ``assets`` that store vectors (``VECTOR_ASSETS``)."""
    vectors = {dg.AssetKey(key) for key in VECTOR_ASSETS}
    return {spec.key for asset in assets for spec in asset.specs if spec.key in vectors}


def with_model_automation(assets: list) -> tuple[list, dg.AssetSelection]:
    """``assets`` with the model-change automation conditions, and the selection they cover.

    Vector-storing assets get ``reembed_on_code_version_change``; the *partitioned* assets
    downstream of them (one RFP each) get ``rerun_after_upstream_update``. Unpartitioned
    downstream assets (the evaluation) and everything upstream keep no condition: the
    evaluation job and the inbox sensor own them. Evaluated only while
    ``embedding_automation_sensor`` is on.
    """
    vectors = vector_asset_keys(assets)
    vector_selection = dg.AssetSelection.assets(*vectors)
    downstream = vector_selection.downstream(include_self=False).resolve(assets)
    automated: set[dg.AssetKey] = set(vectors)

    def attach(spec: dg.AssetSpec) -> dg.AssetSpec:
        if spec.key in vectors:
            return spec.replace_attributes(automation_condition=reembed_on_code_version_change())
        if spec.key in downstream and spec.partitions_def is not None:
            automated.add(spec.key)
            return spec.replace_attributes(
                automation_condition=rerun_after_upstream_update(vector_selection)
            )
        return spec

    mapped = dg.map_asset_specs(attach, assets)
    return mapped, dg.AssetSelection.assets(*sorted(automated, key=lambda k: k.path))


def build_definitions(settings: Settings) -> dg.Definitions:
    """The code location for ``settings`` (tests build one per temporary project; the CLI's
    launcher, ``launch.py``, one per command).

    Everything that depends on the settings is computed here, not at import: the code
    versions (``code_versions``), the resources, the automation selection and the default
    executor (``jobs.default_execution``: Celery when ``RFP_RETRIEVAL_CELERY_BROKER`` is set
    on the Postgres store).

    A packaged model (``model: all-mpnet-base-v2``) is handed to the embedding resource as its
    folder in ``settings.model_cache_dir`` (``Settings.model_location``); nothing is unpacked
    while the definitions load, only when an asset first encodes.
    """
    assets, automated = with_model_automation(
        with_code_versions(
            [*library_assets, *answer_assets, *rfp_assets, *report_assets, *evaluation_assets],
            settings,
        )
    )
    return dg.Definitions(
        assets=assets,
        asset_checks=dg.load_asset_checks_from_modules(
            [library_checks, retrieval_checks, answer_checks, evaluation]
        ),
        jobs=[library_job, rfp_job, evaluation_job, override_golden_job],
        sensors=[rfp_inbox_sensor, embedding_automation_sensor(automated)],
        resources=build_resources(settings_with(settings, model=settings.model_location())),
        executor=rfp_executor(settings.store, default_execution(settings.store, os.environ)),
    )
