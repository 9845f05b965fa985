"""Rewritten questions <-> the ``rewritten_questions`` table (one row per question).

Every step of the chain is a column, so the rewrite log is queryable in DuckDB and visible in
the Dagster UI: specificity, skipped, the inherited context (JSON), the rewrite, parts,
paraphrases, the final query set (JSON list of {role, text, weight}), which rewriter produced
it, flags, the ordered step log, tokens and cost (USD).
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
