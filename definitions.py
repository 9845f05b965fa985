"""The rfp-retrieval code location: one Definitions for the whole pipeline.

Groups: library (past-performance facets and embeddings), rfp (one dynamic partition per
uploaded RFP), retrieval (references per RFP), report (the response brief per RFP). DuckDB has
a single writer, so every job runs in process and the instance queue runs one run at a time
(see ``dagster.yaml``).
"""

from __future__ import annotations

import dagster as dg

from assets import answers, evaluation, library, questions, report, retrieval, rfp
from checks import answers as answer_checks
from checks import library as library_checks
from checks import retrieval as retrieval_checks
from jobs import evaluation_job, library_job, rfp_job
from resources import build_resources
from resources.project import EMBEDDING_RECIPE, SETTINGS, embedding_code_version
from rfp_retrieval.retrieval.embedding import Embedder
from rfp_retrieval.settings import Settings
from sensors.inbox import rfp_inbox_sensor

library_assets = dg.load_assets_from_modules([library])
answer_assets = dg.load_assets_from_modules([answers])
rfp_assets = dg.load_assets_from_modules([rfp, questions, retrieval])
evaluation_assets = dg.load_assets_from_modules([evaluation])
report_assets = dg.load_assets_from_modules([report])


def with_model_code_version(assets: list, model: str) -> list:
    """``assets`` with every vector-storing asset's code version set for ``model``.

    Vector-storing assets are the ones whose code version ends with ``@EMBEDDING_RECIPE``
    (``resources.project.embedding_code_version``). Building the definitions for another model
    therefore marks exactly those assets stale ("new code version"), and their downstream
    partitions after they are re-materialized (field notes §2d).
    """
    version = embedding_code_version(Embedder(model).model_id)

    def swap(spec: dg.AssetSpec) -> dg.AssetSpec:
        if (spec.code_version or "").endswith(f"@{EMBEDDING_RECIPE}"):
            return spec.replace_attributes(code_version=version)
        return spec

    return dg.map_asset_specs(swap, assets)


def build_definitions(settings: Settings) -> dg.Definitions:
    """The code location for ``settings`` (tests build one per temporary project)."""
    return dg.Definitions(
        assets=with_model_code_version(
            [*library_assets, *answer_assets, *rfp_assets, *report_assets, *evaluation_assets],
            settings.model,
        ),
        asset_checks=dg.load_asset_checks_from_modules(
            [library_checks, retrieval_checks, answer_checks, evaluation]
        ),
        jobs=[library_job, rfp_job, evaluation_job],
        sensors=[rfp_inbox_sensor],
        resources=build_resources(settings),
        executor=dg.in_process_executor,
    )


defs = build_definitions(SETTINGS)
