"""The registry of score components: every part a reference's score can have, and its rule.

Each ``ScoreComponent`` has its name (the key in ``RankedReference.components`` and the
column of ``pp_references``), the label the brief shows, its kind (``cosine``, ``bonus`` or
``penalty``), the sentence that explains it and a vectorised function: the values (n,)
float64 it takes over a scope's candidates (``Candidates``) for a given amount (a weight,
or the value a bonus/penalty adds when it applies). The ranking modes are presets over this
registry (``config.Preset``); the scorers, ``references.py``, the brief, the CLI and the asset
previews all read it. The rules the components share live here once: the recency bump
(``recency_flags``), the same-customer test (``same_customer``) and the domain weights
(``scope_domain_weights``).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from dateutil.relativedelta import relativedelta

from rfp_retrieval.agencies import resolve_agency, same_department
from rfp_retrieval.retrieval.config import PRESETS, RankingConfig, RecencyWindows
from rfp_retrieval.retrieval.filters import FilterPass
from rfp_retrieval.retrieval.records import ScopeQuery

if TYPE_CHECKING:
    from rfp_retrieval.retrieval.prepared import PreparedLibrary

# ---------------------------------------------------------------- the rules


def recency_flags(
    end: np.ndarray, ongoing: np.ndarray, as_of: dt.date, windows: RecencyWindows
) -> tuple[np.ndarray, np.ndarray]:
    """Seed 1 pass 3: which entries earn the recency bump and which the age penalty.

    ``end`` is each entry's end date, datetime64[D] (n,) with NaT when not stated;
    ``ongoing`` bool (n,). Returns ``(recent, old)`` bool (n,): recent when ongoing or ended
    within ``windows.recent_months`` before ``as_of``; old when it ended (not ongoing) more
    than ``windows.old_years`` before ``as_of``. Dates are judged against the RFP date, never
    today (seed: recency bump +0.10 within 18 months, -0.05 older than 5 years).
    """
    has_end = ~np.isnat(end)
    recent_from = np.datetime64(as_of - relativedelta(months=windows.recent_months), "D")
    old_before = np.datetime64(as_of - relativedelta(years=windows.old_years), "D")
    recent = ongoing | (has_end & (end >= recent_from))
    old = has_end & ~ongoing & (end < old_before)
    return recent, old


def recency_bumps(row: dict[str, Any], as_of: dt.date, config: RankingConfig) -> dict[str, float]:
    """Seed 1 pass 3 recency bumps for one entry row (``recency_flags``, the seed's bumps).

    ``recency_bump``: ``config.recent_bump`` when ongoing or ended within ``recent_months``
    before ``as_of``; ``age_penalty``: ``config.old_penalty`` when it ended more than
    ``old_years`` before ``as_of``.
    """
    end = np.asarray([row.get("end_date")], dtype="datetime64[D]")
    ongoing = np.asarray([bool(row.get("ongoing"))])
    recent, old = recency_flags(end, ongoing, as_of, config.windows)
    bumps = config.seed.bumps
    return {
        "recency_bump": bumps.recent if recent[0] else 0.0,
        "age_penalty": bumps.old if old[0] else 0.0,
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


def agency_matcher(scope: ScopeQuery) -> Callable[[Any, Any], bool]:
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
    ``Candidates.domain_share`` sums the same weights in the same (tag) order for many entries.
    """
    tags = set(domains or ())
    return sum(w for d, w in weights.items() if d in tags)


MISSING_FACET_RULE = (
    "A facet the library entry leaves empty (no outcome text, no technical text) is missing, "
    "not a match of an empty text: its cosine is 0, shown as missing, and its weight is "
    "shared out over the entry's present cosines in proportion to their weights, so the "
    "entry's similarity weights still sum to the mode's total."
)
"""The one rule for missing facets (issue 18, defect 6); not under the seed's rules."""

LEXICAL_RULE = (
    "Lexical match: the BM25 relevance of the entry's own words (title, narrative, domains, "
    "technologies, technical approach, outcomes) to the RFP's ranking text (title, "
    "background, outcomes, units of the work), stemmed content words, divided by the best "
    "entry of the library for this RFP, so it is in [0, 1]; 0 when the RFP shares no word "
    "with the library. It reads no cosine (the int8 prescreen computes it exactly)."
)
"""The one rule of the lexical component (issue 18: hybrid dense + lexical ranking)."""

COSINE_FACET: dict[str, str] = {
    "narrative": "narrative",
    "technical": "technical",
    "outcome": "outcome",
    "whole": "whole",
    "section_max": "whole",
}
"""The entry facet each raw cosine is computed from (``section_max`` uses the whole entry)."""


# ---------------------------------------------------------------- the candidates


class Candidates:
    """One scope's candidates as arrays: what every component function reads.

    ``ranks`` are the candidates' positions in the library's id order (len,); ``cosines``
    the raw cosines the mode computed, by name, each (len,); ``passed`` the filter pass
    (None without filters: nothing is missed). Derived facts are computed once, on first use.
    """

    def __init__(
        self,
        library: PreparedLibrary,
        ranks: np.ndarray,
        scope: ScopeQuery,
        config: RankingConfig,
        cosines: dict[str, np.ndarray],
        passed: FilterPass | None,
        agency_match: Callable[[Any, Any], bool],
    ):
        self.library, self.ranks, self.scope, self.config = library, ranks, scope, config
        self.cosines, self.passed, self.agency_match = cosines, passed, agency_match

    def __len__(self) -> int:
        return len(self.ranks)

    def cosine(self, name: str) -> np.ndarray:
        """The raw cosine ``name`` of each candidate, float64 (len,); 0 where the entry's
        facet is missing (``MISSING_FACET_RULE``)."""
        values = self.cosines[name].astype(np.float64)
        if not self._may_miss(COSINE_FACET[name]):
            return values
        return np.where(self.missing(COSINE_FACET[name]), 0.0, values)

    def _may_miss(self, facet: str) -> bool:
        """False when no candidate can miss ``facet`` (seed rules, an untracked facet, or
        one no library entry misses: ``PreparedLibrary.facet_missing_any``), so ``missing``
        is all False without reading the candidates."""
        if self.config.preset.seed_rules:
            return False
        return bool(getattr(self.library, "facet_missing_any", {}).get(facet, True)) and (
            facet in getattr(self.library, "facet_missing", {})
        )

    def missing(self, facet: str) -> np.ndarray:
        """Whether each candidate's ``facet`` text is empty, bool (len,); all False under the
        seed's rules (``Preset.seed_rules``) or for a facet the library does not track."""
        tracked = getattr(self.library, "facet_missing", {})
        if self.config.preset.seed_rules or facet not in tracked:
            return np.zeros(len(self), dtype=bool)
        return tracked[facet][self.ranks]

    @functools.cached_property
    def weight_scale(self) -> np.ndarray:
        """Per candidate, the factor on its present weighted cosines, float64 (len,): the
        mode's total cosine weight over the weight of the cosines it has
        (``MISSING_FACET_RULE``); 1 when no facet is missing, 0 when none is present."""
        if self.config.preset.seed_rules:
            return np.ones(len(self), dtype=np.float64)
        weights = [
            (COMPONENT[n].weights, a)
            for group in self.config.preset.parts
            for n, a in group
            if COMPONENT[n].weights
        ]
        total = sum(a for _, a in weights)
        if not any(self._may_miss(COSINE_FACET[cosine]) for cosine, _ in weights):
            # every candidate has every facet: the sums below, once (the same float64 sums)
            every = 0.0
            for _, amount in weights:
                every += amount
            scale = total / every if every > 0 else 0.0
            return np.full(len(self), scale, dtype=np.float64)
        present = np.zeros(len(self), dtype=np.float64)
        for cosine, amount in weights:
            present += np.where(self.missing(COSINE_FACET[cosine]), 0.0, amount)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(present > 0, total / np.where(present > 0, present, 1.0), 0.0)

    def missing_facets(self) -> list[list[str]]:
        """The facets each candidate misses among those its mode's cosines read."""
        facets = sorted({COSINE_FACET[n] for n in self.config.preset.cosines if n in COSINE_FACET})
        flags = {f: self.missing(f) for f in facets}
        return [[f for f in facets if flags[f][i]] for i in range(len(self))]

    @functools.cached_property
    def recency(self) -> tuple[np.ndarray, np.ndarray]:
        """``recency_flags`` of the candidates: (recent, old) bool (len,)."""
        r = self.ranks
        lib = self.library
        return recency_flags(lib.end[r], lib.ongoing[r], self.scope.as_of, self.config.windows)

    @functools.cached_property
    def domain_share(self) -> np.ndarray:
        """``domain_match_share`` of each candidate, float64 (len,): the weights added in
        tag order, each where the candidate carries the tag (``PreparedLibrary.has_domain``,
        read for the candidates only)."""
        share = np.zeros(len(self), dtype=np.float64)
        for tag, weight in scope_domain_weights(self.scope).items():
            np.add(share, weight, out=share, where=self.library.has_domain(tag)[self.ranks])
        return share

    @functools.cached_property
    def lexical(self) -> np.ndarray:
        """``PreparedLibrary.lexical_scores`` of the scope's text for each candidate, float64
        (len,) in [0, 1] (``LEXICAL_RULE``)."""
        tool_weight = self.config.default.tool_names
        scores = self.library.lexical_scores(self.scope.text, tool_weight)
        none = getattr(self.library, "no_lexical_match", None)
        if none is not None and scores is none():  # no word matched: nothing to read
            return np.zeros(len(self), dtype=np.float64)
        return scores[self.ranks]

    @functools.cached_property
    def same_agency(self) -> np.ndarray:
        """``same_customer`` of each candidate with the issuer, bool (len,)."""
        scope, lib = self.scope, self.library
        if not (scope.issuer or scope.issuer_acronym):
            return np.zeros(len(self), dtype=bool)
        flags = np.asarray([self.agency_match(n, a) for n, a in lib.customers], dtype=bool)
        return flags[lib.customer_code[self.ranks]]

    @functools.cached_property
    def same_sector(self) -> np.ndarray:
        """Whether each candidate's customer type is the issuer's, bool (len,)."""
        if not self.scope.issuer_type:
            return np.zeros(len(self), dtype=bool)
        return self.library.customer_type[self.ranks] == self.scope.issuer_type

    @functools.cached_property
    def issuer_bumps(self) -> np.ndarray:
        """The same-agency plus same-sector bumps of each candidate under the config's
        ``default`` values, float64 (len,) (what ``issuer_bump_cap`` caps)."""
        bumps = self.config.default.bumps
        agency = np.where(self.same_agency, bumps.agency, 0.0)
        return agency + np.where(self.same_sector, bumps.sector or 0.0, 0.0)

    @functools.cached_property
    def other_industry(self) -> np.ndarray:
        """Whether each candidate pays the ``industry_penalty``, bool (len,): it misses the
        industry the RFP requires (let in by relaxation), or the RFP prefers industries
        (``ScopeFilters.industries_preferred``: rank, never filter) and the entry is in none
        of them. An entry whose industry the library does not state is not charged for a
        preference."""
        missed = self.missed("industry")
        preferred = {i.lower() for i in self.scope.filters.industries_preferred}
        if not preferred:
            return missed
        industry = self.library.industry[self.ranks]
        stated = industry != ""
        elsewhere = np.asarray([i not in preferred for i in industry], dtype=bool)
        return missed | (stated & elsewhere)

    def missed(self, constraint: str) -> np.ndarray:
        """Whether each candidate misses the RFP's original ``constraint``, bool (len,)."""
        if self.passed is None:
            return np.zeros(len(self), dtype=bool)
        return self.passed.missed(constraint)


# ---------------------------------------------------------------- the registry


@dataclass(frozen=True)
class ScoreComponent:
    """One score component (see the module docstring).

    ``raw`` marks a raw cosine: shown beside the summed parts, not one of them, except when
    a reference has no weighted cosine (the ``naive`` mode, whose score is the whole-entry
    cosine). ``weights`` names the raw cosine a weighted cosine multiplies.
    """

    name: str
    label: str
    kind: str
    explains: str
    values: Callable[[Candidates, float], np.ndarray]
    raw: bool = False
    weights: str | None = None

    @property
    def short(self) -> str:
        """The name without ``weighted_`` (how the run summary names a part)."""
        return self.name.removeprefix("weighted_")


def _raw(name: str, label: str, explains: str) -> ScoreComponent:
    return ScoreComponent(name, label, "cosine", explains, lambda c, a: c.cosine(name), raw=True)


def _weighted(cosine: str, label: str, explains: str) -> ScoreComponent:
    return ScoreComponent(
        f"weighted_{cosine}",
        label,
        "cosine",
        explains,
        lambda c, a: a * c.cosine(cosine) * c.weight_scale,
        weights=cosine,
    )


def _when(
    name: str, label: str, kind: str, explains: str, condition: Callable[[Candidates], np.ndarray]
) -> ScoreComponent:
    return ScoreComponent(name, label, kind, explains, lambda c, a: np.where(condition(c), a, 0.0))


def _soft(constraint: str, label: str, explains: str) -> ScoreComponent:
    name = f"{constraint}_penalty"
    return _when(name, label, "penalty", explains, lambda c: c.missed(constraint))


REGISTRY: tuple[ScoreComponent, ...] = (
    _raw("narrative", "narrative cosine", "Cosine of the entry's narrative to the RFP's scope."),
    _raw(
        "technical",
        "technical cosine",
        "Cosine of the entry's technical approach to the RFP's technical requirements.",
    ),
    _raw("outcome", "outcome cosine", "Cosine of the entry's outcomes to the RFP's goals."),
    _raw(
        "whole",
        "whole-entry cosine (naive)",
        "Cosine of the whole entry to the whole scope; the score itself in the naive mode.",
    ),
    _raw(
        "section_max",
        "best scope section cosine",
        "Best cosine of the whole entry to any one unit of the statement of work, each unit "
        "re-centred on the library so a unit every entry matches does not decide it.",
    ),
    _weighted("narrative", "narrative", "The narrative cosine times its weight."),
    _weighted("technical", "technical", "The technical cosine times its weight."),
    _weighted("outcome", "outcome", "The outcome cosine times its weight."),
    _weighted("whole", "whole entry", "The whole-entry cosine times its weight."),
    _weighted("section_max", "best scope section", "The best-section cosine times its weight."),
    ScoreComponent(
        "domain_match",
        "domain match",
        "bonus",
        "Its weight times the share of the RFP's domain emphasis that the entry's own domain "
        "tags carry.",
        lambda c, a: a * c.domain_share,
    ),
    ScoreComponent(
        "lexical_match",
        "lexical match",
        "bonus",
        "Its weight times the BM25 relevance of the entry's words to the RFP's scope text, "
        "relative to the library's best match for this RFP (in [0, 1]).",
        lambda c, a: a * c.lexical,
    ),
    _when(
        "recency_bump",
        "recency bump",
        "bonus",
        "Added when the work is ongoing or ended within the recency window before the RFP date.",
        lambda c: c.recency[0],
    ),
    _when(
        "age_penalty",
        "age penalty (ended long before the RFP)",
        "penalty",
        "Added when the work ended more than the age window (``RecencyWindows.old_years``, the "
        "seed's 5 years) before the RFP date; the RFP's own recency window is a filter.",
        lambda c: c.recency[1],
    ),
    _when(
        "agency_bump",
        "same agency bump",
        "bonus",
        "Added when the entry's customer is the issuing agency or in the same department.",
        lambda c: c.same_agency,
    ),
    _when(
        "sector_bump",
        "same sector bump",
        "bonus",
        "Added when the entry's customer type is the issuer's (state for a state RFP, ...).",
        lambda c: c.same_sector,
    ),
    ScoreComponent(
        "issuer_bump_cap",
        "issuer bumps capped",
        "penalty",
        "Takes back what the same-agency and same-sector bumps add above the cap, so they "
        "never overturn a clear topical difference (one larger than the cap).",
        lambda c, a: -np.maximum(c.issuer_bumps - a, 0.0),
    ),
    _when(
        "vague_penalty",
        "vague outcomes",
        "penalty",
        "Added when the entry's outcomes state no measurable result.",
        lambda c: c.library.vague[c.ranks],
    ),
    _soft("value", "outside the value band", "Charged when the entry's size misses the band."),
    _soft("role", "not prime", "Charged when the RFP asks for prime work and the entry is a sub."),
    _when(
        "industry_penalty",
        "other industry",
        "penalty",
        "Charged when the entry is in another industry than the one the RFP requires or prefers.",
        lambda c: c.other_industry,
    ),
)
"""Every score component, in the column order of ``pp_references``."""

COMPONENT: dict[str, ScoreComponent] = {c.name: c for c in REGISTRY}
COMPONENTS: tuple[str, ...] = tuple(c.name for c in REGISTRY)
RAW_COSINES: tuple[str, ...] = tuple(c.name for c in REGISTRY if c.raw)
SUMMED_COMPONENTS: frozenset[str] = frozenset(
    name
    for preset in PRESETS.values()
    for group in preset(RankingConfig()).parts
    for name, _ in group
)
"""Every component some mode sums into the score (``whole`` only in the ``naive`` mode)."""


def summed_parts(components: Mapping[str, float | None]) -> list[tuple[ScoreComponent, float]]:
    """The parts one reference's score is the sum of, in the order of ``components``.

    Every registered component with a value except the raw cosines, which are parts only
    when ``components`` holds no weighted cosine (``naive`` mode: the whole-entry cosine is
    the score). Unknown names and None values are left out; zeros are kept.
    """
    weighted = any(components.get(c.name) is not None for c in REGISTRY if c.weights)
    return [
        (COMPONENT[name], float(value))
        for name, value in components.items()
        if value is not None and name in COMPONENT and (not COMPONENT[name].raw or not weighted)
    ]
