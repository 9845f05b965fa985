"""The scorers: a mode's preset applied to a scope's candidates (passes 2 and 3).

The raw cosines come from the preset's kernel, every summed component from its registry
function (``components.REGISTRY``) over all candidates at once. Above ``_SHORTLIST_ABOVE``
candidates the numpy totals pick a shortlist (every candidate that can reach the top
``depth``); the per-component dicts and the Python totals that decide the ranking are built
for the shortlist only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from rfp_retrieval.retrieval.components import COMPONENT, Candidates
from rfp_retrieval.retrieval.config import Preset, RankingConfig
from rfp_retrieval.retrieval.filters import FilterPass
from rfp_retrieval.retrieval.kernels import facet_cosines, section_cosines
from rfp_retrieval.retrieval.prepared import PreparedLibrary
from rfp_retrieval.retrieval.records import ScopeQuery

# Above this many candidates the scorer totals every candidate with numpy first and builds the
# per-component dicts only for the few that can reach the top ``depth``.
_SHORTLIST_ABOVE = 64
# Margin (score units) that keeps every candidate whose rounded score could tie the k-th.
_SHORTLIST_MARGIN = 1e-8
# Score units that put every relaxed candidate below every compliant one in the shortlist cut.
_TIER_GAP = 1e6

KERNELS: dict[str, Callable[[PreparedLibrary, np.ndarray, ScopeQuery, tuple], dict]] = {
    "facets": lambda lib, idx, scope, names: facet_cosines(lib.vectors.matrices, idx, scope, names),
    "sections": lambda lib, idx, scope, names: section_cosines(
        lib.vectors.matrices, idx, scope, lib.whole_mean
    ),
}
"""``Preset.kernel`` -> the function giving the raw cosines of the candidates at rows idx."""


def component_values(preset: Preset, candidates: Candidates) -> dict[str, np.ndarray]:
    """Every component of ``preset`` over the candidates, float64 (len,) each, in the
    preset's component order (raw cosines first)."""
    values = {name: COMPONENT[name].values(candidates, 0.0) for name in preset.cosines}
    for group in preset.parts:
        for name, amount in group:
            values[name] = COMPONENT[name].values(candidates, amount)
    return values


def numpy_totals(preset: Preset, values: dict[str, np.ndarray]) -> np.ndarray:
    """Every candidate's total at once, float64 (len,): the components added in the order
    of ``entry_total`` (used to pick the shortlist)."""
    total: np.ndarray | None = None
    for group in preset.parts:
        subtotal = values[group[0][0]]
        for name, _ in group[1:]:
            subtotal = subtotal + values[name]
        total = subtotal if total is None else total + subtotal
    assert total is not None
    return total


def entry_total(preset: Preset, components: dict[str, float]) -> float:
    """One reference's score: each group of ``preset.parts`` summed in turn (``Preset``)."""
    subtotals = [sum(components[name] for name, _ in group) for group in preset.parts]
    total = subtotals[0]
    for subtotal in subtotals[1:]:
        total += subtotal
    return total


def score_candidates(
    library: PreparedLibrary,
    candidates: list[str],
    ranks: np.ndarray,
    idx: np.ndarray,
    scope: ScopeQuery,
    config: RankingConfig,
    passed: FilterPass | None,
    agency_match: Any,
    depth: int | None = None,
) -> tuple[list[tuple[float, str, dict[str, float], int]], dict[str, list[str]]]:
    """Scores of ``config``'s mode for the candidates, every component kept.

    ``candidates`` are ids at positions ``ranks`` of the id order, ``idx`` their rows in the
    vector matrices. Returns ``(scored, misses)`` for the candidates that can reach the top
    ``depth`` (default ``config.top_k``): all of them up to ``_SHORTLIST_ABOVE`` candidates,
    else those whose numpy total is within ``_SHORTLIST_MARGIN`` of the ``depth``-th best (no
    other can enter the top k, whatever the rounding). Each scored item is ``(total, id,
    components, position in candidates)``; ``misses`` the original constraints each misses
    (a fact the library does not state is not a miss, ``filters.UNKNOWN_RULE``). Outside
    the seed's rules, an entry that misses a hard constraint (let in by relaxation) ranks
    after every compliant one (``hard_misses``), so the shortlist is cut within each group.
    """
    assert library.vectors is not None
    preset = config.preset
    depth = config.top_k if depth is None else depth
    cosines = KERNELS[preset.kernel](library, idx, scope, preset.cosines)
    library.lap("cosines")
    facts = Candidates(library, ranks, scope, config, cosines, passed, agency_match)
    values = component_values(preset, facts)
    shortlist: Any = range(len(candidates))
    if len(candidates) > max(_SHORTLIST_ABOVE, depth):
        totals = numpy_totals(preset, values)
        if passed is not None:
            totals = totals - _TIER_GAP * hard_misses(preset, passed)
        kth = -np.partition(-totals, depth - 1)[depth - 1]
        shortlist = np.flatnonzero(totals >= kth - _SHORTLIST_MARGIN).tolist()
    library.lap("shortlist")
    picked = np.asarray(shortlist, dtype=np.int64)
    columns = {name: v[picked].tolist() for name, v in values.items()}
    scored = []
    for k, j in enumerate(shortlist):
        comps = {name: column[k] for name, column in columns.items()}
        scored.append((entry_total(preset, comps), candidates[j], comps, j))
    if passed is not None:
        misses = passed.misses(shortlist)
    else:
        misses = {candidates[j]: [] for j in shortlist}
    library.lap("components")
    return scored, misses


def hard_misses(preset: Preset, passed: FilterPass) -> np.ndarray:
    """Whether each candidate of ``passed`` misses a hard (not soft) original constraint,
    float64 (len,) of 0/1: relaxation let it in. All 0 under the seed's rules (the seed sorts
    by score alone)."""
    out = np.zeros(len(passed.candidates), dtype=np.float64)
    if preset.seed_rules:
        return out
    for name in passed.names:
        if name not in preset.soft:
            out = np.maximum(out, passed.missed(name).astype(np.float64))
    return out
