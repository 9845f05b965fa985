"""The hard filters of pass 1 (seed 1: ScopeQuery.filters), one definition per constraint.

Each constraint is one class below holding its DuckDB SQL expression (which defines it) and,
side by side, its numpy mask over the prepared columns (``FilterColumns``), which gives the
same booleans without a scan when the column dtypes allow. The effective contract value that
the value band is judged on is one polars expression (``effective_value_bounds``): its
columns are laid out once per library and both the SQL and the mask compare them. Graded
relaxation (``relaxation_steps``) widens or drops the constraints in the configured order.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import polars as pl
from dateutil.relativedelta import relativedelta

from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.records import ScopeFilters

ADJACENT_CUSTOMER_TYPES = {
    "federal-civilian": ["federal-defense"],
    "federal-defense": ["federal-civilian"],
    "state": ["local"],
    "local": ["state"],
    "commercial": [],
    "international": [],
}

FILTER_COLUMNS = [
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
    "value_funded",
]
# Filter columns a hand-built frame may lack (read as unknown): a library without funded values.
OPTIONAL_FILTER_COLUMNS = {"value_funded": pl.Int64}

_INTEGER_DTYPES = (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32)
_TEXT_DTYPES = (pl.String, pl.Categorical, pl.Enum, pl.Null)


def effective_value_bounds() -> dict[str, pl.Expr]:
    """The (low, high) USD by which an entry's size is judged against the RFP's value band.

    Completed work with a stated funded (obligated) value (``value_funded > 0``, not
    ``ongoing``) is sized by that value alone: the ceiling of a finished contract is an
    authorisation that was never spent, and evaluators compare what was performed (issue #5:
    "funded vs ceiling value for completed work"). Ongoing work keeps its stated range
    (funded-to-date understates it). Each bound falls back to the other; null when no value
    is known. Returns ``{"value_low": expr, "value_high": expr}`` over a ``pp_entries`` frame.
    """
    completed = ~pl.col("ongoing").fill_null(False) & (pl.col("value_funded") > 0)
    funded = pl.col("value_funded")
    return {
        "value_low": pl.when(completed)
        .then(funded)
        .otherwise(pl.coalesce(pl.col("value_min"), pl.col("value_max"))),
        "value_high": pl.when(completed)
        .then(funded)
        .otherwise(pl.coalesce(pl.col("value_max"), pl.col("value_min"))),
    }


def effective_value_range(row: dict[str, Any]) -> tuple[float | None, float | None]:
    """(low, high) USD of one entry row by ``effective_value_bounds`` (the filters' rule).

    Missing keys read as unknown; (None, None) when no value is known.
    """
    frame = pl.DataFrame(
        {
            "ongoing": [row.get("ongoing")],
            "value_min": [row.get("value_min")],
            "value_max": [row.get("value_max")],
            "value_funded": [row.get("value_funded")],
        }
    )
    low, high = frame.select(**effective_value_bounds()).row(0)
    return (None if low is None else float(low)), (None if high is None else float(high))


def filter_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame``'s filter columns (``FILTER_COLUMNS``), optional ones null when absent, and the
    effective value bounds (``effective_value_bounds``: ``value_low``, ``value_high``)."""
    columns = frame.select(
        [
            pl.col(name)
            if name in frame.columns or name not in OPTIONAL_FILTER_COLUMNS
            else pl.lit(None, dtype=OPTIONAL_FILTER_COLUMNS[name]).alias(name)
            for name in FILTER_COLUMNS
        ]
    )
    return columns.with_columns(**effective_value_bounds())


def _text_codes(series: pl.Series) -> tuple[dict[Any, int], np.ndarray]:
    """Dense code of each value of a text column, int64 (n,) with -1 for null, and the code
    of each distinct non-null value."""
    text = series.cast(pl.String)
    codes = text.rank("dense").fill_null(0).to_numpy().astype(np.int64) - 1
    pairs = pl.DataFrame({"value": text, "code": codes}).unique().drop_nulls("value")
    return dict(pairs.rows()), codes


class FilterColumns:
    """Pass 1's columns in id order as numpy arrays, for the constraints' masks
    (``PreparedLibrary.strict_ok``).

    ``ordered`` is ``filter_columns`` of the entries in id order. A constraint's mask gives
    the same booleans (n,) as its SQL expression, with SQL's NULL semantics (a NULL
    comparison counts as a miss) and, for floats, DuckDB's ordering of NaN above every
    number; a column whose dtype is not one mirrored exactly is left out (the constraint is
    then evaluated in SQL). ``industry_lower`` maps each distinct industry to DuckDB's
    ``lower()`` of it.
    """

    def __init__(self, ordered: pl.DataFrame, industry_lower: dict[str, str]):
        schema = ordered.schema
        self.n = ordered.height
        self.text: dict[str, tuple[dict[Any, int], np.ndarray]] = {}
        for name in ("customer_type", "vehicle_type", "role"):
            if isinstance(schema[name], _TEXT_DTYPES):
                self.text[name] = _text_codes(ordered[name])
        if isinstance(schema["industry"], _TEXT_DTYPES):
            raw_codes, raw = _text_codes(ordered["industry"])
            lowered = sorted({industry_lower[v] for v in raw_codes})
            lower_code = {v: k for k, v in enumerate(lowered)}
            remap = np.full(len(raw_codes) + 1, -1, dtype=np.int64)
            for value, code in raw_codes.items():
                remap[code] = lower_code[industry_lower[value]]
            self.text["industry"] = (lower_code, remap[raw])
        self.numbers: dict[str, tuple[np.ndarray, np.ndarray]] | None = None
        kinds = {schema["value_min"], schema["value_max"], schema["value_funded"]} - {pl.Null}
        if all(isinstance(k, _INTEGER_DTYPES) for k in kinds) or kinds == {pl.Float64}:
            kind = pl.Float64 if kinds == {pl.Float64} else pl.Int64
            self.numbers = {}
            for side in ("low", "high"):
                column = ordered[f"value_{side}"].cast(kind)
                values = column.fill_null(0).to_numpy()
                if kind == pl.Float64:  # DuckDB orders NaN above every number
                    values = np.where(np.isnan(values), np.inf, values)
                self.numbers[side] = (values, column.is_not_null().to_numpy())
        self.dates: dict[str, np.ndarray] = {}
        for name in ("start_date", "end_date"):
            if isinstance(schema[name], (pl.Date, pl.Null)):
                self.dates[name] = ordered[name].cast(pl.Date).to_numpy().astype("datetime64[D]")
        self.ongoing: np.ndarray | None = None
        self.ongoing_known = np.ones(self.n, dtype=bool)
        if isinstance(schema["ongoing"], (pl.Boolean, pl.Null)):
            self.ongoing = ordered["ongoing"].cast(pl.Boolean).fill_null(False).to_numpy()
            self.ongoing_known = ordered["ongoing"].is_not_null().to_numpy()

    def isin(self, name: str, values: Any) -> np.ndarray | None:
        """Whether each entry's text column ``name`` is one of ``values`` (NULL: False)."""
        if name not in self.text:
            return None
        codes_of, codes = self.text[name]
        table = np.zeros(len(codes_of) + 1, dtype=bool)  # the last slot is NULL's (-1)
        for value in values:
            if value in codes_of:
                table[codes_of[value]] = True
        return table[codes]


def _lit(value: Any) -> str:
    if isinstance(value, dt.date):
        return f"DATE '{value.isoformat()}'"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return str(value)


class Constraint:
    """One hard filter: its SQL expression, its numpy masks and its trace value.

    ``expr`` is the bare SQL comparison, TRUE when the entry satisfies the constraint, FALSE
    when it does not and NULL when the library does not state the fact it needs (no value, no
    end date, no customer type, ...); None when ``filters`` state no such constraint
    (``widened`` holds the relaxation's wider values by constraint name). ``sql`` decides the
    NULL case (``UNKNOWN_RULE``): the seed's ``coalesce(expr, false)`` (an unknown fact is a
    miss) or ``coalesce(expr, true)`` (it passes, labelled unknown). ``mask`` gives the
    strict (unwidened, unknown = miss) booleans (n,) and ``unknown_mask`` where ``expr`` is
    NULL, or None to evaluate them in SQL; ``describe`` is the value shown in the filter trace.
    """

    name = ""
    label = ""  # what the brief and the run summary call it ("customer type")

    def expr(self, filters: ScopeFilters, widened: dict[str, Any]) -> str | None:
        raise NotImplementedError

    def sql(
        self, filters: ScopeFilters, widened: dict[str, Any], unknown_passes: bool = False
    ) -> str | None:
        expr = self.expr(filters, widened)
        if expr is None:
            return None
        return f"coalesce({expr}, {'true' if unknown_passes else 'false'})"

    def unknown_sql(self, filters: ScopeFilters) -> str | None:
        """SQL TRUE when the library does not state the fact this constraint needs."""
        expr = self.expr(filters, {})
        return None if expr is None else f"(({expr}) IS NULL)"

    def mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        return None

    def unknown_mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        return None

    def describe(self, filters: ScopeFilters) -> Any:
        raise NotImplementedError


class _TextIn(Constraint):
    """A text column in a list of values: unknown when the column is NULL."""

    column = ""

    def unknown_mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        if self.column not in columns.text:
            return None
        return columns.text[self.column][1] < 0


class CustomerType(_TextIn):
    """The customer types, or one of the industries the RFP names as their alternative
    (``ScopeFilters.industries_alternative``: "state agencies or electric utilities" is
    ``customer_type IN ('state') OR lower(industry) IN ('utilities')``). The industry side
    only ever qualifies: an entry of another stated type whose industry is not stated is a
    miss, and the fact is unknown only when the customer type is."""

    name = column = "customer_type"
    label = "customer type"

    def expr(self, filters: ScopeFilters, widened: dict[str, Any]) -> str | None:
        types = widened.get("customer_type", filters.customer_types)
        if not types:
            return None
        expr = f"customer_type IN ({', '.join(map(_lit, types))})"
        if filters.industries_alternative:
            inds = ", ".join(_lit(i.lower()) for i in filters.industries_alternative)
            expr = f"({expr} OR coalesce(lower(industry) IN ({inds}), false))"
        return expr

    def _alternative(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        """Whether each entry is in one of the alternative industries (NULL: False)."""
        if not filters.industries_alternative:
            return np.zeros(columns.n, dtype=bool)
        return columns.isin("industry", [i.lower() for i in filters.industries_alternative])

    def mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        types, either = columns.isin("customer_type", filters.customer_types), None
        if types is not None:
            either = self._alternative(columns, filters)
        return None if types is None or either is None else types | either

    def unknown_mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        unknown, either = super().unknown_mask(columns, filters), None
        if unknown is not None:
            either = self._alternative(columns, filters)
        return None if unknown is None or either is None else unknown & ~either

    def describe(self, filters: ScopeFilters) -> Any:
        alternatives = [f"{i} (industry)" for i in filters.industries_alternative]
        return [*filters.customer_types, *alternatives]


class Industry(_TextIn):
    name = column = "industry"
    label = "industry"

    def expr(self, filters: ScopeFilters, widened: dict[str, Any]) -> str | None:
        if not filters.industries:
            return None
        inds = ", ".join(_lit(i.lower()) for i in filters.industries)
        return f"lower(industry) IN ({inds})"

    def mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        return columns.isin("industry", [i.lower() for i in filters.industries])

    def describe(self, filters: ScopeFilters) -> Any:
        return list(filters.industries)


class VehicleType(_TextIn):
    name = column = "vehicle_type"
    label = "contract vehicle"

    def expr(self, filters: ScopeFilters, widened: dict[str, Any]) -> str | None:
        if not filters.vehicle_types:
            return None
        return f"vehicle_type IN ({', '.join(map(_lit, filters.vehicle_types))})"

    def mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        return columns.isin("vehicle_type", filters.vehicle_types)

    def describe(self, filters: ScopeFilters) -> Any:
        return list(filters.vehicle_types)


class ValueBand(Constraint):
    """The RFP's value band against the effective value (``effective_value_bounds``)."""

    name = "value"
    label = "contract value"

    def expr(self, filters: ScopeFilters, widened: dict[str, Any]) -> str | None:
        vmin, vmax = widened.get("value", (filters.value_min, filters.value_max))
        if vmin is None and vmax is None:
            return None
        parts = []
        if vmin is not None:
            parts.append(f"value_high >= {int(vmin)}")
        if vmax is not None:
            parts.append(f"value_low <= {int(vmax)}")
        return " AND ".join(parts)

    def mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        bounds = [b for b in (filters.value_min, filters.value_max) if b is not None]
        if columns.numbers is None or any(abs(int(b)) >= 2**53 for b in bounds):
            return None
        ok = np.ones(columns.n, dtype=bool)
        if filters.value_min is not None:
            high, known = columns.numbers["high"]
            ok &= known & (high >= int(filters.value_min))
        if filters.value_max is not None:
            low, known = columns.numbers["low"]
            ok &= known & (low <= int(filters.value_max))
        return ok

    def unknown_mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        # value_low and value_high are null together (each falls back to the other)
        if columns.numbers is None:
            return None
        return ~columns.numbers["low"][1]

    def describe(self, filters: ScopeFilters) -> Any:
        return [filters.value_min, filters.value_max]


class Recency(Constraint):
    """The work ended on/after ``ended_after`` or is ongoing."""

    name = "recency"
    label = "recency window"

    def expr(self, filters: ScopeFilters, widened: dict[str, Any]) -> str | None:
        ended_after = widened.get("recency", filters.ended_after)
        if ended_after is None:
            return None
        return f"(ongoing OR end_date >= {_lit(ended_after)})"

    def mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        if columns.ongoing is None or "end_date" not in columns.dates:
            return None
        if filters.ended_after is None:
            return None
        end = columns.dates["end_date"]
        return columns.ongoing | (end >= np.datetime64(filters.ended_after, "D"))

    def unknown_mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        if columns.ongoing is None or "end_date" not in columns.dates:
            return None
        if filters.ended_after is None or not columns.ongoing_known.all():
            return None
        return ~columns.ongoing & np.isnat(columns.dates["end_date"])

    def describe(self, filters: ScopeFilters) -> Any:
        return filters.ended_after.isoformat() if filters.ended_after else None


class StartedAfter(Constraint):
    name = "started_after"
    label = "start date"

    def expr(self, filters: ScopeFilters, widened: dict[str, Any]) -> str | None:
        if filters.started_after is None:
            return None
        return f"start_date >= {_lit(filters.started_after)}"

    def mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        if "start_date" not in columns.dates or filters.started_after is None:
            return None
        return columns.dates["start_date"] >= np.datetime64(filters.started_after, "D")

    def unknown_mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        if "start_date" not in columns.dates:
            return None
        return np.isnat(columns.dates["start_date"])

    def describe(self, filters: ScopeFilters) -> Any:
        return filters.started_after.isoformat() if filters.started_after else None


class StartedBy(Constraint):
    """The work started on/before ``started_by`` (``STARTED_BY_RULE``); never relaxed."""

    name = "started_by"
    label = "started before the RFP"

    def expr(self, filters: ScopeFilters, widened: dict[str, Any]) -> str | None:
        if filters.started_by is None:
            return None
        return f"start_date <= {_lit(filters.started_by)}"

    def mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        if "start_date" not in columns.dates or filters.started_by is None:
            return None
        return columns.dates["start_date"] <= np.datetime64(filters.started_by, "D")

    def unknown_mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        if "start_date" not in columns.dates:
            return None
        return np.isnat(columns.dates["start_date"])

    def describe(self, filters: ScopeFilters) -> Any:
        return filters.started_by.isoformat() if filters.started_by else None


class OngoingPerformed(Constraint):
    """Work still in progress started on/before ``ongoing_started_by``
    (``ONGOING_PERFORMED_RULE``); completed work passes. Relaxed with the recency window."""

    name = "ongoing_performed"
    label = "time performed (ongoing work)"

    def expr(self, filters: ScopeFilters, widened: dict[str, Any]) -> str | None:
        if filters.ongoing_started_by is None:
            return None
        return f"(NOT ongoing OR start_date <= {_lit(filters.ongoing_started_by)})"

    def mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        if columns.ongoing is None or "start_date" not in columns.dates:
            return None
        if filters.ongoing_started_by is None or not columns.ongoing_known.all():
            return None
        by = np.datetime64(filters.ongoing_started_by, "D")
        return ~columns.ongoing | (columns.dates["start_date"] <= by)

    def unknown_mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        if columns.ongoing is None or "start_date" not in columns.dates:
            return None
        if not columns.ongoing_known.all():
            return None
        return columns.ongoing & np.isnat(columns.dates["start_date"])

    def describe(self, filters: ScopeFilters) -> Any:
        return filters.ongoing_started_by.isoformat() if filters.ongoing_started_by else None


class PrimeRole(_TextIn):
    name = "role"
    label = "prime role"
    column = "role"

    def expr(self, filters: ScopeFilters, widened: dict[str, Any]) -> str | None:
        return "role = 'prime'" if filters.require_prime else None

    def mask(self, columns: FilterColumns, filters: ScopeFilters) -> np.ndarray | None:
        return columns.isin("role", ["prime"])

    def describe(self, filters: ScopeFilters) -> Any:
        return "prime"


CONSTRAINTS: tuple[Constraint, ...] = (
    CustomerType(),
    Industry(),
    VehicleType(),
    ValueBand(),
    Recency(),
    StartedAfter(),
    StartedBy(),
    OngoingPerformed(),
    PrimeRole(),
)
"""Every hard filter, in the order of the filter trace and of ``constraint_sql``."""
CONSTRAINT = {c.name: c for c in CONSTRAINTS}


def constraint_labels(names: Sequence[str]) -> list[str]:
    """The writer's words for constraint ``names`` (a reference's ``relaxed`` list:
    ``customer_type`` -> "customer type", ``started_by`` -> "started before the RFP"); a name
    no constraint has (a relaxation step's own label) is shown with spaces for underscores."""
    shown = []
    for name in names:
        constraint = CONSTRAINT.get(name)
        shown.append(constraint.label if constraint is not None else name.replace("_", " "))
    return shown


UNKNOWN_RULE = (
    "A fact the library does not state (no contract value, no end date of finished work, no "
    "customer type, industry, role or start date) is unknown, not a miss: the entry is "
    "neither excluded nor charged for that constraint, and its reference lists the "
    "constraint as unknown for the writer to check."
)
"""The one rule for unknown facts (issue 18, defect 4). Every mode follows it except the
seed's ``facet+bumps`` preset, kept as the seed ranked (an unknown fact there is a miss)."""


STARTED_BY_RULE = (
    "Past performance is work already under way: an entry whose period of performance starts "
    "after the RFP's date (its stated issue date, else the file date the recency window also "
    "counts from) cannot be cited and is excluded, whatever else is relaxed. An unknown start "
    "date is unknown, not a miss (UNKNOWN_RULE)."
)
"""The one rule for work that has not started (new-user trial: an RFQ dated 2023 got picks
that started in 2025). The seed's ``facet+bumps`` preset does not apply it (kept as the seed
ranked)."""


ONGOING_PERFORMED_RULE = (
    "When the RFP counts work still in progress only once a minimum period has been performed "
    "('counts if at least one year has been performed'), an ongoing entry that started after "
    "the RFP's date less that period is a miss of that rule (ongoing_performed); completed "
    "work is not affected. It is bent with the recency window (relaxation), and an ongoing "
    "entry with no start date is unknown (UNKNOWN_RULE)."
)
"""The one rule for the minimum performed period of ongoing work (issue 18: a rule the RFP
states is honoured; trial M3 read it, the ranking did not apply it)."""


def with_started_by(filters: ScopeFilters, as_of: dt.date | None) -> ScopeFilters:
    """``filters`` with ``started_by`` set to ``as_of`` (``STARTED_BY_RULE``) unless it is
    already set or ``as_of`` is None."""
    if filters.started_by is not None or as_of is None:
        return filters
    return replace(filters, started_by=as_of)


def constraint_sql(
    filters: ScopeFilters, widened: dict[str, Any], unknown_passes: bool = False
) -> dict[str, str]:
    """SQL boolean expression per stated constraint (TRUE when the entry satisfies it; an
    unknown fact passes when ``unknown_passes``, ``UNKNOWN_RULE``, else it is a miss)."""
    exprs = {c.name: c.sql(filters, widened, unknown_passes) for c in CONSTRAINTS}
    return {name: expr for name, expr in exprs.items() if expr is not None}


def describe(filters: ScopeFilters, name: str) -> Any:
    """The value of constraint ``name`` as the filter trace shows it."""
    return CONSTRAINT[name].describe(filters)


def relaxation_steps(
    filters: ScopeFilters, config: RankingConfig, order: tuple[str, ...] | None = None
) -> list[tuple[str, dict[str, Any], list[str]]]:
    """Graded relaxation: (label, widened constraints, dropped constraints) in order.

    ``order`` (default ``config.relaxation.order``) names the steps: ``value`` and
    ``recency`` widen then drop (``recency`` then also drops a minimum performed period of
    ongoing work, ``ONGOING_PERFORMED_RULE``), ``customer_type_adjacent`` widens the customer
    types to the adjacent ones (``ADJACENT_CUSTOMER_TYPES``) and never drops them,
    ``customer_type`` (the seed's) widens then drops them, ``industry`` and ``role`` drop.
    """
    relaxation = config.relaxation
    steps: list[tuple[str, dict[str, Any], list[str]]] = []
    widened: dict[str, Any] = {}
    dropped: list[str] = []
    for constraint in relaxation.order if order is None else order:
        if constraint == "value" and (filters.value_min or filters.value_max):
            f = relaxation.value_widen_factor
            lo = int(filters.value_min / f) if filters.value_min else None
            hi = int(filters.value_max * f) if filters.value_max else None
            widened = {**widened, "value": (lo, hi)}
            from rfp_retrieval.report.filters import usd  # the brief's one USD format

            band = f"{usd(lo) if lo else 'no floor'} to {usd(hi) if hi else 'no ceiling'}"
            steps.append((f"value band widened to {band}", dict(widened), list(dropped)))
            dropped = dropped + ["value"]
            steps.append(("value band dropped", dict(widened), list(dropped)))
        elif constraint == "recency" and (filters.ended_after or filters.ongoing_started_by):
            if filters.ended_after:
                wider = filters.ended_after - relativedelta(years=relaxation.recency_widen_years)
                widened = {**widened, "recency": wider}
                label = f"recency window widened to end on/after {wider}"
                steps.append((label, dict(widened), list(dropped)))
                dropped = dropped + ["recency"]
                steps.append(("recency window dropped", dict(widened), list(dropped)))
            if filters.ongoing_started_by:  # ONGOING_PERFORMED_RULE: bent with recency
                dropped = dropped + ["ongoing_performed"]
                label = "minimum performed period of ongoing work dropped"
                steps.append((label, dict(widened), list(dropped)))
        elif constraint.startswith("customer_type") and filters.customer_types:
            adjacent = set(filters.customer_types)
            for t in filters.customer_types:
                adjacent.update(ADJACENT_CUSTOMER_TYPES.get(t, []))
            if adjacent != set(filters.customer_types):
                widened = {**widened, "customer_type": tuple(sorted(adjacent))}
                label = f"customer types widened to {', '.join(sorted(adjacent))}"
                steps.append((label, dict(widened), list(dropped)))
            if constraint == "customer_type":
                dropped = dropped + ["customer_type"]
                steps.append(("customer type dropped", dict(widened), list(dropped)))
        elif constraint == "industry" and filters.industries:
            dropped = dropped + ["industry"]
            steps.append(("industry requirement dropped", dict(widened), list(dropped)))
        elif constraint == "role" and filters.require_prime:
            dropped = dropped + ["role"]
            steps.append(("prime-only requirement dropped", dict(widened), list(dropped)))
    return steps


@dataclass
class FilterPass:
    """Pass 1 outcome in array form (what ``apply_hard_filters`` returns, before dicts).

    ``ranks`` are the candidates' positions in id order (ascending, so ``candidates`` is
    sorted by id); ``ok`` is (len(candidates), len(names)) bool: whether each candidate meets
    each ORIGINAL constraint in ``names`` (the strict constraints, in SQL order; a fact the
    library does not state counts as met under ``UNKNOWN_RULE``); ``unknown`` the same shape:
    whether the library states the fact each constraint needs (None: not computed).
    """

    candidates: list[str]
    ranks: np.ndarray
    names: list[str]
    ok: np.ndarray
    trace: list[dict[str, Any]]
    relaxed: list[str]
    unknown: np.ndarray | None = None

    def unknowns(self, positions: Any = None) -> dict[str, list[str]]:
        """Constraints whose fact is unknown, per candidate (all, or the given positions)."""
        picked = range(len(self.candidates)) if positions is None else positions
        if self.unknown is None:
            return {self.candidates[j]: [] for j in picked}
        return {
            self.candidates[j]: [n for n, u in zip(self.names, self.unknown[j], strict=True) if u]
            for j in picked
        }

    def misses(self, positions: Any = None) -> dict[str, list[str]]:
        """Failed original constraints per candidate (all, or the given candidate positions)."""
        picked = range(len(self.candidates)) if positions is None else positions
        return {
            self.candidates[j]: [n for n, ok in zip(self.names, self.ok[j], strict=True) if not ok]
            for j in picked
        }

    def missed(self, name: str) -> np.ndarray:
        """Whether each candidate misses the original constraint ``name``, bool (len,); all
        False when the RFP states no such constraint."""
        if name not in self.names:
            return np.zeros(len(self.candidates), dtype=bool)
        return ~self.ok[:, self.names.index(name)]
