"""Where asset tables live beyond the embedded DuckDB file: Postgres (``postgres``) and the
copy of a DuckDB store into it (``migrate``). No Dagster imports: ``resources/`` wraps these."""
