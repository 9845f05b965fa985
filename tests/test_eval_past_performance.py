"""Golden-set evaluation of the ranker on the dev scopes (constraints read from each RFP)."""

import pytest

from rfp_retrieval.eval.past_performance import (
    embed_library,
    evaluate_modes,
    load_golden,
    mode_configs,
    prepare_scopes,
    recall_at_k,
    reciprocal_rank,
)
from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.ingest import load_library

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def results(shared_data, embedder):
    scopes = load_golden(shared_data / "pp_golden_dev" / "golden.jsonl")
    entries = entries_frame(load_library(shared_data / "library").entries)
    vectors = embed_library(entries, embedder)
    return evaluate_modes(entries, vectors, prepare_scopes(scopes, embedder), mode_configs("all"))


def test_metric_definitions():
    assert recall_at_k(["a", "b", "c"], ["c", "d", "a"]) == pytest.approx(2 / 3)
    assert reciprocal_rank(["x", "a", "c"], ["c", "a"]) == 0.5
    assert reciprocal_rank(["x"], ["a"]) == 0.0


def test_filtered_modes_beat_the_naive_single_embedding(results):
    assert results["naive"]["recall_at_3"] < results["facet"]["recall_at_3"]
    assert results["naive"]["recall_at_3"] < results["facet+bumps"]["recall_at_3"]
    assert len(results["facet"]["per_scope"]) == 15


@pytest.mark.parametrize(
    ("scope_id", "top3"),
    [
        ("S35", ["PP-175", "PP-176", "PP-100"]),
        ("S24", ["PP-151", "PP-091", "PP-087"]),
        ("S22", ["PP-155", "PP-150", "PP-172"]),
    ],
)
def test_expected_top3_of_dev_scopes(results, scope_id, top3):
    per_scope = {s["scope_id"]: s for s in results["facet+bumps"]["per_scope"]}
    assert per_scope[scope_id]["top3"] == top3
