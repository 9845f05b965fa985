"""The one config object for past-performance ranking: facet weights, bumps, relaxation order.

Change a weight or a bump here and nowhere else. Every value names its source.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, replace

MODES = ("naive", "facet", "facet+bumps", "default")
DEFAULT_MODE = "default"
FACETS = ("narrative", "technical", "outcome")


@dataclass(frozen=True)
class RankingConfig:
    """Weights and bumps of the past-performance ranker.

    Attributes:
        mode: ``naive`` (one embedding of the whole entry vs the whole scope, no filters),
            ``facet`` (hard filters + weighted facet cosines), ``facet+bumps`` (+ bumps).
        weight_narrative / weight_technical / weight_outcome: facet weights (seed: 0.2/0.3/0.5).
        recent_bump: added when the work ended within ``recent_months`` of the RFP date or is
            ongoing (seed: +0.10 within 18 months).
        old_penalty: added when the work ended more than ``old_years`` before the RFP date
            (seed: -0.05 older than 5 years).
        agency_bump: added when the entry's customer is the issuing agency or rolls up to the
            same department (seed: +0.08 same named agency; rollup FNS -> USDA is ours).
        default_recent_bump / default_old_penalty / default_agency_bump: the same three bumps
            in the ``default`` mode.
        default_sector_bump: added in the ``default`` mode when the entry's customer type is
            the issuer's (a state reference for a state RFP, federal-civilian for a civilian
            agency): evaluators read same-sector work as more relevant (42 of the 45 labelled
            dev picks share the issuer's sector).
        relaxation_order: constraints relaxed one at a time when fewer than ``top_k`` entries
            pass the hard filters (DESIGN: widen value, then recency, then customer type).
        value_widen_factor: first relaxation of the value band: [min / f, max * f].
        recency_widen_years: first relaxation of the recency window.
        top_k: references to return (Section L asks for three).

    The ``default`` mode: eligibility rules stay hard (recency, customer type, start date;
    graded relaxation when fewer than ``top_k`` pass), while size, prime role and industry are
    relevancy judgments a veteran trades off, so a miss costs ``penalty_value`` /
    ``penalty_role`` / ``penalty_industry`` instead of excluding the entry. Its score is
    ``default_weight_whole`` x whole-entry cosine + ``default_weight_outcome`` x outcome
    cosine + ``default_weight_section`` x the best match between the entry and any one unit of
    the statement of work (``section_max``: each unit's cosines re-centred on the library, so
    an RFP with many areas is not averaged into a generic text and a unit every entry matches,
    such as testing or operations, does not decide it) + ``domain_weight`` x the share of the
    RFP's domain weights (``ScopeReading.domain_weights``: title, scope-section length, Section
    M) that the entry's structured domain tags carry + bumps (``default_recent_bump``,
    ``default_old_penalty``, ``default_agency_bump``, ``default_sector_bump``) +
    ``vague_penalty`` when the entry's outcomes have no measurable result. Size is judged on
    the funded value for completed work, on the stated range for ongoing work
    (``past_performance.effective_value_range``); any value miss costs the full
    ``penalty_value``: the RFP states a band, and a reference just outside it is outside it
    (a penalty graded by the distance measured lower: leave-one-out 0.711 vs 0.733).

    Where the ``default`` values come from: the score is linear in its components, so
    ``benchmarks/tune_past_performance.py`` learns them as the coefficients of an
    L2-regularised logistic regression that separates the labelled ``ideal`` references of
    ``pp_golden_dev`` from the other candidates (divided by the sum of the three cosine
    coefficients, rounded to 0.01). Its honest figure is nested leave-one-out over the 15 dev
    scopes, the regularisation chosen inside each fold: top-3 recall 0.733 vs ideal, 0.667
    vs ideal_alt (2026-11-30); in-sample 0.756 / 0.689. ``recent_bump``/``old_penalty``/
    ``agency_bump`` and the facet weights stay the seed's values for the ``facet+bumps``
    preset.
    """

    mode: str = DEFAULT_MODE
    weight_narrative: float = 0.2
    weight_technical: float = 0.3
    weight_outcome: float = 0.5
    recent_bump: float = 0.10
    recent_months: int = 18
    old_penalty: float = -0.05
    old_years: int = 5
    agency_bump: float = 0.08
    relaxation_order: tuple[str, ...] = (
        "value",
        "recency",
        "customer_type",
        "industry",
        "role",
    )
    value_widen_factor: float = 2.0
    recency_widen_years: int = 2
    top_k: int = 3
    default_weight_whole: float = 0.26
    default_weight_outcome: float = 0.28
    default_weight_section: float = 0.47
    domain_weight: float = 0.22
    default_recent_bump: float = 0.05
    default_old_penalty: float = -0.02
    default_agency_bump: float = 0.06
    default_sector_bump: float = 0.16
    vague_penalty: float = -0.11
    penalty_value: float = 0.22
    penalty_role: float = 0.15
    penalty_industry: float = 0.03
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown ranking mode {self.mode!r}; choose one of {MODES}")

    @property
    def weights(self) -> dict[str, float]:
        return {
            "narrative": self.weight_narrative,
            "technical": self.weight_technical,
            "outcome": self.weight_outcome,
        }

    @property
    def uses_filters(self) -> bool:
        return self.mode != "naive"

    @property
    def uses_bumps(self) -> bool:
        return self.mode in ("facet+bumps", "default")

    @property
    def soft_constraints(self) -> dict[str, float]:
        """Constraints that cost a penalty instead of excluding (``default`` mode only)."""
        if self.mode != "default":
            return {}
        return {
            "value": self.penalty_value,
            "role": self.penalty_role,
            "industry": self.penalty_industry,
        }

    def with_mode(self, mode: str) -> RankingConfig:
        return replace(self, mode=mode)

    def fingerprint(self) -> str:
        """``<mode>-<10 hex>``: the mode and a SHA-256 prefix of every value of this config.

        Two configs that rank alike have the same fingerprint; any change of a weight, bump,
        penalty or the relaxation order gives another. The pipeline uses it as the
        ``pp_references`` code version (a changed default marks stored references stale) and
        stores it with each reference row.
        """
        values = json.dumps(asdict(self), sort_keys=True, default=str)
        return f"{self.mode}-{hashlib.sha256(values.encode()).hexdigest()[:10]}"


SEED_PRESET = RankingConfig(mode="facet+bumps")
PRODUCT_DEFAULT = RankingConfig(mode=DEFAULT_MODE)
