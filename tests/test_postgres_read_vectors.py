"""The streamed vector read of the Postgres store (issue 17: a million entries' vectors)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from rfp_retrieval.storage import postgres as pg

SCHEMA, TABLE = "rfp", "pp_facet_embeddings"


def _rows(ids: list[str], matrices: dict[str, np.ndarray]) -> pl.DataFrame:
    parts = []
    for facet, matrix in matrices.items():
        parts.append(
            pl.DataFrame(
                {
                    "id": ids,
                    "facet": [facet] * len(ids),
                    "model": ["m"] * len(ids),
                    "vector": pl.Series(matrix).cast(pl.List(pl.Float32)),
                }
            )
        )
    return pl.concat(parts)


def test_vectors_stream_back_at_their_ids_rows_bit_for_bit(fresh_postgres_url):
    rng = np.random.default_rng(17)
    ids = [f"PP-{k:05d}" for k in range(3000)]
    matrices = {f: rng.standard_normal((3000, 24)).astype(np.float32) for f in ("whole", "outcome")}
    written = _rows(ids, matrices).sample(fraction=1.0, shuffle=True, seed=3)  # any row order
    connection = pg.connect(fresh_postgres_url)
    try:
        with pg.transaction(connection) as cursor:
            pg.write_frame(cursor, SCHEMA, TABLE, written.head(2500))
            pg.append_frame(cursor, SCHEMA, TABLE, written.slice(2500))
        wanted = ids[::-1]  # rows in the caller's order, not the table's
        with pg.transaction(connection, read_only=True) as cursor:
            read = pg.read_vectors(cursor, SCHEMA, TABLE, wanted, ["outcome", "whole"])
            assert sorted(read) == ["outcome", "whole"]
            for facet, matrix in matrices.items():
                assert read[facet].dtype == np.float32 and read[facet].shape == (3000, 24)
                assert np.array_equal(read[facet], matrix[::-1])
            one = pg.read_vectors(cursor, SCHEMA, TABLE, ids, ["whole"])
            assert list(one) == ["whole"] and np.array_equal(one["whole"], matrices["whole"])
            # a few heap pages per query: many slices, every row read once
            sliced = pg.read_vectors(cursor, SCHEMA, TABLE, ids, ["whole", "outcome"], pages=7)
            for facet, matrix in matrices.items():
                assert np.array_equal(sliced[facet], matrix)
            cursor.execute(f"SELECT pg_relation_size('{SCHEMA}.{TABLE}'::regclass) / 8192")
            assert int(cursor.fetchone()[0]) > 3 * 7  # the table spans more than three slices
            with pytest.raises(pg.PostgresStoreError, match="no row for id 'PP-99999'"):
                pg.read_vectors(cursor, SCHEMA, TABLE, [*ids, "PP-99999"], ["whole"])
            with pytest.raises(pg.PostgresStoreError, match="unknown ids"):
                pg.read_vectors(cursor, SCHEMA, TABLE, ids[:-1], ["whole"])
            with pytest.raises(pg.PostgresStoreError, match="no id, facet and vector"):
                pg.read_vectors(cursor, SCHEMA, "no_such_table", ids, ["whole"])
    finally:
        connection.close()


def test_a_vectors_table_is_read_a_slice_at_a_time_in_write_order(fresh_postgres_url, monkeypatch):
    """``read_frame`` (the IO manager's inputs, the partition store's reads) slices a table
    with a ``real[]`` column by heap pages; rows written later onto freed earlier pages
    still come back in write order, equal to one whole-table query."""
    import dagster as dg

    from resources.partition_store import PostgresPartitionStore
    from resources.postgres_io import PostgresPolarsIOManager

    rng = np.random.default_rng(5)
    ids = [f"PP-{k:04d}" for k in range(1200)]
    matrix = rng.standard_normal((1200, 16)).astype(np.float32)
    frame = _rows(ids, {"whole": matrix}).with_columns(
        pl.Series("rfp_partition", ["a"] * 600 + ["b"] * 600)
    )
    connection = pg.connect(fresh_postgres_url)
    try:
        with pg.transaction(connection) as cursor:
            pg.write_frame(cursor, SCHEMA, TABLE, frame.head(600), "rfp_partition", ["a"])
        with pg.transaction(connection) as cursor:
            pg.write_frame(cursor, SCHEMA, TABLE, frame.slice(600), "rfp_partition", ["b"])
        rewritten = frame.head(600).with_columns(pl.col("id") + "-new")
        with pg.transaction(connection) as cursor:  # delete a's rows: their pages are freed
            pg.write_frame(cursor, SCHEMA, TABLE, rewritten.head(0), "rfp_partition", ["a"])
        connection.cursor().execute(f"VACUUM {pg.qualified(SCHEMA, TABLE)}")
        with pg.transaction(connection) as cursor:  # a's new rows land on the freed pages
            pg.write_frame(cursor, SCHEMA, TABLE, rewritten, "rfp_partition", ["a"])
        expected = pl.concat([frame.slice(600), rewritten])  # b, then the rewritten a
        with pg.transaction(connection, read_only=True) as cursor:
            cursor.execute(
                f"SELECT min((ctid::text::point)[0]) FROM {SCHEMA}.{TABLE} WHERE id LIKE '%-new'"
            )
            assert float(cursor.fetchone()[0]) == 0.0  # the new rows start on page 0
            whole = pg.read_frame(cursor, SCHEMA, TABLE, pages=10**6)
            sliced = pg.read_frame(cursor, SCHEMA, TABLE, pages=3)
            part = pg.read_frame(cursor, SCHEMA, TABLE, ["id", "vector"], "rfp_partition", ["b"], 3)
    finally:
        connection.close()
    assert whole.equals(expected) and sliced.equals(expected)
    assert part.equals(frame.slice(600).select("id", "vector"))

    made: list[int] = []
    original = pg._page_slices

    def counted(*args):
        statements = original(*args)
        made.append(len(statements))
        return statements

    monkeypatch.setattr(pg, "_page_slices", counted)
    monkeypatch.setattr(pg, "READ_PAGES", 3)
    monkeypatch.setenv("RFP_TEST_PG_URL", fresh_postgres_url)
    store = PostgresPartitionStore(url_env="RFP_TEST_PG_URL")
    assert store.read_table(TABLE).equals(expected)
    assert store.read_partition(TABLE, "b", ["id", "vector"]).equals(part)

    source = dg.AssetSpec(dg.AssetKey([SCHEMA, TABLE]))
    seen: list[pl.DataFrame] = []

    @dg.asset(ins={"rows": dg.AssetIn(source.key)}, io_manager_key="mem")
    def downstream(rows: pl.DataFrame) -> int:
        seen.append(rows)
        return rows.height

    io_manager = PostgresPolarsIOManager(url_env="RFP_TEST_PG_URL", schema=SCHEMA)
    result = dg.materialize(
        [source, downstream], resources={"io_manager": io_manager, "mem": dg.InMemoryIOManager()}
    )
    assert result.success and seen[0].equals(expected)
    assert len(made) == 3 and min(made) > 3  # every read went through more than 3 slices
