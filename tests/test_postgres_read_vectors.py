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
