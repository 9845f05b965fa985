"""Markdown previews for asset metadata (kept small: metadata lives in the event log)."""

import polars as pl

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
