"""The RFP's domain emphasis: which library domains it stresses, and how much.

The weights live in one config object, ``EmphasisWeights`` (seed: ambiguous scopes; the title
counts most, then statement-of-work mentions, then Section M mentions); the wording that
signals each library domain tag is ``DOMAIN_SIGNALS``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Library domain tags (library.vocab.DOMAIN_TAGS) and the RFP wording that signals each.
DOMAIN_SIGNALS: dict[str, re.Pattern[str]] = {
    "cloud-migration": re.compile(
        r"cloud migration|migrat\w* [^.]{0,40}cloud|move [^.]{0,40}(?:cloud|FedRAMP)|relocat\w* "
        r"[^.]{0,60}(?:infrastructure|FedRAMP)|rehost|lift[- ]and[- ]shift|decommission",
        re.I,
    ),
    "data-analytics": re.compile(
        r"analytics|dashboards?|data (?:integration|pipelines?|platform|warehouse)|"
        r"predictive models?|forecasting|risk models?|self-service (?:query|analytics)",
        re.I,
    ),
    "case-management": re.compile(r"case management|case tracking|caseworker|\bclaims?\b", re.I),
    "benefits-eligibility": re.compile(
        r"eligibility|enrollment|ex parte|renewals?\b|\bMAGI\b|benefits? (?:determination|system)",
        re.I,
    ),
    "hr-systems": re.compile(
        r"personnel actions?|human resources|\bHR\b|position (?:management|descriptions)|"
        r"SF-50|human capital",
        re.I,
    ),
    "payroll": re.compile(r"payroll|pay[- ]period", re.I),
    "cybersecurity": re.compile(
        r"cyber|security operations|\bSOC\b|incident response|threat hunt|\bSIEM\b|"
        r"detection engineering|intrusion",
        re.I,
    ),
    "identity-access": re.compile(
        r"identity|\bICAM\b|access management|privileged access|credential", re.I
    ),
    "grants-management": re.compile(
        r"grants? (?:management|lifecycle)|grantees?|financial assistance|funding opportunit", re.I
    ),
    "contact-center": re.compile(
        r"contact center|call center|\b311\b|agents?\b|speed of answer|omnichannel|IVR|"
        r"interactive voice",
        re.I,
    ),
    "disaster-recovery": re.compile(
        r"disaster recovery|continuity of operations|\bCOOP\b|alternate (?:processing )?site|"
        r"reconstitution|devolution|failover|resum\w+ operations",
        re.I,
    ),
    "logistics": re.compile(
        r"logistics|supply chain|warehouse|transportation management|inventory|spare parts|"
        r"\bERP\b|freight|backorders?",
        re.I,
    ),
    "financial-management": re.compile(
        r"financial management|accounting|obligations?|disbursement|\bfinancial system", re.I
    ),
    "records-management": re.compile(r"records management|records retention|\bNARA\b", re.I),
    "help-desk": re.compile(r"help desk|service desk|tier 1", re.I),
    "devsecops": re.compile(r"devsecops|ci/cd|pipelines? for|automated build", re.I),
    "legacy-modernization": re.compile(r"legacy|mainframe|COBOL|re-?platform", re.I),
    "health-it": re.compile(
        r"health (?:IT|information)|electronic health record|\bEHR\b|clinical", re.I
    ),
    "geospatial": re.compile(r"geospatial|\bGIS\b|mapping", re.I),
    "infrastructure-operations": re.compile(
        r"data center|network operations|infrastructure operations|endpoint management|hosting",
        re.I,
    ),
    "digital-services": re.compile(
        r"user research|human-centered|usability|web portal|digital services", re.I
    ),
}


@dataclass(frozen=True)
class EmphasisWeights:
    """How a domain's emphasis score is counted (seed: ambiguous scopes).

    score = ``title`` if the title names the domain, + ``per_scope_mention`` for each mention in
    the statement-of-work text (at most ``scope_mentions_cap``), + ``per_evaluation_mention``
    for each mention in the Section M text (at most ``evaluation_mentions_cap``). A domain is
    emphasised when its score is at least ``emphasis_share`` of the top score (at most
    ``max_emphasized`` domains); weights are score shares rounded to ``digits`` places.
    """

    title: float = 2.0
    per_scope_mention: float = 0.5
    scope_mentions_cap: int = 8
    per_evaluation_mention: float = 0.75
    evaluation_mentions_cap: int = 4
    emphasis_share: float = 0.4
    max_emphasized: int = 3
    digits: int = 3


EMPHASIS_WEIGHTS = EmphasisWeights()


def domain_emphasis(
    title: str, scope_text: str, eval_text: str, weights: EmphasisWeights = EMPHASIS_WEIGHTS
) -> tuple[list[str], dict[str, float]]:
    """(emphasised domain tags, {domain tag: weight}) of an RFP.

    ``title`` is the RFP title, ``scope_text`` its statement-of-work text (headings and prose),
    ``eval_text`` its Section M prose. Weights are shares of the total score in [0, 1], largest
    first (ties by tag); ``([], {})`` when no domain is signalled.
    """
    scores: dict[str, float] = {}
    title_hits = {d for d, rx in DOMAIN_SIGNALS.items() if rx.search(title)}
    for domain, rx in DOMAIN_SIGNALS.items():
        score = weights.title * (domain in title_hits)
        score += min(len(rx.findall(scope_text)), weights.scope_mentions_cap) * (
            weights.per_scope_mention
        )
        score += min(len(rx.findall(eval_text)), weights.evaluation_mentions_cap) * (
            weights.per_evaluation_mention
        )
        if score > 0:
            scores[domain] = score
    if not scores:
        return [], {}
    top = max(scores.values())
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    emphasized = [d for d, v in ranked if v >= weights.emphasis_share * top][
        : weights.max_emphasized
    ]
    total = sum(scores.values())
    return emphasized, {d: round(v / total, weights.digits) for d, v in ranked}
