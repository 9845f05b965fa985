"""Markdown previews for asset metadata (kept small: metadata lives in the event log)."""

import polars as pl

from rfp_retrieval.retrieval.components import REGISTRY, summed_parts

MAX_PREVIEW_ROWS = 20


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, list):
        value = ", ".join(map(str, value))
    return str(value).replace("|", "\\|").replace("\n", " ")[:120]


def markdown_preview(frame: pl.DataFrame, limit: int = MAX_PREVIEW_ROWS) -> str:
    """The first ``limit`` rows of ``frame`` as a Markdown table (empty frame -> a note)."""
    if frame.is_empty():
        return "_no rows_"
    header = "| " + " | ".join(frame.columns) + " |"
    rule = "| " + " | ".join("---" for _ in frame.columns) + " |"
    body = [
        "| " + " | ".join(_cell(v) for v in row) + " |" for row in frame.head(limit).iter_rows()
    ]
    more = [f"\n_{frame.height - limit} more rows_"] if frame.height > limit else []
    return "\n".join([header, rule, *body, *more])


REFERENCE_COLUMNS = ("rank", "id", "title", "score")
OVERRIDE_COLUMNS = ("relaxed", "overridden_by", "override_by")


def reference_preview_columns(frame: pl.DataFrame) -> list[str]:
    """The columns of a ``pp_references`` frame a preview shows: rank, id, title, score, the
    score components some row sums into its score (registry order, ``summed_parts``), then
    the constraints missed and the override columns present."""
    summed = {c.name for row in frame.iter_rows(named=True) for c, _ in summed_parts(row)}
    components = [c.name for c in REGISTRY if c.name in summed]
    tail = [c for c in OVERRIDE_COLUMNS if c in frame.columns]
    return [*REFERENCE_COLUMNS, *components, *tail]


def references_preview(frame: pl.DataFrame, limit: int = MAX_PREVIEW_ROWS) -> str:
    """``markdown_preview`` of a ``pp_references`` frame's ``reference_preview_columns``."""
    return markdown_preview(frame.select(reference_preview_columns(frame)), limit)
