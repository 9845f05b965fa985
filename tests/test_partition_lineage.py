"""Issue 16.10: every stored partition output records the version of the RFP file it was built
from (``source_sha``), and a downstream asset refuses inputs of two different versions.

The gap: ``rfp_document`` and ``rfp_outline`` are written one after the other, so a run
killed (or failing) between them leaves a new document beside the old outline; the next asset
combined them silently.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import dagster as dg
import duckdb
import polars as pl
import pytest

import assets.rfp
from assets.questions import rfp_questions
from assets.rfp import rfp_document
from resources import ProjectPaths
from resources.duckdb_io import EvolvingDuckDBPolarsIOManager, EvolvingPolarsTypeHandler
from rfp_retrieval.lineage import LineageError, common_source, file_sha, with_source

OLD_SHA = "a" * 64
NEW_SHA = "b" * 64
RFP_V1 = """# Help Desk Services RFP

## 1. Scope of Work

The contractor shall operate the help desk.

## 2. Questions

1. Describe your approach to staffing the help desk.
"""
RFP_V2 = RFP_V1.replace("help desk.\n", "help desk and the service portal.\n", 1)


def _rows(sha: str | None, n: int = 1) -> pl.DataFrame:
    frame = pl.DataFrame({"rfp_partition": ["rfp-1-md"] * n, "position": list(range(n))})
    return frame if sha == "no column" else with_source(frame, sha)


def test_inputs_of_one_version_give_that_version():
    inputs = {"rfp_document": _rows(NEW_SHA), "rfp_outline": _rows(NEW_SHA, 3)}
    assert common_source(inputs, "rfp-1-md", "inbox/rfp 1.md") == NEW_SHA


def test_a_new_document_beside_an_old_outline_is_refused_naming_both_and_the_file():
    inputs = {"rfp_document": _rows(NEW_SHA), "rfp_outline": _rows(OLD_SHA, 3)}
    with pytest.raises(LineageError) as refused:
        common_source(inputs, "rfp-1-md", "inbox/rfp 1.md")
    assert str(refused.value) == (
        "partition 'rfp-1-md': the stored rfp_outline and rfp_document were built from "
        "different versions of inbox/rfp 1.md (sha aaaaaaaaaaaa vs sha bbbbbbbbbbbb); a run "
        "stopped or failed between its steps. Re-run every asset of partition 'rfp-1-md' so "
        "all are rebuilt from the current file."
    )


def test_a_recorded_version_beside_rows_stored_before_versions_were_recorded_is_refused():
    inputs = {"scope_query": _rows(NEW_SHA), "rewritten_questions": _rows(None, 2)}
    with pytest.raises(LineageError, match=r"\(not recorded \(stored before source versions"):
        common_source(inputs, "rfp-1-md")
    inputs = {"rfp_document": _rows(NEW_SHA), "rfp_outline": _rows("no column")}
    with pytest.raises(LineageError, match="different versions of its RFP file"):
        common_source(inputs, "rfp-1-md")


def test_unrecorded_and_empty_inputs_are_unknown_not_refused():
    assert common_source({"rfp_document": _rows(None), "rfp_outline": _rows(None)}, "k") is None
    assert common_source({"rfp_document": _rows("no column")}, "k") is None
    empty = _rows(OLD_SHA).head(0)
    inputs = {"rfp_document": _rows(NEW_SHA), "rfp_questions": empty, "question_answers": None}
    assert common_source(inputs, "k") == NEW_SHA
    assert common_source({}, "k") is None


def test_file_sha_is_the_sha256_of_the_bytes(tmp_path):
    path = tmp_path / "rfp.md"
    path.write_text(RFP_V1, encoding="utf-8")
    assert file_sha(path) == hashlib.sha256(RFP_V1.encode("utf-8")).hexdigest()


def _store(db: Path):
    return {
        "io_manager": EvolvingDuckDBPolarsIOManager(database=str(db), schema="rfp"),
        "paths": ProjectPaths(
            library_dir=str(db.parent),
            answers_dir=str(db.parent),
            inbox_dir=str(db.parent),
            output_dir=str(db.parent / "out"),
        ),
    }


def _materialize(selection, path: Path, db: Path, instance, key: str):
    return dg.materialize(
        [rfp_document, rfp_questions],
        selection=selection,
        partition_key=key,
        instance=instance,
        resources=_store(db),
        run_config=(
            {"ops": {"rfp_document": {"config": {"path": str(path)}}}}
            if rfp_document in selection
            else {}
        ),
        raise_on_error=False,
    )


def _stored_shas(db: Path) -> dict:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {
            t: con.execute(f"SELECT DISTINCT source_sha FROM rfp.{t}").fetchall()
            for t in ("rfp_document", "rfp_outline", "rfp_questions")
        }
    finally:
        con.close()


def test_an_outline_that_fails_to_build_stores_neither_document_nor_outline(tmp_path, monkeypatch):
    """Since ``rfp_document`` builds both frames before yielding either (range runs), a failure
    computing the outline leaves the stored pair on the old version, consistent."""
    path, db, key = tmp_path / "rfp 1.md", tmp_path / "store.duckdb", "rfp-1-md"
    path.write_text(RFP_V1, encoding="utf-8")
    v1 = hashlib.sha256(RFP_V1.encode()).hexdigest()
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("rfp_documents", [key])
        assert _materialize([rfp_document, rfp_questions], path, db, instance, key).success
        path.write_text(RFP_V2, encoding="utf-8")

        def stopped(*_args):
            raise RuntimeError("killed")

        monkeypatch.setattr(assets.rfp, "outline_frame", stopped)
        assert not _materialize([rfp_document], path, db, instance, key).success
    assert _stored_shas(db) == {
        "rfp_document": [(v1,)],
        "rfp_outline": [(v1,)],
        "rfp_questions": [(v1,)],
    }


def test_a_step_stopped_between_document_and_outline_fails_the_next_asset(tmp_path, monkeypatch):
    """The step stops after the new ``rfp_document`` was stored and before ``rfp_outline`` was
    (a kill between the two writes of the multi-asset); the next asset refuses the pair."""
    path, db, key = tmp_path / "rfp 1.md", tmp_path / "store.duckdb", "rfp-1-md"
    path.write_text(RFP_V1, encoding="utf-8")
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("rfp_documents", [key])
        first = _materialize([rfp_document, rfp_questions], path, db, instance, key)
        assert first.success
        path.write_text(RFP_V2, encoding="utf-8")
        store = EvolvingPolarsTypeHandler.handle_output

        def stopped(self, context, table_slice, obj, connection):
            if table_slice.table == "rfp_outline":
                raise RuntimeError("killed")
            return store(self, context, table_slice, obj, connection)

        monkeypatch.setattr(EvolvingPolarsTypeHandler, "handle_output", stopped)
        assert not _materialize([rfp_document], path, db, instance, key).success
        monkeypatch.undo()
        v1 = hashlib.sha256(RFP_V1.encode()).hexdigest()
        v2 = hashlib.sha256(RFP_V2.encode()).hexdigest()
        assert _stored_shas(db) == {
            "rfp_document": [(v2,)],
            "rfp_outline": [(v1,)],
            "rfp_questions": [(v1,)],
        }

        refused = _materialize([rfp_questions], path, db, instance, key)
        assert not refused.success
        failure = next(e for e in refused.all_events if e.is_step_failure)
        description = failure.step_failure_data.user_failure_data.description
        assert description == (
            f"partition 'rfp-1-md': the stored rfp_outline and rfp_document were built from "
            f"different versions of {path} (sha {v1[:12]} vs sha {v2[:12]}); a run stopped or "
            "failed between its steps. Re-run every asset of partition 'rfp-1-md' so all are "
            "rebuilt from the current file."
        )

        rerun = _materialize([rfp_document, rfp_questions], path, db, instance, key)
        assert rerun.success
        questions = rerun.output_for_node("rfp_questions")
        assert questions["source_sha"].unique().to_list() == [v2]


def test_partitions_stored_before_the_column_existed_still_load(tmp_path):
    db = tmp_path / "store.duckdb"
    con = duckdb.connect(str(db))
    try:
        con.execute("CREATE SCHEMA rfp")
        con.execute("CREATE TABLE rfp.rfp_questions (rfp_partition VARCHAR, id VARCHAR)")
        con.execute("INSERT INTO rfp.rfp_questions VALUES ('old-md', 'Q1')")
    finally:
        con.close()
    path, key = tmp_path / "rfp 1.md", "rfp-1-md"
    path.write_text(RFP_V1, encoding="utf-8")
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("rfp_documents", [key])
        assert _materialize([rfp_document, rfp_questions], path, db, instance, key).success
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute(
            "SELECT DISTINCT rfp_partition, source_sha IS NULL FROM rfp.rfp_questions ORDER BY 1"
        ).fetchall()
    finally:
        con.close()
    assert rows == [("old-md", True), ("rfp-1-md", False)]
