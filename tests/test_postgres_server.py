"""The throwaway Postgres server the Postgres tests share (tests/pg_server.py)."""

from __future__ import annotations

import os

from tests.pg_server import DB_USER, SESSION_DB, PostgresServer


def test_session_server_answers_on_loopback(postgres_server: PostgresServer, postgres_url: str):
    assert postgres_url == f"postgresql://{DB_USER}@127.0.0.1:{postgres_server.port}/{SESSION_DB}"
    out = postgres_server.psql(
        "SELECT current_user, current_database(), inet_server_addr()::text, "
        "current_setting('server_encoding')",
        database=SESSION_DB,
    )
    assert out.strip() == f"{DB_USER}|{SESSION_DB}|127.0.0.1/32|UTF8"
    if os.geteuid() == 0:  # Postgres refuses root: the data folder belongs to the runner
        assert postgres_server.run_as is not None
        assert postgres_server.datadir.stat().st_uid == postgres_server.run_as.pw_uid


def test_fresh_database_is_empty_and_separate(postgres_server: PostgresServer, fresh_postgres_url):
    name = fresh_postgres_url.rsplit("/", 1)[1]
    assert name != SESSION_DB and name.startswith("rfp_")
    postgres_server.psql("CREATE TABLE t (x int); INSERT INTO t VALUES (7)", database=name)
    assert postgres_server.psql("SELECT x FROM t", database=name).strip() == "7"
    tables = postgres_server.psql(
        "SELECT count(*) FROM pg_tables WHERE tablename = 't'", database=SESSION_DB
    )
    assert tables.strip() == "0"
