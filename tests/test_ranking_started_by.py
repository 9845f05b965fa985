"""Work that starts after the RFP's date is not past performance (``STARTED_BY_RULE``).

New-user trial: an RFQ issued in 2023 got picks whose period of performance began in 2025.
A small hand-built library of entries with real start dates and an RFQ dated 2023-04-14.
"""

import datetime as dt

import numpy as np
import polars as pl
import pytest

from rfp_retrieval.report.caveats import caveats, start_unknown_caveat
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.filters import STARTED_BY_RULE
from rfp_retrieval.retrieval.overrides import score_entry
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.records import EntryVectors, ScopeFilters, ScopeQuery

D = dt.date
RFQ_DATE = D(2023, 4, 14)
# (id, start_date, end_date, ongoing, cosine with the RFQ)
ROWS = [
    ("PP-01", D(2019, 10, 1), D(2022, 9, 30), False, 0.60),
    ("PP-02", D(2021, 3, 1), None, True, 0.70),
    ("PP-03", D(2025, 1, 6), None, True, 0.95),  # starts after the RFQ: not performed yet
    ("PP-04", D(2023, 4, 14), None, True, 0.50),  # starts on the RFQ's date: under way
    ("PP-05", None, D(2022, 12, 31), False, 0.80),  # start date not stated: unknown
    ("PP-06", D(2023, 9, 1), None, True, 0.90),  # starts five months after the RFQ
]


def _library() -> tuple[pl.DataFrame, EntryVectors]:
    frame = pl.DataFrame(
        {
            "id": [r[0] for r in ROWS],
            "title": [r[0] for r in ROWS],
            "customer_type": ["state"] * len(ROWS),
            "industry": [None] * len(ROWS),
            "vehicle_type": ["standalone"] * len(ROWS),
            "value_min": [3_000_000] * len(ROWS),
            "value_max": [3_000_000] * len(ROWS),
            "start_date": [r[1] for r in ROWS],
            "end_date": [r[2] for r in ROWS],
            "ongoing": [r[3] for r in ROWS],
            "role": ["prime"] * len(ROWS),
            "customer_named": ["DHS"] * len(ROWS),
            "customer_acronym": [None] * len(ROWS),
        },
        schema_overrides={"industry": pl.String, "customer_acronym": pl.String},
    )
    sims = {r[0]: r[4] for r in ROWS}
    ids = sorted(sims)
    matrix = np.asarray([[sims[i], np.sqrt(1 - sims[i] ** 2)] for i in ids], dtype=np.float32)
    facets = ("narrative", "technical", "outcome", "whole")
    return frame, EntryVectors(ids=ids, matrices={f: matrix for f in facets})


def _query(filters: ScopeFilters) -> ScopeQuery:
    e0 = np.array([1.0, 0.0], dtype=np.float32)
    vectors = {f: e0 for f in ("narrative", "technical", "outcome", "whole")}
    return ScopeQuery(filters, RFQ_DATE, vectors)


@pytest.mark.parametrize("mode", ["facet", "default"])
def test_work_starting_after_the_rfp_date_is_never_a_pick(mode):
    frame, vectors = _library()
    config = RankingConfig(mode=mode, top_k=6)
    result = rank_references(frame, vectors, _query(ScopeFilters()), config)
    ids = [r.id for r in result.references]
    # the two highest cosines start after 2023-04-14: out, even though six were asked for
    assert ids == ["PP-05", "PP-02", "PP-01", "PP-04"]
    assert {"filter": "started_by", "value": "2023-04-14", "remaining": 4} in result.filter_trace
    by_id = {r.id: r for r in result.references}
    assert by_id["PP-05"].unknown == ["started_by"] and by_id["PP-05"].relaxed == []
    assert by_id["PP-04"].unknown == [] and by_id["PP-04"].relaxed == []


def test_relaxation_never_bends_the_start_date_rule():
    frame, vectors = _library()
    # only the ongoing PP-02 and PP-04 (and the later PP-03, PP-06) meet the recency window:
    # relaxation widens the window to fill three picks, and never bends the start date
    filters = ScopeFilters(ended_after=D(2023, 1, 1))
    result = rank_references(frame, vectors, _query(filters), RankingConfig(top_k=3))
    assert result.relaxed == ["recency window widened to end on/after 2021-01-01"]
    assert [r.id for r in result.references] == ["PP-02", "PP-04", "PP-05"]
    assert [r.relaxed for r in result.references] == [[], [], ["recency"]]
    assert "starts after" in STARTED_BY_RULE and "unknown, not a miss" in STARTED_BY_RULE


def test_the_seed_preset_ranks_as_the_seed_did():
    frame, vectors = _library()
    result = rank_references(
        frame, vectors, _query(ScopeFilters()), RankingConfig(mode="facet+bumps", top_k=2)
    )
    assert [r.id for r in result.references] == ["PP-03", "PP-06"]
    assert all(t["filter"] != "started_by" for t in result.filter_trace)


def test_a_writer_pick_that_starts_later_is_kept_and_flagged():
    frame, vectors = _library()
    ref = score_entry(frame, vectors, _query(ScopeFilters()), RankingConfig(), "PP-06")
    assert ref.id == "PP-06" and ref.relaxed == ["started_by"]


def test_the_brief_names_an_unknown_start_date_as_unknown():
    entry = {"id": "PP-05", "start_date": None, "end_date": D(2022, 12, 31), "ongoing": False}
    [caveat] = [
        c for c in entry_caveats_of(entry, {"as_of": RFQ_DATE}) if c.text.startswith("Start")
    ]
    assert caveat.kind == "unknown"
    assert "2023-04-14" in caveat.text
    known = {**entry, "start_date": D(2019, 10, 1)}
    assert start_unknown_caveat(known, {"as_of": RFQ_DATE}) is None


def entry_caveats_of(entry, scope):
    ref = {"id": entry["id"], "score": 0.5, "relaxed": [], "missing_facets": []}
    return caveats(ref, entry, scope, set(), [ref], 4)
