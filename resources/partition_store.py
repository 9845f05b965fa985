"""The partition store: the one place that knows how a stored asset table is read.

Assets write their tables through the IO manager (``resources/duckdb_io.py``). Some readers
need a table the IO manager does not hand them as an input: the brief reads the question
tables of its partition when they exist, the embedding assets reuse the stored vectors of
unchanged texts, the override export reads every partition's references, and the CLI reads
the partition a run just wrote. They all read through this resource, so a second store
(Postgres behind the same seam; DESIGN.md "Storage and scale") implements these four
methods and nothing else.

The interface is store-agnostic: table names, partition keys and column names in, polars
frames out. A missing table is ``None`` (nothing written yet), never an error.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import dagster as dg
import duckdb
import polars as pl
from dagster_duckdb import DuckDBResource

SCHEMA = "rfp"
"""The schema every asset table is stored in (the IO manager's ``schema``)."""
PARTITION_COLUMN = "rfp_partition"
"""The column holding the partition key in every partitioned table (``partition_expr``)."""


class DuckDBPartitionStore(dg.ConfigurableResource):
    """Reads the asset tables stored in one DuckDB file (schema ``rfp``).

    ``read_only=False`` (the pipeline's resource) connects like ``DuckDBResource``:
    read-write, retried with backoff while another process holds the file lock (about 100 s;
    field notes §2b). ``read_only=True`` (the CLI, after its runs) opens a read-only
    connection that fails at once with ``duckdb.IOException`` when another process holds
    the lock. Each call opens and closes its own connection.
    """

    database: str
    read_only: bool = False

    @contextmanager
    def _connection(self) -> Iterator[duckdb.DuckDBPyConnection]:
        if not self.read_only:
            with DuckDBResource(database=self.database).get_connection() as con:
                yield con
            return
        con = duckdb.connect(self.database, read_only=True)
        try:
            yield con
        finally:
            con.close()

    @staticmethod
    def _stored_columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
        return [
            r[0]
            for r in con.execute(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position",
                [SCHEMA, table],
            ).fetchall()
        ]

    def columns(self, table: str) -> list[str]:
        """The stored columns of ``table`` in order; empty when the table does not exist."""
        with self._connection() as con:
            return self._stored_columns(con, table)

    def read_table(self, table: str, columns: Sequence[str] | None = None) -> pl.DataFrame | None:
        """Every row of ``table`` (all columns, or ``columns`` in that order).

        Returns None when the table does not exist yet or lacks one of ``columns``.
        """
        with self._connection() as con:
            stored = self._stored_columns(con, table)
            if not stored or not set(columns or ()) <= set(stored):
                return None
            select = ", ".join(columns) if columns else "*"
            return con.sql(f'SELECT {select} FROM {SCHEMA}."{table}"').pl()

    def read_partition(
        self, table: str, key: str, columns: Sequence[str] | None = None
    ) -> pl.DataFrame | None:
        """The rows of partition ``key`` of ``table`` (all columns, or ``columns``).

        Returns None when the table does not exist yet or lacks one of ``columns``; an empty
        frame when the partition has no rows.
        """
        with self._connection() as con:
            stored = self._stored_columns(con, table)
            if not stored or not set(columns or ()) <= set(stored):
                return None
            select = ", ".join(columns) if columns else "*"
            return con.sql(
                f'SELECT {select} FROM {SCHEMA}."{table}" WHERE {PARTITION_COLUMN} = $key',
                params={"key": key},
            ).pl()

    def partition_keys(self, table: str) -> list[str]:
        """The partition keys stored in ``table``, sorted; empty when it does not exist."""
        with self._connection() as con:
            if PARTITION_COLUMN not in self._stored_columns(con, table):
                return []
            rows = con.execute(
                f'SELECT DISTINCT {PARTITION_COLUMN} FROM {SCHEMA}."{table}" ORDER BY 1'
            ).fetchall()
            return [r[0] for r in rows]
