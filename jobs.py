"""The two jobs: rebuild the library, and process one RFP partition."""

import dagster as dg

LIBRARY_JOB = "library_job"
RFP_JOB = "rfp_job"

library_job = dg.define_asset_job(
    LIBRARY_JOB,
    selection=dg.AssetSelection.groups("library"),
    description="Ingest, validate and embed the past-performance library.",
)
rfp_job = dg.define_asset_job(
    RFP_JOB,
    selection=dg.AssetSelection.groups("rfp", "retrieval"),
    description="Read one RFP partition and pick its past-performance references.",
)
