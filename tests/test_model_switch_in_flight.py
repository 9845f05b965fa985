"""A library re-embedded with another model while an RFP run is in flight (issue 17).

The run's ScopeQuery and its question queries were made with model A when the library's
vectors are replaced by model B's. The run's later steps read B's vectors: they must compare
one model's vectors (never A's queries with B's library) and still finish, so the steps embed
their queries with B, the model the library run recorded beside its vectors
(``model_source``). The references are then the ones a run made wholly with B gives.
"""

from __future__ import annotations

import shutil

import dagster as dg
import numpy as np
import pytest

from rfp_retrieval.inbox import partition_key_for
from rfp_retrieval.retrieval.embedding import Embedder, embedder_for_model
from rfp_retrieval.retrieval.scope_query import reembed_scope_row
from rfp_retrieval.settings import load_settings, settings_with
from tests.small_project import MIAMI_RFP, small_answers, small_library
from tests.test_model_switch import MODEL_A, MODEL_B, model_b  # noqa: F401 (fixture)

BEFORE_RANKING = ("rfp_document", "rfp_outline", "rfp_questions", "scope_query")
RANKING = ("rewritten_questions", "pp_references", "question_answers")


def _materialize(defs: dg.Definitions, instance, assets, key: str):
    job = defs.resolve_implicit_global_asset_job_def()
    result = job.execute_in_process(
        instance=instance,
        asset_selection=[dg.AssetKey(a) for a in assets],
        partition_key=key,
        raise_on_error=False,
    )
    return result


def _metadata(result, asset: str) -> dict:
    (event,) = [
        e for e in result.get_asset_materialization_events() if e.asset_key == dg.AssetKey(asset)
    ]
    return {k: v.value for k, v in event.materialization.metadata.items()}


def _references(store, key: str):
    frame = store.read_partition("pp_references", key, ["rank", "id", "score"])
    return sorted(frame.filter(frame["rank"] > 0).rows())


def _answers(store, key: str):
    frame = store.read_partition("question_answers", key, ["question_id", "rank", "block_id"])
    return sorted(frame.rows(), key=str)


def _cosines(store, key: str):
    frame = store.read_partition("question_answers", key, ["question_id", "block_id", "cosine"])
    return {(q, b): round(c, 5) for q, b, c in frame.rows() if b is not None}


def test_a_run_in_flight_when_the_library_changes_model_ranks_with_the_new_model(
    tmp_path,
    model_b,  # noqa: F811 (the fixture)
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
            "library_dir": str(small_library(tmp_path / "library", rows=12)),
            "answers_dir": str(small_answers(tmp_path / "answers", topics=("api",))),
            "db_path": str(tmp_path / "store.duckdb"),
            "output_dir": str(tmp_path / "out"),
            "model": MODEL_A,
        },
    )
    defs_a = build_definitions(settings_a)
    defs_b = build_definitions(settings_with(settings_a, model=str(model_b)))
    store = defs_a.resources["duckdb"]
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions("rfp_documents", [key])
        assert defs_a.resolve_job_def("library_job").execute_in_process(instance=instance).success
        # the run started on model A: its ScopeQuery is embedded with A ...
        assert _materialize(defs_a, instance, BEFORE_RANKING, key).success
        (model,) = store.read_partition("scope_query", key, ["model"])["model"].to_list()
        assert model == MODEL_A
        # ... then the library is re-embedded with B by another run ...
        library_b = defs_b.resolve_job_def("library_job").execute_in_process(instance=instance)
        assert library_b.success
        assert _metadata(library_b, "pp_facet_embeddings")["model_source"] == str(model_b)
        # ... and the run goes on with its own (model A) resources
        in_flight = _materialize(defs_a, instance, RANKING, key)
        assert in_flight.success
        references = _metadata(in_flight, "pp_references")
        assert references["model"] == MODEL_B
        assert f"re-embedded with {MODEL_B}" in references["query_reembedded"]
        assert f"made with {MODEL_A}" in references["query_reembedded"]
        in_flight_refs = _references(store, key)
        assert in_flight_refs  # what the small library lets through the filters
        in_flight_answers, in_flight_cosines = _answers(store, key), _cosines(store, key)
        assert in_flight_cosines

        # a run made wholly with model B picks the same references with the same scores
        again = _materialize(defs_b, instance, BEFORE_RANKING + RANKING, key)
        assert again.success
        assert "query_reembedded" not in _metadata(again, "pp_references")
        assert _metadata(again, "pp_references")["model"] == MODEL_B
        assert _references(store, key) == in_flight_refs
        # and the same passages: the in-flight questions were embedded with model B too
        assert _answers(store, key) == in_flight_answers
        assert _cosines(store, key) == in_flight_cosines


def test_a_scope_row_is_re_embedded_from_its_stored_texts(model_b):  # noqa: F811
    row = {
        "model": MODEL_A,
        "text_narrative": "case management for a 311 service request platform",
        "text_technical": "Salesforce, REST APIs",
        "text_outcome": "cut response times",
        "text_whole": "311 platform modernization",
        "section_headings": ["Scope of Work"],
        "section_texts": ["The vendor shall deliver a 311 CRM with mobile intake."],
        "vec_narrative": [0.0],
    }
    embedder = Embedder(model=str(model_b))
    again = reembed_scope_row(row, embedder)
    assert again["model"] == MODEL_B
    assert len(again["vec_outcome"]) == len(again["vec_sections"][0]) == 128
    expected = embedder.encode([row["text_outcome"]])[0]
    assert np.allclose(again["vec_outcome"], expected, atol=1e-6)
    assert row["model"] == MODEL_A  # the stored row is not changed
    # a row stored before section texts were kept cannot be re-embedded faithfully
    assert reembed_scope_row({**row, "section_texts": None}, embedder) is None


def test_the_embedder_for_a_model_id_comes_from_a_source_that_names_it(model_b, tmp_path):  # noqa: F811
    found = embedder_for_model(MODEL_B, [MODEL_A, str(model_b)])
    assert found is not None and found.model == str(model_b)
    assert embedder_for_model(MODEL_B, [MODEL_A]) is None
    gone = tmp_path / MODEL_B  # the recorded folder was deleted: not found, no error
    assert embedder_for_model(MODEL_B, [str(gone)]) is None


pytestmark = pytest.mark.slow
