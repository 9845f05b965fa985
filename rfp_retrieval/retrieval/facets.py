"""Facet texts: what each of an entry's embeddings is computed from (seed 1: facet split)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ENTRY_FACETS = ("narrative", "technical", "outcome", "whole")


def _join(parts: list[str]) -> str:
    return "\n".join(p.strip() for p in parts if p and p.strip())


def _tags(tags: Any) -> str:
    return ", ".join(str(t).replace("-", " ") for t in (tags or []))


def entry_facet_texts(row: Mapping[str, Any]) -> dict[str, str]:
    """The four texts embedded per entry, from a ``pp_entries`` row.

    - ``narrative``: title + free-text summary (seed: narrativeEmbedding);
    - ``technical``: domains + stack tags + technical approach (seed: stackEmbedding);
    - ``outcome``: outcome metrics + outcome narrative (seed: outcomeEmbedding);
    - ``whole``: everything in one text, for the ``naive`` baseline mode.
    """
    narrative = _join([row.get("title") or "", row.get("narrative") or ""])
    technical = _join(
        [
            f"Domains: {_tags(row.get('domains'))}" if row.get("domains") else "",
            f"Technologies: {_tags(row.get('stack_tags'))}" if row.get("stack_tags") else "",
            row.get("technical_description") or "",
        ]
    )
    outcome = _join(list(row.get("outcome_metrics") or []) + [row.get("outcome_narrative") or ""])
    customer = _join([row.get("customer_named") or "", row.get("customer_type") or ""])
    whole = _join([narrative, customer, technical, outcome])
    return {"narrative": narrative, "technical": technical, "outcome": outcome, "whole": whole}


FACET_SOURCES: dict[str, tuple[str, ...]] = {
    "narrative": ("title", "narrative"),
    "technical": ("domains", "stack_tags", "technical_description"),
    "outcome": ("outcome_metrics", "outcome_narrative"),
}
"""The ``pp_entries`` columns each facet text of ``entry_facet_texts`` is made of."""


def missing_facets_frame(entries: Any) -> Any:
    """Whether each entry's facet text (``entry_facet_texts``) would be empty, per facet.

    ``entries`` is a ``pp_entries`` polars frame; returns a frame of the same height with one
    bool column per facet of ``FACET_SOURCES``: True when every source column of the facet is
    null, blank or an empty (or all-blank) list. A frame without some source column (a
    hand-built one) does not know the facet is empty: False.
    """
    import polars as pl

    def blank(name: str) -> Any:
        kind = entries.schema[name]
        if isinstance(kind, pl.List):
            filled = pl.col(name).list.eval(pl.element().cast(pl.String).str.strip_chars() != "")
            return ~filled.list.any().fill_null(False)
        return pl.col(name).cast(pl.String).fill_null("").str.strip_chars() == ""

    exprs = []
    for facet, sources in FACET_SOURCES.items():
        if all(name in entries.columns for name in sources):
            expr = pl.all_horizontal([blank(name) for name in sources])
        else:
            expr = pl.repeat(False, pl.len(), dtype=pl.Boolean)
        exprs.append(expr.alias(facet))
    return (
        entries.select(exprs)
        if entries.height
        else pl.DataFrame(
            {f: [] for f in FACET_SOURCES}, schema={f: pl.Boolean for f in FACET_SOURCES}
        )
    )


def facet_embeddings_frame(
    entries: Any,
    embedder: Any,
    previous: Any = None,
) -> tuple[Any, dict[str, int]]:
    """Per-facet vectors of every entry, re-embedding only new or changed texts.

    ``entries`` is the ``pp_entries`` polars frame; ``embedder`` an ``Embedder``;
    ``previous`` the stored ``pp_facet_embeddings`` frame (or None). Vectors of another
    model are never reused. Returns ``(frame, counts)`` where the frame has one row per
    (id, facet) with columns id, facet, model, text_sha, dim, vector (unit float32) and
    counts = {"embedded": n, "reused": m}.
    """
    import polars as pl

    from rfp_retrieval.retrieval.embedding import encode_missing, text_sha

    model_id = embedder.model_id
    reuse: dict[tuple[str, str, str], list[float]] = {}
    if previous is not None and previous.height:
        same = previous.filter(pl.col("model") == model_id)
        for r in same.iter_rows(named=True):
            reuse[(r["id"], r["facet"], r["text_sha"])] = r["vector"]
    rows: list[dict[str, Any]] = []
    todo: list[tuple[int, str]] = []
    for row in entries.sort("id").iter_rows(named=True):
        for facet, text in entry_facet_texts(row).items():
            sha = text_sha(text)
            vector = reuse.get((row["id"], facet, sha))
            rows.append(
                {
                    "id": row["id"],
                    "facet": facet,
                    "model": model_id,
                    "text_sha": sha,
                    "vector": vector,
                }
            )
            if vector is None:
                todo.append((len(rows) - 1, text))
    encode_missing(rows, todo, embedder)
    schema = {
        "id": pl.String,
        "facet": pl.String,
        "model": pl.String,
        "text_sha": pl.String,
        "dim": pl.Int64,
        "vector": pl.List(pl.Float32),
    }
    frame = pl.DataFrame(rows, schema=schema) if rows else pl.DataFrame(schema=schema)
    return frame, {"embedded": len(todo), "reused": len(rows) - len(todo)}
