"""``rfp-retrieval store migrate``: every table and partition of a DuckDB store copied into
Postgres, counts verified, the frames read back equal to DuckDB's."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from resources.partition_store import DuckDBPartitionStore, PostgresPartitionStore
from rfp_retrieval.cli import app
from rfp_retrieval.settings import POSTGRES_URL_ENV
from rfp_retrieval.storage import postgres as pg
from rfp_retrieval.storage.migrate import copy_duckdb_store
from tests.conftest import REPO

runner = CliRunner()


@pytest.fixture
def duckdb_store(tmp_path):
    """A small DuckDB store shaped like the pipeline's (partitioned and not, lists, vectors,
    a list of structs, an empty table)."""
    path = tmp_path / "store.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE SCHEMA rfp")
    con.execute(
        "CREATE TABLE rfp.pp_references (rfp_partition VARCHAR, rank BIGINT, id VARCHAR, "
        "score DOUBLE, relaxed VARCHAR[])"
    )
    con.execute(
        "INSERT INTO rfp.pp_references VALUES "
        "('miami-dade-311-rfp-md', 1, 'PP-078', 0.8125, []), "
        "('miami-dade-311-rfp-md', 2, 'PP-117', 0.75, ['value']), "
        "('miami-dade-311-rfp-md', 3, 'PP-112', 0.5, NULL), "
        "('disa-cyber-icam-rfp-md', 1, 'PP-004', 0.6875, [])"
    )
    con.execute("CREATE TABLE rfp.pp_facet_embeddings (id VARCHAR, facet VARCHAR, vector FLOAT[])")
    con.execute(
        "INSERT INTO rfp.pp_facet_embeddings VALUES ('PP-078', 'narrative', [0.5, -0.25]), "
        "('PP-078', 'technical', [0.125, 1.0]), ('PP-117', 'narrative', [0.0, 0.75])"
    )
    con.execute(
        "CREATE TABLE rfp.scope_query (rfp_partition VARCHAR, "
        'domain_weights STRUCT("domain" VARCHAR, weight DOUBLE)[], vec_sections FLOAT[][])'
    )
    con.execute(
        "INSERT INTO rfp.scope_query VALUES ('miami-dade-311-rfp-md', "
        "[{'domain': 'call center', 'weight': 0.625}], [[0.5, 0.25], [1.0, 0.0]])"
    )
    con.execute("CREATE TABLE rfp.pp_rejected_entries (file VARCHAR, row BIGINT, reason VARCHAR)")
    con.close()
    return path


def _flat(text: str) -> str:
    """CLI output with Rich's line wrapping undone."""
    return " ".join(text.split())


def _postgres_store(monkeypatch, url: str) -> PostgresPartitionStore:
    monkeypatch.setenv(POSTGRES_URL_ENV, url)
    return PostgresPartitionStore(url_env=POSTGRES_URL_ENV)


def test_migrate_copies_every_table_and_partition_and_prints_the_counts(
    duckdb_store, fresh_postgres_url, monkeypatch, tmp_path
):
    store = _postgres_store(monkeypatch, fresh_postgres_url)
    monkeypatch.delenv("RFP_RETRIEVAL_CONFIG", raising=False)
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    result = runner.invoke(
        app, ["store", "migrate", "--project", str(REPO), "--db", str(duckdb_store), "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is True
    assert report["target"] == fresh_postgres_url  # no password to hide in the test URL
    assert report["pgvector"] is False
    assert report["library_stamp"] == "not carried"  # no library run recorded in that home
    assert [(r["table"], r["partition"], r["duckdb_rows"], r["postgres_rows"]) for r in
            report["tables"]] == [
        ("pp_facet_embeddings", None, 3, 3),
        ("pp_references", "disa-cyber-icam-rfp-md", 1, 1),
        ("pp_references", "miami-dade-311-rfp-md", 3, 3),
        ("pp_rejected_entries", None, 0, 0),
        ("scope_query", "miami-dade-311-rfp-md", 1, 1),
    ]  # fmt: skip
    source = DuckDBPartitionStore(database=str(duckdb_store), read_only=True)
    for table in ("pp_references", "pp_facet_embeddings", "scope_query", "pp_rejected_entries"):
        assert store.read_table(table).equals(source.read_table(table)), table
        assert store.columns(table) == source.columns(table)
    assert store.read_table("scope_query")["domain_weights"].to_list() == [
        [{"domain": "call center", "weight": 0.625}]
    ]

    table_view = runner.invoke(
        app, ["store", "migrate", "--project", str(REPO), "--db", str(duckdb_store)]
    )  # a second copy replaces the first one: same counts, no duplicates
    assert table_view.exit_code == 0, table_view.output
    assert "every count matches" in _flat(table_view.output)
    assert store.read_partition("pp_references", "miami-dade-311-rfp-md").height == 3


def test_large_tables_stream_in_batches_keeping_row_order(duckdb_store, fresh_postgres_url):
    report = copy_duckdb_store(duckdb_store, fresh_postgres_url, batch_rows=1)
    assert report.ok
    connection = pg.connect(fresh_postgres_url)
    try:
        with pg.transaction(connection, read_only=True) as cur:
            ids = pg.read_frame(cur, "rfp", "pp_references")["id"].to_list()
            extra = pg.table_names(cur, "rfp")
    finally:
        connection.close()
    assert ids == ["PP-078", "PP-117", "PP-112", "PP-004"]
    assert extra == ["pp_facet_embeddings", "pp_references", "pp_rejected_entries", "scope_query"]


def test_tables_only_in_postgres_are_left_alone_and_listed(duckdb_store, fresh_postgres_url):
    connection = pg.connect(fresh_postgres_url)
    try:
        with pg.transaction(connection) as cur:
            frame = pl.DataFrame({"scope_id": ["S01"], "recall": [0.6667]})
            pg.write_frame(cur, "rfp", "retrieval_evaluation", frame)
    finally:
        connection.close()
    report = copy_duckdb_store(duckdb_store, fresh_postgres_url)
    assert report.ok
    assert report.postgres_only == ["retrieval_evaluation"]


def test_migrate_without_the_url_variable_names_it_and_copies_nothing(duckdb_store, monkeypatch):
    monkeypatch.delenv(POSTGRES_URL_ENV, raising=False)
    monkeypatch.delenv("RFP_RETRIEVAL_CONFIG", raising=False)
    result = runner.invoke(
        app, ["store", "migrate", "--project", str(REPO), "--db", str(duckdb_store)]
    )
    assert result.exit_code == 2
    output = _flat(result.output)
    assert f"{POSTGRES_URL_ENV} holding the Postgres URL is not set; set it first" in output
    assert f"export {POSTGRES_URL_ENV}=postgresql://" in output
    assert "store is 'duckdb'" not in output  # the store is duckdb until after the migration


def test_migrate_refuses_a_duckdb_store_that_a_writer_holds(
    duckdb_store, fresh_postgres_url, monkeypatch
):
    monkeypatch.setenv(POSTGRES_URL_ENV, fresh_postgres_url)
    monkeypatch.delenv("RFP_RETRIEVAL_CONFIG", raising=False)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import duckdb, sys, time
                con = duckdb.connect({str(duckdb_store)!r})
                print("held", flush=True)
                time.sleep(120)
                """
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        result = runner.invoke(
            app, ["store", "migrate", "--project", str(REPO), "--db", str(duckdb_store)]
        )
    finally:
        holder.kill()
        holder.wait(timeout=30)
    assert result.exit_code == 2
    assert "cannot open the DuckDB store read-only" in _flat(result.output)
    assert "stop the runs" in _flat(result.output)
    # the holder is gone: the store is readable again
    assert copy_duckdb_store(duckdb_store, fresh_postgres_url).ok
