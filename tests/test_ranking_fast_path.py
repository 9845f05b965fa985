"""The ranker's fast paths against the reference: numpy filter masks against their SQL."""

from __future__ import annotations

import datetime as dt
import random

import numpy as np
import polars as pl
import pytest

from rfp_retrieval.retrieval.past_performance import (
    PreparedLibrary,
    ScopeFilters,
)

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
    return pl.DataFrame(rows, schema_overrides={"value_min": pl.Int64, "value_max": pl.Int64})


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
            pl.lit(None).alias(c) for c in ("industry", "value_min", "value_max", "ongoing")
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
