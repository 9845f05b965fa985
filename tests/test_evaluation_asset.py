"""The retrieval_evaluation asset, its metadata and its regression check, through Dagster."""

from __future__ import annotations

import json
import shutil

import dagster as dg
import polars as pl
import pytest

from assets.evaluation import (
    override_golden_lines,
    retrieval_evaluation,
    retrieval_evaluation_no_regression,
)
from resources import EmbeddingModel, ProjectPaths
from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.retrieval.config import MODES
from rfp_retrieval.retrieval.facets import facet_embeddings_frame
from tests.conftest import REPO

pytestmark = pytest.mark.slow

GOLDEN = REPO / "sample" / "golden"
SCOPES = ("S01", "S35")
# The ideal picks of S01 and S35 (both labellers), plus 20 other library entries.
LIBRARY_IDS = [
    *("PP-078", "PP-117", "PP-112", "PP-175", "PP-100", "PP-176", "PP-158"),
    *(f"PP-{n:03d}" for n in range(1, 21)),
]


@pytest.fixture(scope="module")
def library(embedder):
    """A 27-entry slice of the sample library and its facet vectors (embedded once)."""
    entries = entries_frame(load_library(REPO / "sample" / "library").entries)
    entries = entries.filter(pl.col("id").is_in(LIBRARY_IDS))
    vectors, _ = facet_embeddings_frame(entries, embedder)
    return entries, vectors


def _golden_dir(tmp_path, degrade: bool = False):
    """A golden folder with the S01 and S35 lines; ``degrade`` swaps in ideals never chosen."""
    folder = tmp_path / "golden"
    folder.mkdir(exist_ok=True)
    lines = []
    for line in (GOLDEN / "golden.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if item["scope_id"] in SCOPES:
            shutil.copy(GOLDEN / item["rfp_file"], folder / item["rfp_file"])
            if degrade:
                item["ideal"] = ["PP-900", "PP-901", "PP-902"]
            lines.append(json.dumps(item))
    (folder / "golden.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _materialize(library, golden, instance):
    entries, vectors = library

    @dg.asset(name="pp_entries")
    def entries_stub() -> pl.DataFrame:
        return entries

    @dg.asset(name="pp_facet_embeddings")
    def vectors_stub() -> pl.DataFrame:
        return vectors

    paths = ProjectPaths(
        library_dir=str(golden),
        answers_dir=str(golden),
        inbox_dir=str(golden),
        output_dir=str(golden),
        golden_dir=str(golden),
    )
    return dg.materialize(
        [entries_stub, vectors_stub, retrieval_evaluation, retrieval_evaluation_no_regression],
        resources={"embedding_model": EmbeddingModel(), "paths": paths},
        instance=instance,
    )


def test_evaluation_records_metrics_per_mode_and_fails_on_a_regression(library, tmp_path):
    with dg.instance_for_test() as instance:
        first = _materialize(library, _golden_dir(tmp_path), instance)
        meta = first.asset_materializations_for_node("retrieval_evaluation")[0].metadata
        metrics = {k: v.value for k, v in meta.items() if ":" in k}
        assert metrics == {
            "recall_at_3:naive": 0.6667,
            "recall_at_3_alt:naive": 0.8333,
            "mrr:naive": 1.0,
            **{f"recall_at_3:{m}": 1.0 for m in ("facet", "facet+bumps", "default")},
            **{f"recall_at_3_alt:{m}": 0.8333 for m in ("facet", "facet+bumps", "default")},
            **{f"mrr:{m}": 1.0 for m in ("facet", "facet+bumps", "default")},
        }
        assert meta["scopes"].value == 2
        assert meta["golden_files"].value == "golden.jsonl"
        assert isinstance(meta["recall_at_3:default"], dg.FloatMetadataValue)  # plotted by the UI
        assert meta["per_scope_hits"].value == {
            "naive": {"golden.jsonl:S01": 3, "golden.jsonl:S35": 1},
            **{m: {"golden.jsonl:S01": 3, "golden.jsonl:S35": 3} for m in MODES[1:]},
        }
        (check,) = first.get_asset_check_evaluations()
        assert check.passed
        assert check.metadata["previous"].value == "none"

        second = _materialize(library, _golden_dir(tmp_path, degrade=True), instance)
        (check,) = second.get_asset_check_evaluations()
        assert not check.passed
        assert check.metadata["previous"].value == metrics["recall_at_3:default"]
        assert check.metadata["current"].value == 0.0

        third = _materialize(library, _golden_dir(tmp_path, degrade=True), instance)
        (check,) = third.get_asset_check_evaluations()
        assert check.passed  # compared with the (degraded) previous run, no further drop
        assert check.metadata["drop"].value == 0.0


def test_override_golden_lines_without_any_ranked_rfp_is_empty(tmp_path):
    from resources.partition_store import DuckDBPartitionStore

    paths = ProjectPaths(
        library_dir=str(tmp_path),
        answers_dir=str(tmp_path),
        inbox_dir=str(tmp_path),
        output_dir=str(tmp_path / "out"),
    )
    output = override_golden_lines(
        duckdb=DuckDBPartitionStore(database=str(tmp_path / "store.duckdb")), paths=paths
    )
    assert output.value.height == 0
    assert (tmp_path / "out" / "golden" / "overrides.jsonl").read_text() == ""
