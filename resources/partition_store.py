"""The partition store: the one place that knows how a stored asset table is read.

Assets write their tables through the IO manager (``resources/duckdb_io.py``). Some readers
need a table the IO manager does not hand them as an input: the brief reads the question
tables of its partition when they exist, the embedding assets reuse the stored vectors of
unchanged texts, the override export reads every partition's references, and the CLI reads
the partition a run just wrote. They all read through this resource: the DuckDB store
(``DuckDBPartitionStore``) and the Postgres store (``PostgresPartitionStore``, settings
``store: postgres``; DESIGN.md "Storage and scale") implement these four methods and nothing
else, and ``partition_store_for(settings)`` picks one.

The interface is store-agnostic: table names, partition keys and column names in, polars
frames out. A missing table is ``None`` (nothing written yet), never an error.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import dagster as dg
import duckdb
import polars as pl
from dagster_duckdb import DuckDBResource

from rfp_retrieval.settings import POSTGRES_URL_ENV, Settings, read_postgres_url

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
        # no file yet (a first run stopped before the library job wrote one): an empty
        # database, so every table reads as "not there yet" as documented, never an IOException
        exists = Path(self.database).exists()
        con = duckdb.connect(self.database if exists else ":memory:", read_only=exists)
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


class PostgresPartitionStore(dg.ConfigurableResource):
    """Reads the asset tables stored in a Postgres database (schema ``rfp``).

    ``url_env`` names the environment variable holding the URL (read at each call, never
    stored in the resource's config). Each call opens its own connection and reads in one
    ``REPEATABLE READ`` snapshot, so a partition being rewritten by another run is seen
    whole, before or after. ``read_only`` is accepted for parity with the DuckDB store: every
    read here is a read-only transaction anyway. Raises SettingsError when the variable is
    unset, ``PostgresStoreError`` when the server cannot be reached.
    """

    url_env: str = POSTGRES_URL_ENV
    read_only: bool = False

    @contextmanager
    def _cursor(self) -> Iterator[Any]:
        from rfp_retrieval.storage import postgres as pg

        connection = pg.connect(read_postgres_url(self.url_env))
        try:
            with pg.transaction(connection, read_only=True) as cursor:
                yield cursor
        finally:
            connection.close()

    def columns(self, table: str) -> list[str]:
        """The stored columns of ``table`` in order; empty when the table does not exist."""
        from rfp_retrieval.storage import postgres as pg

        with self._cursor() as cur:
            return [name for name, _ in pg.stored_columns(cur, SCHEMA, table)]

    def read_table(self, table: str, columns: Sequence[str] | None = None) -> pl.DataFrame | None:
        """Every row of ``table`` (all columns, or ``columns`` in that order), in write order.

        Returns None when the table does not exist yet or lacks one of ``columns``.
        """
        from rfp_retrieval.storage import postgres as pg

        with self._cursor() as cur:
            return pg.read_frame(cur, SCHEMA, table, columns)

    def read_partition(
        self, table: str, key: str, columns: Sequence[str] | None = None
    ) -> pl.DataFrame | None:
        """The rows of partition ``key`` of ``table`` (all columns, or ``columns``).

        Returns None when the table does not exist yet or lacks one of ``columns``; an empty
        frame when the partition has no rows.
        """
        from rfp_retrieval.storage import postgres as pg

        with self._cursor() as cur:
            return pg.read_frame(cur, SCHEMA, table, columns, PARTITION_COLUMN, [key])

    def partition_keys(self, table: str) -> list[str]:
        """The partition keys stored in ``table``, sorted; empty when it does not exist."""
        from rfp_retrieval.storage import postgres as pg

        with self._cursor() as cur:
            return pg.partition_keys(cur, SCHEMA, table, PARTITION_COLUMN)


def partition_store_for(
    settings: Settings, read_only: bool = False
) -> DuckDBPartitionStore | PostgresPartitionStore:
    """The partition store ``settings.store`` names: the DuckDB file ``db_path`` or the
    Postgres database at ``$<postgres_url_env>``.

    Raises SettingsError when the store is Postgres and the URL variable is unset.
    """
    if settings.store == "postgres":
        _ = settings.postgres_url  # fail now, naming the variable, not at the first read
        return PostgresPartitionStore(url_env=settings.postgres_url_env, read_only=read_only)
    return DuckDBPartitionStore(database=str(settings.db_path), read_only=read_only)


def store_has_tables(settings: Settings) -> bool:
    """True when the configured store has been written: the DuckDB file exists (it is not
    opened: another process may hold its lock), or the Postgres database holds the library's
    ``pp_entries`` table. An unreachable Postgres counts as not written (the library job
    then fails with the connection error, URL redacted, as its message)."""
    from rfp_retrieval.storage.postgres import PostgresStoreError

    if settings.store != "postgres":
        return Path(settings.db_path).is_file()
    try:
        return bool(partition_store_for(settings, read_only=True).columns("pp_entries"))
    except PostgresStoreError:
        return False
