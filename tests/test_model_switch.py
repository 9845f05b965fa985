"""Changing the embedding model: stale in Dagster, then re-embedded, never mixed.

Model A is the bundled all-MiniLM-L6-v2 (384 dims); model B is built here from it with a
128-dim Dense projection (a real sentence-transformers folder, loaded offline). The stale
statuses are read with the resolver the UI uses (field notes §2d).
"""

from __future__ import annotations

import shutil

import dagster as dg
import duckdb
import pytest
from dagster._core.definitions.data_version import StaleStatus
from dagster._utils.test.data_versions import get_stale_status_resolver

from rfp_retrieval.inbox import partition_key_for
from rfp_retrieval.settings import load_settings, settings_with
from tests.small_project import MIAMI_RFP, small_answers, small_library

pytestmark = pytest.mark.slow

MODEL_A = "all-MiniLM-L6-v2"
MODEL_B = "minilm-dense-128"


@pytest.fixture(scope="module")
def model_b(tmp_path_factory):
    """A 128-dim sentence-transformers model folder built from the bundled model."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Dense

    from rfp_retrieval.retrieval.embedding import resolve_model_path

    torch.manual_seed(0)
    base = SentenceTransformer(str(resolve_model_path(MODEL_A)), device="cpu")
    dense = Dense(384, 128, bias=False, activation_function=torch.nn.Identity())
    folder = tmp_path_factory.mktemp("models") / MODEL_B
    SentenceTransformer(modules=[*base, dense], device="cpu").save(str(folder))
    return folder


def _status(defs: dg.Definitions, instance, key: str, partition: str | None = None):
    assets = list(defs.resolve_asset_graph().assets_defs)
    resolver = get_stale_status_resolver(instance, assets)
    asset_key = dg.AssetKey(key)
    causes = [c.reason for c in resolver.get_stale_causes(asset_key, partition)]
    return resolver.get_status(asset_key, partition), causes


def _query(db, sql: str):
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_model_change_marks_embeddings_stale_and_the_backfill_replaces_every_vector(
    tmp_path, model_b
):
    from definitions import build_definitions

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy(MIAMI_RFP, inbox / MIAMI_RFP.name)
    key = partition_key_for(MIAMI_RFP.name)
    settings_a = load_settings(
        tmp_path,
        {
            "inbox_dir": str(inbox),
            "library_dir": str(small_library(tmp_path / "library")),
            "answers_dir": str(small_answers(tmp_path / "answers")),
            "db_path": str(tmp_path / "store.duckdb"),
            "output_dir": str(tmp_path / "out"),
            "model": MODEL_A,
        },
    )
    settings_b = settings_with(settings_a, model=str(model_b))
    db = settings_a.db_path
    defs_a = build_definitions(settings_a)
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("rfp_documents", [key])
        assert defs_a.resolve_job_def("library_job").execute_in_process(instance=instance).success
        rfp_a = defs_a.resolve_job_def("rfp_job").execute_in_process(
            instance=instance, partition_key=key
        )
        assert rfp_a.success
        assert _query(db, "SELECT DISTINCT model, dim FROM rfp.pp_facet_embeddings") == [
            (MODEL_A, 384)
        ]
        assert _status(defs_a, instance, "pp_facet_embeddings")[0] == StaleStatus.FRESH
        assert _status(defs_a, instance, "scope_query", key)[0] == StaleStatus.FRESH

        defs_b = build_definitions(settings_b)
        for asset in ("pp_facet_embeddings", "answer_block_embeddings"):
            assert _status(defs_b, instance, asset) == (
                StaleStatus.STALE,
                ["has a new code version"],
            )
        assert _status(defs_b, instance, "scope_query", key) == (
            StaleStatus.STALE,
            ["has a new code version"],
        )
        assert _status(defs_b, instance, "pp_entries")[0] == StaleStatus.FRESH

        library_b = defs_b.resolve_job_def("library_job").execute_in_process(instance=instance)
        assert library_b.success
        checks = {e.check_name: e.passed for e in library_b.get_asset_check_evaluations()}
        assert checks["pp_facet_embeddings_match_model"] is True
        assert _status(defs_b, instance, "pp_facet_embeddings")[0] == StaleStatus.FRESH
        assert _status(defs_b, instance, "pp_references", key)[0] == StaleStatus.STALE

        rfp_b = defs_b.resolve_job_def("rfp_job").execute_in_process(
            instance=instance, partition_key=key
        )
        assert rfp_b.success
        for asset in ("scope_query", "pp_references", "response_brief"):
            assert _status(defs_b, instance, asset, key) == (StaleStatus.FRESH, []), asset

    assert _query(db, "SELECT DISTINCT model, dim FROM rfp.pp_facet_embeddings") == [(MODEL_B, 128)]
    assert _query(db, "SELECT DISTINCT model FROM rfp.answer_block_embeddings") == [(MODEL_B,)]
    assert _query(db, "SELECT model, len(vec_outcome), len(vec_whole) FROM rfp.scope_query") == [
        (MODEL_B, 128, 128)
    ]
    assert _query(
        db, "SELECT count(*) FROM rfp.pp_facet_embeddings WHERE model <> '" + MODEL_B + "'"
    ) == [(0,)]
    assert _query(db, "SELECT count(*) FROM rfp.pp_references WHERE rank > 0") == [(3,)]
