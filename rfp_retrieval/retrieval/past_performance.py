"""Past-performance reference ranking (seed 1): hard filters in SQL, facet cosines, bumps.

Pass 1 filters the library in DuckDB SQL (never with vectors). Pass 2 scores the survivors by
weighted facet cosine similarity. Pass 3 adds the recency and same-agency bumps. When fewer
than ``top_k`` entries pass, constraints are relaxed one at a time in the configured order and
every reference that misses an original constraint is labelled with it: there is never a
silent unfiltered search.
"""

from __future__ import annotations

import datetime as dt
import functools
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import duckdb
import numpy as np
import polars as pl
from dateutil.relativedelta import relativedelta
from threadpoolctl import ThreadpoolController

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
    ``emphasized_domains`` the library domain tags the RFP emphasizes; ``domain_weights`` the
    share of the RFP's emphasis each domain tag takes (``ScopeReading.domain_weights``: title,
    scope-section length, Section M mentions; values >= 0, summing to 1 when read from an RFP).
    Empty weights fall back to equal weights over ``emphasized_domains``. ``issuer_type`` is
    the issuer's customer type (``federal-civilian``, ``federal-defense``, ``state``, ``local``,
    ``commercial``, ...; None when not read).
    """

    filters: ScopeFilters
    as_of: dt.date
    vectors: dict[str, np.ndarray]
    issuer: str | None = None
    issuer_acronym: str | None = None
    issuer_type: str | None = None
    section_vectors: np.ndarray | None = None
    emphasized_domains: tuple[str, ...] = ()
    domain_weights: dict[str, float] = field(default_factory=dict)


@dataclass
class EntryVectors:
    """Stored facet vectors of the library: ``ids`` (n,) and per facet a (n, dim) matrix."""

    ids: list[str]
    matrices: dict[str, np.ndarray]
    _rows: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)

    def rows_of(self, ids: list[str], allow_missing: bool = False) -> np.ndarray:
        """Row of each id in the matrices, int64 (len(ids),); -1 for an id without vectors
        when ``allow_missing``. The id -> row map is built once per instance (treat ``ids``
        as frozen after the first call).

        Raises:
            ValueError: some ids have no stored vectors (names the count and one example).
        """
        if self._rows is None:
            self._rows = {pp_id: i for i, pp_id in enumerate(self.ids)}
        rows = self._rows
        out = np.fromiter((rows.get(i, -1) for i in ids), dtype=np.int64, count=len(ids))
        if not allow_missing and len(out) and out.min() < 0:
            missing = [i for i, r in zip(ids, out, strict=True) if r < 0]
            raise ValueError(
                f"{len(missing)} entries have no stored embeddings (e.g. {missing[0]}); "
                "re-materialize pp_facet_embeddings"
            )
        return out

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
    """Top references, the number of candidates that passed, and the filter trace.

    ``ranking_config`` is ``RankingConfig.fingerprint()`` of the config that ranked them
    (which weights produced these scores)."""

    references: list[RankedReference]
    candidate_count: int
    filter_trace: list[dict[str, Any]]
    relaxed: list[str]
    mode: str
    reason: str | None = None
    ranking_config: str | None = None


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
        # completed work is sized by what was funded, not by its ceiling (effective_value_range)
        completed = "(NOT coalesce(ongoing, false) AND value_funded > 0)"
        low = f"CASE WHEN {completed} THEN value_funded ELSE coalesce(value_min, value_max) END"
        high = f"CASE WHEN {completed} THEN value_funded ELSE coalesce(value_max, value_min) END"
        parts = []
        if vmin is not None:
            parts.append(f"{high} >= {int(vmin)}")
        if vmax is not None:
            parts.append(f"{low} <= {int(vmax)}")
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


_DATABASE_LOCK = threading.Lock()
_DATABASE: list[Any] = []


def _filter_database() -> Any:
    """The process's in-memory DuckDB database for pass 1 (created once; about 10 ms).

    Each ``PreparedLibrary`` works in its own ``cursor()`` (a connection of its own, so two
    libraries or threads never share one; a registered table is visible to that cursor only).
    """
    with _DATABASE_LOCK:
        if not _DATABASE:
            _DATABASE.append(duckdb.connect(":memory:"))
        return _DATABASE[0]


_PREPARED_COLUMNS: dict[str, Any] = {
    "end_date": pl.Date,
    "ongoing": pl.Boolean,
    "outcome_vague": pl.Boolean,
    "value_min": pl.Float64,
    "value_max": pl.Float64,
    "value_funded": pl.Float64,
    "customer_named": pl.String,
    "customer_acronym": pl.String,
    "customer_type": pl.String,
    "domains": pl.List(pl.String),
}


_INTEGER_DTYPES = (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32)
_TEXT_DTYPES = (pl.String, pl.Categorical, pl.Enum, pl.Null)


def _text_codes(series: pl.Series) -> tuple[dict[Any, int], np.ndarray]:
    """Dense code of each value of a text column, int64 (n,) with -1 for null, and the code
    of each distinct non-null value."""
    text = series.cast(pl.String)
    codes = text.rank("dense").fill_null(0).to_numpy().astype(np.int64) - 1
    pairs = pl.DataFrame({"value": text, "code": codes}).unique().drop_nulls("value")
    return dict(pairs.rows()), codes


class _FilterColumns:
    """Pass 1's columns in id order as numpy arrays, to evaluate the strict constraints of
    ``_constraint_sql`` without a scan (``PreparedLibrary.strict_ok``).

    Each ``ok_<name>`` method gives the same booleans (n,) as that constraint's SQL
    expression, with SQL's NULL semantics (a NULL comparison counts as a miss) and, for
    floats, DuckDB's ordering of NaN above every number; it returns None when the column's
    dtype is not one it mirrors exactly (the constraint is then evaluated in SQL).
    ``industry_lower`` maps each distinct industry to DuckDB's ``lower()`` of it.
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
            # completed work is sized by its funded value (effective_value_range, as in SQL)
            completed = ~pl.col("ongoing").fill_null(False) & (pl.col("value_funded") > 0)
            funded = pl.col("value_funded")
            pick = {
                "high": pl.when(completed)
                .then(funded)
                .otherwise(pl.coalesce(pl.col("value_max"), pl.col("value_min"))),
                "low": pl.when(completed)
                .then(funded)
                .otherwise(pl.coalesce(pl.col("value_min"), pl.col("value_max"))),
            }
            self.numbers = {}
            for side, expr in pick.items():
                column = ordered.select(expr.cast(kind).alias(side))[side]
                values = column.fill_null(0).to_numpy()
                if kind == pl.Float64:  # DuckDB orders NaN above every number
                    values = np.where(np.isnan(values), np.inf, values)
                self.numbers[side] = (values, column.is_not_null().to_numpy())
        self.dates: dict[str, np.ndarray] = {}
        for name in ("start_date", "end_date"):
            if isinstance(schema[name], (pl.Date, pl.Null)):
                self.dates[name] = ordered[name].cast(pl.Date).to_numpy().astype("datetime64[D]")
        self.ongoing: np.ndarray | None = None
        if isinstance(schema["ongoing"], (pl.Boolean, pl.Null)):
            self.ongoing = ordered["ongoing"].cast(pl.Boolean).fill_null(False).to_numpy()

    def _isin(self, name: str, values: Any) -> np.ndarray | None:
        if name not in self.text:
            return None
        codes_of, codes = self.text[name]
        table = np.zeros(len(codes_of) + 1, dtype=bool)  # the last slot is NULL's (-1)
        for value in values:
            if value in codes_of:
                table[codes_of[value]] = True
        return table[codes]

    def ok_customer_type(self, filters: ScopeFilters) -> np.ndarray | None:
        return self._isin("customer_type", filters.customer_types)

    def ok_industry(self, filters: ScopeFilters) -> np.ndarray | None:
        return self._isin("industry", [i.lower() for i in filters.industries])

    def ok_vehicle_type(self, filters: ScopeFilters) -> np.ndarray | None:
        return self._isin("vehicle_type", filters.vehicle_types)

    def ok_role(self, filters: ScopeFilters) -> np.ndarray | None:
        return self._isin("role", ["prime"])

    def ok_value(self, filters: ScopeFilters) -> np.ndarray | None:
        bounds = [b for b in (filters.value_min, filters.value_max) if b is not None]
        if self.numbers is None or any(abs(int(b)) >= 2**53 for b in bounds):
            return None
        ok = np.ones(self.n, dtype=bool)
        if filters.value_min is not None:
            high, known = self.numbers["high"]
            ok &= known & (high >= int(filters.value_min))
        if filters.value_max is not None:
            low, known = self.numbers["low"]
            ok &= known & (low <= int(filters.value_max))
        return ok

    def ok_recency(self, filters: ScopeFilters) -> np.ndarray | None:
        if self.ongoing is None or "end_date" not in self.dates or filters.ended_after is None:
            return None
        return self.ongoing | (self.dates["end_date"] >= np.datetime64(filters.ended_after, "D"))

    def ok_started_after(self, filters: ScopeFilters) -> np.ndarray | None:
        if "start_date" not in self.dates or filters.started_after is None:
            return None
        return self.dates["start_date"] >= np.datetime64(filters.started_after, "D")

    def evaluate(self, name: str, filters: ScopeFilters) -> np.ndarray | None:
        """Booleans (n,) of the strict constraint ``name``; None to evaluate it in SQL."""
        method = getattr(self, f"ok_{name}", None)
        return None if method is None else method(filters)


class PreparedLibrary:
    """A ``pp_entries`` frame (and its facet vectors) laid out once for many scopes.

    ``rank_references`` and ``apply_hard_filters`` build one per call when not given one;
    ranking many RFPs against one library (evaluation, backfills, benchmarks) should build it
    once with ``PreparedLibrary(entries, vectors)`` and pass it in: at 100,000 entries that
    saves about 0.1 s per scope. Holds the entries in id order (``ids``, ``positions`` =
    row of each in ``entries``), the filter columns registered as a DuckDB table (with
    ``_rank`` = position in id order), each entry's row in the vector matrices
    (``vector_rows``, -1 when it has none) and per-entry facts of the ``default`` score as
    numpy arrays (n,). It references, never copies, the vectors. Not for concurrent use from
    several threads (one DuckDB cursor; a lock serialises the queries).

    ``stage_ms`` holds the wall time (ms) of each stage of the last ``rank_references`` call
    on it: ``filters`` (pass 1), then for the ``default`` mode ``cosines`` (candidate facet
    cosines), ``shortlist`` (numpy totals, top-k cut) and ``components`` (per-entry
    components of the shortlist), then ``rest`` (sorting, result objects).

    Raises:
        ValueError: ``vectors`` is given but not an ``EntryVectors``.
    """

    def __init__(self, entries: pl.DataFrame, vectors: EntryVectors | None = None):
        if vectors is not None and not isinstance(vectors, EntryVectors):
            raise ValueError("PreparedLibrary needs EntryVectors (or None for filters only)")
        self.entries = entries
        self.vectors = vectors
        self.positions = entries["id"].arg_sort().to_numpy().astype(np.int64)
        ordered = entries[self.positions] if entries.height else entries
        self.ids: list[str] = ordered["id"].to_list()
        self._id_array = np.asarray(self.ids, dtype=object)
        table = (
            _filter_columns(ordered)
            .with_columns(pl.Series("_rank", np.arange(entries.height, dtype=np.int64)))
            .to_arrow()
        )
        self._lock = threading.Lock()
        self.stage_ms: dict[str, float] = {}
        self._lap_start = time.perf_counter()
        self._con = _filter_database().cursor()
        self._con.register("entries", table)
        industry_lower: dict[str, str] = {}
        if isinstance(entries.schema["industry"], (pl.String, pl.Categorical, pl.Enum)):
            found = self._con.execute(
                "SELECT DISTINCT industry, lower(industry) FROM entries WHERE industry IS NOT NULL"
            ).fetchall()
            industry_lower = {str(raw): low for raw, low in found}
        self._filter_columns = _FilterColumns(_filter_columns(ordered), industry_lower)
        self.vector_rows: np.ndarray | None = None
        self._whole_mean: np.ndarray | None = None
        if vectors is not None:
            self.vector_rows = vectors.rows_of(self.ids, allow_missing=True)
        n = entries.height
        cols = ordered.select(
            [
                (pl.col(name) if name in entries.columns else pl.repeat(None, n))
                .cast(kind)
                .alias(name)
                for name, kind in _PREPARED_COLUMNS.items()
            ]
        )
        self.ongoing = cols["ongoing"].fill_null(False).to_numpy().astype(bool)
        self.vague = cols["outcome_vague"].fill_null(False).to_numpy().astype(bool)
        self.end = cols["end_date"].to_numpy().astype("datetime64[D]")
        self.value_min = cols["value_min"].fill_null(0).to_numpy().astype(np.float64)
        self.value_max = cols["value_max"].fill_null(0).to_numpy().astype(np.float64)
        self.value_funded = cols["value_funded"].fill_null(0).to_numpy().astype(np.float64)
        self.customer_type = cols["customer_type"].fill_null("").to_numpy().astype(object)
        tags = (
            cols.select(pl.int_range(pl.len()).alias("_rank"), "domains")
            .explode("domains")
            .drop_nulls("domains")
            .unique()
        )
        self.domain_ranks: dict[str, np.ndarray] = {
            tag: group["_rank"].to_numpy()
            for (tag,), group in tags.group_by("domains")
            if tag is not None
        }
        key = pl.concat_str(
            [
                pl.col("customer_named").fill_null("\x00"),
                pl.col("customer_acronym").fill_null("\x00"),
            ],
            separator="\x1f",
        )
        customers = cols.select(
            key.rank("dense").alias("code"), "customer_named", "customer_acronym"
        )
        self.customer_code = customers["code"].to_numpy().astype(np.int64) - 1
        pairs = customers.unique(subset="code").sort("code")
        self.customers: list[tuple[Any, Any]] = [
            (named, acronym) for _, named, acronym in pairs.rows()
        ]

    @property
    def whole_mean(self) -> np.ndarray | None:
        """Mean of the library's whole-entry vectors (dim,) float64, computed once; None
        without vectors. Re-centres the section cosines (``section_centring``)."""
        if self.vectors is None or "whole" not in self.vectors.matrices:
            return None
        if self._whole_mean is None:
            matrix = self.vectors.matrices["whole"]
            self._whole_mean = matrix.mean(axis=0, dtype=np.float64) if len(matrix) else None
        return self._whole_mean

    def __len__(self) -> int:
        return len(self.ids)

    def ids_at(self, ranks: np.ndarray) -> list[str]:
        """The ids at positions ``ranks`` of the id order."""
        return self._id_array[ranks].tolist() if len(ranks) else []

    def query(self, sql: str) -> dict[str, np.ndarray]:
        """Run ``sql`` on the ``entries`` table; columns as numpy arrays."""
        with self._lock:
            return self._con.execute(sql).fetchnumpy()

    def strict_ok(self, filters: ScopeFilters, sql_only: bool = False) -> tuple[list, np.ndarray]:
        """Whether each entry meets each strict (unwidened) constraint of ``filters``.

        Returns the constraint names in ``_constraint_sql`` order and bool (n, len(names)),
        rows in id order. The SQL expressions define the constraints: those the prepared
        numpy columns mirror exactly are evaluated as masks (no scan), any other (or all,
        with ``sql_only``) in one DuckDB scan of the ``entries`` table.
        """
        strict = _constraint_sql(filters, {})
        names = list(strict)
        ok = np.zeros((len(self), len(names)), dtype=bool)
        in_sql = []
        for k, name in enumerate(names):
            mask = None if sql_only else self._filter_columns.evaluate(name, filters)
            if mask is None:
                in_sql.append(k)
            else:
                ok[:, k] = mask
        if in_sql:
            select = ", ".join(["_rank", *[f"{strict[names[k]]} AS ok_{k}" for k in in_sql]])
            result = self.query(f"SELECT {select} FROM entries")
            order = np.asarray(result["_rank"], dtype=np.int64)
            for k in in_sql:
                ok[order, k] = np.asarray(result[f"ok_{k}"], dtype=bool)
        return names, ok

    def close(self) -> None:
        """Release the DuckDB cursor (the object is unusable afterwards)."""
        self._con.close()

    def lap(self, stage: str | None = None) -> None:
        """Record the wall time since the previous lap as ``stage_ms[stage]`` (ms); with no
        ``stage``, start a new call (clears ``stage_ms``)."""
        now = time.perf_counter()
        if stage is None:
            self.stage_ms = {}
        else:
            self.stage_ms[stage] = (now - self._lap_start) * 1000
        self._lap_start = now


@dataclass
class _FilterPass:
    """Pass 1 outcome in array form (what ``apply_hard_filters`` returns, before dicts).

    ``ranks`` are the candidates' positions in id order (ascending, so ``candidates`` is
    sorted by id); ``ok`` is (len(candidates), len(names)) bool: whether each candidate meets
    each ORIGINAL constraint in ``names`` (the strict constraints, in SQL order).
    """

    candidates: list[str]
    ranks: np.ndarray
    names: list[str]
    ok: np.ndarray
    trace: list[dict[str, Any]]
    relaxed: list[str]

    def misses(self, positions: Any = None) -> dict[str, list[str]]:
        """Failed original constraints per candidate (all, or the given candidate positions)."""
        picked = range(len(self.candidates)) if positions is None else positions
        return {
            self.candidates[j]: [n for n, ok in zip(self.names, self.ok[j], strict=True) if not ok]
            for j in picked
        }


def _filter_pass(
    library: PreparedLibrary, filters: ScopeFilters, config: RankingConfig
) -> _FilterPass:
    """Pass 1 (see ``apply_hard_filters``), results kept as numpy arrays.

    ``PreparedLibrary.strict_ok`` evaluates every strict constraint per entry (numpy masks
    mirroring the SQL, or one DuckDB scan); the strict pass is the AND of the hard ones.
    Each relaxation step is its own SQL ``WHERE`` query.
    """
    n = len(library)
    names, ok_all = library.strict_ok(filters)
    trace: list[dict[str, Any]] = [{"filter": "library", "remaining": n}]
    remaining = np.ones(n, dtype=bool)
    for k, name in enumerate(names):
        if name in config.soft_constraints:
            trace.append(
                {
                    "filter": name,
                    "value": _describe(filters, name),
                    "remaining": int(remaining.sum()),
                    "soft_penalty": config.soft_constraints[name],
                }
            )
            continue
        remaining &= ok_all[:, k]
        trace.append(
            {"filter": name, "value": _describe(filters, name), "remaining": int(remaining.sum())}
        )

    soft = set(config.soft_constraints)

    def passing(widened: dict[str, Any], dropped: list[str]) -> np.ndarray:
        exprs = {
            k: v
            for k, v in _constraint_sql(filters, widened).items()
            if k not in dropped and k not in soft
        }
        where = " AND ".join(exprs.values()) or "true"
        found = library.query(f"SELECT _rank FROM entries WHERE {where}")["_rank"]
        return np.sort(np.asarray(found, dtype=np.int64))

    ranks = np.flatnonzero(remaining)
    relaxed: list[str] = []
    if len(ranks) < config.top_k:
        for label, widened, dropped in _relaxation_steps(filters, config):
            if all(k in soft for k in [*widened, *dropped]):
                continue
            relaxed.append(label)
            ranks = passing(widened, dropped)
            trace.append({"filter": f"relaxed: {label}", "remaining": len(ranks)})
            if len(ranks) >= config.top_k:
                break
    candidates = library.ids_at(ranks)
    return _FilterPass(candidates, ranks, names, ok_all[ranks], trace, relaxed)


def apply_hard_filters(
    entries: pl.DataFrame,
    filters: ScopeFilters,
    config: RankingConfig,
    prepared: PreparedLibrary | None = None,
) -> tuple[list[str], dict[str, list[str]], list[dict[str, Any]], list[str]]:
    """Pass 1 (constraints defined as DuckDB SQL expressions), with graded relaxation.

    Constraints in ``config.soft_constraints`` (``default`` mode: value, role, industry)
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
        result = _filter_pass(library, filters, config)
    finally:
        if prepared is None:
            library.close()
    return result.candidates, result.misses(), result.trace, result.relaxed


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
    "value_funded",
]
# Filter columns a hand-built frame may lack (read as unknown): a library without funded values.
_OPTIONAL_FILTER_COLUMNS = {"value_funded": pl.Int64}


def _filter_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame``'s filter columns (``_FILTER_COLUMNS``), optional ones null when absent."""
    return frame.select(
        [
            pl.col(name)
            if name in frame.columns or name not in _OPTIONAL_FILTER_COLUMNS
            else pl.lit(None, dtype=_OPTIONAL_FILTER_COLUMNS[name]).alias(name)
            for name in _FILTER_COLUMNS
        ]
    )


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


# resolve_agency is a pure lookup in static tables (about 0.5 ms a call): memoise it, a
# library names the same few hundred customers over and over.
_resolve_agency = functools.lru_cache(maxsize=16384)(resolve_agency)


def same_customer(row: dict[str, Any], issuer: str | None, issuer_acronym: str | None) -> bool:
    """True when the entry's customer is the issuer or rolls up to the same federal department
    (FNS -> USDA, VHA -> VA); for non-federal customers the organisation names must match."""
    if not issuer and not issuer_acronym:
        return False
    entry_agency = _resolve_agency(row.get("customer_named"), row.get("customer_acronym"))
    issuer_agency = _resolve_agency(issuer, issuer_acronym)
    if entry_agency is not None and issuer_agency is not None:
        return same_department(entry_agency, issuer_agency)
    if entry_agency is not None or issuer_agency is not None:
        return False

    def root(name: str | None) -> str:
        return (name or "").split(",")[0].split("(")[0].strip().lower()

    return bool(root(issuer)) and root(issuer) == root(row.get("customer_named"))


def effective_value_range(row: dict[str, Any]) -> tuple[float | None, float | None]:
    """(low, high) USD by which an entry's size is judged against the RFP's value band.

    Completed work with a stated funded (obligated) value is sized by that value alone: the
    ceiling of a finished contract is an authorisation that was never spent, and evaluators
    compare what was performed (issue #5: "funded vs ceiling value for completed work").
    Ongoing work keeps its stated range (funded-to-date understates it). Each bound falls back
    to the other; (None, None) when no value is known.
    """
    funded = row.get("value_funded")
    if funded and not row.get("ongoing"):
        return float(funded), float(funded)
    low = row.get("value_min") or row.get("value_max")
    high = row.get("value_max") or row.get("value_min")
    return (float(low) if low else None), (float(high) if high else None)


def scope_domain_weights(scope: ScopeQuery) -> dict[str, float]:
    """The domain tags the ranking rewards and the weight of each, normalised to sum to 1.

    ``scope.domain_weights`` when the RFP reading gave any positive weight (scope weighting:
    title, section length, Section M), else equal weights over ``scope.emphasized_domains``;
    {} when neither names a domain. Sorted by tag so every sum runs in the same order.
    """
    weights = {d: float(w) for d, w in (scope.domain_weights or {}).items() if w and w > 0}
    if not weights:
        weights = {d: 1.0 for d in scope.emphasized_domains}
    total = sum(weights.values())
    return {d: weights[d] / total for d in sorted(weights)} if total > 0 else {}


def domain_match_share(domains: Any, weights: dict[str, float]) -> float:
    """Share of the RFP's domain emphasis (``scope_domain_weights``) an entry's structured
    domain tags cover, in [0, 1]: the sum of the weights of the tags it carries.

    Tags are matched exactly against the library vocabulary (``library.vocab.DOMAIN_TAGS``),
    not through embeddings, so a veteran's "does it show HR systems work?" is answered by the
    entry's own tagging (issue #5: structured domain tags vs the RFP's emphasized domains).
    """
    tags = set(domains or ())
    return sum(w for d, w in weights.items() if d in tags)


def _agency_matcher(scope: ScopeQuery) -> Any:
    """``same_customer`` for this scope's issuer, memoised per (customer, acronym) pair: a
    library repeats a few hundred customers over many entries."""
    cache: dict[tuple[Any, Any], bool] = {}

    def match(named: Any, acronym: Any) -> bool:
        key = (named, acronym)
        if key not in cache:
            row = {"customer_named": named, "customer_acronym": acronym}
            cache[key] = same_customer(row, scope.issuer, scope.issuer_acronym)
        return cache[key]

    return match


# Above this many candidates the ``default`` mode scores every candidate with numpy first and
# builds the per-component dicts only for the few that can reach the top ``top_k``.
_SHORTLIST_ABOVE = 64
# Margin (score units) that keeps every candidate whose rounded score could tie the k-th.
_SHORTLIST_MARGIN = 1e-8
# From this many candidates on, their vector rows are gathered this many at a time: a multiple
# of 8 (no OpenBLAS gemv kernel tail, on one thread or two) and large enough that sgemm with two
# section vectors does not take OpenBLAS's small-matrix kernels (M*N*K > 1e6 at 384 dims).
_CHUNK_ROWS = 1536


class _OneBlasThread:
    """Context manager: BLAS libraries (OpenBLAS here) run single-threaded inside it.

    The chunk products are small and memory-bound; on two shared cores, waking a second BLAS
    thread for each costs more than it saves (measured: 2.5 vs 21 ms p50 for the cosines of
    ~1,900 candidates with the machine loaded). The limit is process-wide while held, so it
    is counted: the first thread to enter sets it, the last to leave restores the original.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._controller: ThreadpoolController | None = None
        self._limiter: Any = None

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                if self._controller is None:
                    self._controller = ThreadpoolController()
                self._limiter = self._controller.limit(limits=1, user_api="blas")
            self._depth += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0:
                self._limiter.restore_original_limits()
                self._limiter = None


_ONE_BLAS_THREAD = _OneBlasThread()


def section_centring(library_mean: np.ndarray | None, sections: np.ndarray) -> np.ndarray:
    """Per-section shifts that re-centre section cosines on the library, (m,) float32.

    ``library_mean`` is the mean of the library's whole-entry vectors (dim,), ``sections``
    the scope's (m, dim) unit section vectors. The library's mean cosine to section ``s`` is
    ``mu_s = library_mean . s`` (a mean of dot products is the dot product with the mean); the
    shift is ``mean(mu) - mu_s``, so every section has the same library-wide mean cosine and a
    section that every entry matches about as well (testing, operations and maintenance,
    hosting) no longer decides ``section_max`` by being generic, while the values stay on the
    cosine scale. Zeros when ``library_mean`` is None or there is one section.
    """
    sections = np.asarray(sections)
    if library_mean is None or len(sections) < 2:
        return np.zeros(len(sections), dtype=np.float32)
    mu = sections.astype(np.float64) @ np.asarray(library_mean, dtype=np.float64)
    return (mu.mean() - mu).astype(np.float32)


def _candidate_cosines(
    matrices: dict[str, np.ndarray],
    idx: np.ndarray,
    scope: ScopeQuery,
    library_mean: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The facet cosines the ``default`` mode scores, for the candidates at rows ``idx``.

    Returns ``(whole, outcome, section_max)``, each (len(idx),) in the matrices' dtype
    (float32): whole-entry row x the scope's ``whole`` vector, outcome row x its ``outcome``
    vector, and the best whole-entry row x section vector (the ``technical`` vector when the
    scope has no sections), each section's cosines re-centred on the library
    (``section_centring`` with ``library_mean``, the mean whole-entry vector; no centring
    when None). Vectors are unit length, so the first two are cosines in [-1, 1] and
    ``section_max`` a re-centred cosine on the same scale.

    Below ``_CHUNK_ROWS`` candidates their rows are gathered in one copy per facet. From
    there on (a loose filter on a large library: the time is memory traffic), rows are
    gathered ``_CHUNK_ROWS`` at a time into one buffer that stays in cache while the query
    vectors are applied, so each row is read from memory once instead of copied out, read
    back and read again for the sections, and BLAS runs on one thread (``_OneBlasThread``).
    Every chunk has exactly ``_CHUNK_ROWS`` rows (the last overlaps the one before), so
    OpenBLAS runs the same kernels as on a one-shot product and a row gets the same bits
    whatever the candidate set. (Against the one-shot product on two BLAS threads, the way
    these cosines were computed before, only the up to 3 last rows of each thread's half
    can differ, by a float32 ulp: gemv kernel tails.)

    Raises:
        ValueError: an index is outside the matrices.
    """
    whole_q, outcome_q = scope.vectors["whole"], scope.vectors["outcome"]
    sections = scope.section_vectors
    if sections is None or len(sections) == 0:
        sections = scope.vectors["technical"][None, :]
    sections_t = np.asarray(sections).T
    shift = section_centring(library_mean, sections).astype(sections_t.dtype)
    whole_m, outcome_m = matrices["whole"], matrices["outcome"]
    size = len(idx)
    if size and (idx.min() < 0 or idx.max() >= min(len(whole_m), len(outcome_m))):
        raise ValueError("candidate rows outside the vector matrices")
    if size < _CHUNK_ROWS:
        whole_rows = whole_m[idx]
        section_max = (whole_rows @ sections_t + shift).max(axis=1)
        return whole_rows @ whole_q, outcome_m[idx] @ outcome_q, section_max
    whole = np.empty(size, dtype=np.result_type(whole_m, whole_q))
    outcome = np.empty(size, dtype=np.result_type(outcome_m, outcome_q))
    section_max = np.empty(size, dtype=np.result_type(whole_m, sections_t))
    whole_buf = np.empty((_CHUNK_ROWS, whole_m.shape[1]), dtype=whole_m.dtype)
    outcome_buf = whole_buf
    if (outcome_m.shape[1], outcome_m.dtype) != (whole_m.shape[1], whole_m.dtype):
        outcome_buf = np.empty((_CHUNK_ROWS, outcome_m.shape[1]), dtype=outcome_m.dtype)
    starts = list(range(0, size - _CHUNK_ROWS + 1, _CHUNK_ROWS))
    if starts[-1] + _CHUNK_ROWS < size:
        starts.append(size - _CHUNK_ROWS)
    with _ONE_BLAS_THREAD:
        for start in starts:
            part = slice(start, start + _CHUNK_ROWS)
            # mode="clip" writes straight into the buffer (bounds were checked above)
            rows = np.take(whole_m, idx[part], axis=0, out=whole_buf, mode="clip")
            whole[part] = rows @ whole_q
            section_max[part] = (rows @ sections_t + shift).max(axis=1)
            rows = np.take(outcome_m, idx[part], axis=0, out=outcome_buf, mode="clip")
            outcome[part] = rows @ outcome_q
    return whole, outcome, section_max


def _default_totals(
    library: PreparedLibrary,
    passed: _FilterPass,
    cosines: tuple[np.ndarray, np.ndarray, np.ndarray],
    scope: ScopeQuery,
    config: RankingConfig,
    agency_match: Any,
) -> np.ndarray:
    """Every candidate's ``default``-mode total at once, float64 (len(candidates),).

    Same components, added in the same order, as the per-entry loop of ``_score_default``
    (that loop stays the reference: its totals decide the final ranking); used only to pick
    the shortlist.
    """
    r = passed.ranks
    whole, outcome, section_max = (c.astype(np.float64) for c in cosines)
    total = config.default_weight_whole * whole
    total = total + config.default_weight_outcome * outcome
    total = total + config.default_weight_section * section_max
    weights = scope_domain_weights(scope)
    if weights:
        share = np.zeros(len(library), dtype=np.float64)
        for tag, weight in weights.items():
            share[library.domain_ranks.get(tag, np.zeros(0, dtype=np.int64))] += weight
        total = total + config.domain_weight * share[r]
    end, ongoing = library.end[r], library.ongoing[r]
    has_end = ~np.isnat(end)
    recent_from = np.datetime64(scope.as_of - relativedelta(months=config.recent_months), "D")
    old_before = np.datetime64(scope.as_of - relativedelta(years=config.old_years), "D")
    recent = ongoing | (has_end & (end >= recent_from))
    old = has_end & ~ongoing & (end < old_before)
    total = total + np.where(recent, config.default_recent_bump, 0.0)
    total = total + np.where(old, config.default_old_penalty, 0.0)
    if scope.issuer or scope.issuer_acronym:
        flags = np.asarray([agency_match(n, a) for n, a in library.customers], dtype=bool)
        total = total + np.where(flags[library.customer_code[r]], config.default_agency_bump, 0.0)
    if scope.issuer_type:
        same = library.customer_type[r] == scope.issuer_type
        total = total + np.where(same, config.default_sector_bump, 0.0)
    total = total + np.where(library.vague[r], config.vague_penalty, 0.0)
    for name, penalty in config.soft_constraints.items():
        if name not in passed.names:
            continue
        missed = ~passed.ok[:, passed.names.index(name)]
        total = total + np.where(missed, -penalty, 0.0)
    return total


def _score_default(
    library: PreparedLibrary,
    passed: _FilterPass,
    idx: np.ndarray,
    scope: ScopeQuery,
    config: RankingConfig,
    agency_match: Any,
    depth: int | None = None,
) -> tuple[list[tuple[float, str, dict[str, float]]], dict[str, dict[str, Any]], dict]:
    """Scores of the ``default`` mode (see ``RankingConfig``), every component kept.

    ``idx`` holds the candidates' rows in the vector matrices. Returns ``(scored, rows,
    misses)`` for the candidates that can reach the top ``depth``: all of them up to
    ``_SHORTLIST_ABOVE`` candidates, else those whose numpy total is within
    ``_SHORTLIST_MARGIN`` of the ``depth``-th best (no other can enter the top k, whatever the
    rounding). Their components and totals come from the per-entry loop below.
    """
    assert library.vectors is not None
    depth = config.top_k if depth is None else depth
    candidates = passed.candidates
    whole, outcome, section_max = _candidate_cosines(
        library.vectors.matrices, idx, scope, library.whole_mean
    )
    library.lap("cosines")
    shortlist: Any = range(len(candidates))
    if len(candidates) > max(_SHORTLIST_ABOVE, depth):
        totals = _default_totals(
            library, passed, (whole, outcome, section_max), scope, config, agency_match
        )
        kth = -np.partition(-totals, depth - 1)[depth - 1]
        shortlist = np.flatnonzero(totals >= kth - _SHORTLIST_MARGIN).tolist()
    library.lap("shortlist")
    positions = library.positions[passed.ranks[np.asarray(shortlist, dtype=np.int64)]]
    rows = {r["id"]: r for r in library.entries[positions].to_dicts()}
    misses = passed.misses(shortlist)
    weights = scope_domain_weights(scope)
    soft = config.soft_constraints
    recent_from = scope.as_of - relativedelta(months=config.recent_months)
    old_before = scope.as_of - relativedelta(years=config.old_years)
    scored = []
    for j in shortlist:
        pp_id = candidates[j]
        row = rows[pp_id]
        comps = {
            "whole": float(whole[j]),
            "outcome": float(outcome[j]),
            "section_max": float(section_max[j]),
        }
        comps["weighted_whole"] = config.default_weight_whole * comps["whole"]
        comps["weighted_outcome"] = config.default_weight_outcome * comps["outcome"]
        comps["weighted_section_max"] = config.default_weight_section * comps["section_max"]
        comps["domain_match"] = config.domain_weight * domain_match_share(
            row.get("domains"), weights
        )
        end = row.get("end_date")
        recent = bool(row.get("ongoing")) or (end is not None and end >= recent_from)
        old = end is not None and not row.get("ongoing") and end < old_before
        comps["recency_bump"] = config.default_recent_bump if recent else 0.0
        comps["age_penalty"] = config.default_old_penalty if old else 0.0
        agency = agency_match(row.get("customer_named"), row.get("customer_acronym"))
        comps["agency_bump"] = config.default_agency_bump if agency else 0.0
        same_sector = bool(scope.issuer_type) and row.get("customer_type") == scope.issuer_type
        comps["sector_bump"] = config.default_sector_bump if same_sector else 0.0
        comps["vague_penalty"] = config.vague_penalty if row.get("outcome_vague") else 0.0
        for name, penalty in soft.items():
            missed = name in misses.get(pp_id, [])
            comps[f"{name}_penalty"] = -penalty if missed else 0.0
        total = sum(v for k, v in comps.items() if k not in ("whole", "outcome", "section_max"))
        scored.append((total, pp_id, comps))
    library.lap("components")
    return scored, rows, misses


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
        ValueError: a candidate entry has no stored vectors (re-materialize the embeddings),
            or ``prepared`` was built from another frame or other vectors.
    """
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


def _rank(
    library: PreparedLibrary, scope: ScopeQuery, config: RankingConfig, depth: int
) -> RankingResult:
    """``rank_references`` on a prepared library, ``depth`` references returned."""
    assert library.vectors is not None and library.vector_rows is not None
    vectors, entries = library.vectors, library.entries
    passed: _FilterPass | None = None
    library.lap()
    if config.uses_filters:
        passed = _filter_pass(library, scope.filters, config)
        candidates, trace, relaxed = passed.candidates, passed.trace, passed.relaxed
        idx = library.vector_rows[passed.ranks]
    else:
        candidates = list(library.ids)
        trace, relaxed = [], []
        idx = library.vector_rows
    if len(idx) and idx.min() < 0:
        missing = [c for c, i in zip(candidates, idx, strict=True) if i < 0]
        raise ValueError(
            f"{len(missing)} entries have no stored embeddings (e.g. {missing[0]}); "
            "re-materialize pp_facet_embeddings"
        )
    library.lap("filters")
    agency_match = _agency_matcher(scope)
    scored: list[tuple[float, str, dict[str, float]]] = []
    if config.mode == "default" and passed is not None:
        scored, rows, misses = _score_default(
            library, passed, idx, scope, config, agency_match, depth
        )
    else:
        misses = passed.misses() if passed is not None else {i: [] for i in candidates}
        rows = {r["id"]: r for r in entries.filter(pl.col("id").is_in(candidates)).to_dicts()}
    if config.mode == "naive":
        sims = vectors.matrices["whole"][idx] @ scope.vectors["whole"] if len(idx) else []
        for pp_id, sim in zip(candidates, sims, strict=True):
            scored.append((float(sim), pp_id, {"whole": float(sim)}))
    elif config.mode != "default":
        sims = {f: vectors.matrices[f][idx] @ scope.vectors[f] for f in FACETS}
        weights = config.weights
        for j, pp_id in enumerate(candidates):
            comps = {f: float(sims[f][j]) for f in FACETS}
            for f in FACETS:
                comps[f"weighted_{f}"] = weights[f] * comps[f]
            total = sum(comps[f"weighted_{f}"] for f in FACETS)
            if config.uses_bumps:
                row = rows[pp_id]
                bumps = recency_bumps(row, scope.as_of, config)
                agency = agency_match(row.get("customer_named"), row.get("customer_acronym"))
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
        for k, (total, pp_id, comps) in enumerate(scored[:depth])
    ]
    reason = None
    if not refs:
        reason = "no library entry passed the filters, even after every relaxation"
    library.lap("rest")
    return RankingResult(
        refs, len(candidates), trace, relaxed, config.mode, reason, config.fingerprint()
    )
