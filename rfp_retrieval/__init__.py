"""rfp-retrieval: past-performance and answer-library retrieval for RFPs (Dagster-free core)."""

__version__ = "0.1.0"
