"""An RFP that counts work still in progress only once a minimum period has been performed
("counts if at least one year has been performed", trial M3) is ranked by that rule
(``filters.ONGOING_PERFORMED_RULE``): it was read and shown as a caveat, never applied."""

from __future__ import annotations

import datetime as dt
import json

import numpy as np
import polars as pl

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.past_performance import apply_hard_filters, rank_references
from rfp_retrieval.retrieval.records import EntryVectors, ScopeFilters
from rfp_retrieval.retrieval.scope_query import build_scope_query, ongoing_started_by
from rfp_retrieval.scope.as_of import AsOf
from tests.small_project import StubEncoder

# ongoing since 2026-03 (seven months by the 2026-10-28 issue date), ongoing since 2024,
# completed work that started 2026-01 (not affected), ongoing with no start date (unknown)
IDS = ["PP-01", "PP-02", "PP-03", "PP-04"]
STARTS = [dt.date(2026, 3, 1), dt.date(2024, 1, 1), dt.date(2026, 1, 5), None]
ONGOING = [True, True, False, True]
ENDS = [None, None, dt.date(2026, 9, 30), None]
SENTENCE = "Work still in progress counts if at least one year has been performed."


def _library() -> tuple[pl.DataFrame, EntryVectors]:
    n = len(IDS)
    frame = pl.DataFrame(
        {
            "id": IDS,
            "title": IDS,
            "customer_type": ["state"] * n,
            "industry": [None] * n,
            "vehicle_type": ["standalone"] * n,
            "value_min": [3_000_000] * n,
            "value_max": [3_000_000] * n,
            "start_date": STARTS,
            "end_date": ENDS,
            "ongoing": ONGOING,
            "role": ["prime"] * n,
            "customer_named": ["DHS"] * n,
            "customer_acronym": [None] * n,
        },
        schema_overrides={
            "industry": pl.String,
            "customer_acronym": pl.String,
            "start_date": pl.Date,
            "end_date": pl.Date,
        },
    )
    sims = np.linspace(0.9, 0.3, n)  # PP-01 is the best topical match
    matrix = np.stack([sims, np.sqrt(1 - sims**2)], axis=1).astype(np.float32)
    facets = ("narrative", "technical", "outcome", "whole")
    return frame, EntryVectors(ids=IDS, matrices={f: matrix for f in facets})


def _scope(tmp_path, sentence: str = SENTENCE):
    path = tmp_path / "rfq.md"
    path.write_text(
        "# Request for Quotations: Security Operations Support\n\nIssue date: 2026-10-28\n\n"
        "## C. Scope\n\nThe contractor will operate a security operations center.\n\n"
        f"## L.3 Past Performance\n\nSubmit two (2) references. {sentence}\n",
        encoding="utf-8",
    )
    return build_scope_query(load_document(path), StubEncoder(), AsOf(dt.date(2026, 10, 28), "t"))


def test_the_minimum_is_a_filter_of_the_scope_query(tmp_path):
    built = _scope(tmp_path)
    assert built.query.filters.ongoing_started_by == dt.date(2025, 10, 28)
    assert built.query.filters.as_dict()["ongoing_started_by"] == "2025-10-28"
    assert _scope(tmp_path, "").query.filters.ongoing_started_by is None
    assert ongoing_started_by("not json") is None
    trace = [{"filter": "ongoing_min_months", "reading": {"months": 6, "started_by": None}}]
    assert ongoing_started_by(json.dumps(trace)) is None


def test_young_ongoing_work_misses_completed_work_passes_unknown_start_is_unknown():
    entries, _ = _library()
    filters = ScopeFilters(ongoing_started_by=dt.date(2025, 10, 28))
    ids, misses, trace, relaxed = apply_hard_filters(entries, filters, RankingConfig(top_k=2))
    assert ids == ["PP-02", "PP-03", "PP-04"]
    assert misses == {"PP-02": [], "PP-03": [], "PP-04": []} and relaxed == []
    assert trace == [
        {"filter": "library", "remaining": 4},
        {"filter": "ongoing_performed", "value": "2025-10-28", "remaining": 3},
    ]


def test_ranking_applies_it_and_relaxes_it_with_recency(tmp_path):
    entries, vectors = _library()
    query = _scope(tmp_path).query
    result = rank_references(entries, vectors, query, RankingConfig(top_k=2))
    refs = {r.id: r for r in result.references}
    assert [r.id for r in result.references] == ["PP-02", "PP-03"]
    assert refs["PP-02"].relaxed == [] and result.relaxed == []
    # four references asked for: only three meet the rule, so it is bent, and the young
    # ongoing entry comes last, labelled with the rule it misses
    result = rank_references(entries, vectors, query, RankingConfig(top_k=4))
    assert result.relaxed == ["minimum performed period of ongoing work dropped"]
    assert [r.id for r in result.references] == ["PP-02", "PP-03", "PP-04", "PP-01"]
    assert result.references[-1].relaxed == ["ongoing_performed"]
    # no start date: unknown for this rule (and for the started-by rule), not a miss
    assert result.references[2].relaxed == []
    assert result.references[2].unknown == ["started_by", "ongoing_performed"]


def test_the_seed_preset_ranks_without_it(tmp_path):
    entries, vectors = _library()
    query = _scope(tmp_path).query
    result = rank_references(entries, vectors, query, RankingConfig(mode="facet+bumps", top_k=2))
    assert [r.id for r in result.references] == ["PP-01", "PP-02"]
