"""The partition store: the one reader of stored asset tables outside the IO manager."""

from __future__ import annotations

import datetime as dt

import duckdb
import polars as pl
import pytest

from resources.partition_store import DuckDBPartitionStore


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "store.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE SCHEMA rfp")
    con.execute(
        "CREATE TABLE rfp.scope_query (rfp_partition VARCHAR, as_of DATE, customer_types VARCHAR[])"
    )
    con.execute(
        "INSERT INTO rfp.scope_query VALUES ('b-md', DATE '2026-06-08', ['local']), "
        "('a-md', DATE '2025-01-31', [])"
    )
    con.close()
    return DuckDBPartitionStore(database=str(path))


def test_a_partition_is_read_as_a_polars_frame_with_the_stored_types(store):
    frame = store.read_partition("scope_query", "b-md")
    assert frame.schema == {
        "rfp_partition": pl.String,
        "as_of": pl.Date,
        "customer_types": pl.List(pl.String),
    }
    assert frame.to_dicts() == [
        {"rfp_partition": "b-md", "as_of": dt.date(2026, 6, 8), "customer_types": ["local"]}
    ]
    assert store.read_partition("scope_query", "nope").height == 0


def test_a_missing_table_or_column_reads_as_none_never_an_error(store):
    assert store.read_partition("question_answers", "b-md") is None
    assert store.read_table("question_answers") is None
    assert store.read_table("scope_query", ["rfp_partition", "vector"]) is None
    assert store.columns("question_answers") == []
    assert store.partition_keys("question_answers") == []


def test_whole_tables_columns_and_partition_keys(store):
    assert store.columns("scope_query") == ["rfp_partition", "as_of", "customer_types"]
    assert store.read_table("scope_query", ["as_of", "rfp_partition"]).columns == [
        "as_of",
        "rfp_partition",
    ]
    assert store.read_table("scope_query").height == 2
    assert store.partition_keys("scope_query") == ["a-md", "b-md"]


def test_the_read_only_store_reads_the_same_rows(store):
    read_only = DuckDBPartitionStore(database=store.database, read_only=True)
    assert read_only.read_partition("scope_query", "a-md").equals(
        store.read_partition("scope_query", "a-md")
    )


def test_a_read_only_store_whose_file_does_not_exist_yet_reads_as_empty(tmp_path):
    """A first `run` stopped by Ctrl-C before the library job wrote the DuckDB file printed a
    DuckDB IOException traceback from the summary's reads (`tests/test_run_ctrl_c.py`, on a
    loaded machine); a store with no file yet has no table, and reading it creates nothing."""
    database = tmp_path / "var" / "store.duckdb"
    store = DuckDBPartitionStore(database=str(database), read_only=True)
    assert store.read_table("rfp_document", ["rfp_partition", "file"]) is None
    assert store.read_partition("pp_references", "rfp-md") is None
    assert store.partition_keys("pp_references") == []
    assert store.columns("pp_entries") == []
    assert not database.exists()
