"""The prepared library: a ``pp_entries`` frame and its facet vectors laid out once.

``PreparedLibrary`` holds the entries in id order, their filter columns registered as a DuckDB
table (pass 1's SQL) and as numpy masks (``filters.FilterColumns``), each entry's row in the
vector matrices, and the per-entry facts the score components read as numpy arrays.
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Any, overload

import duckdb
import numpy as np
import polars as pl

from rfp_retrieval.retrieval.facets import entry_facet_texts, missing_facets_frame
from rfp_retrieval.retrieval.filters import (
    CONSTRAINT,
    FilterColumns,
    constraint_sql,
    filter_columns,
)
from rfp_retrieval.retrieval.kernels import CompactVectors, compact_vectors
from rfp_retrieval.retrieval.lexical import tool_name_pattern
from rfp_retrieval.retrieval.records import EntryVectors, ScopeFilters

COMPACT_FACETS = ("whole", "outcome")
"""The facets the ``default`` mode's cosines read (``kernels.candidate_cosines``): the ones
the prescreen keeps an int8 copy of."""

CONSTRAINT_COLUMNS_KEPT = 64
"""Constraint columns (bool, one byte an entry: 64 MB at a million entries) a
``PreparedLibrary`` keeps for ``strict_ok`` and ``unknown``, the least recently used
dropped first."""

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
    "industry": pl.String,
    "domains": pl.List(pl.String),
}


def take_rows(matrix: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Rows ``rows`` (int64 (m,)) of a column-major (n, k) ``matrix`` (``strict_ok``,
    ``unknown``), gathered one column at a time: (m, k) C order, equal to ``matrix[rows]``
    (which gathers row by row across the columns: 3.7 vs 1.4 ms for 360,000 of a million
    rows, five columns)."""
    if matrix.ndim != 2 or not matrix.shape[1]:
        return matrix[rows]
    return np.stack([matrix[:, k][rows] for k in range(matrix.shape[1])], axis=1)


class RankIds(Sequence[str]):
    """The ids of the entries at positions ``ranks`` (int64 (len,)) of ``id_array`` (object
    (n,) of str), read on access: a read-only sequence of str equal to the list of those ids
    (``==`` with a list or tuple compares item by item). Building the Python list of every
    candidate's id took 7-28 ms at a million entries, for a ranking that reads a few."""

    __slots__ = ("_ids", "_ranks")

    def __init__(self, id_array: np.ndarray, ranks: np.ndarray):
        self._ids, self._ranks = id_array, ranks

    def __len__(self) -> int:
        return len(self._ranks)

    @overload
    def __getitem__(self, at: int) -> str: ...

    @overload
    def __getitem__(self, at: slice) -> list[str]: ...

    def __getitem__(self, at: int | slice) -> str | list[str]:
        if isinstance(at, slice):
            return self._ids[self._ranks[at]].tolist()
        return self._ids[self._ranks[at]]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids[self._ranks].tolist())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (RankIds, list, tuple)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-looking: like a list, unhashable

    def __repr__(self) -> str:
        return f"RankIds({list(self)!r})"


class PreparedLibrary:
    """A ``pp_entries`` frame (and its facet vectors) laid out once for many scopes.

    ``rank_references`` and ``apply_hard_filters`` build one per call when not given one;
    ranking many RFPs against one library (evaluation, backfills, benchmarks) should build it
    once with ``PreparedLibrary(entries, vectors)`` and pass it in: at 100,000 entries that
    saves about 0.1 s per scope. Holds the entries in id order (``ids``, ``positions`` =
    row of each in ``entries``), the filter columns registered as a DuckDB table (with
    ``_rank`` = position in id order), each entry's row in the vector matrices
    (``vector_rows``, -1 when it has none) and per-entry facts the score components read
    (``components.REGISTRY``) as numpy arrays (n,), among them ``facet_missing`` (facet ->
    bool (n,): the entry's facet text is empty, ``facets.missing_facets_frame``; and
    ``facet_missing_any``, facet -> whether any entry misses it). It references, never
    copies, the vectors. Not for concurrent use from several threads (one DuckDB cursor; a
    lock serialises the queries).

    ``stage_ms`` holds the wall time (ms) of each stage of the last ``rank_references`` call
    on it: ``filters`` (pass 1), ``cosines`` (candidate facet cosines), ``shortlist`` (numpy
    totals, top-k cut) and ``components`` (per-entry components of the shortlist), then
    ``rest`` (sorting, result objects).

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
            filter_columns(ordered)
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
        self._filter_columns = FilterColumns(filter_columns(ordered), industry_lower)
        self.vector_rows: np.ndarray | None = None
        self._whole_mean: np.ndarray | None = None
        self._compact: CompactVectors | None = None
        self._ordered = ordered
        self._lexical: Any = None  # lexical.LexicalIndex, built on first use
        self._has_domain: dict[str, np.ndarray] = {}
        self._zeros: np.ndarray | None = None
        self._columns: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._columns_lock = threading.Lock()
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
        self.industry = cols["industry"].str.to_lowercase().fill_null("").to_numpy().astype(object)
        missing = missing_facets_frame(ordered)
        self.facet_missing: dict[str, np.ndarray] = {
            facet: missing[facet].to_numpy().astype(bool) for facet in missing.columns
        }
        self.facet_missing_any: dict[str, bool] = {
            facet: bool(flags.any()) for facet, flags in self.facet_missing.items()
        }
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
        self.customer_code = customers["code"].to_numpy().astype(np.int32) - 1
        pairs = customers.unique(subset="code").sort("code")
        self.customers: list[tuple[Any, Any]] = [
            (named, acronym) for _, named, acronym in pairs.rows()
        ]

    def has_domain(self, tag: str) -> np.ndarray:
        """Whether each entry carries domain tag ``tag``, bool (n,) in id order (all False
        for a tag no entry carries); built from ``domain_ranks`` on first use and kept (one
        byte an entry per tag asked about)."""
        with self._lock:
            if tag not in self._has_domain:
                flags = np.zeros(len(self), dtype=bool)
                flags[self.domain_ranks.get(tag, np.zeros(0, dtype=np.int64))] = True
                self._has_domain[tag] = flags
            return self._has_domain[tag]

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

    def compact(self, build: bool = True) -> CompactVectors | None:
        """The int8 copy (``kernels.CompactVectors``) of the ``COMPACT_FACETS`` matrices that
        the scorer prescreens large candidate sets with (``scoring.prescreened_values``).

        Built by the first call with ``build`` (about 1 s per 100,000 rows on a quiet core)
        and kept: a quarter of those float32 matrices' memory. The scorer asks with
        ``build=False``, so the copy is used only once a caller that ranks many scopes against
        this library has built it (``PreparedLibrary(entries, vectors).compact()``): for one
        ranking it costs more than the exact cosines it saves. None when not built (with
        ``build=False``), without vectors, or when a matrix is not float32 or the shapes
        differ (every candidate is then scored exactly).

        Raises:
            ValueError: a vector row holds a NaN or infinity (names the facet and row).
        """
        if self.vectors is None:
            return None
        matrices = self.vectors.matrices
        found = [matrices.get(f) for f in COMPACT_FACETS]
        if any(m is None or m.ndim != 2 or m.dtype != np.float32 for m in found):
            return None
        if len({m.shape for m in found}) != 1:
            return None
        with self._lock:
            if self._compact is None and build:
                self._compact = compact_vectors(matrices, COMPACT_FACETS)
            return self._compact

    def lexical_scores(self, text: str, tool_weight: float = 1.0) -> np.ndarray:
        """BM25 relevance of every entry to ``text``, divided by the best entry's, float64 (n,)
        in [0, 1], rows in id order (``components.LEXICAL_RULE``); all 0 when ``text`` shares
        no word with the library (then one read-only array of zeros kept for every such text:
        a fresh 8 MB array at a million entries cost ~1 ms of page faults per scope).

        ``tool_weight`` (>= 0) is what the text's tool names count beside its other words
        (``lexical.TOOL_NAME_RULE``: the library's stack tags and the known technology
        names, ``tool_names``): the BM25 of the text without them plus ``tool_weight`` x the
        BM25 of the tool names alone; 1.0 scores the text as one query.

        Each entry's text is its title, narrative, domains, technologies, technical approach
        and outcomes (``facets.entry_facet_texts`` without the customer), indexed by the one BM25
        rule of both libraries (``lexical.LexicalIndex``), built on the first call whose
        ``text`` has a content word and kept (a text without one scores 0 everywhere, so it
        needs no index: tokenising a million entries takes minutes).
        """
        from rfp_retrieval.retrieval.lexical import LexicalIndex, split_tool_names
        from rfp_retrieval.rewrite.terms import index_tokens

        n = len(self)
        if not n:
            return np.zeros(0, dtype=np.float64)
        if self._lexical is None and not index_tokens(text or ""):
            return self.no_lexical_match()  # no query word: no need for the index
        with self._lock:
            if self._lexical is None:
                tokens = []
                for row in self._ordered.iter_rows(named=True):
                    texts = entry_facet_texts(row)
                    joined = "\n".join(texts[f] for f in ("narrative", "technical", "outcome"))
                    tokens.append(index_tokens(joined))
                self._lexical = LexicalIndex(tokens)
        if tool_weight == 1.0:
            scores = self._lexical.scores(text).astype(np.float64)
        else:
            topic, tools = split_tool_names(text, self.tool_names)
            scores = self._lexical.scores(topic).astype(np.float64)
            if tools and tool_weight:
                scores = scores + tool_weight * self._lexical.scores(tools).astype(np.float64)
        best = scores.max()
        return scores / best if best > 0 else self.no_lexical_match()

    def no_lexical_match(self) -> np.ndarray:
        """Zeros, float64 (n,), read-only, made once (``lexical_scores`` of a text that shares
        no word with the library)."""
        if self._zeros is None:
            zeros = np.zeros(len(self), dtype=np.float64)
            zeros.flags.writeable = False
            self._zeros = zeros
        return self._zeros

    @functools.cached_property
    def tool_names(self) -> re.Pattern[str] | None:
        """``lexical.tool_name_pattern`` of this library's stack tags and the known
        technology names (``library.vocab.TECHNOLOGY_TAGS``); None when there are none."""
        from rfp_retrieval.library.vocab import TECHNOLOGY_TAGS

        tags: set[str] = set()
        if "stack_tags" in self._ordered.columns and self._ordered.height:
            for row in self._ordered["stack_tags"].to_list():
                tags.update(str(t) for t in (row or ()))
        return tool_name_pattern(sorted(tags), TECHNOLOGY_TAGS)

    def __len__(self) -> int:
        return len(self.ids)

    def ids_at(self, ranks: np.ndarray) -> RankIds:
        """The ids at positions ``ranks`` of the id order, as a ``RankIds`` sequence (each id
        is looked up when read: a loose filter on a million entries leaves ~100,000
        candidates of which the ranking reads a few)."""
        return RankIds(self._id_array, ranks)

    def query(self, sql: str) -> dict[str, np.ndarray]:
        """Run ``sql`` on the ``entries`` table; columns as numpy arrays."""
        with self._lock:
            return self._con.execute(sql).fetchnumpy()

    def _kept(self, key: tuple[str, str]) -> np.ndarray | None:
        """The constraint column kept under ``key`` (read-only bool (n,)), or None."""
        with self._columns_lock:
            column = self._columns.get(key)
            if column is not None:
                self._columns.move_to_end(key)
            return column

    def _keep(self, key: tuple[str, str], column: np.ndarray) -> None:
        """Keep a copy of ``column`` under ``key`` (``CONSTRAINT_COLUMNS_KEPT`` at most)."""
        kept = np.array(column, dtype=bool)
        kept.flags.writeable = False
        with self._columns_lock:
            self._columns[key] = kept
            self._columns.move_to_end(key)
            while len(self._columns) > CONSTRAINT_COLUMNS_KEPT:
                self._columns.popitem(last=False)

    def forget_constraint_columns(self) -> None:
        """Drop every kept constraint column (the next calls compute them again)."""
        with self._columns_lock:
            self._columns.clear()

    def _constraint_columns(
        self, keys: list[tuple[str, str]], out: np.ndarray, compute: Any, query: Any
    ) -> None:
        """Fill column ``k`` of ``out`` (n, len(keys)) with the kept column ``keys[k]``, else
        ``compute(k)`` (a numpy mask, or None), else from one DuckDB scan ``query(ks)`` (the
        columns ``ks`` still missing, each (n,) in id order); keeps what it computed."""
        in_sql = []
        for k, key in enumerate(keys):
            column = self._kept(key)
            if column is None:
                column = compute(k)
            if column is None:
                in_sql.append(k)
                continue
            out[:, k] = column
            self._keep(key, out[:, k])
        if in_sql:
            for k, column in query(in_sql).items():
                out[:, k] = column
                self._keep(keys[k], out[:, k])

    def _scan(self, exprs: dict[int, str]) -> dict[int, np.ndarray]:
        """``{k: expression k over every entry}`` from one DuckDB scan, bool (n,) in id order."""
        select = ", ".join(["_rank", *[f"{expr} AS c_{k}" for k, expr in exprs.items()]])
        result = self.query(f"SELECT {select} FROM entries")
        order = np.asarray(result["_rank"], dtype=np.int64)
        columns = {}
        for k in exprs:
            column = np.zeros(len(self), dtype=bool)
            column[order] = np.asarray(result[f"c_{k}"], dtype=bool)
            columns[k] = column
        return columns

    def strict_ok(self, filters: ScopeFilters, sql_only: bool = False) -> tuple[list, np.ndarray]:
        """Whether each entry meets each strict (unwidened) constraint of ``filters``.

        Returns the constraint names in ``filters.constraint_sql`` order and bool (n, len(names)),
        rows in id order, column-major (each constraint's column contiguous: pass 1 reads
        and combines them a column at a time). The SQL expressions define the constraints:
        those the prepared numpy columns mirror exactly are evaluated as masks (no scan), any
        other (or all, with ``sql_only``) in one DuckDB scan of the ``entries`` table. A
        column is kept by its SQL expression (``CONSTRAINT_COLUMNS_KEPT``): the same
        expression gives the same booleans, so a later scope stating the same constraint
        (a customer type, a recency window, prime role) copies it instead (a few ms of
        pass 1 at a million entries). ``sql_only`` neither reads nor keeps them.
        """
        strict = constraint_sql(filters, {})
        names = list(strict)
        ok = np.zeros((len(self), len(names)), dtype=bool, order="F")  # a column per constraint
        if sql_only:
            if names:
                for k, column in self._scan(dict(enumerate(strict.values()))).items():
                    ok[:, k] = column
            return names, ok
        self._constraint_columns(
            [("ok", strict[name]) for name in names],
            ok,
            lambda k: CONSTRAINT[names[k]].mask(self._filter_columns, filters),
            lambda ks: self._scan({k: strict[names[k]] for k in ks}),
        )
        return names, ok

    def unknown(self, filters: ScopeFilters, names: list[str]) -> np.ndarray:
        """Whether the library leaves unknown the fact each constraint ``names`` needs, per
        entry: bool (n, len(names)), rows in id order, column-major as ``strict_ok``
        (``Constraint.unknown_sql``, or its numpy mirror ``unknown_mask``;
        ``filters.UNKNOWN_RULE``), kept by that SQL as ``strict_ok`` keeps its columns."""
        unknown = np.zeros((len(self), len(names)), dtype=bool, order="F")
        exprs = [str(CONSTRAINT[name].unknown_sql(filters)) for name in names]
        self._constraint_columns(
            [("unknown", expr) for expr in exprs],
            unknown,
            lambda k: CONSTRAINT[names[k]].unknown_mask(self._filter_columns, filters),
            lambda ks: self._scan({k: exprs[k] for k in ks}),
        )
        return unknown

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
