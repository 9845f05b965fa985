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
