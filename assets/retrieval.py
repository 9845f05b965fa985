"""Retrieval assets per RFP partition: the three past-performance references to cite."""

import dagster as dg
import polars as pl

from assets.partitions import rfp_partitions
from assets.previews import markdown_preview
from resources import ProjectPaths
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.past_performance import EntryVectors, rank_references
from rfp_retrieval.retrieval.references import references_frame
from rfp_retrieval.retrieval.scope_query import scope_query_from_row

OWNERS = ["team:proposal-ops"]


@dg.asset(
    partitions_def=rfp_partitions,
    group_name="retrieval",
    kinds={"duckdb", "polars", "python"},
    owners=OWNERS,
    metadata={"partition_expr": "rfp_partition"},
    description=(
        "The three past-performance references to cite for this RFP, each with every score "
        "component (narrative, technical and outcome cosine, recency and agency bumps), the "
        "constraints it misses if a filter had to be relaxed, the candidate count and the "
        "filter trace. A writer can override any pick."
    ),
)
def pp_references(
    context: dg.AssetExecutionContext,
    scope_query: pl.DataFrame,
    pp_entries: pl.DataFrame,
    pp_facet_embeddings: pl.DataFrame,
    paths: ProjectPaths,
) -> dg.Output[pl.DataFrame]:
    """Rank the library against the partition's ScopeQuery (hard filters, facets, bumps)."""
    row = scope_query.row(0, named=True)
    stale = pp_facet_embeddings.filter(pl.col("model") != row["model"]).height
    if stale:
        raise dg.Failure(
            description=(
                f"library vectors were made with another model than this ScopeQuery "
                f"({row['model']}); re-materialize pp_facet_embeddings and this partition"
            )
        )
    config = RankingConfig(mode=paths.ranking_mode)
    result = rank_references(
        pp_entries, EntryVectors.from_frame(pp_facet_embeddings), scope_query_from_row(row), config
    )
    frame = references_frame(context.partition_key, result)
    table = frame.select(
        [
            "rank",
            "id",
            "title",
            "score",
            "narrative",
            "technical",
            "outcome",
            "recency_bump",
            "age_penalty",
            "agency_bump",
            "relaxed",
        ]
    )
    return dg.Output(
        frame,
        metadata={
            "mode": result.mode,
            "candidate_count": result.candidate_count,
            "relaxed": ", ".join(result.relaxed) or "none",
            "top3": dg.MetadataValue.md(markdown_preview(table)),
            "filter_trace": dg.MetadataValue.json(result.filter_trace),
            **({"reason": result.reason} if result.reason else {}),
        },
    )
