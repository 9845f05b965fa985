"""The one config object for past-performance ranking: facet weights, bumps, relaxation order.

Change a weight or a bump here and nowhere else. Every value names its source. The values
are grouped (``SeedWeights``, ``DefaultWeights``, ``Bumps``, ``SoftPenalties``,
``RecencyWindows``, ``Relaxation``); each ranking mode is a preset (``Preset``, built by
``RankingConfig.preset``) that says which score components of the registry
(``retrieval.components.REGISTRY``) it sums, with which weight, and whether pass 1 filters.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

MODES = ("naive", "facet", "facet+bumps", "default")
DEFAULT_MODE = "default"
FACETS = ("narrative", "technical", "outcome")
DEFAULT_TOP_K = 3
"""References ranked when the RFP states no count (DESIGN: the three to cite)."""


def references_to_offer(required: int | None) -> int:
    """How many references to rank for one RFP: the count its Section L asks for
    (``ScopeReading.references_required``: "provide two (2) references" -> 2, "up to five
    (5)" -> 5, a range -> its lower end, what the RFP requires), else ``DEFAULT_TOP_K``.

    The ``pp_references`` asset ranks this many (``RankingConfig.top_k``); evaluation keeps
    scoring the top three of every scope (``eval.past_performance``). A count below 1 (never
    read: ``section_lm.readers.read_references`` keeps 1..20) falls back to the default.
    """
    if required is None or int(required) < 1:
        return DEFAULT_TOP_K
    return int(required)


@dataclass(frozen=True)
class Bumps:
    """Pass 3 bumps in score units, added when the condition holds (seed 1: recency and
    same-agency bumps).

    ``recent``: the work ended within ``RecencyWindows.recent_months`` of the RFP date or is
    ongoing (``recency_bump``); ``old`` (<= 0): it ended more than ``old_years`` before it
    (``age_penalty``); ``agency``: the entry's customer is the issuing agency or rolls up to
    the same department (``agency_bump``; the rollup FNS -> USDA is ours); ``sector``: the
    entry's customer type is the issuer's (``sector_bump``), None when the mode has no
    such component; ``cap``: the most the agency and sector bumps add together
    (``issuer_bump_cap``; issue 18, defect 8): bumps >= 0 capped at ``cap`` never lift an
    entry over one whose score without them is higher by more than ``cap``, so they decide
    only among entries that are near-ties on topic. None: no cap (the seed's bumps).
    """

    recent: float
    old: float
    agency: float
    sector: float | None = None
    cap: float | None = None


@dataclass(frozen=True)
class SeedWeights:
    """The ``facet`` and ``facet+bumps`` presets (the seed's values): facet weights (seed:
    0.2/0.3/0.5) and the seed's bumps (+0.10 within 18 months, -0.05 older than 5 years,
    +0.08 same named agency)."""

    narrative: float = 0.2
    technical: float = 0.3
    outcome: float = 0.5
    bumps: Bumps = Bumps(recent=0.10, old=-0.05, agency=0.08)


@dataclass(frozen=True)
class SoftPenalties:
    """What a miss of a relevancy constraint costs in the ``default`` mode (score units >= 0).

    ``value`` (size) is soft: a miss costs the penalty instead of excluding the entry.
    ``role`` and ``industry`` are not: a stated prime-only rule and the industry an RFP names
    are eligibility, kept until their relaxation step (``Relaxation.order``; issue 18: a hard
    rule the RFP states is honoured, and labellers keep the named industry and bend size and
    recency first); ``role`` / ``industry`` is what an entry let in by that step pays among
    the other relaxed ones."""

    value: float = 0.16
    role: float = 0.0
    industry: float = 0.02


@dataclass(frozen=True)
class DefaultWeights:
    """The ``default`` preset: cosine weights (``whole``, ``outcome``, ``section`` for
    ``section_max``), ``domain`` (weight of the domain-match share), ``lexical`` (weight of
    the BM25 lexical match in [0, 1], ``components.LEXICAL_RULE``; chosen on a grid over the
    tuning part: 0.05-0.16 give the same tuning recall, 0.10 is the plateau's centre; the
    logistic fit of ``tune_past_performance.py --part tuning``, C = 3, gives it 0.58 with the
    other weights moved but ranks the tuning part lower in-sample, 0.762 vs 0.790),
    ``tool_names`` (what the RFP's tool names count in the lexical match beside its other
    words, ``lexical.TOOL_NAME_RULE``: a shared AWS GovCloud or Terraform shows the
    environment, not the mission; 0.25; 0 / 0.25 / 0.5 / 1.0 give the same tuning recall
    0.790 / 0.781, a new user's cloud data task order ranks a data-ingestion platform third
    instead of a records-digitization entry carried by its tool names), its own bumps (the
    same-sector and same-agency bumps, capped together at ``bumps.cap`` so they only decide
    near-ties on topic), ``vague`` (added when the entry's outcomes have no measurable
    result) and the soft penalties. Learned on the tuning part of the 55 dev scopes
    (``RankingConfig``)."""

    whole: float = 0.37
    outcome: float = 0.26
    section: float = 0.37
    domain: float = 0.11
    lexical: float = 0.10
    tool_names: float = 0.25
    bumps: Bumps = Bumps(recent=0.0, old=-0.01, agency=0.03, sector=0.03, cap=0.06)
    vague: float = -0.02
    penalties: SoftPenalties = SoftPenalties()


@dataclass(frozen=True)
class RecencyWindows:
    """The windows of the recency bump and the age penalty, both presets (seed: 18 months,
    5 years). Dates are judged against the RFP date, never today."""

    recent_months: int = 18
    old_years: int = 5


@dataclass(frozen=True)
class Relaxation:
    """Graded relaxation when fewer than ``top_k`` entries pass the hard filters.

    ``order``: constraints relaxed one at a time (``filters.relaxation_steps``), the order a
    proposal veteran bends them (issue 18, defect 3; labellers keep the sector and the named
    industry and bend size and recency first): widen then drop the value band, widen then
    drop the recency window (and with it a minimum performed period of ongoing work), drop
    prime-only, widen the customer types to the adjacent ones
    (federal civilian / defense, state / local; never dropped wholesale), and last drop the
    industry. The order is the same for every scope; what the RFP itself ranks is read into
    the filters: an industry it names only as a preference or as an example of the customer
    type it insists on ("municipal utilities ... or other local government clients",
    ``scope.section_lm.customers``) is no filter, only ``industries_preferred`` (the
    ``industry_penalty`` ranks it), so it bends before the customer type and every other hard
    rule (new-user trial H1). ``seed_order``: the seed's order (``facet+bumps``), which drops
    the customer type. ``value_widen_factor``: first relaxation of the value band,
    [min / f, max * f]; ``recency_widen_years``: first relaxation of the recency window.
    """

    order: tuple[str, ...] = ("value", "recency", "role", "customer_type_adjacent", "industry")
    seed_order: tuple[str, ...] = ("value", "recency", "customer_type", "industry", "role")
    value_widen_factor: float = 2.0
    recency_widen_years: int = 2


@dataclass(frozen=True)
class Preset:
    """One ranking mode as weights over the score-component registry.

    ``filters``: pass 1 runs (every mode but ``naive``); ``cosines``: the raw cosines the
    mode computes, kept first in each reference's components; ``kernel``: how they are
    computed (``facets``: one product per facet, ``kernels.facet_cosines``; ``sections``:
    chunked, with the best re-centred scope section, ``kernels.section_cosines``);
    ``parts``: the summed components as groups of ``(component, amount)`` in summation
    order, where ``amount`` is a cosine's weight or the value a bonus/penalty adds when its
    condition holds; ``soft``: constraints that cost a penalty instead of excluding
    (constraint -> penalty > 0); ``seed_rules``: rank as the seed did (``facet+bumps``): an
    unknown fact is a miss, a facet text left empty is scored like any text, relaxation
    follows ``Relaxation.seed_order`` and the final sort is by score alone. Every other mode
    follows ``filters.UNKNOWN_RULE``, redistributes the weight of a missing facet
    (``components.MISSING_FACET_RULE``), relaxes in ``Relaxation.order`` and ranks entries
    that meet every hard constraint before relaxed ones (``past_performance._rank``).

    The total is the sum of each group's sum, each group summed left to right from 0. The
    seed's ``facet+bumps`` adds its bumps as one subtotal to the cosine subtotal (two
    groups); ``default`` adds every part in turn (one group). Kept apart so that every score
    stays the same to the last bit (floating-point sums depend on their order).
    """

    filters: bool
    cosines: tuple[str, ...]
    kernel: str
    parts: tuple[tuple[tuple[str, float], ...], ...]
    soft: Mapping[str, float] = field(default_factory=dict)
    seed_rules: bool = False

    @property
    def components(self) -> tuple[str, ...]:
        """Every component of a reference of this mode, in the order it is reported."""
        names = list(self.cosines)
        names += [n for group in self.parts for n, _ in group if n not in names]
        return tuple(names)


def _seed_cosines(config: RankingConfig) -> tuple[tuple[str, float], ...]:
    seed = config.seed
    return (
        ("weighted_narrative", seed.narrative),
        ("weighted_technical", seed.technical),
        ("weighted_outcome", seed.outcome),
    )


def _naive(config: RankingConfig) -> Preset:
    """One embedding of the whole entry vs the whole scope, no filters: the whole-entry
    cosine is the score."""
    return Preset(filters=False, cosines=("whole",), kernel="facets", parts=((("whole", 1.0),),))


def _facet(config: RankingConfig) -> Preset:
    """Hard filters + weighted facet cosines (seed 1 passes 1 and 2)."""
    return Preset(filters=True, cosines=FACETS, kernel="facets", parts=(_seed_cosines(config),))


def _facet_bumps(config: RankingConfig) -> Preset:
    """``facet`` + the seed's recency, age and same-agency bumps (seed 1 pass 3)."""
    bumps = config.seed.bumps
    return Preset(
        filters=True,
        cosines=FACETS,
        kernel="facets",
        parts=(
            _seed_cosines(config),
            (
                ("recency_bump", bumps.recent),
                ("age_penalty", bumps.old),
                ("agency_bump", bumps.agency),
            ),
        ),
        seed_rules=True,
    )


def _default(config: RankingConfig) -> Preset:
    """The product default (see ``RankingConfig``)."""
    d = config.default
    b, p = d.bumps, d.penalties
    return Preset(
        filters=True,
        cosines=("whole", "outcome", "section_max"),
        kernel="sections",
        parts=(
            (
                ("weighted_whole", d.whole),
                ("weighted_outcome", d.outcome),
                ("weighted_section_max", d.section),
                ("domain_match", d.domain),
                ("lexical_match", d.lexical),
                ("recency_bump", b.recent),
                ("age_penalty", b.old),
                ("agency_bump", b.agency),
                ("sector_bump", b.sector),
                ("issuer_bump_cap", b.cap if b.cap is not None else 1e9),
                ("vague_penalty", d.vague),
                ("value_penalty", -p.value),
                ("role_penalty", -p.role),
                ("industry_penalty", -p.industry),
            ),
        ),
        soft={"value": p.value},
    )


PRESETS: dict[str, Callable[[RankingConfig], Preset]] = {
    "naive": _naive,
    "facet": _facet,
    "facet+bumps": _facet_bumps,
    "default": _default,
}
"""Each mode's preset as a function of the config's values (one entry per name in MODES)."""

VALUES: dict[str, str] = {
    "weight_narrative": "seed.narrative",
    "weight_technical": "seed.technical",
    "weight_outcome": "seed.outcome",
    "recent_bump": "seed.bumps.recent",
    "recent_months": "windows.recent_months",
    "old_penalty": "seed.bumps.old",
    "old_years": "windows.old_years",
    "agency_bump": "seed.bumps.agency",
    "relaxation_order": "relaxation.order",
    "seed_relaxation_order": "relaxation.seed_order",
    "value_widen_factor": "relaxation.value_widen_factor",
    "recency_widen_years": "relaxation.recency_widen_years",
    "top_k": "top_k",
    "default_weight_whole": "default.whole",
    "default_weight_outcome": "default.outcome",
    "default_weight_section": "default.section",
    "domain_weight": "default.domain",
    "lexical_weight": "default.lexical",
    "lexical_tool_weight": "default.tool_names",
    "default_recent_bump": "default.bumps.recent",
    "default_old_penalty": "default.bumps.old",
    "default_agency_bump": "default.bumps.agency",
    "default_sector_bump": "default.bumps.sector",
    "issuer_bump_cap": "default.bumps.cap",
    "vague_penalty": "default.vague",
    "penalty_value": "default.penalties.value",
    "penalty_role": "default.penalties.role",
    "penalty_industry": "default.penalties.industry",
}
"""The flat name of each value (``RankingConfig.values()``, constructor keywords, the
fingerprint) -> where it lives in the nested config."""


def _get(obj: Any, path: str) -> Any:
    for name in path.split("."):
        obj = getattr(obj, name)
    return obj


def _set(obj: Any, path: str, value: Any) -> Any:
    """A copy of the frozen dataclass ``obj`` with the value at dotted ``path`` replaced."""
    head, _, rest = path.partition(".")
    return replace(obj, **{head: _set(getattr(obj, head), rest, value) if rest else value})


@dataclass(frozen=True, init=False)
class RankingConfig:
    """Weights and bumps of the past-performance ranker.

    Attributes:
        mode: ``naive`` (one embedding of the whole entry vs the whole scope, no filters),
            ``facet`` (hard filters + weighted facet cosines), ``facet+bumps`` (+ bumps),
            ``default`` (below); ``preset`` is the mode's ``Preset``.
        seed: the ``facet`` / ``facet+bumps`` values (``SeedWeights``: facet weights
            0.2/0.3/0.5 and the seed's bumps).
        default: the ``default`` mode's values (``DefaultWeights``).
        windows: the recency windows of both bump sets (``RecencyWindows``).
        relaxation: the relaxation order and widening (``Relaxation``).
        top_k: references to return (``DEFAULT_TOP_K``; the count an RFP asks for is
            ``references_to_offer``).

    Every value also has a flat name (``VALUES``: ``weight_narrative``, ``recent_bump``,
    ``default_weight_whole``, ``penalty_value``, ...): ``RankingConfig(penalty_value=0.1)``
    and ``dataclasses.replace(config, default_sector_bump=0.2)`` set it, ``config.values()``
    lists them all and ``config.penalty_value`` reads one.

    The ``default`` mode: eligibility rules stay hard (recency, customer type, start date;
    graded relaxation when fewer than ``top_k`` pass), and so do a stated prime-only rule and
    a named industry (relaxed after size and recency; ``penalty_role`` / ``penalty_industry``
    order the entries those steps let in), while size is a relevancy judgment a veteran
    trades off, so a miss costs ``penalty_value`` instead of excluding the entry. Its score is
    ``default_weight_whole`` x whole-entry cosine + ``default_weight_outcome`` x outcome
    cosine + ``default_weight_section`` x the best match between the entry and any one unit of
    the statement of work (``section_max``: each unit's cosines re-centred on the library, so
    an RFP with many areas is not averaged into a generic text and a unit every entry matches,
    such as testing or operations, does not decide it) + ``domain_weight`` x the share of the
    RFP's domain weights (``ScopeReading.domain_weights``: title, scope-section length, Section
    M) that the entry's structured domain tags carry + ``lexical_weight`` x the BM25 match
    of the entry's words to the RFP's text, relative to the library's best (``lexical_match``)
    + bumps (``default_recent_bump``,
    ``default_old_penalty``, ``default_agency_bump``, ``default_sector_bump``) +
    ``vague_penalty`` when the entry's outcomes have no measurable result. Size is judged on
    the funded value for completed work, on the stated range for ongoing work
    (``filters.effective_value_bounds``); any value miss costs the full
    ``penalty_value``: the RFP states a band, and a reference just outside it is outside it
    (a penalty graded by the distance measured lower: leave-one-out 0.711 vs 0.733).

    Where the ``default`` values come from: the score is linear in its components, so
    ``benchmarks/tune_past_performance.py`` learns them as the coefficients of an
    L2-regularised logistic regression that separates the labelled ``ideal`` references from
    the other candidates (divided by the sum of the three cosine coefficients, rounded to
    0.01). Fitted on the TUNING part of the 55 dev scopes only (``benchmarks/pp_split.py``:
    scope numbers not divisible by 3, 35 scopes), C = 3 chosen by plain leave-one-out inside
    it (0.705); 2026-12-02, constraints read by the product. A coefficient learned with the
    wrong sign is 0 (the role penalty, the recency bump). The same-sector bump fell from
    0.16 (learned on the 15 first dev scopes) to 0.03: on the new scopes labellers take an
    adjacent sector's on-topic work. ``issuer_bump_cap`` (0.06) caps the agency and sector
    bumps together. Figures (top-3 recall vs ideal / ideal_alt, ``pp_split.py``, every
    constraint field of the 55 scopes read right, the named industry hard): tuning 0.752 /
    0.762, validation (20 scopes, never tuned on) 0.750 / 0.750; with a stated prime-only
    rule hard (no tuning scope states one) validation 0.733 / 0.733. With the lexical match
    (``lexical_weight`` 0.10, grid on the tuning part): tuning 0.790 / 0.781, validation 0.733
    / 0.733 (MRR 0.975 -> 1.000); plain leave-one-out inside the tuning part at C = 3 0.762.
    Refitted on the tuning part after the reading fixes (C = 3, before the lexical match) the
    fit moves domain_weight to 0.20 but ranks the tuning part no better in-sample (0.733 vs
    0.743), so the values above stay. With the tool-name rule (``lexical_tool_weight`` 0.25)
    and the emphasis synonyms of 2026-12-03 (engagement center, case processing, online
    applications): tuning 0.790 / 0.781, validation 0.733 / 0.733, all 55 0.770 / 0.764
    (unchanged; the validation part measured once for this change). A grid on the tuning
    part over the bumps, their cap, the value, age and vague penalties, domain_weight,
    lexical_weight and the cross-cutting discount moves tuning recall by 0.02 at most
    (noise on 35 scopes), so none of them changed.
    ``recent_bump``/``old_penalty``/``agency_bump`` and the facet weights stay the seed's
    values for the ``facet+bumps`` preset.

    Raises:
        ValueError: an unknown mode.
        TypeError: an unknown keyword.
    """

    mode: str = DEFAULT_MODE
    seed: SeedWeights = SeedWeights()
    default: DefaultWeights = DefaultWeights()
    windows: RecencyWindows = RecencyWindows()
    relaxation: Relaxation = Relaxation()
    top_k: int = DEFAULT_TOP_K
    extra: dict = field(default_factory=dict)

    def __init__(
        self,
        mode: str = DEFAULT_MODE,
        *,
        seed: SeedWeights = SeedWeights(),
        default: DefaultWeights = DefaultWeights(),
        windows: RecencyWindows = RecencyWindows(),
        relaxation: Relaxation = Relaxation(),
        top_k: int = DEFAULT_TOP_K,
        extra: dict | None = None,
        **values: Any,
    ) -> None:
        unknown = sorted(set(values) - set(VALUES))
        if unknown:
            raise TypeError(f"RankingConfig got an unexpected keyword argument {unknown[0]!r}")
        if mode not in MODES:
            raise ValueError(f"unknown ranking mode {mode!r}; choose one of {MODES}")
        groups: dict[str, Any] = {
            "seed": seed,
            "default": default,
            "windows": windows,
            "relaxation": relaxation,
            "top_k": top_k,
        }
        for name, value in values.items():
            head, _, rest = VALUES[name].partition(".")
            groups[head] = _set(groups[head], rest, value) if rest else value
        object.__setattr__(self, "mode", mode)
        for name, value in groups.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "extra", {} if extra is None else extra)

    def __getattr__(self, name: str) -> Any:
        """A value by its flat name (``config.penalty_value``; see ``VALUES``)."""
        if name in VALUES:
            return _get(self, VALUES[name])
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def preset(self) -> Preset:
        """This mode's ``Preset`` (``PRESETS``) with this config's values."""
        return PRESETS[self.mode](self)

    @property
    def weights(self) -> dict[str, float]:
        """The seed's facet weights (``facet`` and ``facet+bumps`` modes)."""
        return {
            "narrative": self.seed.narrative,
            "technical": self.seed.technical,
            "outcome": self.seed.outcome,
        }

    @property
    def uses_filters(self) -> bool:
        return self.preset.filters

    @property
    def uses_bumps(self) -> bool:
        return "recency_bump" in self.preset.components

    @property
    def soft_constraints(self) -> dict[str, float]:
        """Constraints that cost a penalty instead of excluding (``default`` mode only)."""
        return dict(self.preset.soft)

    def with_mode(self, mode: str) -> RankingConfig:
        return replace(self, mode=mode)

    def values(self) -> dict[str, Any]:
        """Every value by its flat name (``VALUES``), with ``mode`` and ``extra``."""
        return {
            "mode": self.mode,
            **{name: _get(self, path) for name, path in VALUES.items()},
            "extra": self.extra,
        }

    def fingerprint(self) -> str:
        """``<mode>-<10 hex>``: the mode and a SHA-256 prefix of every value of this config.

        Two configs that rank alike have the same fingerprint; any change of a weight, bump,
        penalty or the relaxation order gives another. The pipeline uses it as the
        ``pp_references`` code version (a changed default marks stored references stale) and
        stores it with each reference row. The hash is over ``values()`` (the flat names),
        so it is the same as before the values were grouped.
        """
        values = json.dumps(self.values(), sort_keys=True, default=str)
        return f"{self.mode}-{hashlib.sha256(values.encode()).hexdigest()[:10]}"


SEED_PRESET = RankingConfig(mode="facet+bumps")
PRODUCT_DEFAULT = RankingConfig(mode=DEFAULT_MODE)
