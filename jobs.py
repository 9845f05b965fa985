"""The two jobs: rebuild the library, and process one RFP partition."""

import dagster as dg

LIBRARY_JOB = "library_job"
RFP_JOB = "rfp_job"
EVALUATION_JOB = "evaluation_job"
RFP_RUN_MAX_SECONDS = 1800

library_job = dg.define_asset_job(
    LIBRARY_JOB,
    selection=dg.AssetSelection.groups("library", "answers"),
    description="Ingest, validate and embed the past-performance library and answer library.",
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
