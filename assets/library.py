"""Library assets: the past-performance library as validated facet tables and embeddings."""

from pathlib import Path

import dagster as dg
import polars as pl

from assets.partitions import OWNERS
from assets.previews import markdown_preview
from resources import EmbeddingModel, ProjectPaths
from resources.partition_store import DuckDBPartitionStore
from rfp_retrieval.library.fingerprint import folder_fingerprint
from rfp_retrieval.library.frames import rejected_frame, superseded_frame
from rfp_retrieval.library.ingest import load_library_frame
from rfp_retrieval.library.quality import empty_library_reason
from rfp_retrieval.retrieval.facets import facet_embeddings_frame

LIBRARY_FINGERPRINT = "library_fingerprint"
"""``pp_entries`` metadata: ``folder_fingerprint`` of the library folder the run read (the inbox
sensor rebuilds the library only when today's differs)."""


@dg.multi_asset(
    outs={
        "pp_entries": dg.AssetOut(
            description=(
                "Past-performance library, one row per reference: customer, contract value "
                "band (USD), period of performance, technology and domain tags, outcome "
                "metrics. Built from the team's spreadsheets and Markdown write-ups; each "
                "row lists its data-quality defects."
            ),
            kinds={"duckdb", "polars", "python"},
            owners=OWNERS,
        ),
        "pp_rejected_entries": dg.AssetOut(
            description=(
                "Library rows that could not be read, with file, row and reason. "
                "Nothing is dropped silently: fix the source row and re-run."
            ),
            kinds={"duckdb", "polars"},
            owners=OWNERS,
        ),
        "pp_superseded_entries": dg.AssetOut(
            description="Older duplicates of a reference id; the most recently updated row won.",
            kinds={"duckdb", "polars"},
            owners=OWNERS,
        ),
    },
    group_name="library",
)
def pp_entries(context: dg.AssetExecutionContext, paths: ProjectPaths):
    """Ingest and normalise the past-performance library folder."""
    # taken before reading: an edit made during the run makes the next sensor tick rebuild
    fingerprint = folder_fingerprint(Path(paths.library_dir))
    # streamed into the frame (issue 17: a million entries as Python objects held ~10 GB)
    loaded = load_library_frame(paths.library_dir)
    entries = loaded.entries
    rejected = rejected_frame(loaded.rejected)
    superseded = superseded_frame(loaded.superseded)
    with_defects = entries.filter(pl.col("defects").list.len() > 0)
    context.log.info(
        f"{entries.height} entries, {rejected.height} rejected, {superseded.height} superseded"
    )
    empty = empty_library_reason(paths.library_dir, rejected) if entries.is_empty() else None
    if empty:  # still stored: the RFPs get no references and say why, the rejects stay listed
        context.log.warning(empty)
    preview_cols = ["id", "title", "customer_type", "value_min", "value_max", "end_date"]
    yield dg.Output(
        entries,
        output_name="pp_entries",
        metadata={
            "row_count": entries.height,
            "with_defects": with_defects.height,
            "library_dir": paths.library_dir,
            LIBRARY_FINGERPRINT: fingerprint,
            **({"empty_library": empty} if empty else {}),
            "preview": dg.MetadataValue.md(markdown_preview(entries.select(preview_cols))),
        },
    )
    yield dg.Output(
        rejected,
        output_name="pp_rejected_entries",
        metadata={
            "row_count": rejected.height,
            "preview": dg.MetadataValue.md(
                markdown_preview(rejected.select(["file", "row", "reason"]))
            ),
        },
    )
    yield dg.Output(
        superseded, output_name="pp_superseded_entries", metadata={"row_count": superseded.height}
    )


@dg.asset(
    group_name="library",
    kinds={"duckdb", "polars", "python"},
    owners=OWNERS,
    description=(
        "One unit vector per library entry and facet (narrative, technical, outcome, plus the "
        "whole entry for the naive baseline), with the model id stored beside each vector. "
        "Only new or changed texts are embedded; a model change re-embeds everything."
    ),
)
def pp_facet_embeddings(
    context: dg.AssetExecutionContext,
    pp_entries: pl.DataFrame,
    embedding_model: EmbeddingModel,
    duckdb: DuckDBPartitionStore,
) -> dg.Output[pl.DataFrame]:
    """Embed each entry's facets with the configured model."""
    previous = duckdb.read_table(
        "pp_facet_embeddings", ["id", "facet", "model", "text_sha", "vector"]
    )
    frame, counts = facet_embeddings_frame(pp_entries, embedding_model.embedder, previous)
    context.log.info(f"embedded {counts['embedded']} facet texts, reused {counts['reused']}")
    return dg.Output(
        frame,
        metadata={
            "row_count": frame.height,
            "model": embedding_model.model_id,
            # where the model was loaded from: a run in flight when these vectors replace
            # another model's embeds its queries with it (EmbeddingModel.embedder_for_vectors)
            "model_source": embedding_model.model_source,
            "dimension": int(frame["dim"][0]) if frame.height else 0,
            **counts,
        },
    )
