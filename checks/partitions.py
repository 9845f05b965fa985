"""One rule for the checks of RFP-partitioned assets: they are evaluated per partition.

A run holds one partition (the sensor's runs) or several (``rfp-retrieval run`` on the DuckDB
store runs every new file in one run, ``launch.Launcher.run_batch``); an asset check of such a
run gets the rows of every partition of the run. ``partition_check`` evaluates each
partition's rows on their own and reports one result for the run.
"""

from collections.abc import Callable
from typing import Any

import dagster as dg
import polars as pl

from resources.partition_store import PARTITION_COLUMN

Evaluation = tuple[bool, dict[str, Any]]
"""``(passed, metadata)`` of one partition's rows (metadata values: str, int, float, bool)."""


def partition_check(
    frame: pl.DataFrame,
    evaluate: Callable[[pl.DataFrame], Evaluation],
    severity: dg.AssetCheckSeverity,
) -> dg.AssetCheckResult:
    """``evaluate`` on the rows of each partition in ``frame`` (by ``PARTITION_COLUMN``).

    Rows of at most one partition: the result is ``evaluate(frame)`` as is. Several: passed
    when every partition passed; metadata ``partitions`` (count), ``failed_partitions`` (keys,
    or "none") and ``by_partition`` (JSON: key -> ``{"passed": ..., **metadata}``).
    """
    keys = (
        frame[PARTITION_COLUMN].unique(maintain_order=True).to_list()
        if PARTITION_COLUMN in frame.columns
        else []
    )
    if len(keys) <= 1:
        passed, metadata = evaluate(frame)
        return dg.AssetCheckResult(passed=passed, severity=severity, metadata=metadata)
    results = {key: evaluate(frame.filter(pl.col(PARTITION_COLUMN) == key)) for key in keys}
    failed = [key for key, (passed, _) in results.items() if not passed]
    return dg.AssetCheckResult(
        passed=not failed,
        severity=severity,
        metadata={
            "partitions": len(keys),
            "failed_partitions": ", ".join(failed) or "none",
            "by_partition": dg.MetadataValue.json(
                {key: {"passed": passed, **meta} for key, (passed, meta) in results.items()}
            ),
        },
    )
