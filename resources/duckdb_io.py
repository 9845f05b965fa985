"""DuckDB IO manager that survives schema changes between releases.

The stock polars handler creates a table once and then inserts positionally, so a table
whose columns changed (an added score component, a new model's vector width) can never be
written again (field notes §2b: "schema drift breaks re-materialization"). This handler
migrates the stored table to the frame's columns first: unpartitioned tables are replaced
outright (they are fully rewritten anyway); partitioned tables keep the other partitions'
rows, with NULL in columns they never had and columns that no longer exist dropped.

Every output (and every input load) runs on its own connection inside one explicit DuckDB
transaction (``TransactionalDuckDbClient``). The stock client uses DuckDB's autocommit, so
the partition's DELETE, any migration (CREATE/DROP/RENAME) and the INSERT were separate
commits: a run killed or failing between them left the partition empty, half-migrated or,
for a migration, without a table at all. Now a reader sees the old rows until the new ones
are committed, and a write that fails is rolled back. A process killed before COMMIT leaves
nothing to replay: DuckDB appends a transaction to its write-ahead log only when it commits,
and the file lock dies with the process (tests/test_killed_run.py kills one with SIGKILL).
What is not atomic: the outputs of one step or run (each output is its own transaction), and
the gap between COMMIT and Dagster recording the materialization (a kill there leaves the new
rows without a materialization event; a re-run rewrites the same rows).
"""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import duckdb
import polars as pl
from dagster import InputContext, OutputContext
from dagster._core.storage.db_io_manager import DbIOManager, DbTypeHandler, TableSlice
from dagster_duckdb.io_manager import DuckDbClient
from dagster_duckdb_polars import DuckDBPolarsIOManager
from dagster_duckdb_polars.duckdb_polars_type_handler import DuckDBPolarsTypeHandler

from rfp_retrieval.storage.writer_lock import held_by_this_process, wait_for_store

DAGSTER_CONNECTION_CONFIG = {"custom_user_agent": "dagster"}
"""The DuckDB config dagster-duckdb opens every read-write connection with (its IO manager's
client and ``DuckDBResource``, with no ``connection_config`` of ours): a connection held open
beside them (``held_open``) must use the same, or DuckDB refuses to open the file twice."""


@contextmanager
def held_open(database: str, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection | None]:
    """Keep the DuckDB file ``database`` open in this process for the block.

    DuckDB keeps one database instance per file and configuration per process while any
    connection to it is open, so every connection the block's code opens (the IO manager's,
    one per input and output; the partition store's) reuses it instead of reading the file's
    catalog again, and closing them skips the checkpoint that the last close of a file does:
    about a third of a warm ``rfp_job`` run's CPU time went to those opens and closes
    (``benchmarks/README.md``, issue 15 speed). The file is checkpointed once, when the block
    ends. ``read_only``: the mode of the connections the block opens (a read-write and a
    read-only instance of one file cannot coexist in one process).

    Yields the held connection, or None (nothing held, the block runs as it would without)
    when the file does not exist yet or another process holds its lock: the block's own
    connections then wait or fail as they always did. While it is held, other processes
    cannot open the file (DuckDB locks it per process), as during any write.
    """
    if not Path(database).is_file():
        yield None
        return
    try:
        connection = duckdb.connect(
            database, read_only=read_only, config={} if read_only else DAGSTER_CONNECTION_CONFIG
        )
    except duckdb.Error:
        yield None
        return
    try:
        yield connection
    finally:
        connection.close()


def _columns(connection, schema: str, table: str) -> list[tuple[str, str]]:
    return connection.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position",
        [schema, table],
    ).fetchall()


def migrate_table(connection, schema: str, table: str, frame: pl.DataFrame, partitioned: bool):
    """Make ``schema.table`` have exactly ``frame``'s columns (names, order, types).

    ``connection`` is the IO manager's, inside the write's transaction, so the copy, DROP and
    RENAME commit or roll back with the rows. Returns the migration done: ``"none"``,
    ``"replaced"`` or ``"migrated"``. Raises ``duckdb.Error`` when a statement fails.
    """
    stored = _columns(connection, schema, table)
    if not stored:
        return "none"
    connection.register("_incoming", frame.head(0).to_arrow())
    try:
        wanted = [(r[0], r[1]) for r in connection.execute("DESCRIBE _incoming").fetchall()]
    finally:
        connection.unregister("_incoming")
    if stored == wanted:
        return "none"
    qualified = f'{schema}."{table}"'
    if not partitioned:
        connection.execute(f"DROP TABLE {qualified}")
        return "replaced"
    have = {name for name, _ in stored}
    select = ", ".join(
        f'TRY_CAST("{name}" AS {dtype}) AS "{name}"'
        if name in have
        else f'CAST(NULL AS {dtype}) AS "{name}"'
        for name, dtype in wanted
    )
    temporary = f'{schema}."{table}__migrating"'
    connection.execute(f"CREATE OR REPLACE TABLE {temporary} AS SELECT {select} FROM {qualified}")
    connection.execute(f"DROP TABLE {qualified}")
    connection.execute(f'ALTER TABLE {temporary} RENAME TO "{table}"')
    return "migrated"


class EvolvingPolarsTypeHandler(DuckDBPolarsTypeHandler):
    """Polars handler that migrates the stored table before writing (see module doc)."""

    def handle_output(
        self, context: OutputContext, table_slice: TableSlice, obj: pl.DataFrame, connection
    ):
        if obj is not None and obj.height == 0:
            # The stock handler skips empty frames, so a first empty write leaves no table and
            # every reader fails; an empty result (no rejected rows) is a valid result.
            migrate_table(
                connection,
                table_slice.schema,
                table_slice.table,
                obj,
                partitioned=bool(table_slice.partition_dimensions),
            )
            connection.execute(f"CREATE SCHEMA IF NOT EXISTS {table_slice.schema}")
            connection.register("_empty", obj.to_arrow())
            try:
                connection.execute(
                    f'CREATE TABLE IF NOT EXISTS {table_slice.schema}."{table_slice.table}" '
                    "AS SELECT * FROM _empty"
                )
            finally:
                connection.unregister("_empty")
            context.add_output_metadata({"row_count": 0})
            return
        if obj is not None and obj.height:
            done = migrate_table(
                connection,
                table_slice.schema,
                table_slice.table,
                obj,
                partitioned=bool(table_slice.partition_dimensions),
            )
            if done != "none":
                context.log.warning(
                    f"table {table_slice.schema}.{table_slice.table} {done} to the new columns"
                )
        super().handle_output(context, table_slice, obj, connection)


class TransactionalDuckDbClient(DuckDbClient):
    """``DuckDbClient`` whose connection is one explicit transaction.

    The connection itself is opened by the stock client (read-write, retried with backoff
    while another process holds the file lock, about 100 s in all; field notes §2b). The
    IO manager runs ensure-schema, the partition DELETE and the handler's migration and
    INSERT on it, so they commit together when the block exits normally and roll back
    together when it raises. The connection is closed either way.
    """

    @staticmethod
    @contextmanager
    def connect(
        context: OutputContext | InputContext, table_slice: TableSlice
    ) -> Iterator[duckdb.DuckDBPyConnection]:
        """Yield a connection in an open transaction; COMMIT on exit, ROLLBACK on error.

        Raises whatever the block raised (after the rollback), ``duckdb.IOException`` when the
        file lock could not be had after the retries, and a ``duckdb.Error`` from COMMIT (the
        transaction is then rolled back by DuckDB).
        """
        with DuckDbClient.connect(context, table_slice) as connection:
            try:
                connection.begin()
                try:
                    yield connection
                except BaseException:
                    try:
                        connection.rollback()
                    except duckdb.Error:
                        pass  # closing discards the transaction anyway; keep the first error
                    raise
                connection.commit()
            finally:
                connection.close()  # the stock client skips its close when the block raises


class EvolvingDuckDBPolarsIOManager(DuckDBPolarsIOManager):
    """``DuckDBPolarsIOManager`` whose tables follow the assets' columns across releases and
    whose writes are atomic per output (one transaction: delete + migrate + insert).

    A run holds the store's one-writer lock (``rfp_retrieval.storage.writer_lock``) while
    its IO manager is up: a run the UI's daemon or sensor launched waits (its log says for
    whom) while ``rfp-retrieval run`` writes the store, and a ``run`` started meanwhile is
    refused naming it. A process that holds the lock already (``run``, ``review``) takes
    nothing more."""

    @contextmanager
    def yield_for_execution(self, context) -> Iterator[DbIOManager]:
        """The IO manager, with the store's writer lock held around it unless this process
        holds it (``writer_lock.wait_for_store``: waits up to ``WAIT_SECONDS``, then the run
        fails with ``StoreBusyError`` naming the holder)."""
        lock = None
        if not held_by_this_process(self.database):
            Path(self.database).parent.mkdir(parents=True, exist_ok=True)
            lock = wait_for_store(self.database, command="ui", on_wait=context.log.info)
        try:
            with super().yield_for_execution(context) as io_manager:
                yield io_manager
        finally:
            if lock is not None:
                lock.release()

    @staticmethod
    def type_handlers() -> Sequence[DbTypeHandler]:
        return [EvolvingPolarsTypeHandler()]

    def create_io_manager(self, context) -> DbIOManager:
        """The stock ``DbIOManager`` on a ``TransactionalDuckDbClient``."""
        return DbIOManager(
            db_client=TransactionalDuckDbClient(),
            database=self.database,
            schema=self.schema_,
            type_handlers=self.type_handlers(),
            default_load_type=self.default_load_type(),
            io_manager_name="DuckDBIOManager",
        )
