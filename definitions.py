"""The rfp-retrieval code location: one Definitions for the whole pipeline.

Groups: library (past-performance facets and embeddings), rfp (one dynamic partition per
uploaded RFP), retrieval (references per RFP). DuckDB has a single writer, so every job runs
in process and the instance queue runs one run at a time (see ``dagster.yaml``).
"""

from __future__ import annotations

import dagster as dg

from assets import library, questions, retrieval, rfp
from checks import library as library_checks
from checks import retrieval as retrieval_checks
from jobs import library_job, rfp_job
from resources import build_resources
from resources.project import SETTINGS
from rfp_retrieval.settings import Settings
from sensors.inbox import rfp_inbox_sensor

library_assets = dg.load_assets_from_modules([library])
rfp_assets = dg.load_assets_from_modules([rfp, questions, retrieval])


def build_definitions(settings: Settings) -> dg.Definitions:
    """The code location for ``settings`` (tests build one per temporary project)."""
    return dg.Definitions(
        assets=[*library_assets, *rfp_assets],
        asset_checks=dg.load_asset_checks_from_modules([library_checks, retrieval_checks]),
        jobs=[library_job, rfp_job],
        sensors=[rfp_inbox_sensor],
        resources=build_resources(settings),
        executor=dg.in_process_executor,
    )


defs = build_definitions(SETTINGS)
