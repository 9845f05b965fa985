"""The ranker's fast paths (numpy filter masks, chunked cosines, shortlist) against the reference.

The reference is the slow path of the same code: every strict constraint evaluated by its SQL
expression in DuckDB, the candidate cosines computed in one gather, and every candidate scored
with its components built per entry by ``scoring.score_candidates`` (no shortlist).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import random

import numpy as np
import polars as pl
import pytest

from rfp_retrieval.retrieval import kernels, scoring
from rfp_retrieval.retrieval import past_performance as pp
from rfp_retrieval.retrieval.components import agency_matcher
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.past_performance import apply_hard_filters, rank_references
from rfp_retrieval.retrieval.prepared import PreparedLibrary
from rfp_retrieval.retrieval.records import EntryVectors, ScopeFilters, ScopeQuery

AS_OF = dt.date(2026, 6, 1)
TYPES = ["federal-civilian", "federal-defense", "state", "local", "commercial", None]
INDUSTRIES = ["Healthcare", "healthcare", "HEALTHCARE ", "İstanbul Ports", "Énergie", "defense"]
CUSTOMERS = [
    ("Department of Veterans Affairs, VHA", "VHA"),
    ("U.S. Department of Agriculture, Food and Nutrition Service", "FNS"),
    ("Internal Revenue Service", "IRS"),
    ("State of Ohio", None),
    ("Fairfax County", "FFX"),
    (None, None),
]
DOMAINS = ["cloud", "data", "security", "health", "finance"]


def _library(size: int, seed: int = 3) -> pl.DataFrame:
    """``size`` entries with every filter column varied and nulls in each of them."""
    rng = random.Random(seed)
    rows = []
    for n in range(size):
        start = dt.date(rng.randint(2008, 2025), rng.randint(1, 12), 1)
        end = start + dt.timedelta(days=rng.randint(200, 2500))
        low = rng.choice([None, rng.randrange(100_000, 90_000_000, 100_000)])
        high = rng.choice([None, low, (low or 1_000_000) * rng.choice([1, 2, 3])])
        named, acronym = rng.choice(CUSTOMERS)
        rows.append(
            {
                "id": f"PP-{rng.randrange(10**6):06d}-{n}",  # not in frame order
                "title": f"Entry {n}",
                "customer_type": rng.choice(TYPES),
                "industry": rng.choice([*INDUSTRIES, None]),
                "vehicle_type": rng.choice(["standalone", "IDIQ", "BPA", None]),
                "value_min": low,
                "value_max": high,
                # funded (obligated) value: sizes completed work (effective_value_range)
                "value_funded": rng.choice([None, None, rng.randrange(50_000, 60_000_000, 50_000)]),
                "start_date": rng.choice([start, start, None]),
                "end_date": None if end > AS_OF or rng.random() < 0.05 else end,
                "ongoing": rng.choice([end > AS_OF, end > AS_OF, None]),
                "role": rng.choice(["prime", "prime", "sub", None]),
                "customer_named": named,
                "customer_acronym": acronym,
                "domains": rng.sample(DOMAINS, rng.randint(0, 3)),
                "outcome_vague": rng.choice([True, False, None]),
            }
        )
    return pl.DataFrame(
        rows,
        schema_overrides={"value_min": pl.Int64, "value_max": pl.Int64, "value_funded": pl.Int64},
    )


def _filters(rng: random.Random) -> ScopeFilters:
    low = rng.choice([None, rng.randrange(1_000_000, 40_000_000, 500_000)])
    return ScopeFilters(
        customer_types=tuple(rng.sample(TYPES[:-1], rng.randint(0, 2))),
        industries=tuple(rng.sample(["healthcare", "HEALTHCARE ", "i̇stanbul ports", "x"], 1))
        if rng.random() < 0.4
        else (),
        vehicle_types=("IDIQ",) if rng.random() < 0.2 else (),
        value_min=low,
        value_max=rng.choice([None, (low or 2_000_000) * 4]),
        started_after=rng.choice([None, dt.date(2015, 1, 1)]),
        ended_after=rng.choice([None, dt.date(2021, 6, 1), dt.date(2023, 1, 1)]),
        require_prime=rng.random() < 0.4,
    )


@pytest.mark.parametrize(
    "variant", ["as built", "float values with NaN", "categorical text", "all-null columns"]
)
def test_filter_masks_give_the_sql_expressions_booleans(variant):
    entries = _library(600)
    if variant == "float values with NaN":
        entries = entries.with_columns(
            pl.when(pl.int_range(pl.len()) % 7 == 0)
            .then(float("nan"))
            .otherwise(pl.col("value_max").cast(pl.Float64))
            .alias("value_max"),
            pl.col("value_min").cast(pl.Float64),
        )
    elif variant == "categorical text":
        entries = entries.with_columns(
            pl.col("customer_type", "industry", "role").cast(pl.Categorical)
        )
    elif variant == "all-null columns":
        entries = entries.with_columns(
            pl.lit(None).alias(c)
            for c in ("industry", "value_min", "value_max", "value_funded", "ongoing")
        )
    library = PreparedLibrary(entries)
    rng = random.Random(5)
    for _ in range(60):
        filters = _filters(rng)
        names, ok = library.strict_ok(filters)
        sql_names, sql_ok = library.strict_ok(filters, sql_only=True)
        assert names == sql_names
        assert np.array_equal(ok, sql_ok), (filters, names)
    library.close()


def _dyadic_vectors(ids: list[str], dim: int, seed: int) -> EntryVectors:
    """Vectors of multiples of 1/8: every float32 dot product is exact whatever the
    summation order, so fast and reference cosines must agree to the last bit."""
    rng = np.random.default_rng(seed)
    matrices = {
        f: (rng.integers(-2, 3, size=(len(ids), dim)) / 8).astype(np.float32)
        for f in ("narrative", "technical", "outcome", "whole")
    }
    return EntryVectors(sorted(ids), matrices)


def _scopes(vectors: EntryVectors, count: int, seed: int, dyadic: bool) -> list[ScopeQuery]:
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    dim = vectors.matrices["whole"].shape[1]
    scopes = []
    for k in range(count):

        def vec(rows: int = 1) -> np.ndarray:
            if dyadic:
                return (nrng.integers(-2, 3, size=(rows, dim)) / 8).astype(np.float32)
            v = nrng.standard_normal((rows, dim)).astype(np.float32)
            return v / np.linalg.norm(v, axis=1, keepdims=True)

        filters = _filters(rng)
        if k % 2 == 0:  # loose: most of the library passes, the chunked path runs
            filters = ScopeFilters(
                value_min=filters.value_min, require_prime=True, ended_after=dt.date(2012, 1, 1)
            )
        named, acronym = rng.choice(CUSTOMERS)
        scopes.append(
            ScopeQuery(
                filters=filters,
                as_of=AS_OF,
                vectors={f: vec()[0] for f in ("narrative", "technical", "outcome", "whole")},
                issuer=named,
                issuer_acronym=acronym,
                section_vectors=vec(rng.choice([0, 1, 6])),
                emphasized_domains=tuple(rng.sample(DOMAINS, rng.randint(0, 3))),
            )
        )
    return scopes


@pytest.fixture
def reference_path(monkeypatch):
    """Switch ``rank_references`` to the reference path inside a ``with`` block."""

    @contextlib.contextmanager
    def switch():
        with monkeypatch.context() as patch:
            patch.setattr(scoring, "_SHORTLIST_ABOVE", 10**9)
            patch.setattr(kernels, "_CHUNK_ROWS", 10**9)
            strict_ok = PreparedLibrary.strict_ok
            patch.setattr(
                PreparedLibrary,
                "strict_ok",
                lambda self, f, sql_only=False: strict_ok(self, f, True),
            )
            yield

    return switch


def _totals(prepared: PreparedLibrary, scope: ScopeQuery, config: RankingConfig) -> dict:
    """Unrounded totals of the per-entry loop, for the candidates it scores."""
    passed = pp.filter_pass(prepared, scope.filters, config)
    idx = prepared.vector_rows[passed.ranks]
    match = agency_matcher(scope)
    scored, _ = scoring.score_candidates(
        prepared, passed.candidates, passed.ranks, idx, scope, config, passed, match
    )
    return {pp_id: total for total, pp_id, _, _ in scored}


def _outcome(result) -> list:
    return [(r.id, r.rank, r.score, r.components, r.relaxed) for r in result.references]


@pytest.mark.parametrize("dyadic", [True, False], ids=["exact vectors", "float vectors"])
def test_fast_path_ranks_like_the_reference_per_entry_scoring(dyadic, reference_path):
    entries = _library(7000)
    ids = entries["id"].to_list()
    if dyadic:
        vectors = _dyadic_vectors(ids, dim=48, seed=1)
    else:
        rng = np.random.default_rng(2)
        matrices = {}
        for facet in ("narrative", "technical", "outcome", "whole"):
            m = rng.standard_normal((len(ids), 48)).astype(np.float32)
            matrices[facet] = m / np.linalg.norm(m, axis=1, keepdims=True)
        vectors = EntryVectors(sorted(ids), matrices)
    config = RankingConfig()
    prepared = PreparedLibrary(entries, vectors)
    chunked = 0
    for scope in _scopes(vectors, 12, seed=4, dyadic=dyadic):
        fast = rank_references(entries, vectors, scope, config, prepared=prepared)
        chunked += fast.candidate_count >= kernels._CHUNK_ROWS
        fast_filters = apply_hard_filters(entries, scope.filters, config, prepared=prepared)
        fast_totals = _totals(prepared, scope, config)
        with reference_path():
            ref = rank_references(entries, vectors, scope, config, prepared=prepared)
            ref_filters = apply_hard_filters(entries, scope.filters, config, prepared=prepared)
            ref_totals = _totals(prepared, scope, config)
        assert fast_filters == ref_filters
        assert [r.id for r in fast.references] == [r.id for r in ref.references]
        assert (fast.candidate_count, fast.filter_trace, fast.relaxed) == (
            ref.candidate_count,
            ref.filter_trace,
            ref.relaxed,
        )
        # the shortlist holds the top k and its unrounded totals are the reference's
        assert len(fast_totals) < len(ref_totals) or fast.candidate_count <= 64
        for pp_id, total in fast_totals.items():
            assert total == pytest.approx(ref_totals[pp_id], abs=1e-9 if dyadic else 1e-6)
        for r in fast.references:
            assert r.score == round(fast_totals[r.id], 6)
        if dyadic:
            assert _outcome(fast) == _outcome(ref)
    prepared.close()
    assert chunked >= 3  # the loose scopes took the chunked path


def test_chunked_cosines_leave_the_blas_thread_count_as_they_found_it():
    from threadpoolctl import threadpool_info

    def blas_threads() -> list[int]:
        return [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]

    before = blas_threads()
    ids = [f"PP-{n:05d}" for n in range(2 * kernels._CHUNK_ROWS + 5)]
    vectors = _dyadic_vectors(ids, dim=16, seed=3)
    scope = _scopes(vectors, 1, seed=2, dyadic=True)[0]
    idx = np.arange(len(ids))[::-1].copy()  # any row order
    whole, outcome, section_max = kernels.candidate_cosines(vectors.matrices, idx, scope)
    m = vectors.matrices
    assert np.array_equal(whole, m["whole"][idx] @ scope.vectors["whole"])
    assert np.array_equal(outcome, m["outcome"][idx] @ scope.vectors["outcome"])
    sections = scope.section_vectors
    if sections is None or len(sections) == 0:
        sections = scope.vectors["technical"][None, :]
    assert np.array_equal(section_max, (m["whole"][idx] @ sections.T).max(axis=1))
    assert blas_threads() == before
    with pytest.raises(ValueError, match="outside the vector matrices"):
        kernels.candidate_cosines(vectors.matrices, idx + 1, scope)
