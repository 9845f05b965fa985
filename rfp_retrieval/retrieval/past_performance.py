"""Past-performance reference ranking (seed 1): hard filters in SQL, facet cosines, bumps.

Pass 1 filters the library in DuckDB SQL (never with vectors). Pass 2 scores the survivors by
weighted facet cosine similarity. Pass 3 adds the recency and same-agency bumps. When fewer
than ``top_k`` entries pass, constraints are relaxed one at a time in the configured order and
every reference that misses an original constraint is labelled with it: there is never a
silent unfiltered search.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import duckdb
import numpy as np
import polars as pl
from dateutil.relativedelta import relativedelta

from rfp_retrieval.agencies import resolve_agency, same_department
from rfp_retrieval.retrieval.config import FACETS, RankingConfig

ADJACENT_CUSTOMER_TYPES = {
    "federal-civilian": ["federal-defense"],
    "federal-defense": ["federal-civilian"],
    "state": ["local"],
    "local": ["state"],
    "commercial": [],
    "international": [],
}


@dataclass(frozen=True)
class ScopeFilters:
    """Hard filters read from the RFP (seed 1: ScopeQuery.filters). Money in USD.

    ``ended_after``: the work must have ended on/after this date or be ongoing (recency).
    ``started_after``: the work must have started on/after this date.
    ``require_prime``: the RFP accepts only references performed as prime contractor.
    """

    customer_types: tuple[str, ...] = ()
    industries: tuple[str, ...] = ()
    vehicle_types: tuple[str, ...] = ()
    value_min: int | None = None
    value_max: int | None = None
    started_after: dt.date | None = None
    ended_after: dt.date | None = None
    require_prime: bool = False

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("started_after", "ended_after"):
            out[key] = out[key].isoformat() if out[key] else None
        for key in ("customer_types", "industries", "vehicle_types"):
            out[key] = list(out[key])
        return out


@dataclass
class ScopeQuery:
    """One RFP's query (seed 1: ScopeQuery): filters, issuer, as-of date and facet vectors.

    ``vectors`` maps ``narrative``/``technical``/``outcome``/``whole`` to unit vectors (dim,);
    ``section_vectors`` (m, dim) holds one unit vector per scope-of-work section;
    ``emphasized_domains`` the library domain tags the RFP emphasizes.
    """

    filters: ScopeFilters
    as_of: dt.date
    vectors: dict[str, np.ndarray]
    issuer: str | None = None
    issuer_acronym: str | None = None
    section_vectors: np.ndarray | None = None
    emphasized_domains: tuple[str, ...] = ()


@dataclass
class EntryVectors:
    """Stored facet vectors of the library: ``ids`` (n,) and per facet a (n, dim) matrix."""

    ids: list[str]
    matrices: dict[str, np.ndarray]

    @classmethod
    def from_frame(cls, frame: pl.DataFrame) -> EntryVectors:
        """From a ``pp_facet_embeddings`` frame (columns id, facet, vector)."""
        ids = sorted(set(frame["id"].to_list()))
        index = {pp_id: i for i, pp_id in enumerate(ids)}
        matrices: dict[str, np.ndarray] = {}
        for facet in frame["facet"].unique().to_list():
            part = frame.filter(pl.col("facet") == facet)
            dim = len(part["vector"][0])
            matrix = np.zeros((len(ids), dim), dtype=np.float32)
            rows = [index[i] for i in part["id"].to_list()]
            matrix[rows] = np.asarray(part["vector"].to_list(), dtype=np.float32)
            matrices[facet] = matrix
        return cls(ids=ids, matrices=matrices)


@dataclass
class RankedReference:
    """One chosen reference with every score component (cosines in [-1, 1])."""

    rank: int
    id: str
    title: str
    score: float
    components: dict[str, float]
    relaxed: list[str] = field(default_factory=list)


@dataclass
class RankingResult:
    """Top references, the number of candidates that passed, and the filter trace."""

    references: list[RankedReference]
    candidate_count: int
    filter_trace: list[dict[str, Any]]
    relaxed: list[str]
    mode: str
    reason: str | None = None


def _constraint_sql(filters: ScopeFilters, widened: dict[str, Any]) -> dict[str, str]:
    """SQL boolean expression per constraint (TRUE when the entry satisfies it)."""

    def lit(value: Any) -> str:
        if isinstance(value, dt.date):
            return f"DATE '{value.isoformat()}'"
        if isinstance(value, str):
            return "'" + value.replace("'", "''") + "'"
        return str(value)

    exprs: dict[str, str] = {}
    types = widened.get("customer_type", filters.customer_types)
    if types:
        exprs["customer_type"] = f"coalesce(customer_type IN ({', '.join(map(lit, types))}), false)"
    if filters.industries:
        inds = ", ".join(lit(i.lower()) for i in filters.industries)
        exprs["industry"] = f"coalesce(lower(industry) IN ({inds}), false)"
    if filters.vehicle_types:
        vts = ", ".join(map(lit, filters.vehicle_types))
        exprs["vehicle_type"] = f"coalesce(vehicle_type IN ({vts}), false)"
    vmin, vmax = widened.get("value", (filters.value_min, filters.value_max))
    if vmin is not None or vmax is not None:
        parts = []
        if vmin is not None:
            parts.append(f"coalesce(value_max, value_min) >= {int(vmin)}")
        if vmax is not None:
            parts.append(f"coalesce(value_min, value_max) <= {int(vmax)}")
        exprs["value"] = f"coalesce({' AND '.join(parts)}, false)"
    ended_after = widened.get("recency", filters.ended_after)
    if ended_after is not None:
        exprs["recency"] = f"coalesce(ongoing OR end_date >= {lit(ended_after)}, false)"
    if filters.started_after is not None:
        exprs["started_after"] = f"coalesce(start_date >= {lit(filters.started_after)}, false)"
    if filters.require_prime:
        exprs["role"] = "coalesce(role = 'prime', false)"
    return exprs


def _relaxation_steps(
    filters: ScopeFilters, config: RankingConfig
) -> list[tuple[str, dict[str, Any], list[str]]]:
    """Graded relaxation: (label, widened constraints, dropped constraints) in order."""
    steps: list[tuple[str, dict[str, Any], list[str]]] = []
    widened: dict[str, Any] = {}
    dropped: list[str] = []
    for constraint in config.relaxation_order:
        if constraint == "value" and (filters.value_min or filters.value_max):
            f = config.value_widen_factor
            lo = int(filters.value_min / f) if filters.value_min else None
            hi = int(filters.value_max * f) if filters.value_max else None
            widened = {**widened, "value": (lo, hi)}
            steps.append((f"value band widened to {lo}..{hi} USD", dict(widened), list(dropped)))
            dropped = dropped + ["value"]
            steps.append(("value band dropped", dict(widened), list(dropped)))
        elif constraint == "recency" and filters.ended_after:
            wider = filters.ended_after - relativedelta(years=config.recency_widen_years)
            widened = {**widened, "recency": wider}
            steps.append(
                (f"recency window widened to end on/after {wider}", dict(widened), list(dropped))
            )
            dropped = dropped + ["recency"]
            steps.append(("recency window dropped", dict(widened), list(dropped)))
        elif constraint == "customer_type" and filters.customer_types:
            adjacent = set(filters.customer_types)
            for t in filters.customer_types:
                adjacent.update(ADJACENT_CUSTOMER_TYPES.get(t, []))
            if adjacent != set(filters.customer_types):
                widened = {**widened, "customer_type": tuple(sorted(adjacent))}
                label = f"customer types widened to {', '.join(sorted(adjacent))}"
                steps.append((label, dict(widened), list(dropped)))
            dropped = dropped + ["customer_type"]
            steps.append(("customer type dropped", dict(widened), list(dropped)))
        elif constraint == "industry" and filters.industries:
            dropped = dropped + ["industry"]
            steps.append(("industry requirement dropped", dict(widened), list(dropped)))
        elif constraint == "role" and filters.require_prime:
            dropped = dropped + ["role"]
            steps.append(("prime-only requirement dropped", dict(widened), list(dropped)))
    return steps


def apply_hard_filters(
    entries: pl.DataFrame, filters: ScopeFilters, config: RankingConfig
) -> tuple[list[str], dict[str, list[str]], list[dict[str, Any]], list[str]]:
    """Pass 1 in DuckDB SQL, with graded relaxation.

    Constraints in ``config.soft_constraints`` (``default`` mode: value, role, industry)
    are reported in the misses but do not exclude; the ranker charges their penalty.

    Returns ``(candidate ids, misses per id, filter trace, relaxation steps taken)``.
    ``misses`` maps each candidate to the ORIGINAL constraints it fails (empty when it passes
    them all); the trace lists each constraint with the number of entries still standing.
    """
    strict = _constraint_sql(filters, {})
    con = duckdb.connect()
    try:
        con.register("entries", entries.select(_FILTER_COLUMNS).to_arrow())
        select = ", ".join([f"{expr} AS ok_{name}" for name, expr in strict.items()] or ["true"])
        rows = con.execute(f"SELECT id, {select} FROM entries ORDER BY id").fetchall()
        names = list(strict)
        misses_all = {
            row[0]: [n for n, ok in zip(names, row[1:], strict=False) if not ok] for row in rows
        }
        trace: list[dict[str, Any]] = [{"filter": "library", "remaining": len(rows)}]
        remaining = set(misses_all)
        for name in names:
            if name in config.soft_constraints:
                trace.append(
                    {
                        "filter": name,
                        "value": _describe(filters, name),
                        "remaining": len(remaining),
                        "soft_penalty": config.soft_constraints[name],
                    }
                )
                continue
            remaining = {i for i in remaining if name not in misses_all[i]}
            trace.append(
                {"filter": name, "value": _describe(filters, name), "remaining": len(remaining)}
            )

        soft = set(config.soft_constraints)

        def passing(widened: dict[str, Any], dropped: list[str]) -> list[str]:
            exprs = {
                k: v
                for k, v in _constraint_sql(filters, widened).items()
                if k not in dropped and k not in soft
            }
            where = " AND ".join(exprs.values()) or "true"
            sql = f"SELECT id FROM entries WHERE {where} ORDER BY id"
            return [r[0] for r in con.execute(sql).fetchall()]

        candidates = passing({}, [])
        relaxed: list[str] = []
        if len(candidates) < config.top_k:
            for label, widened, dropped in _relaxation_steps(filters, config):
                if all(k in soft for k in [*widened, *dropped]):
                    continue
                relaxed.append(label)
                candidates = passing(widened, dropped)
                trace.append({"filter": f"relaxed: {label}", "remaining": len(candidates)})
                if len(candidates) >= config.top_k:
                    break
        return candidates, {i: misses_all[i] for i in candidates}, trace, relaxed
    finally:
        con.close()


_FILTER_COLUMNS = [
    "id",
    "customer_type",
    "industry",
    "vehicle_type",
    "value_min",
    "value_max",
    "start_date",
    "end_date",
    "ongoing",
    "role",
]


def _describe(filters: ScopeFilters, name: str) -> Any:
    return {
        "customer_type": list(filters.customer_types),
        "industry": list(filters.industries),
        "vehicle_type": list(filters.vehicle_types),
        "value": [filters.value_min, filters.value_max],
        "recency": filters.ended_after.isoformat() if filters.ended_after else None,
        "started_after": filters.started_after.isoformat() if filters.started_after else None,
        "role": "prime",
    }[name]


def _end_date(row: dict[str, Any]) -> dt.date | None:
    return row.get("end_date")


def recency_bumps(row: dict[str, Any], as_of: dt.date, config: RankingConfig) -> dict[str, float]:
    """Seed 1 pass 3 recency bumps for one entry row.

    ``recency_bump``: +config.recent_bump when ongoing or ended within ``recent_months``
    before ``as_of``; ``age_penalty``: config.old_penalty when it ended more than
    ``old_years`` before ``as_of``. Dates are judged against the RFP date, never today.
    """
    end = _end_date(row)
    recent = bool(row.get("ongoing")) or (
        end is not None and end >= as_of - relativedelta(months=config.recent_months)
    )
    old = (
        end is not None
        and not row.get("ongoing")
        and end < as_of - relativedelta(years=config.old_years)
    )
    return {
        "recency_bump": config.recent_bump if recent else 0.0,
        "age_penalty": config.old_penalty if old else 0.0,
    }


def same_customer(row: dict[str, Any], issuer: str | None, issuer_acronym: str | None) -> bool:
    """True when the entry's customer is the issuer or rolls up to the same federal department
    (FNS -> USDA, VHA -> VA); for non-federal customers the organisation names must match."""
    if not issuer and not issuer_acronym:
        return False
    entry_agency = resolve_agency(row.get("customer_named"), row.get("customer_acronym"))
    issuer_agency = resolve_agency(issuer, issuer_acronym)
    if entry_agency is not None and issuer_agency is not None:
        return same_department(entry_agency, issuer_agency)
    if entry_agency is not None or issuer_agency is not None:
        return False

    def root(name: str | None) -> str:
        return (name or "").split(",")[0].split("(")[0].strip().lower()

    return bool(root(issuer)) and root(issuer) == root(row.get("customer_named"))


def value_miss_severity(row: dict[str, Any], filters: ScopeFilters) -> float:
    """How far an entry's value (USD) falls outside the RFP's band, in [0.25, 1].

    1.0 means at least a factor of two outside (or unknown); a near miss such as $14M
    against a $25M minimum costs less. Measured as log2 of the ratio to the nearest bound.
    """
    low = row.get("value_min") or row.get("value_max")
    high = row.get("value_max") or row.get("value_min")
    if not low or not high:
        return 1.0
    ratio = 1.0
    if filters.value_min and high < filters.value_min:
        ratio = filters.value_min / high
    elif filters.value_max and low > filters.value_max:
        ratio = low / filters.value_max
    return min(1.0, max(0.25, math.log2(ratio)))


def _score_default(
    rows: dict[str, dict[str, Any]],
    candidates: list[str],
    idx: np.ndarray,
    vectors: EntryVectors,
    scope: ScopeQuery,
    config: RankingConfig,
    misses: dict[str, list[str]],
) -> list[tuple[float, str, dict[str, float]]]:
    """Scores of the ``default`` mode (see ``RankingConfig``), every component kept."""
    whole = vectors.matrices["whole"][idx] @ scope.vectors["whole"]
    outcome = vectors.matrices["outcome"][idx] @ scope.vectors["outcome"]
    sections = scope.section_vectors
    if sections is None or len(sections) == 0:
        sections = scope.vectors["technical"][None, :]
    section_max = (vectors.matrices["whole"][idx] @ np.asarray(sections).T).max(axis=1)
    emphasized = set(scope.emphasized_domains)
    soft = config.soft_constraints
    scored = []
    for j, pp_id in enumerate(candidates):
        row = rows[pp_id]
        comps = {
            "whole": float(whole[j]),
            "outcome": float(outcome[j]),
            "section_max": float(section_max[j]),
        }
        comps["weighted_whole"] = config.default_weight_whole * comps["whole"]
        comps["weighted_outcome"] = config.default_weight_outcome * comps["outcome"]
        comps["weighted_section_max"] = config.default_weight_section * comps["section_max"]
        domains = set(row.get("domains") or [])
        share = len(domains & emphasized) / len(emphasized) if emphasized else 0.0
        comps["domain_match"] = config.domain_weight * share
        end = row.get("end_date")
        recent = bool(row.get("ongoing")) or (
            end is not None and end >= scope.as_of - relativedelta(months=config.recent_months)
        )
        old = (
            end is not None
            and not row.get("ongoing")
            and end < scope.as_of - relativedelta(years=config.old_years)
        )
        comps["recency_bump"] = config.default_recent_bump if recent else 0.0
        comps["age_penalty"] = config.default_old_penalty if old else 0.0
        agency = same_customer(row, scope.issuer, scope.issuer_acronym)
        comps["agency_bump"] = config.agency_bump if agency else 0.0
        comps["vague_penalty"] = config.vague_penalty if row.get("outcome_vague") else 0.0
        for name, penalty in soft.items():
            missed = name in misses.get(pp_id, [])
            if missed and name == "value":
                penalty *= value_miss_severity(row, scope.filters)
            comps[f"{name}_penalty"] = -penalty if missed else 0.0
        total = sum(v for k, v in comps.items() if k not in ("whole", "outcome", "section_max"))
        scored.append((total, pp_id, comps))
    return scored


def rank_references(
    entries: pl.DataFrame,
    vectors: EntryVectors,
    scope: ScopeQuery,
    config: RankingConfig,
) -> RankingResult:
    """Top ``config.top_k`` references for one scope, every score component visible.

    ``entries`` is the ``pp_entries`` frame; ``vectors`` the stored facet vectors (same
    model as ``scope.vectors``). Ties break by entry id. An empty library gives an empty
    result with ``reason`` set.
    """
    if entries.is_empty():
        return RankingResult([], 0, [], [], config.mode, reason="the library has no entries")
    if config.uses_filters:
        candidates, misses, trace, relaxed = apply_hard_filters(entries, scope.filters, config)
    else:
        candidates = sorted(entries["id"].to_list())
        misses, trace, relaxed = {i: [] for i in candidates}, [], []
    index = {pp_id: i for i, pp_id in enumerate(vectors.ids)}
    missing = [c for c in candidates if c not in index]
    if missing:
        raise ValueError(
            f"{len(missing)} entries have no stored embeddings (e.g. {missing[0]}); "
            "re-materialize pp_facet_embeddings"
        )
    rows = {r["id"]: r for r in entries.filter(pl.col("id").is_in(candidates)).to_dicts()}
    idx = np.asarray([index[c] for c in candidates], dtype=np.int64)
    scored: list[tuple[float, str, dict[str, float]]] = []
    if config.mode == "naive":
        sims = vectors.matrices["whole"][idx] @ scope.vectors["whole"] if len(idx) else []
        for pp_id, sim in zip(candidates, sims, strict=True):
            scored.append((float(sim), pp_id, {"whole": float(sim)}))
    elif config.mode == "default":
        scored = _score_default(rows, candidates, idx, vectors, scope, config, misses)
    else:
        sims = {f: vectors.matrices[f][idx] @ scope.vectors[f] for f in FACETS}
        weights = config.weights
        for j, pp_id in enumerate(candidates):
            comps = {f: float(sims[f][j]) for f in FACETS}
            for f in FACETS:
                comps[f"weighted_{f}"] = weights[f] * comps[f]
            total = sum(comps[f"weighted_{f}"] for f in FACETS)
            if config.uses_bumps:
                bumps = recency_bumps(rows[pp_id], scope.as_of, config)
                agency = same_customer(rows[pp_id], scope.issuer, scope.issuer_acronym)
                bumps["agency_bump"] = config.agency_bump if agency else 0.0
                comps.update(bumps)
                total += sum(bumps.values())
            scored.append((total, pp_id, comps))
    scored.sort(key=lambda item: (-round(item[0], 9), item[1]))
    refs = [
        RankedReference(
            rank=k + 1,
            id=pp_id,
            title=rows[pp_id]["title"],
            score=round(total, 6),
            components={key: round(val, 6) for key, val in comps.items()},
            relaxed=misses.get(pp_id, []),
        )
        for k, (total, pp_id, comps) in enumerate(scored[: config.top_k])
    ]
    reason = None
    if not refs:
        reason = "no library entry passed the filters, even after every relaxation"
    return RankingResult(refs, len(candidates), trace, relaxed, config.mode, reason)
