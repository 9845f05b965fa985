"""Evaluation assets: retrieval quality over time, and golden-set lines from writer overrides.

``retrieval_evaluation`` runs every golden-set JSONL in the configured folder for every
ranking mode and records recall@3, MRR and per-scope hits as metadata, so the Dagster UI
plots quality across materializations; its check fails on a regression of the default mode.
``override_golden_lines`` turns the writers' overrides into golden-set lines.
"""

import json
from pathlib import Path

import dagster as dg
import polars as pl

from assets.partitions import OWNERS
from assets.previews import markdown_preview
from resources import EmbeddingModel, ProjectPaths
from resources.partition_store import PARTITION_COLUMN, DuckDBPartitionStore
from rfp_retrieval.eval.past_performance import (
    GoldenSetError,
    evaluate_modes,
    load_golden,
    mode_configs,
    prepare_scopes,
)
from rfp_retrieval.retrieval.config import DEFAULT_MODE, MODES, RankingConfig
from rfp_retrieval.retrieval.overrides import OVERRIDES_GOLDEN_JSONL
from rfp_retrieval.retrieval.overrides import override_golden_lines as golden_lines_for
from rfp_retrieval.retrieval.records import EntryVectors

MAX_RECALL_DROP = 0.05
"""Largest tolerated drop of the default mode's recall@3 between two evaluations (issue 5)."""

EVALUATION_SCHEMA = {
    "golden_file": pl.String,
    "scope_id": pl.String,
    "mode": pl.String,
    "top3": pl.List(pl.String),
    "ideal": pl.List(pl.String),
    "hits": pl.Int64,
    "recall": pl.Float64,
    "recall_alt": pl.Float64,
}
GOLDEN_LINES_SCHEMA = {"scope_id": pl.String, "line": pl.String}


def metric_key(metric: str, mode: str) -> str:
    """Metadata key of one metric of one mode, e.g. ``recall_at_3:facet+bumps``."""
    return f"{metric}:{mode}"


@dg.asset(
    group_name="evaluation",
    kinds={"duckdb", "polars", "python"},
    owners=OWNERS,
    description=(
        "Past-performance retrieval quality on the golden set(s) in the configured folder, "
        "for every ranking mode (naive, facet, facet+bumps = the seed preset, default): "
        "top-3 recall against both labellers (ideal, ideal_alt), MRR, and hits per scope. "
        "The metrics are float metadata, so the UI plots them across materializations."
    ),
)
def retrieval_evaluation(
    context: dg.AssetExecutionContext,
    pp_entries: pl.DataFrame,
    pp_facet_embeddings: pl.DataFrame,
    embedding_model: EmbeddingModel,
    paths: ProjectPaths,
) -> dg.Output[pl.DataFrame]:
    """Rank every golden scope with every mode over the stored library vectors."""
    folder = Path(paths.golden_dir)
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        raise dg.Failure(
            description=(
                f"no golden-set *.jsonl in {folder}: add one (each RFP a writer overrode is a "
                f"line of <output_dir>/{OVERRIDES_GOLDEN_JSONL.as_posix()}) or set golden_dir"
            )
        )
    models = set(pp_facet_embeddings["model"].unique().to_list())
    if models != {embedding_model.model_id}:
        raise dg.Failure(
            description=(
                f"library vectors were made with {sorted(models)}, the configured model is "
                f"{embedding_model.model_id}; re-materialize pp_facet_embeddings"
            )
        )
    try:
        golden = {f: load_golden(f) for f in files}
    except GoldenSetError as exc:
        raise dg.Failure(description=str(exc)) from exc
    scopes = [s for f in files for s in golden[f]]
    origin = {id(s): f.name for f in files for s in golden[f]}
    try:
        prepared = prepare_scopes(scopes, embedding_model.embedder)
    except GoldenSetError as exc:  # an RFP of the golden set cannot be read: named, no traceback
        raise dg.Failure(description=str(exc)) from exc
    vectors = EntryVectors.from_frame(pp_facet_embeddings)
    configs = mode_configs("all", RankingConfig(mode=paths.ranking_mode))
    results = evaluate_modes(pp_entries, vectors, prepared, configs)
    files_of = [origin[id(p.golden)] for p in prepared]
    rows = [
        {"golden_file": f, **{k: s[k] for k in EVALUATION_SCHEMA if k in s}, "mode": mode}
        for mode, r in results.items()
        for f, s in zip(files_of, r["per_scope"], strict=True)
    ]
    frame = pl.DataFrame(rows, schema=EVALUATION_SCHEMA)
    metrics: dict[str, float] = {}
    for mode, r in results.items():
        metrics[metric_key("recall_at_3", mode)] = float(r["recall_at_3"])
        metrics[metric_key("mrr", mode)] = float(r["mrr"])
        if r["recall_at_3_alt"] is not None:
            metrics[metric_key("recall_at_3_alt", mode)] = float(r["recall_at_3_alt"])
    hits = frame.pivot(on="mode", index=["golden_file", "scope_id"], values="hits")
    per_scope = {
        mode: {f"{r['golden_file']}:{r['scope_id']}": r["hits"] for r in part.iter_rows(named=True)}
        for (mode,), part in frame.group_by(["mode"], maintain_order=True)
    }
    context.log.info(", ".join(f"{k}={v:.3f}" for k, v in metrics.items()))
    return dg.Output(
        frame,
        metadata={
            **metrics,
            "scopes": len(prepared),
            "golden_files": ", ".join(f.name for f in files),
            "model": embedding_model.model_id,
            "hits_per_scope": dg.MetadataValue.md(
                markdown_preview(hits.select(["scope_id", *MODES]), limit=50)
            ),
            "per_scope_hits": dg.MetadataValue.json(per_scope),
        },
    )


@dg.asset_check(
    asset=retrieval_evaluation,
    description=(
        f"Fails when the default mode's top-3 recall dropped more than {MAX_RECALL_DROP} "
        "below the previous materialization of retrieval_evaluation (the first one passes)."
    ),
)
def retrieval_evaluation_no_regression(
    context: dg.AssetCheckExecutionContext,
) -> dg.AssetCheckResult:
    """Compare the latest two materializations' ``recall_at_3:default`` (read from the instance)."""
    key = metric_key("recall_at_3", DEFAULT_MODE)
    records = context.instance.fetch_materializations(
        dg.AssetKey("retrieval_evaluation"), limit=2
    ).records
    values = [
        r.asset_materialization.metadata[key].value
        for r in records
        if r.asset_materialization and key in r.asset_materialization.metadata
    ]
    if len(values) < 2:
        return dg.AssetCheckResult(
            passed=True,
            metadata={"current": values[0] if values else None, "previous": "none"},
        )
    current, previous = float(values[0]), float(values[1])
    drop = round(previous - current, 4)
    return dg.AssetCheckResult(
        passed=drop <= MAX_RECALL_DROP,
        metadata={
            "current": current,
            "previous": previous,
            "drop": drop,
            "max_drop": MAX_RECALL_DROP,
        },
        description=(
            f"default recall@3 {current:.3f} vs previous {previous:.3f} (drop {drop:.3f})"
        ),
    )


@dg.asset(
    group_name="evaluation",
    deps=["pp_references", "scope_query", "rfp_document"],
    kinds={"duckdb", "polars", "python"},
    owners=OWNERS,
    description=(
        "Golden-set lines (scope_id, rfp_file, as_of, ideal) made from the writers' "
        "overrides, one per overridden RFP, also written to <output_dir>/golden/"
        "overrides.jsonl: copy them into the golden folder to grow the team's golden set."
    ),
)
def override_golden_lines(
    duckdb: DuckDBPartitionStore, paths: ProjectPaths
) -> dg.Output[pl.DataFrame]:
    """Read the stored references of every RFP and export the overridden ones."""
    needed = {"pp_references": "override_by", "scope_query": "as_of", "rfp_document": "file"}
    references, dates, files = pl.DataFrame(), {}, {}
    # no RFP ranked yet (or a store from before overrides): nothing to export
    if all(column in duckdb.columns(table) for table, column in needed.items()):
        references = duckdb.read_table("pp_references")
        dates = dict(duckdb.read_table("scope_query", [PARTITION_COLUMN, "as_of"]).iter_rows())
        files = dict(duckdb.read_table("rfp_document", [PARTITION_COLUMN, "file"]).iter_rows())
    target = Path(paths.output_dir) / OVERRIDES_GOLDEN_JSONL
    lines = golden_lines_for(references, dates, files, target)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    frame = pl.DataFrame(
        [{"scope_id": json.loads(line)["scope_id"], "line": line} for line in lines],
        schema=GOLDEN_LINES_SCHEMA,
    )
    return dg.Output(
        frame,
        metadata={
            "lines": len(lines),
            "path": str(target),
            "preview": dg.MetadataValue.md(
                "\n".join(f"    {line}" for line in lines[:20]) or "_no overrides_"
            ),
        },
    )
