"""Issue 18 defects 3, 4, 6 and 8 on a small hand-built library (hand-made unit vectors).

3: compliant entries come first and customer type is widened, never dropped; 4: an unknown
fact is labelled unknown, neither excluded nor charged (the seed preset keeps the seed's
rule); 6: an empty facet is missing, its weight shared out; 8: the issuer bumps are capped so
they never overturn a clear topical difference.
"""

import datetime as dt

import numpy as np
import polars as pl
import pytest

from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.filters import UNKNOWN_RULE, describe
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.prepared import PreparedLibrary
from rfp_retrieval.retrieval.records import EntryVectors, ScopeFilters, ScopeQuery

AS_OF = dt.date(2026, 6, 8)
D = dt.date
COLUMNS = (
    "id",
    "customer_type",
    "industry",
    "value_min",
    "value_max",
    "end_date",
    "ongoing",
    "role",
    "customer_named",
)


def _frame(rows: list[tuple]) -> pl.DataFrame:
    frame = pl.DataFrame(
        [dict(zip(COLUMNS, r, strict=True)) for r in rows],
        schema={
            "id": pl.String,
            "customer_type": pl.String,
            "industry": pl.String,
            "value_min": pl.Int64,
            "value_max": pl.Int64,
            "end_date": pl.Date,
            "ongoing": pl.Boolean,
            "role": pl.String,
            "customer_named": pl.String,
        },
    )
    return frame.with_columns(
        pl.col("id").alias("title"),
        pl.lit("standalone").alias("vehicle_type"),
        pl.lit(None, dtype=pl.String).alias("customer_acronym"),
        pl.lit(D(2020, 1, 1)).alias("start_date"),
    )


def _vectors(sims: dict[str, float]) -> EntryVectors:
    """Vectors whose cosine with the query e0 is exactly ``sims[id]`` on every facet."""
    ids = sorted(sims)
    matrix = np.asarray([[sims[i], np.sqrt(1 - sims[i] ** 2)] for i in ids], dtype=np.float32)
    facets = ("narrative", "technical", "outcome", "whole")
    return EntryVectors(ids=ids, matrices={f: matrix for f in facets})


def _query(filters: ScopeFilters, issuer_type: str | None = None, issuer: str | None = None):
    e0 = np.array([1.0, 0.0], dtype=np.float32)
    vectors = {f: e0 for f in ("narrative", "technical", "outcome", "whole")}
    return ScopeQuery(filters, AS_OF, vectors, issuer=issuer, issuer_type=issuer_type)


# A state RFP: state customers, $2M..$10M, ended on/after 2021-06-08.
STATE_RFP = ScopeFilters(
    customer_types=("state",), value_min=2_000_000, value_max=10_000_000, ended_after=D(2021, 6, 8)
)
LIBRARY = _frame(
    [
        # in band, recent, state: compliant, low cosine
        ("PP-10", "state", None, 5_000_000, 5_000_000, D(2024, 3, 31), False, "prime", "DHS"),
        # $40M state work: only in once the value band is relaxed
        ("PP-11", "state", None, 40_000_000, 40_000_000, D(2025, 1, 31), False, "prime", "DOR"),
        # a county (adjacent to state) in band
        ("PP-12", "local", None, 4_000_000, 4_000_000, D(2024, 9, 30), False, "prime", "County"),
        # federal work in band: another sector, never let in by relaxation
        ("PP-13", "federal-civilian", None, 6e6, 6e6, D(2025, 5, 31), False, "prime", "IRS"),
    ]
)
SIMS = {"PP-10": 0.40, "PP-11": 0.90, "PP-12": 0.85, "PP-13": 0.95}


def test_compliant_entries_come_first_and_customer_type_is_widened_never_dropped():
    result = rank_references(
        LIBRARY, _vectors(SIMS), _query(STATE_RFP), RankingConfig(mode="facet", top_k=4)
    )
    # one compliant entry; the value band is bent first (PP-11), then the customer types
    # widened to the adjacent local (PP-12); the federal PP-13 (highest cosine) stays out,
    # even though four were asked for
    assert result.relaxed == [
        "value band widened to $1.0M to $20.0M",
        "value band dropped",
        "recency window widened to end on/after 2019-06-08",
        "recency window dropped",
        "customer types widened to local, state",
    ]
    assert [r.id for r in result.references] == ["PP-10", "PP-11", "PP-12"]
    assert [r.relaxed for r in result.references] == [[], ["value"], ["customer_type"]]
    # the seed preset keeps the seed's order and sort: customer type dropped, score alone
    seed = rank_references(
        LIBRARY, _vectors(SIMS), _query(STATE_RFP), RankingConfig(mode="facet+bumps", top_k=4)
    )
    assert "customer type dropped" in seed.relaxed
    assert [r.id for r in seed.references][0] == "PP-13"


UNKNOWN = _frame(
    [
        ("PP-20", "state", None, 5_000_000, 5_000_000, D(2024, 3, 31), False, "prime", "DHS"),
        # no value stated
        ("PP-21", "state", None, None, None, D(2024, 6, 30), False, "prime", "DOR"),
        # finished work with no end date
        ("PP-22", "state", None, 3_000_000, 3_000_000, None, False, "prime", "DOT"),
        # no customer type
        ("PP-23", None, None, 7_000_000, 7_000_000, D(2025, 1, 31), False, "prime", "Acme"),
        # a clear value miss, for contrast
        ("PP-24", "state", None, 60_000_000, 60_000_000, D(2025, 2, 28), False, "prime", "DOL"),
    ]
)
UNKNOWN_SIMS = {"PP-20": 0.5, "PP-21": 0.6, "PP-22": 0.7, "PP-23": 0.8, "PP-24": 0.9}


@pytest.mark.parametrize("mode", ["facet", "default"])
def test_unknown_facts_are_labelled_unknown_not_excluded_or_charged(mode):
    config = RankingConfig(mode=mode, top_k=5)
    result = rank_references(UNKNOWN, _vectors(UNKNOWN_SIMS), _query(STATE_RFP), config)
    by_id = {r.id: r for r in result.references}
    assert {"PP-20", "PP-21", "PP-22", "PP-23"} <= set(by_id)
    assert by_id["PP-21"].unknown == ["value"] and by_id["PP-21"].relaxed == []
    assert by_id["PP-22"].unknown == ["recency"] and by_id["PP-22"].relaxed == []
    assert by_id["PP-23"].unknown == ["customer_type"] and by_id["PP-23"].relaxed == []
    assert by_id["PP-20"].unknown == []
    if mode == "default":
        # a blank value is not "outside the value band"; a $60M entry is
        assert by_id["PP-21"].components["value_penalty"] == 0.0
        assert by_id["PP-24"].components["value_penalty"] < 0
        assert by_id["PP-24"].relaxed == ["value"]
    assert "unknown, not a miss" in UNKNOWN_RULE


def test_the_seed_preset_keeps_treating_an_unknown_fact_as_a_miss():
    config = RankingConfig(mode="facet+bumps", top_k=1)
    result = rank_references(UNKNOWN, _vectors(UNKNOWN_SIMS), _query(STATE_RFP), config)
    # only PP-20 meets every constraint under the seed's rule; nothing was relaxed
    assert [r.id for r in result.references] == ["PP-20"] and result.relaxed == []
    assert result.filter_trace[-1] == {"filter": "recency", "value": "2021-06-08", "remaining": 1}


def test_a_missing_outcome_facet_is_explicit_and_its_weight_shared_out():
    frame = _frame(
        [
            ("PP-30", "state", None, 5e6, 5e6, D(2024, 3, 31), False, "prime", "DHS"),
            ("PP-31", "state", None, 5e6, 5e6, D(2024, 3, 31), False, "prime", "DOR"),
        ]
    ).with_columns(
        pl.Series("outcome_metrics", [["Cut wait times 40%"], []], dtype=pl.List(pl.String)),
        pl.Series("outcome_narrative", ["Faster service.", "  "]),
    )
    config = RankingConfig(
        default_weight_whole=0.3, default_weight_outcome=0.2, default_weight_section=0.5
    )
    result = rank_references(
        frame, _vectors({"PP-30": 0.6, "PP-31": 0.6}), _query(STATE_RFP), config
    )
    by_id = {r.id: r for r in result.references}
    empty, full = by_id["PP-31"], by_id["PP-30"]
    assert empty.missing == ["outcome"] and full.missing == []
    assert empty.components["outcome"] == 0.0 and empty.components["weighted_outcome"] == 0.0
    # whole 0.3 and section 0.5 carry the whole 1.0: x 1.25 each
    assert empty.components["weighted_whole"] == pytest.approx(0.3 * 1.25 * 0.6, abs=1e-6)
    assert empty.components["weighted_section_max"] == pytest.approx(0.5 * 1.25 * 0.6, abs=1e-6)
    # same cosine on every facet: the similarity part is the same as the full entry's
    sim = ("weighted_whole", "weighted_outcome", "weighted_section_max")
    assert sum(empty.components[k] for k in sim) == pytest.approx(
        sum(full.components[k] for k in sim), abs=1e-6
    )


def test_issuer_bumps_decide_near_ties_but_never_overturn_a_clear_topical_gap():
    rfp = ScopeFilters(customer_types=("state", "local"))
    frame = _frame(
        [
            # the issuer's sector and agency, off topic
            ("PP-40", "state", None, 5e6, 5e6, D(2025, 3, 31), False, "prime", "Dept of Revenue"),
            # another allowed sector, on the RFP's main subject
            ("PP-41", "local", None, 5e6, 5e6, D(2025, 3, 31), False, "prime", "County"),
            # the issuer's sector, a near-tie with PP-41
            ("PP-42", "state", None, 5e6, 5e6, D(2025, 3, 31), False, "prime", "Dept of Labor"),
        ]
    )
    config = RankingConfig(
        top_k=3,
        default_weight_whole=0.3,
        default_weight_outcome=0.2,
        default_weight_section=0.5,
        default_sector_bump=0.16,
        default_agency_bump=0.06,
        issuer_bump_cap=0.10,
    )
    sims = {"PP-40": 0.45, "PP-41": 0.70, "PP-42": 0.65}
    query = _query(rfp, issuer_type="state", issuer="Dept of Revenue")
    result = rank_references(frame, _vectors(sims), query, config)
    by_id = {r.id: r for r in result.references}
    # PP-40 earns 0.16 + 0.06 in bumps, capped at 0.10: 0.12 taken back
    assert by_id["PP-40"].components["issuer_bump_cap"] == pytest.approx(-0.12)
    assert by_id["PP-42"].components["issuer_bump_cap"] == pytest.approx(-0.06)
    # topical gap 0.25 > cap: PP-41 stays above PP-40; gap 0.05 < cap: PP-42 passes PP-41
    assert [r.id for r in result.references] == ["PP-42", "PP-41", "PP-40"]


def test_run_json_shows_unknown_facts_as_unknown_and_missing_facets_as_missing():
    from rfp_retrieval.cli.shapes import RunReference, run_references
    from rfp_retrieval.retrieval.references import references_frame

    frame = UNKNOWN.with_columns(
        pl.Series("outcome_metrics", [["Cut wait times 40%"], [], [], [], []]),
        pl.Series("outcome_narrative", ["Faster service.", "", "", "", ""]),
    )
    config = RankingConfig(mode="default", top_k=5)
    result = rank_references(frame, _vectors(UNKNOWN_SIMS), _query(STATE_RFP), config)
    refs = {r["id"]: r for r in run_references(references_frame("s1", result), None)}
    assert set(refs["PP-21"]) == set(RunReference.__annotations__)
    assert (refs["PP-21"]["unknown"], refs["PP-21"]["missing_facets"]) == (["value"], ["outcome"])
    assert (refs["PP-22"]["unknown"], refs["PP-23"]["unknown"]) == (["recency"], ["customer_type"])
    assert (refs["PP-20"]["unknown"], refs["PP-20"]["missing_facets"]) == ([], [])


def test_a_named_industry_is_kept_and_recency_bent_first():
    # a retail-only RFP: two retail entries pass, a third ended before the window; a federal
    # data platform is closer on topic but from another industry
    retail = ScopeFilters(
        customer_types=("commercial",), industries=("retail",), ended_after=D(2023, 6, 8)
    )
    frame = _frame(
        [
            ("PP-40", "commercial", "retail", 6e6, 6e6, D(2025, 3, 31), False, "prime", "Shop"),
            ("PP-41", "commercial", "retail", 9e6, 9e6, D(2024, 6, 30), False, "prime", "Shop"),
            ("PP-42", "commercial", "retail", 5e6, 5e6, D(2022, 3, 31), False, "prime", "Mart"),
            ("PP-43", "commercial", "utilities", 7e6, 7e6, D(2025, 9, 30), False, "prime", "Gas"),
        ]
    )
    sims = {"PP-40": 0.7, "PP-41": 0.5, "PP-42": 0.4, "PP-43": 0.9}
    result = rank_references(frame, _vectors(sims), _query(retail), RankingConfig())
    assert [r.id for r in result.references] == ["PP-40", "PP-41", "PP-42"]
    assert result.references[2].relaxed == ["recency"]
    assert result.relaxed == ["recency window widened to end on/after 2021-06-08"]


def test_a_preferred_industry_ranks_but_never_filters():
    # "private-sector clients, insurance or financial services preferred": nothing is
    # filtered on industry; an entry in another stated industry pays the industry penalty,
    # one whose industry the library does not state is not charged
    prefers = ScopeFilters(customer_types=("commercial",), industries_preferred=("finance",))
    frame = _frame(
        [
            ("PP-50", "commercial", "finance", 6e6, 6e6, D(2025, 3, 31), False, "prime", "Bank"),
            (
                "PP-51",
                "commercial",
                "pharmaceuticals",
                7e6,
                7e6,
                D(2025, 3, 31),
                False,
                "sub",
                "Rx",
            ),
            ("PP-52", "commercial", None, 5e6, 5e6, D(2025, 3, 31), False, "prime", "Shop"),
        ]
    )
    sims = {"PP-50": 0.50, "PP-51": 0.51, "PP-52": 0.40}
    config = RankingConfig()
    result = rank_references(frame, _vectors(sims), _query(prefers), config)
    by_id = {r.id: r for r in result.references}
    assert [r.id for r in result.references] == ["PP-50", "PP-51", "PP-52"]
    assert result.relaxed == []
    assert by_id["PP-51"].components["industry_penalty"] == -config.default.penalties.industry
    assert by_id["PP-50"].components["industry_penalty"] == 0.0
    assert by_id["PP-52"].components["industry_penalty"] == 0.0
    # without the preference the closer pharmaceuticals entry ranks first
    plain = rank_references(
        frame, _vectors(sims), _query(ScopeFilters(customer_types=("commercial",))), config
    )
    assert [r.id for r in plain.references][0] == "PP-51"


def test_an_industry_named_as_an_example_bends_before_the_customer_type(tmp_path):
    """New-user trial H1: "for municipal utilities, public utility districts or other local
    government clients" insists on local government; utilities is an example. Read from fresh
    text, the local non-utility entry is compliant and ranks before a closer state utility
    entry (the customer type is widened only to fill the third slot), no entry is flagged as
    missing an industry, and the example still ranks: of the two state entries let in, the
    utility one comes first."""
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.scope import read_scope

    path = tmp_path / "rfp.md"
    path.write_text(
        "# Request for Proposals: Water Billing System\n\nIssue date: 2026-06-01\n\n"
        "## 1. Scope\n\nReplace the water and sewer billing system.\n\n"
        "## 3.3 Past Performance\n\nProvide three (3) references for billing system "
        "implementations for municipal utilities, public utility districts or other local "
        "government clients.\n",
        encoding="utf-8",
    )
    reading = read_scope(load_document(path))
    filters = ScopeFilters(
        customer_types=tuple(reading.customer_types_required),
        industries=tuple(reading.industries_required),
        industries_preferred=tuple(reading.industries_preferred),
    )
    frame = _frame(
        [
            ("PP-60", "local", "utilities", 4e6, 4e6, D(2025, 3, 31), False, "prime", "Water"),
            ("PP-61", "local", "transportation", 3e6, 3e6, D(2025, 6, 30), False, "prime", "DOT"),
            ("PP-62", "state", "utilities", 5e6, 5e6, D(2025, 1, 31), False, "prime", "PUC"),
            ("PP-63", "state", "revenue", 6e6, 6e6, D(2025, 2, 28), False, "prime", "DOR"),
        ]
    )
    sims = {"PP-60": 0.60, "PP-61": 0.50, "PP-62": 0.80, "PP-63": 0.81}
    config = RankingConfig(top_k=4)
    result = rank_references(frame, _vectors(sims), _query(filters), config)
    assert [r.id for r in result.references] == ["PP-60", "PP-61", "PP-62", "PP-63"]
    assert [r.relaxed for r in result.references] == [
        [],
        [],
        ["customer_type"],
        ["customer_type"],
    ]
    assert result.relaxed == ["customer types widened to local, state"]
    assert result.references[1].components["industry_penalty"] == -config.penalty_industry


def test_relaxed_entries_rank_by_fewer_and_lesser_misses_before_score():
    # a state, prime-only RFP with a recency window: one entry meets every rule; the others
    # miss, in the order the rules are bent (scoring.MISS_ORDER_RULE): the prime role only
    # (PP-52), recency and the prime role (PP-51), the customer type (PP-53, a county). The
    # cosines run the other way, so a 0/1 tier would rank PP-53, PP-51, PP-52.
    rfp = ScopeFilters(customer_types=("state",), ended_after=D(2023, 6, 8), require_prime=True)
    frame = _frame(
        [
            ("PP-50", "state", None, 5e6, 5e6, D(2025, 3, 31), False, "prime", "DHS"),
            ("PP-51", "state", None, 5e6, 5e6, D(2016, 3, 31), False, "sub", "DOR"),
            ("PP-52", "state", None, 5e6, 5e6, D(2025, 6, 30), False, "sub", "DOT"),
            ("PP-53", "local", None, 5e6, 5e6, D(2025, 9, 30), False, "prime", "County"),
        ]
    )
    sims = {"PP-50": 0.3, "PP-51": 0.9, "PP-52": 0.5, "PP-53": 0.95}
    result = rank_references(frame, _vectors(sims), _query(rfp), RankingConfig(top_k=4))
    assert [r.id for r in result.references] == ["PP-50", "PP-52", "PP-51", "PP-53"]
    assert [r.relaxed for r in result.references] == [
        [],
        ["role"],
        ["recency", "role"],
        ["customer_type"],
    ]
    assert result.relaxed[-2:] == [
        "prime-only requirement dropped",
        "customer types widened to local, state",
    ]


def test_a_customer_type_or_an_industry_is_one_filter():
    # "References must be from state agencies or electric utilities": a state entry or a
    # utility of any type qualifies; a federal entry with no stated industry does not; an
    # entry with neither fact stated is unknown (UNKNOWN_RULE), not excluded
    rfp = ScopeFilters(customer_types=("state",), industries_alternative=("utilities",))
    frame = _frame(
        [
            ("PP-60", "state", None, 5e6, 5e6, D(2025, 3, 31), False, "prime", "DHS"),
            ("PP-61", "commercial", "Utilities", 5e6, 5e6, D(2025, 3, 31), False, "prime", "Gas"),
            ("PP-62", "local", "utilities", 5e6, 5e6, D(2025, 3, 31), False, "prime", "Water"),
            ("PP-63", "commercial", "retail", 5e6, 5e6, D(2025, 3, 31), False, "prime", "Shop"),
            ("PP-64", "federal-civilian", None, 5e6, 5e6, D(2025, 3, 31), False, "prime", "IRS"),
            ("PP-65", None, None, 5e6, 5e6, D(2025, 3, 31), False, "prime", "Acme"),
        ]
    )
    sims = {"PP-60": 0.5, "PP-61": 0.6, "PP-62": 0.7, "PP-63": 0.8, "PP-64": 0.9, "PP-65": 0.4}
    result = rank_references(frame, _vectors(sims), _query(rfp), RankingConfig(top_k=4))
    assert [r.id for r in result.references] == ["PP-62", "PP-61", "PP-60", "PP-65"]
    assert [r.unknown for r in result.references] == [[], [], [], ["customer_type"]]
    assert result.relaxed == []
    # the numpy masks and the SQL that defines the constraint agree
    library = PreparedLibrary(frame)
    try:
        names, masks = library.strict_ok(rfp)
        _, sql = library.strict_ok(rfp, sql_only=True)
        assert names == ["customer_type"] and masks[:, 0].tolist() == sql[:, 0].tolist()
        assert masks[:, 0].tolist() == [True, True, True, False, False, False]
        assert library.unknown(rfp, names)[:, 0].tolist() == [False] * 5 + [True]
    finally:
        library.close()
    assert describe(rfp, "customer_type") == ["state", "utilities (industry)"]
