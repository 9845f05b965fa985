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


# the automation test below re-embeds on a model change end to end on every default run
@pytest.mark.extended
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


EMBEDDINGS = ("answer_block_embeddings", "pp_facet_embeddings", "scope_query")
RFP_DOWNSTREAM = ("pp_reference_review", "pp_references", "question_answers", "response_brief")
USDA_RFP = MIAMI_RFP.parent / "usda-fns-snapqcs-rfp.md"


def _requested(result, defs: dg.Definitions) -> dict[str, list]:
    """{asset: sorted requested partitions} for every asset requested on an automation tick."""
    keys = defs.resolve_asset_graph().get_all_asset_keys()
    requested = {}
    for key in sorted(keys, key=lambda k: k.path):
        partitions = result.get_requested_partitions(key)
        if partitions:
            requested[key.to_user_string()] = sorted(partitions, key=str)
    assert sum(len(p) for p in requested.values()) == result.total_requested
    return requested


def _execute(defs: dg.Definitions, instance, requested: dict[str, list]) -> None:
    """Run what an automation tick requested: one run per partition, as the daemon would."""
    job = defs.resolve_implicit_global_asset_job_def()
    by_partition: dict[str | None, list[dg.AssetKey]] = {}
    for asset, partitions in requested.items():
        for partition in partitions:
            by_partition.setdefault(partition, []).append(dg.AssetKey(asset))
    for partition, keys in sorted(by_partition.items(), key=lambda kv: str(kv[0])):
        result = job.execute_in_process(
            instance=instance, asset_selection=keys, partition_key=partition
        )
        assert result.success, (partition, keys)


def test_automation_sensor_is_opt_in_and_covers_vectors_and_their_rfp_partitions():
    from definitions import defs

    sensor = defs.resolve_sensor_def("embedding_automation_sensor")
    assert sensor.default_status == dg.DefaultSensorStatus.STOPPED
    graph = defs.resolve_asset_graph()
    targeted = sensor.asset_selection.resolve(graph)
    assert sorted(k.to_user_string() for k in targeted) == sorted(EMBEDDINGS + RFP_DOWNSTREAM)
    labels = {
        k.to_user_string(): graph.get(k).automation_condition.get_label()
        for k in graph.get_all_asset_keys()
        if graph.get(k).automation_condition is not None
    }
    assert labels == {
        **dict.fromkeys(EMBEDDINGS, "re-embed after a model change"),
        **dict.fromkeys(RFP_DOWNSTREAM, "re-run after upstream vectors or library update"),
    }
    assert "eager" not in str(graph.get(dg.AssetKey("pp_references")).automation_condition)


# extended since session 11 (CI time): the same conditions are checked without runs in
# test_automation_conditions, the in-flight switch in test_model_switch_in_flight
@pytest.mark.extended
def test_automation_reembeds_on_model_change_then_reruns_rfps_but_not_new_rfps(tmp_path, model_b):
    from definitions import build_definitions

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy(MIAMI_RFP, inbox / MIAMI_RFP.name)
    miami, usda = partition_key_for(MIAMI_RFP.name), partition_key_for(USDA_RFP.name)
    settings_a = load_settings(
        tmp_path,
        {
            "inbox_dir": str(inbox),
            "library_dir": str(small_library(tmp_path / "library", rows=12)),
            "answers_dir": str(small_answers(tmp_path / "answers", topics=("api",))),
            "db_path": str(tmp_path / "store.duckdb"),
            "output_dir": str(tmp_path / "out"),
            "model": MODEL_A,
        },
    )
    db = settings_a.db_path
    defs_a = build_definitions(settings_a)
    defs_b = build_definitions(settings_with(settings_a, model=str(model_b)))
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("rfp_documents", [miami])
        assert defs_a.resolve_job_def("library_job").execute_in_process(instance=instance).success
        assert (
            defs_a.resolve_job_def("rfp_job")
            .execute_in_process(instance=instance, partition_key=miami)
            .success
        )

        tick = dg.evaluate_automation_conditions(defs=defs_a, instance=instance)
        assert _requested(tick, defs_a) == {}
        tick = dg.evaluate_automation_conditions(defs=defs_a, instance=instance, cursor=tick.cursor)
        assert _requested(tick, defs_a) == {}, "nothing changed, nothing requested"

        # A new RFP: the inbox sensor adds its partition and runs rfp_job for it.
        shutil.copy(USDA_RFP, inbox / USDA_RFP.name)
        instance.add_dynamic_partitions("rfp_documents", [usda])
        tick = dg.evaluate_automation_conditions(defs=defs_a, instance=instance, cursor=tick.cursor)
        assert _requested(tick, defs_a) == {}, "a new partition belongs to the inbox sensor"
        assert (
            defs_a.resolve_job_def("rfp_job")
            .execute_in_process(instance=instance, partition_key=usda)
            .success
        )
        tick = dg.evaluate_automation_conditions(defs=defs_a, instance=instance, cursor=tick.cursor)
        assert _requested(tick, defs_a) == {}, "the sensor's run updated the partition in one run"

        # The model changes: first the vectors, and nothing downstream on the same tick.
        tick = dg.evaluate_automation_conditions(defs=defs_b, instance=instance, cursor=tick.cursor)
        reembed = _requested(tick, defs_b)
        assert reembed == {
            "answer_block_embeddings": [None],
            "pp_facet_embeddings": [None],
            "scope_query": [miami, usda],
        }
        # (the daemon launches what a tick requests before the next tick, so do we)
        _execute(defs_b, instance, reembed)
        assert _status(defs_b, instance, "pp_references", miami)[0] == StaleStatus.STALE

        # Then every RFP partition downstream of them, once.
        tick = dg.evaluate_automation_conditions(defs=defs_b, instance=instance, cursor=tick.cursor)
        rerun = _requested(tick, defs_b)
        assert rerun == dict.fromkeys(RFP_DOWNSTREAM, [miami, usda])
        _execute(defs_b, instance, rerun)
        tick = dg.evaluate_automation_conditions(defs=defs_b, instance=instance, cursor=tick.cursor)
        assert _requested(tick, defs_b) == {}
        for key in (miami, usda):
            for asset in ("scope_query", *RFP_DOWNSTREAM):
                assert _status(defs_b, instance, asset, key)[0] == StaleStatus.FRESH, (asset, key)

    assert _query(db, "SELECT DISTINCT model, dim FROM rfp.pp_facet_embeddings") == [(MODEL_B, 128)]
    assert _query(db, "SELECT DISTINCT model FROM rfp.answer_block_embeddings") == [(MODEL_B,)]
    assert _query(db, "SELECT rfp_partition, model FROM rfp.scope_query ORDER BY 1") == sorted(
        [(miami, MODEL_B), (usda, MODEL_B)]
    )
