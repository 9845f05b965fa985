"""Past-performance reference ranking (seed 1): hard filters in SQL, facet cosines, bumps.

Pass 1 filters the library in DuckDB SQL (never with vectors). Pass 2 scores the survivors by
weighted facet cosine similarity. Pass 3 adds the recency and same-agency bumps. When fewer
than ``top_k`` entries pass, constraints are relaxed one at a time in the configured order and
every reference that misses an original constraint is labelled with it: there is never a
silent unfiltered search.

The seams: ``records`` (the typed query and results), ``filters`` (each constraint's SQL and
numpy mask), ``prepared`` (``PreparedLibrary``), ``kernels`` (cosines, BLAS threads),
``components`` (the registry of score components and their rules), ``scoring`` (a mode's
preset over the candidates). This module runs the passes: ``apply_hard_filters`` and
``rank_references``, which first refuses vectors of two embedding models
(``require_one_model``: the one place that rule lives).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import polars as pl

from rfp_retrieval.library.quality import COPY_MIN_CHARS, writeup_key
from rfp_retrieval.retrieval.components import Candidates, agency_matcher
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.filters import (
    FilterPass,
    constraint_sql,
    describe,
    relaxation_steps,
    with_started_by,
)
from rfp_retrieval.retrieval.prepared import PreparedLibrary, take_rows
from rfp_retrieval.retrieval.records import (
    EntryVectors,
    MixedModelsError,
    RankedReference,
    RankingResult,
    ScopeFilters,
    ScopeQuery,
)
from rfp_retrieval.retrieval.scoring import hard_misses, score_candidates

__all__ = [
    "apply_hard_filters",
    "rank_references",
    "require_one_model",
]


def require_one_model(vectors: EntryVectors, scope: ScopeQuery) -> None:
    """Refuse a ranking whose vectors come from more than one embedding model.

    Compares the model ids recorded with the library vectors (``vectors.models``, from the
    ``pp_facet_embeddings`` rows) and with the query vectors (``scope.model``, from the
    ``scope_query`` row). Two models of the same dimension would otherwise be compared
    silently (e.g. the library re-embedded with a new model while this RFP's ``scope_query``
    re-embedding failed). A model not recorded (None / empty) is not compared.

    Raises:
        MixedModelsError: the library rows hold several models, or the library's model is not
            the query's; names the partition, both model ids and what to re-materialize.
    """
    where = f"partition {scope.rfp_partition!r}" if scope.rfp_partition else "this ranking"
    if len(vectors.models) > 1:
        raise MixedModelsError(
            f"{where}: the library vectors (pp_facet_embeddings) mix the models "
            f"{', '.join(vectors.models)}; re-run the library job so every entry is embedded "
            "with the configured model, then re-run this partition"
        )
    if vectors.models and scope.model is not None and vectors.models[0] != scope.model:
        raise MixedModelsError(
            f"{where}: the library vectors (pp_facet_embeddings) were made with model "
            f"{vectors.models[0]!r} but this RFP's scope_query vectors with model "
            f"{scope.model!r}; a ranking never compares two models' vectors. Re-materialize "
            f"scope_query for {where} (with the model the library uses), or re-run the "
            "library job if the library is the one left on the old model."
        )


def filter_pass(
    library: PreparedLibrary, filters: ScopeFilters, config: RankingConfig
) -> FilterPass:
    """Pass 1 (see ``apply_hard_filters``), results kept as numpy arrays.

    ``PreparedLibrary.strict_ok`` evaluates every strict constraint per entry (numpy masks
    mirroring the SQL, or one DuckDB scan); the strict pass is the AND of the hard ones. A
    fact the library does not state passes (``filters.UNKNOWN_RULE``) except under the
    seed's rules (``Preset.seed_rules``). Each relaxation step is its own SQL ``WHERE``
    query, in ``Relaxation.order`` (the seed's ``seed_order`` under its rules).
    """
    n = len(library)
    preset = config.preset
    unknown_passes = not preset.seed_rules
    soft_penalty = config.soft_constraints
    names, ok_all = library.strict_ok(filters)
    unknown_all = library.unknown(filters, names)
    if unknown_passes:
        ok_all = ok_all | unknown_all
    trace: list[dict[str, Any]] = [{"filter": "library", "remaining": n}]
    remaining = np.ones(n, dtype=bool)
    for k, name in enumerate(names):
        if name in soft_penalty:
            trace.append(
                {
                    "filter": name,
                    "value": describe(filters, name),
                    "remaining": int(np.count_nonzero(remaining)),
                    "soft_penalty": soft_penalty[name],
                }
            )
            continue
        remaining &= ok_all[:, k]
        trace.append(
            {
                "filter": name,
                "value": describe(filters, name),
                "remaining": int(np.count_nonzero(remaining)),
            }
        )

    soft = set(soft_penalty)

    def passing(widened: dict[str, Any], dropped: list[str]) -> np.ndarray:
        exprs = {
            k: v
            for k, v in constraint_sql(filters, widened, unknown_passes).items()
            if k not in dropped and k not in soft
        }
        where = " AND ".join(exprs.values()) or "true"
        found = library.query(f"SELECT _rank FROM entries WHERE {where}")["_rank"]
        return np.sort(np.asarray(found, dtype=np.int64))

    ranks = np.flatnonzero(remaining)
    relaxed: list[str] = []
    order = config.relaxation.seed_order if preset.seed_rules else config.relaxation.order
    if len(ranks) < config.top_k:
        for label, widened, dropped in relaxation_steps(filters, config, order):
            if all(k in soft for k in [*widened, *dropped]):
                continue
            relaxed.append(label)
            ranks = passing(widened, dropped)
            trace.append({"filter": f"relaxed: {label}", "remaining": len(ranks)})
            if len(ranks) >= config.top_k:
                break
    candidates = library.ids_at(ranks)
    ok, unknown = take_rows(ok_all, ranks), take_rows(unknown_all, ranks)
    return FilterPass(candidates, ranks, names, ok, trace, relaxed, unknown)


def apply_hard_filters(
    entries: pl.DataFrame,
    filters: ScopeFilters,
    config: RankingConfig,
    prepared: PreparedLibrary | None = None,
) -> tuple[list[str], dict[str, list[str]], list[dict[str, Any]], list[str]]:
    """Pass 1 (constraints defined as DuckDB SQL expressions), with graded relaxation.

    Constraints in ``config.soft_constraints`` (``default`` mode: value)
    are reported in the misses but do not exclude; the ranker charges their penalty.
    ``prepared`` (built from ``entries``) skips laying the frame out again.

    Raises:
        ValueError: ``prepared`` was built from another frame.

    Returns ``(candidate ids, misses per id, filter trace, relaxation steps taken)``.
    ``misses`` maps each candidate to the ORIGINAL constraints it fails (empty when it passes
    them all); the trace lists each constraint with the number of entries still standing.
    """
    if prepared is not None and prepared.entries is not entries:
        raise ValueError("prepared library was built from another entries frame; rebuild it")
    library = prepared if prepared is not None else PreparedLibrary(entries)
    try:
        result = filter_pass(library, filters, config)
    finally:
        if prepared is None:
            library.close()
    return list(result.candidates), result.misses(), result.trace, result.relaxed


def rank_references(
    entries: pl.DataFrame,
    vectors: EntryVectors,
    scope: ScopeQuery,
    config: RankingConfig,
    prepared: PreparedLibrary | None = None,
    depth: int | None = None,
) -> RankingResult:
    """Top ``config.top_k`` references for one scope, every score component visible.

    ``entries`` is the ``pp_entries`` frame; ``vectors`` the stored facet vectors (same
    model as ``scope.vectors``); ``prepared`` an optional ``PreparedLibrary`` of exactly
    these two, reused across scopes (built per call otherwise). ``depth`` (default
    ``config.top_k``) is how many ranked candidates to return: a larger value adds the
    runners-up (for evaluation and review) without changing the first ``top_k`` or the
    relaxation, which still aims for ``config.top_k`` candidates. Ties break by entry id. An
    empty library gives an empty result with ``reason`` set.

    Raises:
        MixedModelsError: the library and query vectors come from different models
            (``require_one_model``).
        ValueError: a candidate entry has no stored vectors (re-materialize the embeddings),
            or ``prepared`` was built from another frame or other vectors.
    """
    require_one_model(vectors, scope)
    if entries.is_empty():
        return RankingResult(
            [], 0, [], [], config.mode, "the library has no entries", config.fingerprint()
        )
    if prepared is not None and (
        prepared.entries is not entries or prepared.vectors is not vectors
    ):
        raise ValueError("prepared library was built from other entries or vectors; rebuild it")
    library = prepared if prepared is not None else PreparedLibrary(entries, vectors)
    depth = config.top_k if depth is None else max(int(depth), config.top_k)
    try:
        return _rank(library, scope, config, depth)
    finally:
        if prepared is None:
            library.close()


def _one_per_writeup(
    library: PreparedLibrary, ranks: np.ndarray, scored: list[tuple], depth: int
) -> list[tuple]:
    """The first ``depth`` of ``scored`` (in order) with one entry per write-up: an entry
    whose narrative and technical approach repeat a better-ranked one's
    (``library.quality.writeup_key``, at least ``COPY_MIN_CHARS``) is one project entered
    twice and is not cited twice; the library check "write-ups distinct" names it. A frame
    without the text columns keeps every entry. Source: break-it (a copied write-up was cited
    twice)."""
    columns = library.entries.columns
    if "narrative" not in columns or "technical_description" not in columns:
        return scored[:depth]
    narrative = library.entries["narrative"]
    technical = library.entries["technical_description"]
    kept: list[tuple] = []
    seen: set[str] = set()
    for item in scored:
        position = int(library.positions[ranks[item[3]]])
        key = writeup_key(narrative[position], technical[position])
        if len(key) >= COPY_MIN_CHARS:
            if key in seen:
                continue
            seen.add(key)
        kept.append(item)
        if len(kept) == depth:
            break
    return kept


def _rank(
    library: PreparedLibrary, scope: ScopeQuery, config: RankingConfig, depth: int
) -> RankingResult:
    """``rank_references`` on a prepared library, ``depth`` references returned."""
    assert library.vectors is not None and library.vector_rows is not None
    passed: FilterPass | None = None
    library.lap()
    if config.uses_filters:
        filters = scope.filters
        if not config.preset.seed_rules:
            filters = with_started_by(filters, scope.as_of)
        elif filters.ongoing_started_by is not None:  # the seed ranked without this rule
            filters = replace(filters, ongoing_started_by=None)
        passed = filter_pass(library, filters, config)
        candidates, trace, relaxed = passed.candidates, passed.trace, passed.relaxed
        ranks = passed.ranks
    else:
        candidates = list(library.ids)
        trace, relaxed = [], []
        ranks = np.arange(len(library), dtype=np.int64)
    idx = library.vector_rows[ranks]
    if len(idx) and idx.min() < 0:
        missing = [c for c, i in zip(candidates, idx, strict=True) if i < 0]
        raise ValueError(
            f"{len(missing)} entries have no stored embeddings (e.g. {missing[0]}); "
            "re-materialize pp_facet_embeddings"
        )
    library.lap("filters")
    tiers = hard_misses(config, passed) if passed is not None else None

    def tier(item: tuple) -> float:
        """0 for an entry that meets every hard constraint, else its misses' tier
        (``scoring.MISS_ORDER_RULE``): compliant entries come first (issue 18, defect 3; the
        seed sorts by score alone)."""
        return 0.0 if tiers is None or not len(tiers) else float(tiers[item[3]])

    scoring_depth = depth
    while True:
        scored, misses = score_candidates(
            library,
            candidates,
            ranks,
            idx,
            scope,
            config,
            passed,
            agency_matcher(scope),
            scoring_depth,
        )
        scored.sort(key=lambda item: (tier(item), -round(item[0], 9), item[1]))
        top = _one_per_writeup(library, ranks, scored, depth)
        # copies skipped and the shortlist used up: the next distinct entries may lie below
        # the shortlist's cut (prescreen, margin), so score deeper until depth are found
        if len(top) == depth or len(scored) >= len(candidates):
            break
        scoring_depth = min(len(candidates), 2 * scoring_depth + (depth - len(top)))
    unknowns = passed.unknowns([j for *_, j in top]) if passed is not None else {}
    top_ranks = ranks[np.asarray([j for *_, j in top], dtype=np.int64)]
    facts = Candidates(library, top_ranks, scope, config, {}, passed, agency_matcher(scope))
    gaps = facts.missing_facets()  # of the top only: a loop per entry
    comps_missing = {pp_id: gaps[k] for k, (_, pp_id, _, _) in enumerate(top)}
    positions = library.positions[top_ranks]
    titles = library.entries["title"].gather(positions).to_list() if top else []
    refs = [
        RankedReference(
            rank=k + 1,
            id=pp_id,
            title=title,
            score=round(total, 6) + 0.0,  # + 0.0: a signed zero (-0.0) is stored as 0.0
            components={key: round(val, 6) + 0.0 for key, val in comps.items()},
            relaxed=misses.get(pp_id, []),
            unknown=unknowns.get(pp_id, []),
            missing=list(comps_missing.get(pp_id, [])),
        )
        for k, ((total, pp_id, comps, _), title) in enumerate(zip(top, titles, strict=True))
    ]
    reason = None
    if not refs:
        reason = "no library entry passed the filters, even after every relaxation"
    library.lap("rest")
    return RankingResult(
        refs, len(candidates), trace, relaxed, config.mode, reason, config.fingerprint()
    )
