"""Rewritten questions <-> the ``rewritten_questions`` table (one row per question).

Every step of the chain is a column, so the rewrite log is queryable in DuckDB and visible in
the Dagster UI: specificity, skipped, the inherited context (JSON), the rewrite, parts,
paraphrases, the final query set (JSON list of {role, text, weight}), which rewriter produced
it, where the rewrite came from (``source``: model, offline, offline-fallback, skipped) and
why a fallback was needed, flags, the ordered step log, API attempts and retries, tokens and
cost (USD). ``rewrite_totals`` sums a partition's rows for the run's metadata.
"""

from __future__ import annotations

import json
from typing import Any

import polars as pl

from rfp_retrieval.rewrite.records import Query, RewrittenQuestion

NO_QUESTIONS = "none"
"""``kind`` of the placeholder row written for an RFP without questions (DuckDB skips empty
frames, and a table that was never written cannot be read downstream)."""

REWRITE_SCHEMA = {
    "rfp_partition": pl.String,
    "question_id": pl.String,
    "label": pl.String,
    "kind": pl.String,
    "original": pl.String,
    "section_path": pl.List(pl.String),
    "specificity": pl.Float64,
    "skipped": pl.Boolean,
    "context": pl.String,
    "rewrite": pl.String,
    "parts": pl.List(pl.String),
    "paraphrases": pl.List(pl.String),
    "queries": pl.String,
    "query_count": pl.Int64,
    "rewriter": pl.String,
    "flags": pl.List(pl.String),
    "steps": pl.List(pl.String),
    "input_tokens": pl.Int64,
    "output_tokens": pl.Int64,
    "cost_usd": pl.Float64,
    "cached": pl.Boolean,
    "source": pl.String,
    "fallback_reason": pl.String,
    "attempts": pl.Int64,
    "retries": pl.Int64,
}


def rewrites_frame(partition: str, rewritten: list[RewrittenQuestion]) -> pl.DataFrame:
    """The ``rewritten_questions`` rows of one RFP partition (a placeholder row when empty)."""
    rows: list[dict[str, Any]] = []
    for r in rewritten:
        rows.append(
            {
                "rfp_partition": partition,
                "question_id": r.question_id,
                "label": r.label,
                "kind": r.kind,
                "original": r.original,
                "section_path": list(r.section_path),
                "specificity": r.specificity,
                "skipped": r.skipped,
                "context": json.dumps(r.context.to_dict(), ensure_ascii=False),
                "rewrite": r.rewrite,
                "parts": list(r.parts),
                "paraphrases": list(r.paraphrases),
                "queries": json.dumps(
                    [{"role": q.role, "text": q.text, "weight": q.weight} for q in r.queries],
                    ensure_ascii=False,
                ),
                "query_count": len(r.queries),
                "rewriter": r.rewriter,
                "flags": list(r.flags),
                "steps": list(r.steps),
                "input_tokens": r.input_tokens,
                "output_tokens": r.output_tokens,
                "cost_usd": r.cost_usd,
                "cached": r.cached,
                "source": r.source,
                "fallback_reason": r.fallback_reason,
                "attempts": r.attempts,
                "retries": r.retries,
            }
        )
    if not rows:
        rows.append(
            {
                "rfp_partition": partition,
                "question_id": None,
                "kind": NO_QUESTIONS,
                "original": "",
                "skipped": True,
                "steps": ["no questions found in this RFP"],
                "query_count": 0,
                "rewriter": "none",
                "attempts": 0,
                "retries": 0,
            }
        )
    return pl.DataFrame(rows, schema=REWRITE_SCHEMA)


def query_sets_from_frame(frame: pl.DataFrame) -> list[tuple[dict[str, Any], list[Query]]]:
    """(row, query set) for every real question row of a ``rewritten_questions`` frame."""
    out = []
    for row in frame.filter(pl.col("kind") != NO_QUESTIONS).iter_rows(named=True):
        queries = [
            Query(q["role"], q["text"], float(q["weight"])) for q in json.loads(row["queries"])
        ]
        out.append((row, queries))
    return out


def rewrite_totals(frame: pl.DataFrame) -> dict[str, Any]:
    """Per-run totals of a ``rewritten_questions`` frame, for the asset's metadata.

    Returns ``{"questions": int, "by_source": {source: count}, "api_requests": int,
    "retries": int, "fallbacks": int, "fallback_reasons": {question_id: reason}}``: counts
    over real question rows (the no-questions placeholder is ignored); ``api_requests``
    counts every request sent to the model, ``retries`` those after each question's first.
    Raises ``polars.exceptions.ColumnNotFoundError`` for a frame without the columns above
    (one stored before they existed).
    """
    rows = frame.filter(pl.col("kind") != NO_QUESTIONS)
    by_source = {
        source: count
        for source, count in rows.group_by("source").len().sort("source").iter_rows()
        if source is not None
    }
    fallbacks = rows.filter(pl.col("source") == "offline-fallback")
    return {
        "questions": rows.height,
        "by_source": by_source,
        "api_requests": int(rows["attempts"].fill_null(0).sum()),
        "retries": int(rows["retries"].fill_null(0).sum()),
        "fallbacks": fallbacks.height,
        "fallback_reasons": dict(fallbacks.select("question_id", "fallback_reason").iter_rows()),
    }
