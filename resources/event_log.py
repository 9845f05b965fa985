"""A faster event log for the CLI's in-process runs on the DuckDB store's SQLite instance.

Dagster's ``SqliteEventLogStorage`` builds a new SQLAlchemy engine, opens a new SQLite
connection and commits with a full sync for every statement group: one ``rfp_job`` run
stores ~135 events (each one to four connections: the run's shard, the cross-run index for
asset, check and run-status events) and asks ~120 times whether its partition exists, so a
warm run spent a quarter of its time there (``benchmarks/README.md``, issue 15 speed).

``PooledSqliteEventLogStorage`` is the same storage (same files, tables and rows; the UI and
the daemon read them as before) with one engine per shard kept for the process, so its
connections are reused, and ``PRAGMA synchronous=NORMAL`` on them: in WAL mode (which Dagster
sets on every shard) a commit then appends to the WAL without waiting for the disk; SQLite
documents this as safe from corruption, and a power cut (not a crash of the process) can
lose the last transactions. Each connection asks for WAL mode itself, before Dagster's
first statement: a run's new shard file is then in WAL mode while Dagster creates its ~30
tables and indexes (each its own commit) instead of after them, where each was a journal
write waited for on the disk (0.1-0.4 s per ``rfp_job`` run on this machine, 0.03-0.08 s
now; ``benchmarks/README.md``). On a shard already in WAL mode the pragma changes nothing.
``pooled_event_log(instance)`` swaps it into an instance whose event log is the stock
SQLite one (the Postgres instance is left as it is).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from dagster._core.storage.event_log.sqlite.sqlite_event_log import (
    INDEX_SHARD_NAME,
    SqliteEventLogStorage,
)
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine

BUSY_TIMEOUT_S = 30
"""Seconds a connection waits for another process's write lock (Dagster's own default)."""


class PooledSqliteEventLogStorage(SqliteEventLogStorage):
    """``SqliteEventLogStorage`` with one pooled engine per shard (module docstring)."""

    def __init__(self, base_dir: str, inst_data: Any = None) -> None:
        self._engines: dict[str, Engine] = {}
        self._tables: set[str] = set()
        super().__init__(base_dir, inst_data)

    def has_table(self, table_name: str) -> bool:
        """Whether the index shard has ``table_name``, a yes remembered for the process.

        Dagster asks before most statements (every ``has_dynamic_partition``: ~140 times an
        ``rfp_job`` run), each time through a new engine and connection; a table is never
        dropped while the instance is in use, so a yes stays true. A no is asked again (a
        ``dagster instance migrate`` in another process may add the table).
        """
        if table_name in self._tables:
            return True
        found = super().has_table(table_name)
        if found:
            self._tables.add(table_name)
        return found

    def _engine(self, shard: str) -> Engine:
        engine = self._engines.get(shard)
        if engine is None:
            engine = create_engine(
                self.conn_string_for_shard(shard),
                connect_args={"timeout": BUSY_TIMEOUT_S},
                pool_size=1,
                max_overflow=4,
            )
            event.listen(engine, "connect", _relaxed_sync)
            self._engines[shard] = engine
        if shard not in self._initialized_dbs:
            self._initdb(engine)
            self._initialized_dbs.add(shard)
        return engine

    @contextmanager
    def _connect(self, shard: str) -> Iterator[Connection]:
        """A connection of ``shard``'s engine inside one transaction (committed on exit),
        under the storage's lock, as the stock method gives."""
        with self._db_lock:
            with self._engine(shard).connect() as conn:
                with conn.begin():
                    yield conn

    def release_runs(self) -> None:
        """Close the pooled connections of every run shard (the index shard's stay): called
        after each run, so a long process holds no file of a finished run open."""
        with self._db_lock:
            for shard in [s for s in self._engines if s != INDEX_SHARD_NAME]:
                self._engines.pop(shard).dispose()

    def dispose(self) -> None:
        """Close every pooled connection (the storage stays usable: engines are re-made)."""
        with self._db_lock:
            for engine in self._engines.values():
                engine.dispose()
            self._engines.clear()
        super().dispose()


def _relaxed_sync(dbapi_connection: Any, _record: Any) -> None:
    """WAL mode and ``synchronous=NORMAL`` on each new connection (module docstring). A
    shard another process is creating at that moment keeps its mode (Dagster sets WAL on it
    after its tables); the connection is made all the same."""
    try:
        dbapi_connection.execute("PRAGMA journal_mode=WAL")
    except sqlite3.OperationalError:  # locked by its creator: Dagster's own pragma follows
        pass
    dbapi_connection.execute("PRAGMA synchronous=NORMAL")


def pooled_event_log(instance: Any) -> bool:
    """Give ``instance`` (a ``DagsterInstance``) a ``PooledSqliteEventLogStorage`` on the same
    folder when its event log is exactly the stock ``SqliteEventLogStorage``; True when it
    was swapped, False (nothing changed) for any other storage (Postgres, a subclass)."""
    current = instance._event_storage
    if type(current) is not SqliteEventLogStorage:
        return False
    pooled = PooledSqliteEventLogStorage(current._base_dir, current.inst_data)
    pooled._initialized_dbs |= current._initialized_dbs
    instance._event_storage = pooled
    pooled.register_instance(instance)
    return True
