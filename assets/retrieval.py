"""Retrieval assets per RFP partition: the three past-performance references to cite."""

import dagster as dg
import polars as pl

from assets.partitions import each_partition, rfp_asset
from assets.previews import markdown_preview, references_preview
from assets.rfp import source_of_inputs
from resources import EmbeddingModel, ProjectPaths
from rfp_retrieval.lineage import SOURCE_SHA, with_source
from rfp_retrieval.retrieval.config import RankingConfig, references_to_offer
from rfp_retrieval.retrieval.overrides import (
    NOT_APPLIED,
    OverrideError,
    apply_overrides,
    load_overrides,
    override_path,
    rejected_id_reasons,
    vague_outcome_review,
)
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.prepared import PreparedLibrary
from rfp_retrieval.retrieval.records import EntryVectors, MixedModelsError
from rfp_retrieval.retrieval.references import references_frame
from rfp_retrieval.retrieval.scope_query import reembed_scope_row, scope_query_from_row


@rfp_asset(
    "retrieval",
    description=(
        "The past-performance references to cite for this RFP (as many as its Section L "
        "asks for, three when it states no count), each with every score "
        "component (whole-entry, outcome and best-section cosine, domain match, recency, "
        "agency and sector bumps, penalties), the "
        "constraints it misses if a filter had to be relaxed, the candidate count and the "
        "filter trace. A writer can override any pick with overrides/<partition>.yaml: the "
        "replaced pick stays (rank empty, overridden_by set) and the new one carries "
        "override_by/at/reason."
    ),
)
def pp_references(
    context: dg.AssetExecutionContext,
    scope_query: pl.DataFrame,
    pp_entries: pl.DataFrame,
    pp_facet_embeddings: pl.DataFrame,
    pp_rejected_entries: pl.DataFrame,
    paths: ProjectPaths,
    embedding_model: EmbeddingModel,
) -> dg.Output[pl.DataFrame]:
    """Rank the library against the partition's ScopeQuery (hard filters, facets, bumps),
    then apply the writer's overrides file if there is one. When the library vectors are of
    another model than the ScopeQuery's (the library was re-embedded while this run was in
    flight), the ScopeQuery is re-embedded with the library's model first: one model per
    ranking, and the run does not fail for it (issue 17). An override naming an id of a
    rejected library row (``pp_rejected_entries``) says which row and why (issue 15)."""
    vectors = EntryVectors.from_frame(pp_facet_embeddings)
    embedder = None
    if len(vectors.models) == 1 and vectors.models[0] != embedding_model.model_id:
        embedder = embedding_model.embedder_for_vectors(
            vectors.models[0], context.instance, "pp_facet_embeddings"
        )
    return each_partition(
        context,
        _references_one,
        scope_query=scope_query,
        pp_entries=pp_entries,
        rejected=rejected_id_reasons(pp_rejected_entries),
        vectors=vectors,
        paths=paths,
        embedder=embedder,
    )


def _references_one(key, scope_query, pp_entries, rejected, vectors, paths, embedder=None):
    sha = source_of_inputs(key, scope_query=scope_query)
    row = scope_query.row(0, named=True)
    reembedded = None
    if embedder is not None and row.get("model") not in (None, embedder.model_id):
        again = reembed_scope_row(row, embedder)
        if again is not None:
            reembedded, row = row.get("model"), again
    top_k = references_to_offer(row.get("references_required"))
    config = RankingConfig(mode=paths.ranking_mode, top_k=top_k)
    query = scope_query_from_row(row)
    prepared = PreparedLibrary(pp_entries, vectors)  # the ranking's, for the overrides too
    try:
        try:
            result = rank_references(pp_entries, vectors, query, config, prepared=prepared)
        except MixedModelsError as exc:
            raise dg.Failure(description=str(exc), metadata={"model": row["model"]}) from exc
        source = override_path(paths.overrides_dir, key)
        refs = references_frame(key, result)
        problem = None
        args = (result, pp_entries, vectors, query, config, prepared)
        try:
            overrides = load_overrides(source, set(pp_entries["id"].to_list()), rejected)
            frame = apply_overrides(refs, overrides, *args)
        except OverrideError as exc:  # the RFP's other outputs still build; the run says why
            problem, overrides = f"{exc}; {NOT_APPLIED}", []
            dg.get_dagster_logger().warning(problem)
            frame = apply_overrides(refs, [], *args)
    finally:
        prepared.close()
    frame = with_source(frame, sha)
    return frame, {
        SOURCE_SHA: sha or "not recorded",
        "mode": result.mode,
        # the model whose vectors were compared (one per ranking)
        "model": row.get("model") or "not recorded",
        **(
            {
                "query_reembedded": f"the library was re-embedded with {row['model']} while "
                f"this run was in flight: the ScopeQuery (made with {reembedded}) was "
                "re-embedded with it before ranking"
            }
            if reembedded
            else {}
        ),
        "ranking_config": result.ranking_config,
        "overrides": len(overrides),
        **({"overrides_file": str(source)} if overrides else {}),
        **({"overrides_not_applied": problem} if problem else {}),
        "candidate_count": result.candidate_count,
        "relaxed": ", ".join(result.relaxed) or "none",
        "references": dg.MetadataValue.md(references_preview(frame)),
        "filter_trace": dg.MetadataValue.json(result.filter_trace),
        **({"reason": result.reason} if result.reason else {}),
    }


@rfp_asset(
    "retrieval",
    kinds={"duckdb", "polars"},
    description=(
        "Review list for writers: the references cited for this RFP whose outcomes state no "
        "measurable result (no number, percentage, before/after or unit), with the outcome "
        "text and the library file and row to edit."
    ),
)
def pp_reference_review(
    pp_references: pl.DataFrame, pp_entries: pl.DataFrame
) -> dg.Output[pl.DataFrame]:
    """The cited references of this partition whose library outcomes are vague (callable
    without a context on one partition's references; a range run's partitions are taken from
    the run's context)."""
    keys = pp_references["rfp_partition"].unique(maintain_order=True).to_list()
    if len(keys) <= 1:
        frame, metadata = _review_one(keys[0] if keys else "", pp_references, pp_entries)
        return dg.Output(frame, metadata=metadata)
    return each_partition(
        dg.AssetExecutionContext.get(),
        _review_one,
        pp_references=pp_references,
        pp_entries=pp_entries,
    )


def _review_one(key, pp_references, pp_entries):
    sha = source_of_inputs(key, pp_references=pp_references)
    review = with_source(vague_outcome_review(pp_references, pp_entries), sha)
    preview = review.select(["rank", "id", "title", "outcome_metrics", "outcome_narrative"])
    return review, {
        SOURCE_SHA: sha or "not recorded",
        "vague_references": review.height,
        "ids": ", ".join(review["id"].to_list()) or "none",
        "review": dg.MetadataValue.md(markdown_preview(preview)),
    }
