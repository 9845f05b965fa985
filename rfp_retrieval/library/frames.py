"""Polars frames of an ingested library, with explicit schemas.

The schemas are fixed so an empty library still yields typed columns (DuckDB tables created from
an empty frame keep their types, and downstream SQL does not break on a null-typed column).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable

import polars as pl

from rfp_retrieval.library.records import PastPerformanceEntry, RejectedRow, SupersededRow

ENTRY_SCHEMA: dict[str, pl.DataType] = {
    "id": pl.String(),
    "title": pl.String(),
    "role": pl.String(),
    "prime_contractor": pl.String(),
    "customer_type": pl.String(),
    "customer_named": pl.String(),
    "customer_acronym": pl.String(),
    "industry": pl.String(),
    "contract_number": pl.String(),
    "vehicle_type": pl.String(),
    "vehicle_name": pl.String(),
    "value_min": pl.Int64(),
    "value_max": pl.Int64(),
    "value_funded": pl.Int64(),
    "start_date": pl.Date(),
    "end_date": pl.Date(),
    "ongoing": pl.Boolean(),
    "stack_tags": pl.List(pl.String()),
    "domains": pl.List(pl.String()),
    "technical_description": pl.String(),
    "outcome_metrics": pl.List(pl.String()),
    "outcome_narrative": pl.String(),
    "outcome_vague": pl.Boolean(),
    "narrative": pl.String(),
    "defects": pl.List(pl.String()),
    "source": pl.String(),
    "source_row": pl.Int64(),
    "last_updated": pl.Date(),
    "updated_by": pl.String(),
    "cpars": pl.String(),
}

REJECTED_SCHEMA: dict[str, pl.DataType] = {
    "file": pl.String(),
    "row": pl.Int64(),
    "reason": pl.String(),
    "raw": pl.String(),  # the row's non-empty cells as a JSON object {header: value}
}

SUPERSEDED_SCHEMA: dict[str, pl.DataType] = {
    "id": pl.String(),
    "file": pl.String(),
    "row": pl.Int64(),
    "last_updated": pl.Date(),
    "superseded_by_file": pl.String(),
    "superseded_by_row": pl.Int64(),
}


def entries_frame(entries: Iterable[PastPerformanceEntry]) -> pl.DataFrame:
    """One row per entry (``PastPerformanceEntry.to_row``) with ``ENTRY_SCHEMA``: values in USD
    (Int64), dates as Date (``end_date`` null when ongoing, see ``ongoing``), lists as
    List(String). Round-trips through ``PastPerformanceEntry.from_row``."""
    rows = [entry.to_row() for entry in entries]
    return pl.DataFrame(rows, schema=ENTRY_SCHEMA)


def rejected_frame(rejected: Iterable[RejectedRow]) -> pl.DataFrame:
    """One row per rejected row or file with ``REJECTED_SCHEMA`` (``row`` null for a whole file
    or a write-up; ``raw`` is JSON)."""
    rows = [
        {
            "file": item.file,
            "row": item.row,
            "reason": item.reason,
            "raw": json.dumps(item.raw, ensure_ascii=False, default=str),
        }
        for item in rejected
    ]
    return pl.DataFrame(rows, schema=REJECTED_SCHEMA)


def superseded_frame(superseded: Iterable[SupersededRow]) -> pl.DataFrame:
    """One row per older duplicate with ``SUPERSEDED_SCHEMA``."""
    rows = [
        {
            "id": item.id,
            "file": item.file,
            "row": item.row,
            "last_updated": dt.date.fromisoformat(item.last_updated) if item.last_updated else None,
            "superseded_by_file": item.superseded_by_file,
            "superseded_by_row": item.superseded_by_row,
        }
        for item in superseded
    ]
    return pl.DataFrame(rows, schema=SUPERSEDED_SCHEMA)
