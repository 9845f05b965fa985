"""The typed query and results of past-performance ranking (seed 1: ScopeQuery).

``ScopeFilters`` and ``ScopeQuery`` are what the RFP asks for; ``EntryVectors`` the library's
stored facet vectors; ``RankedReference`` and ``RankingResult`` what ``rank_references``
returns. Plain records: no ranking rule lives here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import polars as pl


@dataclass(frozen=True)
class ScopeFilters:
    """Hard filters read from the RFP (seed 1: ScopeQuery.filters). Money in USD.

    ``ended_after``: the work must have ended on/after this date or be ongoing (recency).
    ``started_after``: the work must have started on/after this date.
    ``started_by``: the work must have started on/before this date: the RFP's as-of date,
    set at ranking time (``filters.STARTED_BY_RULE``; None: not applied).
    ``ongoing_started_by``: work still in progress counts only when it started on/before this
    date, the RFP's minimum performed period ("counts if at least one year has been
    performed": ``filters.ONGOING_PERFORMED_RULE``); completed work is not affected.
    ``require_prime``: the RFP accepts only references performed as prime contractor.
    ``industries_preferred``: industries the RFP prefers (not a filter: an entry in another
    industry pays the ``industry_penalty``; ``components.Candidates.other_industry``).
    ``industries_alternative``: industries that meet the customer-type rule in place of
    ``customer_types`` ("state agencies or electric utilities": ``filters.CustomerType``).
    """

    customer_types: tuple[str, ...] = ()
    industries: tuple[str, ...] = ()
    industries_preferred: tuple[str, ...] = ()
    industries_alternative: tuple[str, ...] = ()
    vehicle_types: tuple[str, ...] = ()
    value_min: int | None = None
    value_max: int | None = None
    started_after: dt.date | None = None
    ended_after: dt.date | None = None
    require_prime: bool = False
    started_by: dt.date | None = None
    ongoing_started_by: dt.date | None = None

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("started_after", "ended_after", "started_by", "ongoing_started_by"):
            out[key] = out[key].isoformat() if out[key] else None
        for key in (
            "customer_types",
            "industries",
            "industries_preferred",
            "industries_alternative",
            "vehicle_types",
        ):
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
    ``commercial``, ...; None when not read). ``model`` is the id of the model that made
    ``vectors`` and ``section_vectors`` (None: not recorded); ``rfp_partition`` the stored row's
    partition key (or golden ``scope_id``), named in errors. ``text`` is the RFP's ranking
    text the lexical component matches word for word (``components.LEXICAL_RULE``: title,
    background, outcomes and the units of the work); "" when not known (the component is 0).
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
    model: str | None = None
    rfp_partition: str = ""
    text: str = ""


# Rows of a facet converted from the frame's list column at a time (``EntryVectors.from_frame``).
_FROM_FRAME_ROWS = 65536


class MixedModelsError(ValueError):
    """A ranking would compare vectors made by different embedding models (the message names
    the partition, the model ids and what to re-materialize)."""


@dataclass
class EntryVectors:
    """Stored facet vectors of the library: ``ids`` (n,) and per facet a (n, dim) matrix.

    ``models``: the distinct ids (sorted) of the models that made the stored rows; empty when
    not recorded (vectors built in memory)."""

    ids: list[str]
    matrices: dict[str, np.ndarray]
    models: tuple[str, ...] = ()
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
        """From a ``pp_facet_embeddings`` frame (columns id, facet, vector; ``model`` when
        present fills ``models``): ``ids`` every id of the frame, sorted; per facet a float32
        (len(ids), dim) matrix, zeros on the rows of ids without that facet.

        The vectors go from the frame's list column into the matrices
        ``_FROM_FRAME_ROWS`` rows at a time, never as Python floats (a million entries x 4
        facets x 384 floats as Python objects were about 50 GB).

        Raises:
            ValueError: a facet's vectors are null or of different lengths (names the facet).
        """
        ids = sorted(set(frame["id"].to_list()))
        index = pl.DataFrame(
            {"id": pl.Series(ids, dtype=frame.schema["id"]), "_row": np.arange(len(ids))}
        )
        matrices: dict[str, np.ndarray] = {}
        for facet in frame["facet"].unique().to_list():
            part = frame.filter(pl.col("facet") == facet).select("id", "vector")
            lengths = part["vector"].list.len()
            dim = lengths[0]
            if lengths.null_count() or lengths.min() != lengths.max():
                raise ValueError(
                    f"pp_facet_embeddings: the {facet!r} vectors are null or of different "
                    "lengths; re-materialize pp_facet_embeddings"
                )
            rows = part.join(index, on="id", how="left", maintain_order="left")["_row"]
            rows = rows.to_numpy().astype(np.int64)
            matrix = np.zeros((len(ids), dim), dtype=np.float32)
            vectors = part["vector"]
            for start in range(0, part.height, _FROM_FRAME_ROWS):
                stop = min(start + _FROM_FRAME_ROWS, part.height)
                block = vectors.slice(start, stop - start).list.to_array(dim).to_numpy()
                matrix[rows[start:stop]] = block.astype(np.float32, copy=False)
            matrices[facet] = matrix
        models: tuple[str, ...] = ()
        if "model" in frame.columns:
            models = tuple(sorted(m for m in frame["model"].unique().to_list() if m is not None))
        return cls(ids=ids, matrices=matrices, models=models)


@dataclass
class RankedReference:
    """One chosen reference with every score component (cosines in [-1, 1]).

    ``relaxed``: the RFP's original constraints it misses (what relaxation or a soft penalty
    let through); ``unknown``: the constraints whose fact the library does not state
    (``filters.UNKNOWN_RULE``); ``missing``: the facets its entry leaves empty
    (``components.MISSING_FACET_RULE``)."""

    rank: int
    id: str
    title: str
    score: float
    components: dict[str, float]
    relaxed: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


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
