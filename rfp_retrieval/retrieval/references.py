"""The ``pp_references`` table: one row per chosen reference (or one placeholder row)."""

from __future__ import annotations

import json
from typing import Any

import polars as pl

from rfp_retrieval.retrieval.components import COMPONENTS, RAW_COSINES, SUMMED_COMPONENTS
from rfp_retrieval.retrieval.records import RankingResult

# Columns, raw cosines and summed components come from the registry of score components:
# ``RAW_COSINES`` holds every raw cosine (``whole`` too, which is the score itself only in
# the ``naive`` mode); ``SUMMED_COMPONENTS`` every component some mode sums into the score.
__all__ = [
    "COMPONENTS",
    "RAW_COSINES",
    "REFERENCES_SCHEMA",
    "SUMMED_COMPONENTS",
    "references_frame",
    "references_from_frame",
]

REFERENCES_SCHEMA: dict[str, Any] = {
    "rfp_partition": pl.String,
    "rank": pl.Int64,
    "id": pl.String,
    "title": pl.String,
    "score": pl.Float64,
    **{c: pl.Float64 for c in COMPONENTS},
    "relaxed": pl.List(pl.String),
    "unknown": pl.List(pl.String),
    "missing_facets": pl.List(pl.String),
    "mode": pl.String,
    "ranking_config": pl.String,
    "candidate_count": pl.Int64,
    "relaxation_steps": pl.List(pl.String),
    "filter_trace": pl.String,
    "reason": pl.String,
}


def references_frame(partition: str, result: RankingResult) -> pl.DataFrame:
    """Rows for one partition. With no reference, one row with rank 0 and ``reason`` set
    (an empty partition write would leave no table to read downstream)."""
    shared = {
        "rfp_partition": partition,
        "mode": result.mode,
        "ranking_config": result.ranking_config,
        "candidate_count": result.candidate_count,
        "relaxation_steps": list(result.relaxed),
        "filter_trace": json.dumps(result.filter_trace),
        "reason": result.reason,
    }
    rows = []
    for ref in result.references:
        row = {**shared, "rank": ref.rank, "id": ref.id, "title": ref.title, "score": ref.score}
        row.update({c: ref.components.get(c) for c in COMPONENTS})
        row["relaxed"] = list(ref.relaxed)
        row["unknown"] = list(ref.unknown)
        row["missing_facets"] = list(ref.missing)
        rows.append(row)
    if not rows:
        rows.append({**shared, "rank": 0, "relaxed": [], "unknown": [], "missing_facets": []})
    return pl.DataFrame(rows, schema=REFERENCES_SCHEMA)


def references_from_frame(frame: pl.DataFrame) -> list[dict[str, Any]]:
    """The references of one partition as JSON-ready dicts (``run --json`` shape)."""
    out = []
    for row in frame.filter(pl.col("rank") > 0).sort("rank").iter_rows(named=True):
        components = {c: row[c] for c in COMPONENTS if row[c] is not None}
        out.append(
            {
                "id": row["id"],
                "title": row["title"],
                "score": row["score"],
                "components": components,
                "relaxed": list(row["relaxed"] or []),
            }
        )
    return out
