"""The DuckDB store keeps working when an asset's columns change between releases."""

import dagster as dg
import duckdb
import polars as pl

from resources.duckdb_io import EvolvingDuckDBPolarsIOManager

parts = dg.StaticPartitionsDefinition(["r1", "r2"])


def _assets(extra_column: bool):
    @dg.asset(partitions_def=parts, metadata={"partition_expr": "rfp_partition"})
    def refs(context: dg.AssetExecutionContext) -> pl.DataFrame:
        row = {"rfp_partition": context.partition_key, "score": 0.5}
        if extra_column:
            row["penalty"] = -0.1
        return pl.DataFrame([row])

    @dg.asset
    def vectors() -> pl.DataFrame:
        width = 4 if extra_column else 2
        return pl.DataFrame({"id": ["a"], "vector": [[0.5] * width]}).with_columns(
            pl.col("vector").cast(pl.Array(pl.Float32, width))
        )

    return [refs, vectors]


def test_added_column_and_new_vector_width_are_migrated_not_fatal(tmp_path):
    db = str(tmp_path / "store.duckdb")
    resources = {"io_manager": EvolvingDuckDBPolarsIOManager(database=db, schema="rfp")}
    old = _assets(extra_column=False)
    assert dg.materialize(old, partition_key="r1", resources=resources, selection=[old[0]]).success
    assert dg.materialize(old, partition_key="r2", resources=resources, selection=[old[0]]).success
    assert dg.materialize([old[1]], resources=resources).success
    new = _assets(extra_column=True)
    assert dg.materialize(new, partition_key="r1", resources=resources, selection=[new[0]]).success
    assert dg.materialize([new[1]], resources=resources).success
    con = duckdb.connect(db, read_only=True)
    try:
        rows = con.execute(
            "SELECT rfp_partition, score, penalty FROM rfp.refs ORDER BY rfp_partition"
        ).fetchall()
        width = con.execute("SELECT len(vector) FROM rfp.vectors").fetchone()[0]
    finally:
        con.close()
    assert rows == [("r1", 0.5, -0.1), ("r2", 0.5, None)]
    assert width == 4


def test_an_empty_first_result_still_creates_a_readable_table(tmp_path):
    db = str(tmp_path / "store.duckdb")

    @dg.asset
    def rejected_rows() -> pl.DataFrame:
        return pl.DataFrame(schema={"file": pl.String, "row": pl.Int64, "reason": pl.String})

    @dg.asset
    def downstream(rejected_rows: pl.DataFrame) -> pl.DataFrame:
        return pl.DataFrame({"n": [rejected_rows.height]})

    resources = {"io_manager": EvolvingDuckDBPolarsIOManager(database=db, schema="rfp")}
    assert dg.materialize([rejected_rows, downstream], resources=resources).success
    con = duckdb.connect(db, read_only=True)
    try:
        columns = [r[0] for r in con.execute("DESCRIBE rfp.rejected_rows").fetchall()]
        n = con.execute("SELECT n FROM rfp.downstream").fetchone()[0]
    finally:
        con.close()
    assert columns == ["file", "row", "reason"]
    assert n == 0


def test_a_write_that_fails_after_the_delete_and_a_migration_is_rolled_back(tmp_path, monkeypatch):
    """Delete + migration + insert are one transaction: a failure keeps the old table whole."""
    from resources.duckdb_io import EvolvingPolarsTypeHandler

    db = str(tmp_path / "store.duckdb")
    resources = {"io_manager": EvolvingDuckDBPolarsIOManager(database=db, schema="rfp")}
    old = _assets(extra_column=False)
    for key in ("r1", "r2"):
        assert dg.materialize(old, partition_key=key, resources=resources, selection=[old[0]])
    written = EvolvingPolarsTypeHandler.handle_output

    def fail_after_writing(self, context, table_slice, obj, connection):
        written(self, context, table_slice, obj, connection)
        seen = connection.execute("SELECT count(*), max(penalty) FROM rfp.refs").fetchone()
        assert seen == (2, -0.1)  # migrated and inserted, not yet committed
        raise OSError("No space left on device")

    monkeypatch.setattr(EvolvingPolarsTypeHandler, "handle_output", fail_after_writing)
    new = _assets(extra_column=True)
    with dg.instance_for_test() as instance:
        result = dg.materialize(
            new,
            partition_key="r1",
            resources=resources,
            selection=[new[0]],
            instance=instance,
            raise_on_error=False,
        )
        assert not result.success
        assert instance.fetch_materializations(dg.AssetKey("refs"), limit=5).records == []
    con = duckdb.connect(db, read_only=True)
    try:
        columns = [r[0] for r in con.execute("DESCRIBE rfp.refs").fetchall()]
        rows = con.execute("SELECT * FROM rfp.refs ORDER BY rfp_partition").fetchall()
        leftovers = con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_name LIKE '%migrating'"
        ).fetchall()
    finally:
        con.close()
    assert columns == ["rfp_partition", "score"]
    assert rows == [("r1", 0.5), ("r2", 0.5)]
    assert leftovers == []
