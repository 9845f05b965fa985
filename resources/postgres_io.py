"""Postgres IO manager: the DuckDB IO manager's contract on a Postgres database.

Polars frames in and out, one table per asset in schema ``rfp``, partitioned assets keyed by
``partition_expr`` (``rfp_partition``), schema changes migrated, and every output written in
one transaction: a per-table lock, any migration, the partition's DELETE, the binary COPY and
COMMIT (``rfp_retrieval.storage.postgres.write_frame``). Readers (other runs, the partition
store) see the previous rows until COMMIT; a write that fails, or a process killed before
COMMIT, leaves them (Postgres rolls back a transaction whose connection dies). Several runs
may write different partitions of one table at once: writers of a table take turns for the
length of one output's transaction, readers never wait. Each input is read in one
``REPEATABLE READ`` snapshot, so a run never reads half of a partition being rewritten; a
table with an array column (``pp_facet_embeddings``' vectors) is read a slice of heap pages
per query inside it (``read_frame``), so the driver never buffers the whole table.

The resource holds the NAME of the environment variable with the URL (``url_env``), never
the URL, so the Dagster UI and run config never show a password; the variable is read when
a step opens its connection (every worker process needs it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import dagster as dg
import polars as pl
from dagster import InputContext, MetadataValue, OutputContext, TableColumn, TableSchema
from dagster._core.definitions.partitions.utils import TimeWindow
from dagster._core.storage.db_io_manager import DbClient, DbIOManager, DbTypeHandler, TableSlice
from pydantic import Field

from rfp_retrieval.settings import POSTGRES_URL_ENV, read_postgres_url
from rfp_retrieval.storage import postgres as pg


def _partition_slice(table_slice: TableSlice) -> tuple[str | None, list[str]]:
    """``(partition column, keys)`` of a slice; ``(None, [])`` when unpartitioned.

    Raises:
        ValueError: multi-dimensional or time-window partitions (the project's assets have
            one dynamic dimension; the Postgres store supports only key lists).
    """
    dimensions = table_slice.partition_dimensions or []
    if not dimensions:
        return None, []
    if len(dimensions) > 1 or isinstance(dimensions[0].partitions, TimeWindow):
        raise ValueError(
            f"{table_slice.schema}.{table_slice.table}: the Postgres store supports one "
            "partition dimension of keys (dynamic or static partitions), not "
            f"{len(dimensions)} dimension(s) or time windows"
        )
    return dimensions[0].partition_expr, list(dimensions[0].partitions)


class PostgresPolarsTypeHandler(DbTypeHandler[pl.DataFrame]):
    """Writes and reads polars frames through ``rfp_retrieval.storage.postgres``."""

    def handle_output(
        self, context: OutputContext, table_slice: TableSlice, obj: pl.DataFrame, connection
    ) -> Mapping[str, Any]:
        """Store ``obj`` in the slice (``connection`` is a cursor in the output's transaction).

        Raises PostgresStoreError naming the table when the write fails.
        """
        column, keys = _partition_slice(table_slice)
        done = pg.write_frame(connection, table_slice.schema, table_slice.table, obj, column, keys)
        if done in ("replaced", "migrated"):
            context.log.warning(
                f"table {table_slice.schema}.{table_slice.table} {done} to the new columns"
            )
        return {
            "row_count": obj.height,
            "dataframe_columns": MetadataValue.table_schema(
                TableSchema(
                    columns=[
                        TableColumn(name=name, type=str(dtype))
                        for name, dtype in zip(obj.columns, obj.dtypes, strict=True)
                    ]
                )
            ),
        }

    def load_input(
        self, context: InputContext, table_slice: TableSlice, connection
    ) -> pl.DataFrame:
        """The slice's rows with their written dtypes, in write order.

        Raises:
            PostgresStoreError: the table does not exist (upstream never materialized here).
        """
        if table_slice.partition_dimensions and len(context.asset_partition_keys) == 0:
            return pl.DataFrame()
        column, keys = _partition_slice(table_slice)
        frame = pg.read_frame(
            connection,
            table_slice.schema,
            table_slice.table,
            table_slice.columns,
            column,
            keys if column else None,
        )
        if frame is None:
            raise pg.PostgresStoreError(
                f"table {table_slice.schema}.{table_slice.table} is not in the Postgres store"
                + (f" or lacks columns {list(table_slice.columns)}" if table_slice.columns else "")
                + "; materialize the upstream asset first (or run `rfp-retrieval store migrate` "
                "to copy a DuckDB store across)"
            )
        return frame

    @property
    def supported_types(self) -> Sequence[type[object]]:
        return [pl.DataFrame]


class PostgresClient(DbClient):
    """Connections for ``DbIOManager``: one per output or input, inside one transaction.

    ``ensure_schema_exists`` and ``delete_table_slice`` do nothing here: ``write_frame`` does
    both after taking the table's lock, in the same transaction as the rows.
    """

    def __init__(self, url_env: str) -> None:
        self.url_env = url_env

    @staticmethod
    def delete_table_slice(context: OutputContext, table_slice: TableSlice, connection) -> None:
        return None

    @staticmethod
    def ensure_schema_exists(context: OutputContext, table_slice: TableSlice, connection) -> None:
        return None

    @staticmethod
    def get_select_statement(table_slice: TableSlice) -> str:
        """The SELECT that reads the slice (shown as the output's ``Query`` metadata)."""
        columns = ", ".join(f'"{c}"' for c in table_slice.columns or []) or "*"
        sql = f"SELECT {columns} FROM {pg.qualified(table_slice.schema, table_slice.table)}"
        column, keys = _partition_slice(table_slice)
        if column:
            values = ", ".join("'" + key.replace("'", "''") + "'" for key in keys)
            sql += f' WHERE "{column}" IN ({values})'
        return sql

    @contextmanager
    def connect(
        self, context: OutputContext | InputContext, table_slice: TableSlice
    ) -> Iterator[Any]:
        """Yield a cursor in a transaction (read-only snapshot for inputs); COMMIT on exit.

        Raises SettingsError when ``$<url_env>`` is unset, PostgresStoreError when the server
        cannot be reached.
        """
        connection = pg.connect(read_postgres_url(self.url_env))
        try:
            with pg.transaction(connection, read_only=isinstance(context, InputContext)) as cur:
                yield cur
        finally:
            connection.close()


class PostgresPolarsIOManager(dg.ConfigurableIOManagerFactory):
    """IO manager storing polars frames in Postgres (see module doc).

    ``url_env``: name of the environment variable holding ``postgresql://…`` (default
    ``RFP_RETRIEVAL_POSTGRES_URL``); ``schema``: the schema every table goes in.
    """

    url_env: str = POSTGRES_URL_ENV
    schema_: str | None = Field(default=None, alias="schema")

    def create_io_manager(self, context) -> DbIOManager:
        """The stock ``DbIOManager`` on a ``PostgresClient`` (tables named
        ``database.schema.table`` in the ``dagster/table_name`` metadata).

        Raises SettingsError when ``$<url_env>`` is unset.
        """
        return DbIOManager(
            db_client=PostgresClient(self.url_env),
            database=pg.database_name(read_postgres_url(self.url_env)),
            schema=self.schema_,
            type_handlers=[PostgresPolarsTypeHandler()],
            default_load_type=pl.DataFrame,
            io_manager_name="PostgresPolarsIOManager",
        )
