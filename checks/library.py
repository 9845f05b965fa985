"""Checks on the library tables and their vectors (failing rows named in the metadata)."""

import dagster as dg
import numpy as np
import polars as pl

from resources import EmbeddingModel, ProjectPaths
from resources.partition_store import DuckDBPartitionStore
from rfp_retrieval.library.quality import vague_outcome_ids, validate_entries


@dg.asset_check(
    asset="pp_entries",
    description=(
        "Great Expectations suite on the library: it has entries, ids unique, known customer "
        "and vehicle types, dates present, start before end, value min <= max, plausible "
        "values and dates, write-ups not copied under another id. Lists the "
        "failing ids; an empty library names its folder and the first rejected row."
    ),
)
def pp_entries_quality_suite(
    pp_entries: pl.DataFrame, paths: ProjectPaths, duckdb: DuckDBPartitionStore
) -> dg.AssetCheckResult:
    rejected = None
    if pp_entries.is_empty():  # why: the rejected rows stored beside it by the same step
        rejected = duckdb.read_table("pp_rejected_entries", ["file", "row", "reason"])
    outcomes = validate_entries(pp_entries, paths.library_dir, rejected)
    failed = [o for o in outcomes if not o.success]
    severity = (
        dg.AssetCheckSeverity.ERROR
        if any(o.blocking for o in failed)
        else dg.AssetCheckSeverity.WARN
    )
    return dg.AssetCheckResult(
        passed=not failed,
        severity=severity,
        metadata={
            **{o.expectation: o.summary for o in outcomes},
            "failed_expectations": len(failed),
            "rows": pp_entries.height,
        },
    )


@dg.asset_check(
    asset="pp_entries",
    description=(
        "Flags references whose outcomes are vague (no number, percentage or measurable "
        "before/after): reviewers scan outcomes first, so these need a writer's attention."
    ),
)
def pp_entries_vague_outcomes(pp_entries: pl.DataFrame) -> dg.AssetCheckResult:
    vague = vague_outcome_ids(pp_entries)
    return dg.AssetCheckResult(
        passed=not vague,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "vague_count": len(vague),
            "vague_share": round(len(vague) / max(pp_entries.height, 1), 3),
            "vague_ids": ", ".join(vague) or "none",
        },
    )


@dg.asset_check(
    asset="pp_facet_embeddings",
    description=(
        "Every stored vector was made by the configured model, has the model's dimension and "
        "unit length: old and new vectors are never mixed."
    ),
)
def pp_facet_embeddings_match_model(
    pp_facet_embeddings: pl.DataFrame, embedding_model: EmbeddingModel
) -> dg.AssetCheckResult:
    frame = pp_facet_embeddings
    other = frame.filter(pl.col("model") != embedding_model.model_id)
    dims = sorted(set(frame["dim"].to_list()))
    # row by row: an empty library has no vectors, and mixed dimensions make no matrix
    norms = [float(np.linalg.norm(np.asarray(v, dtype=np.float32))) for v in frame["vector"]]
    off_unit = sum(abs(n - 1.0) > 1e-3 for n in norms)
    passed = other.height == 0 and len(dims) <= 1 and off_unit == 0
    return dg.AssetCheckResult(
        passed=passed,
        metadata={
            "configured_model": embedding_model.model_id,
            "vectors_of_other_models": other.height,
            "other_model_ids": ", ".join(sorted(set(other["id"].to_list()))[:50]) or "none",
            "dimensions": str(dims),
            "not_unit_length": off_unit,
        },
    )
