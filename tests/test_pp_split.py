"""benchmarks/pp_split.py: the fixed split, the tuning-miss classes and the subset spread."""

import pytest

from benchmarks.pp_split import miss_rows, split_of, subsample_spread

# S01 of the tuning part as the default mode ranked it on 2026-12-04 (scores rounded): the
# first pick is ideal, PP-112 sits 0.034 below the third pick, PP-117 ninth.
RANKED = [
    ("PP-078", 0.855),
    ("PP-174", 0.713),
    ("PP-171", 0.680),
    ("PP-112", 0.646),
    ("PP-082", 0.640),
    ("PP-075", 0.630),
    ("PP-144", 0.620),
    ("PP-096", 0.600),
    ("PP-117", 0.578),
]


def test_split_is_by_scope_number_divisible_by_three():
    assert [split_of(s) for s in ("S03", "S41", "S78", "S80")] == [
        "validation",
        "tuning",
        "validation",
        "tuning",
    ]
    with pytest.raises(ValueError, match="no number"):
        split_of("Sx")


def test_miss_rows_classify_near_ties_lower_ranks_and_unranked_picks():
    rows = miss_rows(RANKED, ["PP-078", "PP-117", "PP-112", "PP-999"])
    assert [(r["id"], r["rank"], r["kind"]) for r in rows] == [
        ("PP-117", 9, "ranked lower"),
        ("PP-112", 4, "near-tie"),
        ("PP-999", None, "not ranked"),
    ]
    assert rows[0]["gap"] == pytest.approx(0.102)
    assert rows[1]["gap"] == pytest.approx(0.034)
    assert rows[2]["gap"] is None


def test_miss_rows_near_tie_needs_both_a_small_gap_and_a_high_rank():
    # PP-096 is 0.080 below the cut at rank 8: too far to be a near-tie
    assert miss_rows(RANKED, ["PP-096"])[0]["kind"] == "ranked lower"
    # the same small gap below rank 8 is no near-tie either
    deep = RANKED[:3] + [(f"PP-{k:03d}", 0.679) for k in range(200, 206)] + [("PP-300", 0.670)]
    assert miss_rows(deep, ["PP-300"]) == [
        {"id": "PP-300", "rank": 10, "gap": pytest.approx(0.010), "kind": "ranked lower"}
    ]
    assert miss_rows([], ["PP-001"]) == [
        {"id": "PP-001", "rank": None, "gap": None, "kind": "not ranked"}
    ]


def test_subsample_spread_of_equal_recalls_is_zero_and_of_mixed_ones_is_not():
    same = subsample_spread([2 / 3] * 10, 4, draws=200)
    assert (same["sd"], same["p05"], same["p95"]) == (
        0.0,
        pytest.approx(2 / 3),
        pytest.approx(2 / 3),
    )
    mixed = subsample_spread([0.0, 1.0] * 10, 10, draws=2000, seed=1)
    assert mixed["mean"] == pytest.approx(0.5, abs=0.01)
    assert 0.08 < mixed["sd"] < 0.13  # hypergeometric: sqrt(0.25/10 * 10/19) = 0.115
    assert mixed["p05"] < 0.5 < mixed["p95"]
    with pytest.raises(ValueError, match="outside 1..3"):
        subsample_spread([1.0, 0.0, 1.0], 4)
