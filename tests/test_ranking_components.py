"""Default-mode components on hand-built libraries: funded value, weighted domain tags, and the
vectorized shortlist kept in step with the per-entry reference loop (no model involved)."""

import datetime as dt

import numpy as np
import polars as pl
import pytest

from rfp_retrieval.retrieval import past_performance as pp
from rfp_retrieval.retrieval import scoring
from rfp_retrieval.retrieval.components import (
    COMPONENT,
    RAW_COSINES,
    REGISTRY,
    Candidates,
    agency_matcher,
    domain_match_share,
    scope_domain_weights,
    summed_parts,
)
from rfp_retrieval.retrieval.config import MODES, RankingConfig
from rfp_retrieval.retrieval.filters import effective_value_range
from rfp_retrieval.retrieval.past_performance import apply_hard_filters, rank_references
from rfp_retrieval.retrieval.prepared import PreparedLibrary
from rfp_retrieval.retrieval.records import EntryVectors, ScopeFilters, ScopeQuery

AS_OF = dt.date(2026, 6, 8)
D = dt.date
BAND = ScopeFilters(
    customer_types=("federal-civilian",),
    value_min=10_000_000,
    value_max=30_000_000,
    ended_after=D(2021, 6, 8),
)


def _frame(rows: list[dict]) -> pl.DataFrame:
    base = {
        "customer_type": "federal-civilian",
        "start_date": D(2020, 1, 1),
        "end_date": D(2025, 1, 31),
        "ongoing": False,
        "role": "prime",
        "customer_named": "Internal Revenue Service",
        "customer_acronym": "IRS",
        "industry": None,
        "vehicle_type": "standalone",
        "value_funded": None,
        "domains": [],
    }
    frame = pl.DataFrame(
        [{**base, **r} for r in rows],
        schema_overrides={"value_funded": pl.Int64, "domains": pl.List(pl.String)},
    )
    return frame.with_columns(pl.col("id").alias("title"))


def _vectors(sims: dict[str, float]) -> EntryVectors:
    """Entry vectors whose cosine with the query e0 is exactly ``sims[id]`` on every facet."""
    ids = sorted(sims)
    matrix = np.zeros((len(ids), 2), dtype=np.float32)
    for i, pp_id in enumerate(ids):
        matrix[i] = [sims[pp_id], np.sqrt(1 - sims[pp_id] ** 2)]
    return EntryVectors(
        ids=ids, matrices={f: matrix for f in ("narrative", "technical", "outcome", "whole")}
    )


def _query(filters: ScopeFilters, **kw) -> ScopeQuery:
    e0 = np.array([1.0, 0.0], dtype=np.float32)
    vecs = {f: e0 for f in ("narrative", "technical", "outcome", "whole")}
    return ScopeQuery(filters, AS_OF, vecs, **kw)


# ---------------------------------------------------------------- funded vs ceiling value


def test_completed_work_is_sized_by_its_funded_value_and_ongoing_work_by_its_range():
    done = {"value_min": 20_000_000, "value_max": 44_000_000, "value_funded": 20_000_000}
    assert effective_value_range({**done, "ongoing": False}) == (20e6, 20e6)
    assert effective_value_range({**done, "ongoing": True}) == (20e6, 44e6)
    assert effective_value_range({"value_min": None, "value_max": 9e6}) == (9e6, 9e6)
    assert effective_value_range({"value_min": None, "value_max": None}) == (None, None)
    # $5M funded of a $12M ceiling, completed: sized by the $5M, below the $10M minimum
    small = {"value_min": 5e6, "value_max": 12e6, "value_funded": 5e6, "ongoing": False}
    assert effective_value_range(small) == (5e6, 5e6)


def test_hard_value_filter_uses_funded_value_for_completed_work_only():
    entries = _frame(
        [
            # completed: $44M ceiling, $20M funded -> inside $10-30M
            {
                "id": "PP-A",
                "value_min": 20_000_000,
                "value_max": 44_000_000,
                "value_funded": 20_000_000,
            },
            # ongoing: same numbers, judged by its range (reaches the band) -> inside
            {
                "id": "PP-B",
                "value_min": 20_000_000,
                "value_max": 44_000_000,
                "value_funded": 20_000_000,
                "ongoing": True,
                "end_date": None,
            },
            # completed: $12M ceiling but only $5M funded -> below the band
            {
                "id": "PP-C",
                "value_min": 5_000_000,
                "value_max": 12_000_000,
                "value_funded": 5_000_000,
            },
            # completed, no funded value: its $40M ceiling is above the band
            {"id": "PP-D", "value_min": 40_000_000, "value_max": 40_000_000},
        ]
    )
    ids, misses, _, relaxed = apply_hard_filters(
        entries, BAND, RankingConfig(mode="facet", top_k=2)
    )
    assert (ids, relaxed) == (["PP-A", "PP-B"], [])
    # default mode: value is soft; the miss is charged with the funded value's distance
    result = rank_references(
        entries,
        _vectors({"PP-A": 0.5, "PP-B": 0.5, "PP-C": 0.9, "PP-D": 0.5}),
        _query(BAND),
        RankingConfig(top_k=4, penalty_value=0.10),
    )
    by_id = {r.id: r for r in result.references}
    assert by_id["PP-A"].relaxed == [] and by_id["PP-A"].components["value_penalty"] == 0.0
    assert by_id["PP-C"].relaxed == ["value"]
    # a miss is a miss: the band is what the RFP states, however near the entry falls
    assert by_id["PP-C"].components["value_penalty"] == pytest.approx(-0.10)  # 2x below
    assert by_id["PP-D"].components["value_penalty"] == pytest.approx(-0.10)  # $40M vs $30M


def test_frames_without_a_funded_column_read_it_as_unknown():
    entries = _frame([{"id": "PP-A", "value_min": 20_000_000, "value_max": 44_000_000}]).drop(
        "value_funded"
    )
    ids, misses, _, _ = apply_hard_filters(entries, BAND, RankingConfig(mode="facet", top_k=1))
    # no funded value: the $20-44M range overlaps the band
    assert ids == ["PP-A"] and misses == {"PP-A": []}


# ---------------------------------------------------------------- weighted domain tags


def test_domain_match_is_the_share_of_the_rfps_domain_weights_the_entry_carries():
    scope = _query(
        BAND,
        emphasized_domains=("cybersecurity", "identity-access"),
        domain_weights={"cybersecurity": 0.5, "identity-access": 0.3, "help-desk": 0.2},
    )
    weights = scope_domain_weights(scope)
    assert weights == {"cybersecurity": 0.5, "help-desk": 0.2, "identity-access": 0.3}
    assert domain_match_share(["cybersecurity", "help-desk"], weights) == pytest.approx(0.7)
    assert domain_match_share(["payroll"], weights) == 0.0
    assert domain_match_share(None, weights) == 0.0
    # no weights read: equal weights over the emphasized domains (the earlier rule)
    equal = scope_domain_weights(_query(BAND, emphasized_domains=("a", "b")))
    assert equal == {"a": 0.5, "b": 0.5}
    assert scope_domain_weights(_query(BAND)) == {}
    # weights that do not sum to one are normalised
    assert scope_domain_weights(_query(BAND, domain_weights={"a": 2.0, "b": 6.0})) == {
        "a": 0.25,
        "b": 0.75,
    }


def test_default_mode_adds_domain_weight_times_the_weighted_share():
    entries = _frame(
        [
            {"id": "PP-A", "value_min": 2e7, "value_max": 2e7, "domains": ["cybersecurity"]},
            {"id": "PP-B", "value_min": 2e7, "value_max": 2e7, "domains": ["help-desk"]},
            {"id": "PP-C", "value_min": 2e7, "value_max": 2e7, "domains": []},
        ]
    )
    scope = _query(
        BAND,
        emphasized_domains=("cybersecurity",),
        domain_weights={"cybersecurity": 0.8, "help-desk": 0.2},
    )
    result = rank_references(
        entries,
        _vectors({"PP-A": 0.5, "PP-B": 0.5, "PP-C": 0.5}),
        scope,
        RankingConfig(domain_weight=0.1),
    )
    comps = {r.id: r.components["domain_match"] for r in result.references}
    assert comps == {"PP-A": pytest.approx(0.08), "PP-B": pytest.approx(0.02), "PP-C": 0.0}
    assert [r.id for r in result.references] == ["PP-A", "PP-B", "PP-C"]


# ---------------------------------------------------------------- vectorized == reference loop


def _big_library(n: int = 90) -> tuple[pl.DataFrame, EntryVectors, ScopeQuery]:
    rng = np.random.default_rng(11)
    tags = ["cybersecurity", "identity-access", "help-desk", "payroll"]
    rows = []
    for i in range(n):
        low = float(rng.choice([3e6, 8e6, 15e6, 25e6, 40e6]))
        ongoing = bool(rng.random() < 0.3)
        rows.append(
            {
                "id": f"PP-{i:03d}",
                "value_min": low,
                "value_max": low * float(rng.choice([1.0, 1.5, 3.0])),
                "value_funded": int(low) if rng.random() < 0.4 else None,
                "ongoing": ongoing,
                "end_date": None if ongoing else D(2021 + int(rng.integers(0, 5)), 3, 31),
                "role": "prime" if rng.random() < 0.6 else "sub",
                "customer_named": str(
                    rng.choice(["Internal Revenue Service", "Food and Nutrition Service"])
                ),
                "customer_acronym": None,
                "customer_type": str(rng.choice(["federal-civilian", "state"])),
                "domains": list(rng.choice(tags, size=int(rng.integers(0, 3)), replace=False)),
            }
        )
    entries = _frame(rows)
    ids = sorted(entries["id"].to_list())
    dim = 8
    mats = {}
    for facet in ("narrative", "technical", "outcome", "whole"):
        m = rng.normal(size=(n, dim)).astype(np.float32)
        mats[facet] = m / np.linalg.norm(m, axis=1, keepdims=True)
    q = rng.normal(size=(4, dim)).astype(np.float32)
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    scope = ScopeQuery(
        ScopeFilters(
            customer_types=("federal-civilian", "state"),
            value_min=10_000_000,
            value_max=30_000_000,
            ended_after=D(2022, 1, 1),
            require_prime=True,
        ),
        AS_OF,
        {"whole": q[0], "outcome": q[1], "technical": q[2], "narrative": q[3]},
        issuer="Department of Agriculture, Food and Nutrition Service",
        issuer_acronym="FNS",
        issuer_type="federal-civilian",
        section_vectors=q[:3],
        emphasized_domains=("cybersecurity",),
        domain_weights={"cybersecurity": 0.6, "identity-access": 0.3, "help-desk": 0.1},
    )
    return entries, EntryVectors(ids=ids, matrices=mats), scope


def test_vectorized_totals_equal_the_per_entry_reference_loop(monkeypatch):
    entries, vectors, scope = _big_library()
    # the learned defaults set the role penalty and the recency bump to 0: exercise them;
    # the stated prime-only rule is hard, so 80 picks make relaxation let subcontracts in
    config = RankingConfig(penalty_role=0.15, default_recent_bump=0.05, top_k=80)
    library = PreparedLibrary(entries, vectors)
    try:
        passed = pp.filter_pass(library, scope.filters, config)
        assert len(passed.candidates) > scoring._SHORTLIST_ABOVE  # the shortlist is exercised
        idx = library.vector_rows[passed.ranks]
        match = agency_matcher(scope)
        m = vectors.matrices
        sections = scope.section_vectors
        # each section's cosines shifted so its library-wide mean is the sections' mean
        library_mu = m["whole"].mean(axis=0, dtype=np.float64) @ sections.T.astype(np.float64)
        shift = (library_mu.mean() - library_mu).astype(np.float32)
        cosines = (
            m["whole"][idx] @ scope.vectors["whole"],
            m["outcome"][idx] @ scope.vectors["outcome"],
            (m["whole"][idx] @ sections.T + shift).max(axis=1),
        )
        named = dict(zip(("whole", "outcome", "section_max"), cosines, strict=True))
        facts = Candidates(library, passed.ranks, scope, config, named, passed, match)
        totals = scoring.numpy_totals(config.preset, scoring.component_values(config.preset, facts))
        # the per-entry totals of every candidate (no shortlist)
        monkeypatch.setattr(scoring, "_SHORTLIST_ABOVE", 10**9)
        scored, _ = scoring.score_candidates(
            library, passed.candidates, passed.ranks, idx, scope, config, passed, match
        )
    finally:
        library.close()
    reference = {pp_id: total for total, pp_id, _, _ in scored}
    assert np.allclose(totals, [reference[c] for c in passed.candidates], rtol=0, atol=1e-12)
    # the components that differ between entries are all exercised
    comps = [c for _, _, c, _ in scored]
    names = ("domain_match", "agency_bump", "sector_bump", "value_penalty", "role_penalty")
    for name in (*names, "recency_bump"):
        assert len({round(c[name], 9) for c in comps}) > 1, name
    # and the library-centred section cosines are the ones scored
    assert np.allclose(
        [c["section_max"] for c in comps], cosines[2].astype(np.float64), rtol=0, atol=1e-6
    )


def test_shortlisted_ranking_equals_the_full_reference_ranking(monkeypatch):
    entries, vectors, scope = _big_library()
    fast = rank_references(entries, vectors, scope, RankingConfig())
    monkeypatch.setattr(scoring, "_SHORTLIST_ABOVE", 10**9)
    full = rank_references(entries, vectors, scope, RankingConfig())
    assert [(r.id, r.score, r.components) for r in fast.references] == [
        (r.id, r.score, r.components) for r in full.references
    ]


# ---------------------------------------------------------------- same-sector bump


def test_default_mode_prefers_the_issuers_sector_when_the_filters_allow_several():
    # A state RFP that accepts any government work: the state reference gets the bump.
    filters = ScopeFilters(customer_types=("federal-civilian", "state"), value_min=10_000_000)
    entries = _frame(
        [
            {"id": "PP-F", "value_min": 2e7, "value_max": 2e7},
            {"id": "PP-S", "value_min": 2e7, "value_max": 2e7, "customer_type": "state"},
        ]
    )
    vectors = _vectors({"PP-F": 0.6, "PP-S": 0.58})
    config = RankingConfig(default_sector_bump=0.16, top_k=2)
    result = rank_references(entries, vectors, _query(filters, issuer_type="state"), config)
    assert [r.id for r in result.references] == ["PP-S", "PP-F"]
    comps = {r.id: r.components["sector_bump"] for r in result.references}
    assert comps == {"PP-S": 0.16, "PP-F": 0.0}
    # no issuer type read: no bump, the closer match wins
    result = rank_references(entries, vectors, _query(filters), config)
    assert [r.id for r in result.references] == ["PP-F", "PP-S"]
    assert all(r.components["sector_bump"] == 0.0 for r in result.references)


# ---------------------------------------------------------------- the component registry


def test_every_mode_is_a_preset_over_the_registry():
    for mode in MODES:
        preset = RankingConfig(mode=mode).preset
        assert set(preset.components) <= set(COMPONENT), mode
        assert all(COMPONENT[name].raw for name in preset.cosines), mode
    assert RankingConfig(mode="naive").preset.parts == ((("whole", 1.0),),)
    assert RankingConfig().preset.soft == {"value": 0.16}  # a stated prime-only rule is hard
    assert RankingConfig(mode="facet").soft_constraints == {}


def test_raw_cosines_include_whole_which_is_summed_only_in_naive_mode():
    assert RAW_COSINES == ("narrative", "technical", "outcome", "whole", "section_max")
    naive = {"whole": 0.61}
    assert [(c.name, v) for c, v in summed_parts(naive)] == [("whole", 0.61)]
    default = {"whole": 0.6, "weighted_whole": 0.156, "recency_bump": 0.05, "age_penalty": 0.0}
    parts = [(c.short, v) for c, v in summed_parts(default)]
    assert parts == [("whole", 0.156), ("recency_bump", 0.05), ("age_penalty", 0.0)]
    assert {c.kind for c in REGISTRY} == {"cosine", "bonus", "penalty"}
    assert all(c.explains.endswith(".") for c in REGISTRY)


def test_ranked_components_are_the_presets_components_in_order():
    entries, vectors, scope = _big_library()
    for mode in MODES:
        config = RankingConfig(mode=mode)
        result = rank_references(entries, vectors, scope, config)
        assert result.references
        for ref in result.references:
            assert tuple(ref.components) == config.preset.components, mode


# ---------------------------------------------------------------- lexical (BM25) match


def test_lexical_match_is_the_weight_times_bm25_relative_to_the_librarys_best():
    entries = _frame(
        [
            {"id": "PP-A", "narrative": "Grants management system modernization for awards."},
            {"id": "PP-B", "narrative": "Payroll processing and time keeping for staff."},
            {"id": "PP-C", "narrative": "Grants reporting help desk."},
            {"id": "PP-D", "narrative": None},
        ]
    ).with_columns(value_min=pl.lit(2e7), value_max=pl.lit(2e7))
    vectors = _vectors({"PP-A": 0.5, "PP-B": 0.5, "PP-C": 0.5, "PP-D": 0.5})
    config = RankingConfig(lexical_weight=0.1)
    scope = _query(BAND, text="Modernize the grants management system.")
    result = rank_references(entries, vectors, scope, config, depth=4)
    comps = {r.id: r.components["lexical_match"] for r in result.references}
    # PP-A shares every stemmed word (grant, manag, system, modern): the best, so 1 x weight;
    # PP-C shares one word (grant), PP-B and the entry with no narrative none
    assert comps["PP-A"] == pytest.approx(0.1)
    assert 0.0 < comps["PP-C"] < 0.05
    assert comps["PP-B"] == comps["PP-D"] == 0.0
    assert [r.id for r in result.references][:2] == ["PP-A", "PP-C"]
    # an RFP text that shares no word with the library (or none at all) adds nothing
    for text in ("", "Bridge inspection drones."):
        other = rank_references(entries, vectors, _query(BAND, text=text), config, depth=4)
        assert {r.components["lexical_match"] for r in other.references} == {0.0}
    # the shipped default sums it; the seed preset does not
    assert "lexical_match" in RankingConfig().preset.components
    assert "lexical_match" not in RankingConfig("facet+bumps").preset.components


def test_the_scope_query_row_gives_the_lexical_text_title_background_and_units():
    from rfp_retrieval.retrieval.scope_query import lexical_text

    row = {"text_whole": "Grants portal\nBackground.", "text_technical": "Unit one."}
    assert lexical_text(row) == "Grants portal\nBackground.\nUnit one."
    assert lexical_text({"text_whole": None, "text_technical": ""}) == ""


def test_candidate_facts_read_for_the_candidates_only_are_the_per_entry_rules_bit_for_bit():
    """Issue 17 at a million entries: the domain share is summed for the candidates only
    (``PreparedLibrary.has_domain``), and the missing-facet weight scale is not read per
    candidate when no entry misses a facet; both give the per-entry rules' exact floats."""
    entries, vectors, scope = _big_library()
    config = RankingConfig()
    library = PreparedLibrary(entries, vectors)
    try:
        passed = pp.filter_pass(library, scope.filters, config)
        ranks = passed.ranks
        facts = Candidates(library, ranks, scope, config, {}, passed, agency_matcher(scope))
        weights = scope_domain_weights(scope)
        domains = library._ordered["domains"].to_list()
        expected = [domain_match_share(domains[r], weights) for r in ranks]
        assert facts.domain_share.tolist() == expected  # the same floats, not approx
        assert len(set(expected)) >= 3
        assert library.has_domain("no-such-tag").sum() == 0
        # no entry misses a facet here: the scale is read from the weights alone
        assert library.facet_missing_any == {
            "narrative": False,
            "technical": False,
            "outcome": False,
        }
        fast = facts.weight_scale
        library.facet_missing_any = dict.fromkeys(library.facet_missing, True)
        general = Candidates(library, ranks, scope, config, {}, passed, agency_matcher(scope))
        assert fast.tolist() == general.weight_scale.tolist() == [1.0] * len(ranks)
    finally:
        library.close()
