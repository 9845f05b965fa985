"""Checks on each RFP partition's ScopeQuery and references."""

import dagster as dg
import polars as pl

from checks.partitions import Evaluation, partition_check


@dg.asset_check(
    asset="scope_query",
    description=(
        "The RFP's past-performance filters were read: warns when the ScopeQuery has no "
        "recency window, no value band and no customer type (the ranking is then unfiltered "
        "by the RFP's own rules; check the RFP's Section L/M by hand)."
    ),
)
def scope_query_filters_parsed(scope_query: pl.DataFrame) -> dg.AssetCheckResult:
    return partition_check(scope_query, _filters_parsed, dg.AssetCheckSeverity.WARN)


def _filters_parsed(scope_query: pl.DataFrame) -> Evaluation:
    row = scope_query.row(0, named=True)
    found = {
        "recency": row["ended_after"] is not None or row["started_after"] is not None,
        "value": row["value_min"] is not None or row["value_max"] is not None,
        "customer_types": bool(row["customer_types"]),
        "issuer": bool(row["issuer"]),
    }
    passed = any(found[k] for k in ("recency", "value", "customer_types"))
    return passed, {f"found_{k}": v for k, v in found.items()}


@dg.asset_check(
    asset="pp_references",
    description=(
        "Warns when fewer than three library entries passed the RFP's hard filters and a "
        "constraint had to be relaxed; names the relaxation steps and the references that "
        "miss a stated constraint."
    ),
)
def pp_references_no_fallback(pp_references: pl.DataFrame) -> dg.AssetCheckResult:
    return partition_check(pp_references, _no_fallback, dg.AssetCheckSeverity.WARN)


def _no_fallback(pp_references: pl.DataFrame) -> Evaluation:
    steps = pp_references["relaxation_steps"][0].to_list() if pp_references.height else []
    missing = pp_references.filter(pl.col("relaxed").list.len() > 0)
    chosen = pp_references.filter(pl.col("rank") > 0).height
    return not steps and chosen >= 3, {
        "relaxation_steps": ", ".join(steps) or "none",
        "references_missing_a_constraint": ", ".join(
            f"{r['id']} ({', '.join(r['relaxed'])})" for r in missing.iter_rows(named=True)
        )
        or "none",
        "references": chosen,
    }
