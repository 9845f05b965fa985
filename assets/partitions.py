"""One dynamic partition per RFP file in the inbox (key: ``rfp_retrieval.inbox``)."""

import dagster as dg

from resources.partition_store import PARTITION_COLUMN

rfp_partitions = dg.DynamicPartitionsDefinition(name="rfp_documents")

PARTITION_META = {"partition_expr": PARTITION_COLUMN}
"""Asset metadata of every RFP-partitioned table: the IO manager writes and deletes a partition
by this column (the partition store reads by it too)."""
