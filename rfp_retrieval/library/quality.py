"""Data-quality rules on the library, as a Great Expectations 1.x suite.

GX is imported lazily (about 5 s) and run on an ephemeral context: no project folder, no
telemetry, no progress bars.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from rfp_retrieval.library.records import CUSTOMER_TYPES, VEHICLE_TYPES


@dataclass
class ExpectationOutcome:
    """One expectation's result: its name, whether it passed, and the ids of failing rows."""

    expectation: str
    success: bool
    failing_ids: list[str] = field(default_factory=list)
    blocking: bool = False


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


def validate_entries(frame: pl.DataFrame) -> list[ExpectationOutcome]:
    """Run the ``pp_entries`` suite; one outcome per expectation.

    Expectations: ids unique and present (blocking), known customer and vehicle types,
    dates present, start before end, value min <= max, value present. Dates and values are
    checked by GX column-pair expectations; failing ids are listed for each.
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
    outcomes = []
    for name, expectation in named.items():
        gx_result = batch.validate(expectation)
        failing = _failing_ids(frame, name)
        outcomes.append(
            ExpectationOutcome(
                expectation=name,
                success=bool(gx_result.success) and not failing,
                failing_ids=failing,
                blocking=name == "ids unique",
            )
        )
    end = _failing_ids(frame, "end date present or ongoing")
    outcomes.append(ExpectationOutcome("end date present or ongoing", not end, end))
    return outcomes


def vague_outcome_ids(frame: pl.DataFrame) -> list[str]:
    """Ids whose outcomes have no number, percentage or measurable before/after (vague)."""
    return sorted(frame.filter(pl.col("outcome_vague"))["id"].to_list())
