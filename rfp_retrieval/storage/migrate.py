"""Copy a DuckDB store into Postgres, table by table, and verify the row counts.

``rfp-retrieval store migrate`` (``rfp_retrieval/cli/store.py``) calls ``copy_duckdb_store``.
Every table of the DuckDB file's schema (``rfp``) is copied whole in one Postgres
transaction: the target table is dropped and recreated with the same columns, dtypes and
row order (``rfp_retrieval.storage.postgres``), the rows are streamed across in batches (a
million-vector library never sits in memory twice), and the rows per partition are counted
on both sides before COMMIT. A table whose counts differ is rolled back (its previous
Postgres rows, if any, stay) and reported; the others are kept. Postgres tables that the
DuckDB file does not have are left alone and listed.

The DuckDB file is opened read-only: a run or ``dagster dev`` still writing it makes the copy
fail at once with a message saying so (stop them first, or the copy would miss their rows).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from rfp_retrieval.settings import scrub_secrets
from rfp_retrieval.storage import postgres as pg

DEFAULT_BATCH_ROWS = 50_000
"""Rows per batch streamed from DuckDB to Postgres (about 80 MB of 384-float vectors)."""


class MigrationError(RuntimeError):
    """The source store cannot be read (missing, locked, not a DuckDB file)."""


@dataclass(frozen=True)
class PartitionCount:
    """Rows of one partition of one table on each side (``partition`` is ``""`` for a table
    without ``rfp_partition``)."""

    table: str
    partition: str
    duckdb_rows: int
    postgres_rows: int

    @property
    def match(self) -> bool:
        return self.duckdb_rows == self.postgres_rows


@dataclass(frozen=True)
class MigrationReport:
    """What ``copy_duckdb_store`` did.

    Attributes:
        counts: one ``PartitionCount`` per table and partition (tables sorted, partitions
            sorted; an empty table has one row with 0 on both sides).
        failed: ``{table: reason}`` of tables rolled back (counts differ or the write failed).
        postgres_only: tables in the Postgres schema that the DuckDB file does not have.
        pgvector: the Postgres database has the pgvector extension (vectors stay ``real[]``).
    """

    counts: list[PartitionCount]
    failed: dict[str, str]
    postgres_only: list[str]
    pgvector: bool

    @property
    def ok(self) -> bool:
        return not self.failed and all(c.match for c in self.counts)


def _duckdb_tables(con, schema: str) -> list[str]:
    rows = con.execute(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = ? AND table_type = 'BASE TABLE' ORDER BY table_name",
        [schema],
    ).fetchall()
    return [r[0] for r in rows]


def _duckdb_counts(con, schema: str, table: str, partition_column: str | None) -> dict[str, int]:
    name = f'{schema}."{table}"'
    if partition_column is None:
        return {"": int(con.execute(f"SELECT count(*) FROM {name}").fetchone()[0])}
    rows = con.execute(f'SELECT "{partition_column}", count(*) FROM {name} GROUP BY 1').fetchall()
    return {key: int(n) for key, n in sorted(rows, key=lambda r: str(r[0]))}


def _batches(con, schema: str, table: str, batch_rows: int) -> Iterator[pl.DataFrame]:
    """The table's rows in storage order, ``batch_rows`` at a time; one empty frame (with the
    columns) when the table is empty."""
    reader = con.execute(f'SELECT * FROM {schema}."{table}"').fetch_record_batch(batch_rows)
    any_rows = False
    for batch in reader:
        if batch.num_rows:
            any_rows = True
            yield pl.from_arrow(batch)
    if not any_rows:
        yield con.execute(f'SELECT * FROM {schema}."{table}" LIMIT 0').pl()


def copy_duckdb_store(
    duckdb_path: Path | str,
    postgres_url: str,
    schema: str = "rfp",
    partition_column: str = "rfp_partition",
    batch_rows: int = DEFAULT_BATCH_ROWS,
) -> MigrationReport:
    """Copy every table of ``duckdb_path``'s ``schema`` into the Postgres at ``postgres_url``.

    Returns a ``MigrationReport`` (counts per table and partition, tables rolled back).

    Raises:
        MigrationError: the DuckDB file is missing, locked by a writer, not a DuckDB file, or
            holds no ``schema`` tables (another tool's file: nothing is copied).
        PostgresStoreError: the Postgres server cannot be reached (URL shown redacted).
    """
    import duckdb

    path = Path(duckdb_path)
    if not path.is_file():
        raise MigrationError(f"{path}: no DuckDB store there (check db_path / --db)")
    try:
        source = duckdb.connect(str(path), read_only=True)
    except duckdb.Error as exc:
        reason = pg.first_line(exc)
        if "lock" in reason.lower():
            raise MigrationError(
                f"{path}: cannot open the DuckDB store read-only ({reason}); stop the runs and "
                "`dagster dev` that write it, then migrate"
            ) from None
        raise MigrationError(
            f"{path}: not a readable DuckDB store ({reason}); check db_path / --db, or restore "
            "the file from a backup"
        ) from None
    try:
        tables = _duckdb_tables(source, schema)
    except duckdb.Error as exc:
        source.close()
        raise MigrationError(f"{path}: cannot list its tables ({exc})") from None
    if not tables:
        source.close()
        raise MigrationError(
            f"{path}: holds no {schema} tables: is this the rfp-retrieval store? (db_path in "
            "rfp-retrieval.yaml, or --db); nothing was copied"
        )
    try:
        target = pg.connect(postgres_url)
    except pg.PostgresStoreError:
        source.close()
        raise
    counts: list[PartitionCount] = []
    failed: dict[str, str] = {}
    try:
        for table in tables:
            columns = [r[0] for r in source.execute(f'DESCRIBE {schema}."{table}"').fetchall()]
            column = partition_column if partition_column in columns else None
            expected = _duckdb_counts(source, schema, table, column)
            try:
                with pg.transaction(target) as cur:
                    pg.drop_table(cur, schema, table)
                    for i, batch in enumerate(_batches(source, schema, table, batch_rows)):
                        if i == 0:
                            pg.write_frame(cur, schema, table, batch)
                        else:
                            pg.append_frame(cur, schema, table, batch)
                    copied = pg.row_counts(cur, schema, table, column)
                    if copied != expected:
                        raise pg.PostgresStoreError(
                            f"row counts differ after the copy ({sum(copied.values())} of "
                            f"{sum(expected.values())} rows); rolled back"
                        )
            except pg.PostgresStoreError as exc:
                failed[table] = str(exc)
                copied = {}
            except Exception as exc:  # the driver's own error: the connection is gone
                if not type(exc).__module__.startswith("adbc_driver"):
                    raise
                reason = scrub_secrets(pg.first_line(exc), postgres_url)
                raise pg.PostgresStoreError(
                    f"the Postgres connection failed while copying {schema}.{table} ({reason}); "
                    "that table was rolled back and nothing after it was copied: re-run "
                    "`rfp-retrieval store migrate`"
                ) from None
            for key in sorted(set(expected) | set(copied)) or [""]:
                counts.append(PartitionCount(table, key, expected.get(key, 0), copied.get(key, 0)))
        with pg.transaction(target, read_only=True) as cur:
            postgres_only = sorted(set(pg.table_names(cur, schema)) - set(tables))
            pgvector = pg.has_pgvector(cur)
    finally:
        source.close()
        with contextlib.suppress(Exception):  # a dead connection may fail to close
            target.close()
    return MigrationReport(counts, failed, postgres_only, pgvector)
