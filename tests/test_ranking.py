"""The ranker on a hand-built library with hand-made unit vectors (no model involved)."""

import datetime as dt
from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from rfp_retrieval.retrieval.components import recency_bumps
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.past_performance import apply_hard_filters, rank_references
from rfp_retrieval.retrieval.records import EntryVectors, ScopeFilters, ScopeQuery

AS_OF = dt.date(2026, 6, 8)
D = dt.date


def _entries() -> pl.DataFrame:
    rows = [
        # id, type, min, max, start, end, ongoing, role, named, acronym
        (
            "PP-1",
            "federal-civilian",
            12_000_000,
            12_000_000,
            D(2021, 1, 1),
            None,
            True,
            "prime",
            "U.S. Department of Agriculture, Rural Development",
            "USDA RD",
        ),
        (
            "PP-2",
            "federal-civilian",
            20_000_000,
            25_000_000,
            D(2019, 1, 1),
            D(2025, 6, 30),
            False,
            "sub",
            "Department of Veterans Affairs, VHA",
            "VHA",
        ),
        (
            "PP-3",
            "federal-defense",
            15_000_000,
            15_000_000,
            D(2020, 1, 1),
            D(2024, 1, 31),
            False,
            "prime",
            "Defense Logistics Agency",
            "DLA",
        ),
        (
            "PP-4",
            "federal-civilian",
            40_000_000,
            40_000_000,
            D(2018, 1, 1),
            D(2023, 1, 31),
            False,
            "prime",
            "Internal Revenue Service",
            "IRS",
        ),
        (
            "PP-5",
            "federal-civilian",
            11_000_000,
            11_000_000,
            D(2012, 1, 1),
            D(2016, 12, 31),
            False,
            "prime",
            "Department of Education",
            "ED",
        ),
    ]
    cols = [
        "id",
        "customer_type",
        "value_min",
        "value_max",
        "start_date",
        "end_date",
        "ongoing",
        "role",
        "customer_named",
        "customer_acronym",
    ]
    frame = pl.DataFrame([dict(zip(cols, r, strict=True)) for r in rows])
    return frame.with_columns(
        pl.col("id").alias("title"),
        pl.lit(None, dtype=pl.String).alias("industry"),
        pl.lit("standalone").alias("vehicle_type"),
    )


def _vectors(sims: dict[str, float]) -> EntryVectors:
    """Entry vectors whose cosine with the query e0 is exactly ``sims[id]`` on every facet."""
    ids = sorted(sims)
    matrix = np.zeros((len(ids), 2), dtype=np.float32)
    for i, pp_id in enumerate(ids):
        s = sims[pp_id]
        matrix[i] = [s, np.sqrt(1 - s * s)]
    facets = ("narrative", "technical", "outcome", "whole")
    return EntryVectors(ids=ids, matrices={f: matrix for f in facets})


def _query(filters: ScopeFilters, issuer: str | None = None, acronym: str | None = None):
    e0 = np.array([1.0, 0.0], dtype=np.float32)
    vecs = {f: e0 for f in ("narrative", "technical", "outcome", "whole")}
    return ScopeQuery(filters, AS_OF, vecs, issuer=issuer, issuer_acronym=acronym)


S01_FILTERS = ScopeFilters(
    customer_types=("federal-civilian",),
    value_min=10_000_000,
    value_max=30_000_000,
    ended_after=D(2021, 6, 8),
)
SIMS = {"PP-1": 0.5, "PP-2": 0.6, "PP-3": 0.9, "PP-4": 0.8, "PP-5": 0.7}


def test_hard_filters_keep_only_entries_meeting_every_constraint():
    ids, misses, trace, relaxed = apply_hard_filters(
        _entries(), S01_FILTERS, RankingConfig(mode="facet", top_k=2)
    )
    assert ids == ["PP-1", "PP-2"]
    assert relaxed == []
    assert [t["remaining"] for t in trace] == [5, 4, 3, 2]
    assert [t["filter"] for t in trace] == ["library", "customer_type", "value", "recency"]


def test_relaxation_widens_value_first_and_labels_what_each_reference_misses():
    ids, misses, trace, relaxed = apply_hard_filters(
        _entries(), S01_FILTERS, RankingConfig(mode="facet")
    )
    # Value widened to 5M..60M lets PP-4 (40M) in; three now qualify.
    assert relaxed == ["value band widened to $5.0M to $60.0M"]
    assert ids == ["PP-1", "PP-2", "PP-4"]
    assert misses == {"PP-1": [], "PP-2": [], "PP-4": ["value"]}


def test_facet_mode_scores_weighted_cosines_and_breaks_ties_by_id():
    result = rank_references(
        _entries(), _vectors(SIMS), _query(S01_FILTERS), RankingConfig(mode="facet")
    )
    # PP-4 (cosine 0.8) only came in when the value band was widened: the two compliant
    # entries come first (issue 18, defect 3)
    assert [r.id for r in result.references] == ["PP-2", "PP-1", "PP-4"]
    top = result.references[2]
    assert top.score == pytest.approx(0.8, abs=1e-6)
    assert top.components["weighted_outcome"] == pytest.approx(0.4, abs=1e-6)
    assert top.relaxed == ["value"]
    tied = rank_references(
        _entries(),
        _vectors(dict.fromkeys(SIMS, 0.5)),
        _query(S01_FILTERS),
        RankingConfig(mode="facet"),
    )
    assert [r.id for r in tied.references] == ["PP-1", "PP-2", "PP-4"]


def test_bumps_reward_recent_work_and_the_same_department():
    result = rank_references(
        _entries(),
        _vectors(SIMS),
        _query(S01_FILTERS, "U.S. Department of Agriculture, Food and Nutrition Service", "FNS"),
        RankingConfig(mode="facet+bumps"),
    )
    by_id = {r.id: r for r in result.references}
    # PP-1: ongoing (+0.10) and USDA like the issuer FNS (+0.08).
    assert by_id["PP-1"].components["recency_bump"] == pytest.approx(0.10)
    assert by_id["PP-1"].components["agency_bump"] == pytest.approx(0.08)
    assert by_id["PP-1"].score == pytest.approx(0.5 + 0.10 + 0.08, abs=1e-6)
    # PP-2 ended 2025-06-30, within 18 months of 2026-06-08.
    assert by_id["PP-2"].components["recency_bump"] == pytest.approx(0.10)
    assert by_id["PP-4"].components["recency_bump"] == 0.0


def test_old_work_gets_the_age_penalty_and_ongoing_is_never_old():
    config = RankingConfig()
    old = {"end_date": D(2016, 12, 31), "ongoing": False}
    assert recency_bumps(old, AS_OF, config) == {"recency_bump": 0.0, "age_penalty": -0.05}
    ongoing = {"end_date": None, "ongoing": True}
    assert recency_bumps(ongoing, AS_OF, config) == {"recency_bump": 0.10, "age_penalty": 0.0}


def test_naive_mode_ignores_filters():
    result = rank_references(
        _entries(), _vectors(SIMS), _query(S01_FILTERS), RankingConfig(mode="naive")
    )
    assert [r.id for r in result.references] == ["PP-3", "PP-4", "PP-5"]
    assert result.filter_trace == []


def test_empty_library_gives_empty_result_with_reason():
    result = rank_references(
        _entries().head(0), _vectors(SIMS), _query(S01_FILTERS), RankingConfig()
    )
    assert result.references == [] and result.reason == "the library has no entries"


def test_default_mode_charges_size_misses_and_keeps_a_stated_prime_only_rule_hard():
    filters = ScopeFilters(
        customer_types=("federal-civilian",),
        value_min=10_000_000,
        value_max=30_000_000,
        ended_after=D(2021, 6, 8),
        require_prime=True,
    )
    # the mechanism with round weights (the shipped defaults are learned, see config.py)
    config = RankingConfig(
        default_weight_whole=0.4,
        default_weight_outcome=0.3,
        default_weight_section=0.3,
        penalty_value=0.10,
        penalty_role=0.05,
    )
    ids, misses, trace, relaxed = apply_hard_filters(_entries(), filters, config)
    # Recency, customer type and a stated prime-only rule are hard; size is not (PP-4 in at
    # $40M). PP-2 (a subcontract) is out: the recency window is relaxed before prime-only
    # (Relaxation.order), which lets PP-5 in and fills the three.
    assert ids == ["PP-1", "PP-4", "PP-5"]
    assert misses == {"PP-1": [], "PP-4": ["value"], "PP-5": ["recency"]}
    assert relaxed == [
        "recency window widened to end on/after 2019-06-08",
        "recency window dropped",
    ]
    assert [(t["filter"], t["remaining"], t.get("soft_penalty")) for t in trace[2:5]] == [
        ("value", 4, 0.10),
        ("recency", 3, None),
        ("role", 2, None),
    ]
    result = rank_references(_entries(), _vectors(SIMS), _query(filters), config)
    by_id = {r.id: r for r in result.references}
    assert sorted(by_id) == ["PP-1", "PP-4", "PP-5"]
    # $40M against a $30M ceiling: the full value penalty (a miss is a miss)
    assert by_id["PP-4"].components["value_penalty"] == pytest.approx(-0.10)
    assert by_id["PP-1"].components["value_penalty"] == 0.0
    # whole .4 + outcome .3 + section .3 (no sections: technical vector) of cosine 0.8
    assert by_id["PP-4"].components["weighted_whole"] == pytest.approx(0.32, abs=1e-6)
    assert by_id["PP-4"].relaxed == ["value"]
    # only when even that leaves too few is prime-only dropped: the sub comes in last,
    # labelled with the miss and charged the role penalty
    four = rank_references(_entries(), _vectors(SIMS), _query(filters), replace(config, top_k=4))
    assert [r.id for r in four.references] == ["PP-4", "PP-1", "PP-5", "PP-2"]
    assert four.relaxed[-1] == "prime-only requirement dropped"
    assert four.references[-1].relaxed == ["role"]
    assert four.references[-1].components["role_penalty"] == pytest.approx(-0.05)


def test_config_fingerprint_names_the_weights_that_ranked():
    shipped = RankingConfig()
    assert shipped.fingerprint() == RankingConfig().fingerprint()
    assert shipped.fingerprint().startswith("default-") and len(shipped.fingerprint()) == 18
    assert RankingConfig(penalty_value=0.24).fingerprint() != shipped.fingerprint()
    assert shipped.with_mode("facet+bumps").fingerprint().startswith("facet+bumps-")
    result = rank_references(_entries(), _vectors(SIMS), _query(S01_FILTERS), shipped)
    assert result.ranking_config == shipped.fingerprint()


@pytest.mark.parametrize(
    "mode, fingerprint",
    [
        ("naive", "naive-68a7ea3e50"),
        ("facet", "facet-f8a65c3814"),
        ("facet+bumps", "facet+bumps-85124c7087"),
        ("default", "default-71aa1a113d"),
    ],
)
def test_each_modes_default_fingerprint_is_pinned(mode, fingerprint):
    # pp_references' code version and the stored ranking_config column: grouping the
    # values (RankingConfig's nested presets) must not change it
    assert RankingConfig(mode=mode).fingerprint() == fingerprint


def test_flat_value_names_set_and_read_the_nested_config():
    config = RankingConfig(default_weight_whole=0.4, penalty_value=0.10, top_k=2)
    assert (config.default.whole, config.default.penalties.value, config.top_k) == (0.4, 0.1, 2)
    assert config.default_weight_whole == 0.4 and config.recent_months == 18
    assert replace(config, default_sector_bump=0.2).default.bumps.sector == 0.2
    assert replace(config, mode="facet").values() == {**config.values(), "mode": "facet"}
    assert config.values()["relaxation_order"] == config.relaxation.order
    with pytest.raises(TypeError, match="default_weight_hole"):
        RankingConfig(default_weight_hole=0.4)
    with pytest.raises(ValueError, match="unknown ranking mode"):
        RankingConfig(mode="bm25")
