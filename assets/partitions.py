"""One dynamic partition per RFP file in the inbox (key: ``rfp_retrieval.inbox``)."""

import dagster as dg

rfp_partitions = dg.DynamicPartitionsDefinition(name="rfp_documents")
