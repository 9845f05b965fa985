"""Data-quality rules on the library, as a Great Expectations 1.x suite.

GX is imported lazily (about 5 s) and run on an ephemeral context: no project folder, no
telemetry, no progress bars.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from rfp_retrieval.library.money import IMPLAUSIBLE_VALUE, PLAUSIBLE_VALUE_LIMIT_USD
from rfp_retrieval.library.records import CUSTOMER_TYPES, VEHICLE_TYPES


@dataclass
class ExpectationOutcome:
    """One expectation's result: its name, whether it passed, the ids of failing rows, and for
    a failure that no row shows (an empty library) what failed in words (``detail``)."""

    expectation: str
    success: bool
    failing_ids: list[str] = field(default_factory=list)
    blocking: bool = False
    detail: str | None = None
    reasons: dict[str, str] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        """The check-metadata text: the failing ids (each with its reason when the rule gives
        one: ``PP-9 (start date 2031-01-01 is after 2026-12-03)``), else ``detail``, else
        "ok"/"failed"."""
        if self.failing_ids:
            return ", ".join(
                f"{i} ({self.reasons[i]})" if i in self.reasons else i for i in self.failing_ids
            )
        return "ok" if self.success else self.detail or "failed"


LIBRARY_FILES = "*.csv and *.xlsx files directly in it, *.md write-ups under it"
"""What ``library.ingest.load_library`` reads from a library folder, in words."""


def empty_library_reason(library_dir: str | Path, rejected: pl.DataFrame | None = None) -> str:
    """Why a library folder gave no usable entry, naming the folder and what to do.

    ``rejected`` is the ``pp_rejected_entries`` frame (``REJECTED_SCHEMA``: file, row,
    reason) of the same ingest, or None when unknown. With rejected rows the first one is
    quoted (``row`` is None for a whole file or a write-up); without, nothing was found.
    Callers only ask when the library has no entry.
    """
    head = f"the library folder {library_dir} has no usable entries"
    if rejected is None or rejected.is_empty():
        return (
            f"{head}: no past-performance row or write-up was found in it ({LIBRARY_FILES}); "
            "add the team's library there or point --library / library_dir at it"
        )
    first = rejected.row(0, named=True)
    where = first["file"] if first["row"] is None else f"{first['file']} row {first['row']}"
    return (
        f"{head}: every row read was rejected ({rejected.height} rejected; the first: {where}: "
        f"{first['reason']}); fix them (`rfp-retrieval library` lists each with its reason) "
        "and run again"
    )


def rejected_library_rows(
    pp_rejected: pl.DataFrame | None,
    answer_blocks: pl.DataFrame | None,
    pp_superseded: pl.DataFrame | None = None,
) -> list[dict[str, Any]]:
    """Every row of either library left out of retrieval, with where and why: one list for
    the run output (``rfp-retrieval run`` summary and ``--json``), so a dropped file is never
    silent.

    ``pp_rejected``: the ``pp_rejected_entries`` frame (file, row, reason); ``answer_blocks``:
    the ``answer_blocks`` frame (its rows with ``usable`` false, reason = their ``problems``
    joined); ``pp_superseded``: the ``pp_superseded_entries`` frame (older duplicates of an
    id, left out for the row with the newer Last Updated; new-user trial: they were only in
    ``rfp-retrieval library``). Any may be None (not stored yet). Returns dicts
    ``{"library": "past performance" | "answers", "file", "row" (int or None for a whole
    file), "reason"}``, past performance first (rejected, then superseded), each in stored
    order.
    """
    rows: list[dict[str, Any]] = []
    if pp_rejected is not None:
        for r in pp_rejected.iter_rows(named=True):
            rows.append(
                {
                    "library": "past performance",
                    "file": r["file"],
                    "row": r["row"],
                    "reason": r["reason"],
                }
            )
    if pp_superseded is not None:
        for r in pp_superseded.iter_rows(named=True):
            newer = f"{r['superseded_by_file']} row {r['superseded_by_row']}"
            rows.append(
                {
                    "library": "past performance",
                    "file": r["file"],
                    "row": r["row"],
                    "reason": f"older duplicate of {r['id']}: superseded by {newer}",
                }
            )
    if answer_blocks is not None and {"usable", "problems", "source"} <= set(answer_blocks.columns):
        for r in answer_blocks.filter(~pl.col("usable")).iter_rows(named=True):
            rows.append(
                {
                    "library": "answers",
                    "file": r["source"],
                    "row": r.get("row"),
                    "reason": "; ".join(r["problems"] or []) or "not usable",
                }
            )
    return rows


def _failing_ids(frame: pl.DataFrame, expectation: str) -> list[str]:
    """Ids of the rows an expectation rejects (computed in polars, for the check metadata)."""
    col = pl.col
    rules: dict[str, Any] = {
        "ids unique": col("id").is_duplicated() | col("id").is_null(),
        "known customer type": ~col("customer_type").is_in(list(CUSTOMER_TYPES))
        | col("customer_type").is_null(),
        "known vehicle type": ~col("vehicle_type").is_in(list(VEHICLE_TYPES))
        | col("vehicle_type").is_null(),
        "start date present": col("start_date").is_null(),
        "end date present or ongoing": col("end_date").is_null() & ~col("ongoing"),
        "start before end": col("end_date") < col("start_date"),
        "value min <= max": col("value_max") < col("value_min"),
        "value present": col("value_min").is_null() & col("value_max").is_null(),
    }
    return sorted(frame.filter(rules[expectation].fill_null(False))["id"].cast(str).to_list())


VALUE_COLUMNS = ("value_min", "value_max", "value_funded")


def implausible_rows(frame: pl.DataFrame, today: dt.date) -> dict[str, dict[str, str]]:
    """Rows the library states but cannot be right, by rule: ``{rule: {id: reason}}``.

    Rules (each row is kept; the writer fixes the library): ``dates not in the future`` (a
    start date or ``last_updated`` after ``today``: past performance is work already begun,
    and an update cannot be dated later than the run; an end date may be in the future for
    ongoing work and is not judged here); ``value positive`` (a $0 value in ``VALUE_COLUMNS``:
    no contract is worth nothing; a blank is unknown, not zero); ``value plausible`` (a value
    above ``money.PLAUSIBLE_VALUE_LIMIT_USD``, which the reader made unknown and marked
    ``implausible-value``). Missing columns are skipped.
    """
    found: dict[str, dict[str, str]] = {
        "dates not in the future": {},
        "value positive": {},
        "value plausible": {},
    }
    names = set(frame.columns)
    for row in frame.iter_rows(named=True):
        rid = str(row.get("id"))
        future = [
            f"{label} {row[col].isoformat()} is after {today.isoformat()}"
            for col, label in (("start_date", "start date"), ("last_updated", "last updated"))
            if col in names and isinstance(row.get(col), dt.date) and row[col] > today
        ]
        if future:
            found["dates not in the future"][rid] = "; ".join(future)
        zero = [c for c in VALUE_COLUMNS if c in names and row.get(c) is not None and row[c] <= 0]
        if zero:
            found["value positive"][rid] = ", ".join(
                f"{c.replace('_', ' ')} ${row[c]:,}" for c in zero
            )
        huge = [
            d[len(IMPLAUSIBLE_VALUE) :].strip(" ()")
            for d in row.get("defects") or ()
            if d.startswith(IMPLAUSIBLE_VALUE)
        ]
        if huge:
            found["value plausible"][rid] = ", ".join(
                f"value {h} is above ${PLAUSIBLE_VALUE_LIMIT_USD:,} (read as unknown)" for h in huge
            )
    return found


def validate_entries(
    frame: pl.DataFrame,
    library_dir: str | Path | None = None,
    rejected: pl.DataFrame | None = None,
    today: dt.date | None = None,
) -> list[ExpectationOutcome]:
    """Run the ``pp_entries`` suite; one outcome per expectation.

    Expectations: the library has entries (blocking; its ``detail`` is
    ``empty_library_reason(library_dir, rejected)`` when ``library_dir`` is given), ids unique
    and present (blocking), known customer and vehicle types, dates present, start before end,
    value min <= max, value present; then the rows no library can be right about
    (``implausible_rows``: a start or update date after ``today`` (default: the run's date),
    a $0 value, a value above ``money.PLAUSIBLE_VALUE_LIMIT_USD``), each failing id with its
    reason; and write-ups distinct (``copied_writeups``). Dates and values are checked by GX
    column-pair expectations; failing ids are listed for each.
    """
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")
    import great_expectations as gx
    import great_expectations.expectations as gxe

    context = gx.get_context(mode="ephemeral")
    try:
        from great_expectations.data_context.types.base import ProgressBarsConfig

        context.variables.progress_bars = ProgressBarsConfig(globally=False)
    except Exception:  # noqa: BLE001 - cosmetic only
        pass
    data = frame.select(
        [
            "id",
            "customer_type",
            "vehicle_type",
            "start_date",
            "end_date",
            "ongoing",
            "value_min",
            "value_max",
        ]
    ).to_pandas()
    source = context.data_sources.add_pandas("library")
    asset = source.add_dataframe_asset("pp_entries")
    batch = asset.add_batch_definition_whole_dataframe("all").get_batch(
        batch_parameters={"dataframe": data}
    )
    named = {
        "library has entries": gxe.ExpectTableRowCountToBeBetween(min_value=1),
        "ids unique": gxe.ExpectColumnValuesToBeUnique(column="id"),
        "known customer type": gxe.ExpectColumnValuesToBeInSet(
            column="customer_type", value_set=list(CUSTOMER_TYPES)
        ),
        "known vehicle type": gxe.ExpectColumnValuesToBeInSet(
            column="vehicle_type", value_set=list(VEHICLE_TYPES)
        ),
        "start date present": gxe.ExpectColumnValuesToNotBeNull(column="start_date"),
        "start before end": gxe.ExpectColumnPairValuesAToBeGreaterThanB(
            column_A="end_date",
            column_B="start_date",
            or_equal=True,
            ignore_row_if="either_value_is_missing",
        ),
        "value min <= max": gxe.ExpectColumnPairValuesAToBeGreaterThanB(
            column_A="value_max",
            column_B="value_min",
            or_equal=True,
            ignore_row_if="either_value_is_missing",
        ),
        "value present": gxe.ExpectColumnValuesToNotBeNull(column="value_min"),
    }
    empty = None
    if frame.is_empty():
        empty = "the library has no entries"
        if library_dir is not None:
            empty = empty_library_reason(library_dir, rejected)
    outcomes = []
    for name, expectation in named.items():
        gx_result = batch.validate(expectation)
        failing = [] if name == "library has entries" else _failing_ids(frame, name)
        outcomes.append(
            ExpectationOutcome(
                expectation=name,
                success=bool(gx_result.success) and not failing,
                failing_ids=failing,
                blocking=name in {"library has entries", "ids unique"},
                detail=empty if name == "library has entries" else None,
            )
        )
    end = _failing_ids(frame, "end date present or ongoing")
    outcomes.append(ExpectationOutcome("end date present or ongoing", not end, end))
    for name, reasons in implausible_rows(frame, today or dt.date.today()).items():
        ids = sorted(reasons)
        outcomes.append(ExpectationOutcome(name, not ids, ids, reasons=reasons))
    copies = copied_writeups(frame)
    outcomes.append(
        ExpectationOutcome("write-ups distinct", not copies, sorted(copies), reasons=copies)
    )
    return outcomes


COPY_MIN_CHARS = 80
"""Shortest write-up (narrative and technical approach together, normalized) compared: short
stock text ("See attached.") is not a copied project."""


def writeup_key(narrative: object, technical: object) -> str:
    """The text two copies of one write-up share: narrative and technical approach, lower case,
    letters and digits only, single spaces (``copied_writeups`` and the ranking compare it)."""
    text = f"{narrative or ''} {technical or ''}".lower()
    return " ".join(re.findall(r"[a-z0-9]+", text))


def copied_writeups(frame: pl.DataFrame) -> dict[str, str]:
    """``{id: "same write-up as <first id>"}`` for entries whose narrative and technical
    approach, compared without case, punctuation or spacing, repeat an entry with a lower id:
    a write-up copied under a new id is one project entered twice, and would be cited twice.
    Each row is kept (the writer merges or rewrites them). Write-ups shorter than
    ``COPY_MIN_CHARS`` are not compared. Needs ``id``, ``narrative`` and
    ``technical_description`` (a frame without them gives ``{}``). Source: break-it."""
    if not {"id", "narrative", "technical_description"} <= set(frame.columns):
        return {}
    first: dict[str, str] = {}
    copies: dict[str, str] = {}
    rows = frame.select("id", "narrative", "technical_description").sort("id")
    for rid, narrative, technical in rows.iter_rows():
        key = writeup_key(narrative, technical)
        if len(key) < COPY_MIN_CHARS:
            continue
        if key in first:
            copies[str(rid)] = f"same write-up as {first[key]}"
        else:
            first[key] = str(rid)
    return copies


def vague_outcome_ids(frame: pl.DataFrame) -> list[str]:
    """Ids whose outcomes have no number, percentage or measurable before/after (vague)."""
    return sorted(frame.filter(pl.col("outcome_vague"))["id"].to_list())
