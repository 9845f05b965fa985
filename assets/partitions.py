"""One dynamic partition per RFP file in the inbox (key: ``rfp_retrieval.inbox``), and the
decorator every RFP-partitioned table asset is declared with."""

from typing import Any

import dagster as dg

from resources.partition_store import PARTITION_COLUMN

rfp_partitions = dg.DynamicPartitionsDefinition(name="rfp_documents")

PARTITION_META = {"partition_expr": PARTITION_COLUMN}
"""Asset metadata of every RFP-partitioned table: the IO manager writes and deletes a partition
by this column (the partition store reads by it too)."""

OWNERS = ["team:proposal-ops"]
"""Owners of every asset of the code location (shown in the Dagster UI)."""

TABLE_KINDS = frozenset({"duckdb", "polars", "python"})
"""Kinds of an asset computed in Python and stored as a DuckDB table of polars frames."""


def rfp_asset(group_name: str, *, kinds: frozenset[str] | set[str] = TABLE_KINDS, **kwargs: Any):
    """``dg.asset`` for a table with one partition per RFP: the ``rfp_documents`` partitions,
    the project's owners and ``PARTITION_META`` (the column the IO manager and the partition
    store write and read a partition by). ``kwargs`` go to ``dg.asset`` unchanged."""
    return dg.asset(
        partitions_def=rfp_partitions,
        group_name=group_name,
        kinds=set(kinds),
        owners=OWNERS,
        metadata=PARTITION_META,
        **kwargs,
    )


def partition_slice(frame: Any, key: str) -> Any:
    """The rows of partition ``key`` of an input ``frame`` (a polars frame with the
    ``PARTITION_COLUMN``); any other input (an unpartitioned table, None) unchanged."""
    import polars as pl

    if isinstance(frame, pl.DataFrame) and PARTITION_COLUMN in frame.columns:
        return frame.filter(pl.col(PARTITION_COLUMN) == key)
    return frame


def concat_partitions(frames: list) -> Any:
    """One frame of the per-partition ``frames`` (same columns; a column that is all-null in
    one partition takes the others' type)."""
    import polars as pl

    return frames[0] if len(frames) == 1 else pl.concat(frames, how="vertical_relaxed")


def each_partition(context: dg.AssetExecutionContext, compute, **inputs: Any) -> dg.Output:
    """Run ``compute(key, **inputs)`` once per partition of the run and return one output.

    The rule of every RFP asset: it is computed one partition at a time, whether the run holds
    one partition (the sensor's runs, one per file) or a range (``rfp-retrieval run`` on the
    DuckDB store: every new file in one run, ``launch.Launcher.run_batch``). ``compute``
    returns ``(frame, metadata)`` for its partition and sees only that partition's rows of each
    partitioned input (``partition_slice``; unpartitioned inputs whole). One partition: the
    output is ``dg.Output(frame, metadata)`` as is. A range: the frames concatenated, each
    partition's metadata attached to its own materialization (``add_asset_metadata``), so the
    UI and the sensor (``SOURCE_SHA``) read per-partition facts either way. An exception in
    any partition fails the step (``run_batch`` then runs each partition alone).
    """
    keys = list(context.partition_keys)
    if len(keys) == 1:
        frame, metadata = compute(keys[0], **inputs)
        return dg.Output(frame, metadata=metadata)
    frames = []
    for key in keys:
        frame, metadata = compute(key, **{n: partition_slice(v, key) for n, v in inputs.items()})
        context.add_asset_metadata(metadata, partition_key=key)
        frames.append(frame)
    return dg.Output(concat_partitions(frames))
