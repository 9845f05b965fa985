"""A write-up copied under a new id is one project: it is never cited twice (break-it,
session 12); the library check "write-ups distinct" names the copy."""

from __future__ import annotations

import polars as pl

from rfp_retrieval.retrieval.past_performance import rank_references
from tests.test_overrides import FACET, _entries, _scope, _vectors

STORY = (
    "Modernized the claims intake platform for a federal benefits program, moving 2 million "
    "records to the cloud with zero downtime."
)


def test_the_copy_of_a_better_ranked_write_up_is_skipped_and_the_next_entry_cited():
    entries = _entries().with_columns(
        narrative=pl.when(pl.col("id").is_in(["PP-1", "PP-2"]))
        .then(pl.lit(STORY))
        .otherwise(pl.col("id")),
        technical_description=pl.lit(None, dtype=pl.String),
    )
    result = rank_references(entries, _vectors(), _scope(), FACET)
    assert [r.id for r in result.references] == ["PP-1", "PP-3", "PP-4"]


def test_short_stock_text_is_no_copy():
    entries = _entries().with_columns(
        narrative=pl.lit("See attached."), technical_description=pl.lit(None, dtype=pl.String)
    )
    result = rank_references(entries, _vectors(), _scope(), FACET)
    assert [r.id for r in result.references] == ["PP-1", "PP-2", "PP-3"]
