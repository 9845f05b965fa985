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
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.past_performance import rank_references

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dev(shared_data, embedder):
    scopes = load_golden(shared_data / "pp_golden_dev" / "golden.jsonl")
    entries = entries_frame(load_library(shared_data / "library").entries)
    vectors = embed_library(entries, embedder)
    return entries, vectors, {p.golden.scope_id: p for p in prepare_scopes(scopes, embedder)}


@pytest.fixture(scope="module")
def results(dev):
    entries, vectors, prepared = dev
    return evaluate_modes(entries, vectors, list(prepared.values()), mode_configs("all"))


def _default_top3(dev, scope_id):
    entries, vectors, prepared = dev
    result = rank_references(entries, vectors, prepared[scope_id].query, RankingConfig())
    return result, [(r.id, r.relaxed) for r in result.references]


def test_metric_definitions():
    assert recall_at_k(["a", "b", "c"], ["c", "d", "a"]) == pytest.approx(2 / 3)
    assert reciprocal_rank(["x", "a", "c"], ["c", "a"]) == 0.5
    assert reciprocal_rank(["x"], ["a"]) == 0.0


def test_filtered_modes_beat_the_naive_single_embedding(results):
    assert results["naive"]["recall_at_3"] < results["facet"]["recall_at_3"]
    assert results["naive"]["recall_at_3"] < results["facet+bumps"]["recall_at_3"]
    assert len(results["facet"]["per_scope"]) == 15


def test_default_mode_beats_the_seed_preset_and_naive(results):
    # default weights learned on the tuning part of the 55 dev scopes (config.py), so these
    # 15 are not their training set; facet ranks compliant entries first (issue 18); a stated
    # prime-only rule is a hard filter (0.6889 when it was a zero penalty: one pick)
    assert results["default"]["recall_at_3"] == pytest.approx(0.6667, abs=1e-4)
    assert results["naive"]["recall_at_3"] == pytest.approx(0.3778, abs=1e-4)
    assert results["facet"]["recall_at_3"] == pytest.approx(0.4889, abs=1e-4)
    assert results["facet+bumps"]["recall_at_3"] < results["default"]["recall_at_3"]
    assert results["naive"]["recall_at_3"] < results["facet"]["recall_at_3"]


def test_ambiguous_scopes_cover_each_emphasized_area(dev):
    # S24 lists eleven technical areas; the title, the two long areas and Section M's
    # points table emphasize cyber defense and ICAM: one reference for each comes first.
    _, _, prepared = dev
    assert prepared["S24"].reading.emphasized_domains == ["cybersecurity", "identity-access"]
    weights = prepared["S24"].reading.domain_weights
    assert (weights["cybersecurity"], weights["identity-access"]) == (0.372, 0.372)
    # listed, but neither emphasized nor scored (help desk is cross-cutting: halved)
    assert weights["help-desk"] == 0.023
    result, top = _default_top3(dev, "S24")
    assert [pp_id for pp_id, _ in top[:2]] == ["PP-151", "PP-091"]
    # the ranker reads the same weights: PP-151 (ICAM + cyber) carries 0.372 + 0.372 of them
    assert prepared["S24"].query.domain_weights == weights
    dw = RankingConfig().domain_weight
    assert result.references[0].components["domain_match"] == pytest.approx(dw * 0.744)
    assert result.references[1].components["domain_match"] == pytest.approx(dw * 0.372)
    # S08 lists eleven task areas; grants management carries the emphasis.
    # (financial system integration, in the lead subsections, is emphasised second)
    assert prepared["S08"].reading.emphasized_domains[0] == "grants-management"
    _, top = _default_top3(dev, "S08")
    assert top == [("PP-096", []), ("PP-157", []), ("PP-067", [])]


def test_narrow_scopes_label_the_near_misses_they_return(dev):
    # S09 asks for $40M-$70M contact centers: the strongest match below the band is
    # returned with the value constraint it misses, not silently; PP-084 states no value:
    # unknown, neither charged nor excluded (issue 18 defect 4).
    result, top = _default_top3(dev, "S09")
    # (PP-158 has the higher lexical match with the scope text: it comes 2nd, PP-084 3rd)
    assert top == [("PP-142", []), ("PP-158", ["value"]), ("PP-084", [])]
    assert result.references[2].unknown == ["value"]
    assert result.references[2].components["value_penalty"] == 0.0
    full = -RankingConfig().penalty_value  # more than 2x below the band
    assert result.references[1].components["value_penalty"] == pytest.approx(full)
    # S29 (state Medicaid E&E, $50M-$80M) has few compliant entries. PP-098's $52M ceiling
    # reaches the band, but the contract ended in 2025 with $18.2M funded: completed work is
    # sized by its funded value, so it is labelled a value near miss like the other two.
    result, top = _default_top3(dev, "S29")
    assert top == [("PP-105", ["value"]), ("PP-178", ["value"]), ("PP-069", ["value"])]
    entries, vectors, prepared = dev
    deeper = rank_references(entries, vectors, prepared["S29"].query, RankingConfig(), depth=8)
    pp_098 = next(r for r in deeper.references if r.id == "PP-098")
    assert pp_098.relaxed == ["value"]
    assert pp_098.components["value_penalty"] == pytest.approx(full)


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
