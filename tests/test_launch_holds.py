"""The CLI's runs keep the DuckDB store open for the run and reuse the event log's SQLite
connections (issue 15 speed); nothing about the stored rows or events changes."""

from __future__ import annotations

import sqlite3

import dagster as dg
import duckdb
import pytest
from dagster._core.storage.event_log.sqlite.sqlite_event_log import SqliteEventLogStorage

from resources.duckdb_io import DAGSTER_CONNECTION_CONFIG, held_open
from resources.event_log import PooledSqliteEventLogStorage, _relaxed_sync, pooled_event_log


def test_held_open_yields_nothing_for_a_store_not_written_yet(tmp_path):
    with held_open(str(tmp_path / "store.duckdb")) as held:
        assert held is None
    assert not (tmp_path / "store.duckdb").exists()


def test_connections_in_the_block_share_the_held_file(tmp_path):
    path = str(tmp_path / "store.duckdb")
    duckdb.connect(path).close()
    with held_open(path) as held:
        assert held is not None
        con = duckdb.connect(path, config=DAGSTER_CONNECTION_CONFIG)  # as dagster-duckdb opens it
        con.execute("CREATE TABLE t AS SELECT 42 AS x")
        con.close()
        assert held.execute("SELECT x FROM t").fetchall() == [(42,)]
        with pytest.raises(duckdb.ConnectionException):  # another mode of the same file
            duckdb.connect(path, read_only=True)
    with held_open(path, read_only=True) as held:
        assert duckdb.connect(path, read_only=True).execute("SELECT x FROM t").fetchall() == [(42,)]


def test_the_pooled_event_log_stores_what_the_stock_one_does(tmp_path):
    @dg.asset
    def one() -> int:
        return 1

    with dg.instance_for_test(temp_dir=str(tmp_path)) as instance:
        assert pooled_event_log(instance) is True
        assert pooled_event_log(instance) is False  # already swapped
        storage = instance._event_storage
        assert isinstance(storage, PooledSqliteEventLogStorage)
        result = dg.materialize([one], instance=instance)
        assert result.success
        storage.release_runs()
        logs = instance.all_logs(result.run_id)
        events = [e.dagster_event.event_type_value for e in logs if e.dagster_event]
        assert events.count("ASSET_MATERIALIZATION") == 1 and events[-1] == "PIPELINE_SUCCESS"
        record = instance.get_latest_materialization_event(dg.AssetKey("one"))
        assert record is not None and record.run_id == result.run_id


def test_a_new_run_shard_is_in_wal_mode_with_the_stock_tables(tmp_path):
    stock_dir, pooled_dir = tmp_path / "stock", tmp_path / "pooled"
    stock_dir.mkdir(), pooled_dir.mkdir()
    stock = SqliteEventLogStorage(str(stock_dir))
    pooled = PooledSqliteEventLogStorage(str(pooled_dir))
    with stock._connect("run-a"):
        pass
    with pooled._connect("run-a"):
        pass
    pooled.dispose()
    stock.dispose()

    def shape(path):
        con = sqlite3.connect(path)
        try:
            mode = con.execute("PRAGMA journal_mode").fetchone()[0]
            names = con.execute(
                "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY 2"
            ).fetchall()
            version = con.execute("SELECT version_num FROM alembic_version").fetchall()
            return mode, names, version
        finally:
            con.close()

    stock_shape, pooled_shape = shape(stock_dir / "run-a.db"), shape(pooled_dir / "run-a.db")
    assert pooled_shape == stock_shape
    assert pooled_shape[0] == "wal"
    assert ("table", "event_logs") in pooled_shape[1] and len(pooled_shape[2]) == 1


def test_a_new_shard_file_is_in_wal_mode_before_dagster_creates_its_tables(tmp_path):
    con = sqlite3.connect(tmp_path / "new-run.db")
    try:
        _relaxed_sync(con, None)  # what the pooled engine runs on each new connection
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert con.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    finally:
        con.close()


def test_the_pooled_event_log_asks_sqlite_once_for_a_table_it_has(tmp_path, monkeypatch):
    storage = PooledSqliteEventLogStorage(str(tmp_path))
    asked: list[str] = []
    stock = SqliteEventLogStorage.has_table

    def counted(self, table_name):
        asked.append(table_name)
        return stock(self, table_name)

    monkeypatch.setattr(SqliteEventLogStorage, "has_table", counted)
    assert [storage.has_table("dynamic_partitions") for _ in range(3)] == [True, True, True]
    assert [storage.has_table("no_such_table") for _ in range(2)] == [False, False]
    assert asked == ["dynamic_partitions", "no_such_table", "no_such_table"]
    storage.dispose()
