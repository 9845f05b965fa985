"""Markdown previews for asset metadata (kept small: metadata lives in the event log)."""

import polars as pl

from rfp_retrieval.retrieval.components import COMPONENT, REGISTRY, summed_parts

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
    """A ``pp_references`` frame as the brief shows it, as a Markdown table.

    Columns ``reference_preview_columns``, with each summed component headed by its label
    (``ScoreComponent.label``, the brief's) and written as the signed contribution it adds
    to the score (``+0.113``, ``-0.050``; blank where a row has none), then the raw cosines
    some row has and no row sums, headed ``<name> cosine`` (unsigned: they are not parts of
    the score), then the constraints missed and the override columns. Components the mode
    does not compute (None in every row) get no column.
    """
    columns = reference_preview_columns(frame)
    summed = [c for c in REGISTRY if c.name in columns]
    cosines = [
        c.name
        for c in REGISTRY
        if c.raw
        and c.name not in columns
        and c.name in frame.columns
        and frame[c.name].is_not_null().any()
    ]
    rest = [c for c in columns if c not in REFERENCE_COLUMNS and c not in COMPONENT]
    out = frame.select(
        *REFERENCE_COLUMNS,
        *(
            pl.col(c.name).map_elements(_signed, return_dtype=pl.String).alias(c.label)
            for c in summed
        ),
        *(pl.col(name).alias(f"{name} cosine") for name in cosines),
        *rest,
    )
    return markdown_preview(out, limit)


def _signed(value: float | None) -> str | None:
    """A score contribution as the brief writes it: ``+0.113``, ``-0.050``."""
    return None if value is None else f"{value:+.3f}"
