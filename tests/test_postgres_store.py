"""The Postgres store: the IO manager and partition store keep the DuckDB store's contract.

Each test gets its own database on the session's throwaway server (tests/pg_server.py).
"""

import datetime as dt
import threading

import dagster as dg
import polars as pl
import pytest

from resources.partition_store import PostgresPartitionStore
from resources.postgres_io import PostgresPolarsIOManager
from rfp_retrieval.settings import SettingsError
from rfp_retrieval.storage import postgres as pg

URL_ENV = "RFP_TEST_PG_URL"
parts = dg.StaticPartitionsDefinition(["r1", "r2"])


@pytest.fixture
def url(fresh_postgres_url, monkeypatch):
    monkeypatch.setenv(URL_ENV, fresh_postgres_url)
    return fresh_postgres_url


@pytest.fixture
def resources(url):
    return {
        "io_manager": PostgresPolarsIOManager(url_env=URL_ENV, schema="rfp"),
        "duckdb": PostgresPartitionStore(url_env=URL_ENV),
    }


def every_kind_of_column() -> pl.DataFrame:
    """One frame with each dtype the assets store (taken from the demo store's tables)."""
    return pl.DataFrame(
        {
            "rfp_partition": ["r1", "r1"],
            "id": ["PP-001", 'it\'s "quoted"'],
            "rank": [1, 2],
            "score": [0.7312345678901234, -0.0],
            "as_of": [dt.date(2026, 6, 8), None],
            "ongoing": [True, None],
            "stack_tags": [["Java", "AWS GovCloud"], []],
            "page_starts": [[0, 1834], None],
            "vector": pl.Series([[0.1, -0.25, 1e-7], [0.0, 0.5, -1.0]], dtype=pl.List(pl.Float32)),
            "vec_sections": pl.Series(
                [[[0.1, 0.2], [0.3, 0.4]], []], dtype=pl.List(pl.List(pl.Float32))
            ),
            "domain_weights": [[{"domain": "cloud", "weight": 0.625}], []],
            "nothing": pl.Series([None, None], dtype=pl.Null),
            "written_at": [dt.datetime(2026, 1, 2, 3, 4, 5, 678901), None],
        }
    )


def test_every_column_kind_round_trips_exactly_through_the_io_manager(resources, url):
    frame = every_kind_of_column()
    seen = {}

    @dg.asset(partitions_def=parts, metadata={"partition_expr": "rfp_partition"})
    def refs() -> pl.DataFrame:
        return frame

    @dg.asset(partitions_def=parts, metadata={"partition_expr": "rfp_partition"})
    def downstream(refs: pl.DataFrame) -> pl.DataFrame:
        seen["refs"] = refs
        return pl.DataFrame({"rfp_partition": ["r1"], "n": [refs.height]})

    assert dg.materialize([refs, downstream], partition_key="r1", resources=resources).success
    assert seen["refs"].schema == frame.schema
    assert seen["refs"].equals(frame)
    store = resources["duckdb"]
    back = store.read_partition("refs", "r1")
    assert back.equals(frame)
    assert back["vector"].to_list()[0] == pytest.approx([0.1, -0.25, 1e-7], rel=1e-6)
    assert store.read_table("refs", ["id", "rank"]).to_dicts() == [
        {"id": "PP-001", "rank": 1},
        {"id": 'it\'s "quoted"', "rank": 2},
    ]
    assert store.columns("refs")[:3] == ["rfp_partition", "id", "rank"]
    assert store.partition_keys("refs") == ["r1"]
    assert store.read_partition("refs", "r2").height == 0
    assert store.read_partition("missing", "r1") is None
    assert store.read_table("refs", ["id", "no_such_column"]) is None
    connection = pg.connect(url)
    try:
        with pg.transaction(connection, read_only=True) as cur:
            types = dict(pg.stored_columns(cur, "rfp", "refs"))
    finally:
        connection.close()
    assert types["vector"] == "real[]"
    assert types["stack_tags"] == "text[]"
    assert types["vec_sections"] == "text"  # JSON: Postgres arrays cannot be ragged
    assert types["as_of"] == "date"


def _refs_assets(extra_column: bool):
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


def test_added_column_and_new_vector_width_are_migrated_not_fatal(resources):
    old = _refs_assets(extra_column=False)
    for key in ("r1", "r2"):
        assert dg.materialize(old, partition_key=key, resources=resources, selection=[old[0]])
    assert dg.materialize([old[1]], resources=resources).success
    new = _refs_assets(extra_column=True)
    assert dg.materialize(new, partition_key="r1", resources=resources, selection=[new[0]])
    assert dg.materialize([new[1]], resources=resources).success
    store = resources["duckdb"]
    refs = store.read_table("refs").sort("rfp_partition")
    assert refs.columns == ["rfp_partition", "score", "penalty"]
    assert refs.rows() == [("r1", 0.5, -0.1), ("r2", 0.5, None)]
    vectors = store.read_table("vectors")
    assert vectors.schema["vector"] == pl.Array(pl.Float32, 4)
    assert vectors["vector"].to_list() == [[0.5, 0.5, 0.5, 0.5]]


def test_a_changed_column_type_is_cast_when_it_can_be_and_null_when_not(url):
    connection = pg.connect(url)
    try:
        for key, value in (("r1", "17"), ("r2", "n/a")):
            with pg.transaction(connection) as cur:
                frame = pl.DataFrame({"rfp_partition": [key], "pages": [value]})
                pg.write_frame(cur, "rfp", "doc", frame, "rfp_partition", [key])
        with pg.transaction(connection) as cur:  # r2's text cannot become a number
            frame = pl.DataFrame({"rfp_partition": ["r3"], "pages": [4]})
            assert pg.write_frame(cur, "rfp", "doc", frame, "rfp_partition", ["r3"]) == "migrated"
        with pg.transaction(connection, read_only=True) as cur:
            both = pg.read_frame(cur, "rfp", "doc")
        with pg.transaction(connection) as cur:
            frame = pl.DataFrame({"rfp_partition": ["r1"], "pages": [17]})
            pg.write_frame(cur, "rfp", "one", frame, "rfp_partition", ["r1"])
            frame = pl.DataFrame({"rfp_partition": ["r1"], "pages": ["17"]})
            pg.write_frame(cur, "rfp", "one", frame, "rfp_partition", ["r1"])
            frame = pl.DataFrame({"rfp_partition": ["r2"], "pages": [3]})
            pg.write_frame(cur, "rfp", "one", frame, "rfp_partition", ["r2"])
            cast = pg.read_frame(cur, "rfp", "one")
    finally:
        connection.close()
    assert both.rows() == [("r1", None), ("r2", None), ("r3", 4)]
    assert cast.rows() == [("r1", 17), ("r2", 3)]  # '17' converted back to a number


def test_an_empty_first_result_still_creates_a_readable_table(resources):
    @dg.asset
    def rejected_rows() -> pl.DataFrame:
        return pl.DataFrame(schema={"file": pl.String, "row": pl.Int64, "reason": pl.String})

    @dg.asset
    def downstream(rejected_rows: pl.DataFrame) -> pl.DataFrame:
        return pl.DataFrame({"n": [rejected_rows.height]})

    assert dg.materialize([rejected_rows, downstream], resources=resources).success
    store = resources["duckdb"]
    assert store.columns("rejected_rows") == ["file", "row", "reason"]
    assert store.read_table("downstream").rows() == [(0,)]


def test_a_write_rejected_by_the_server_leaves_the_previous_rows(resources):
    """The partition's DELETE, the migration and the COPY are one transaction."""
    rows = {"r1": ["first"]}

    @dg.asset(partitions_def=parts, metadata={"partition_expr": "rfp_partition"})
    def notes(context: dg.AssetExecutionContext) -> pl.DataFrame:
        texts = rows[context.partition_key]
        frame = {"rfp_partition": [context.partition_key] * len(texts), "text": texts}
        if len(texts) > 1:
            frame["added"] = [1] * len(texts)  # a migration in the same failed transaction
        return pl.DataFrame(frame)

    assert dg.materialize([notes], partition_key="r1", resources=resources).success
    rows["r1"] = ["second", "bad \x00 byte"]  # Postgres text cannot hold NUL: COPY fails
    with dg.instance_for_test() as instance:
        result = dg.materialize(
            [notes],
            partition_key="r1",
            resources=resources,
            instance=instance,
            raise_on_error=False,
        )
        assert not result.success
        assert instance.fetch_materializations(dg.AssetKey("notes"), limit=5).records == []
        failure = result.get_step_failure_events()[0].step_failure_data.error
        assert "rfp.notes" in str(failure)
    store = resources["duckdb"]
    assert store.columns("notes") == ["rfp_partition", "text"]
    assert store.read_partition("notes", "r1").rows() == [("r1", "first")]


def test_writers_of_several_partitions_at_once_lose_no_rows(url):
    keys = [f"rfp-{i}" for i in range(6)]
    errors = []

    def write(key: str) -> None:
        connection = pg.connect(url)
        try:
            with pg.transaction(connection) as cur:
                frame = pl.DataFrame(
                    {
                        "rfp_partition": [key] * 3,
                        "rank": [1, 2, 3],
                        "id": [f"{key}-{r}" for r in "abc"],
                    }
                )
                pg.write_frame(cur, "rfp", "pp_references", frame, "rfp_partition", [key])
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    connection = pg.connect(url)
    try:
        with pg.transaction(connection, read_only=True) as cur:
            counts = pg.row_counts(cur, "rfp", "pp_references", "rfp_partition")
            first = pg.read_frame(cur, "rfp", "pp_references", None, "rfp_partition", ["rfp-3"])
    finally:
        connection.close()
    assert counts == {key: 3 for key in keys}
    assert first["id"].to_list() == ["rfp-3-a", "rfp-3-b", "rfp-3-c"]


def test_rows_come_back_in_write_order_after_partitions_are_rewritten(url):
    connection = pg.connect(url)
    try:
        for key, ids in (("r1", ["c", "a"]), ("r2", ["b"]), ("r1", ["z", "y", "x"])):
            with pg.transaction(connection) as cur:
                frame = pl.DataFrame({"rfp_partition": [key] * len(ids), "id": ids})
                pg.write_frame(cur, "rfp", "t", frame, "rfp_partition", [key])
        with pg.transaction(connection, read_only=True) as cur:
            ids = pg.read_frame(cur, "rfp", "t")["id"].to_list()
    finally:
        connection.close()
    assert ids == ["b", "z", "y", "x"]  # as DuckDB: a rewritten partition comes last


def test_missing_url_variable_is_a_settings_error_naming_it(monkeypatch):
    monkeypatch.delenv("RFP_TEST_NO_SUCH_URL", raising=False)
    store = PostgresPartitionStore(url_env="RFP_TEST_NO_SUCH_URL")
    with pytest.raises(SettingsError, match="RFP_TEST_NO_SUCH_URL holding the Postgres URL"):
        store.read_table("pp_entries")


def test_an_unreachable_server_is_named_without_its_password():
    with pytest.raises(pg.PostgresStoreError) as err:
        pg.connect("postgresql://writer:s3cret@127.0.0.1:9/rfp?connect_timeout=2")
    assert "postgresql://writer:***@127.0.0.1:9/rfp" in str(err.value)
    assert "s3cret" not in str(err.value)
