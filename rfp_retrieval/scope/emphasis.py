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
        r"[^.]{0,60}(?:infrastructure|FedRAMP)|rehost|lift[- ]and[- ]shift|decommission|"
        r"data cent(?:er|re) (?:exit|closure|consolidation)|landing zones?",
        re.I,
    ),
    "data-analytics": re.compile(
        r"analytics|dashboards?|data (?:integration|pipelines?|platform|warehouse)|"
        r"predictive models?|forecasting|risk models?|self-service (?:query|analytics)|"
        r"entity resolution|anomaly detection|statistical models?|risk scor",
        re.I,
    ),
    "case-management": re.compile(
        r"case management|case tracking|case processing|caseworker|\bclaims?\b", re.I
    ),
    "benefits-eligibility": re.compile(
        r"eligibility|enrollment|ex parte|renewals?\b|\bMAGI\b|benefits? (?:determination|system)",
        re.I,
    ),
    "hr-systems": re.compile(
        r"personnel actions?|human resources|\bHR\b|position (?:management|descriptions)|"
        r"SF-50|human capital|onboarding|\bhiring\b|personnel and pay|personnel records",
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
        r"grants? (?:management|lifecycle)|grantees?|financial assistance|funding opportunit|"
        r"grant awards?|merit review|post-award|closeout|subrecipients?|award lifecycle",
        re.I,
    ),
    "contact-center": re.compile(
        r"contact center|call center|engagement cent(?:er|re)|\b311\b|"
        r"(?:live|customer service|contact center|call center) agents?\b|"
        r"speed of answer|omnichannel|IVR|interactive voice|voice response|"
        r"customer care|(?:customer service|customer care|service) representatives",
        re.I,
    ),
    "disaster-recovery": re.compile(
        r"disaster recovery|continuity of operations|\bCOOP\b|alternate (?:processing )?site|"
        r"reconstitution|devolution|failover|resum\w+ operations|recovery (?:time|point) "
        r"objective|\bRTO\b|\bRPO\b|mission-essential (?:functions|systems)",
        re.I,
    ),
    "logistics": re.compile(
        r"logistics|supply chain|warehouse|transportation management|inventory|spare parts|"
        r"\bERP\b|freight|backorders?",
        re.I,
    ),
    "financial-management": re.compile(
        r"financial management|accounting|obligations?|disbursement|\bfinancial system|"
        r"general ledger|accounts (?:payable|receivable)|"
        r"fee (?:billing|collection)",
        re.I,
    ),
    "records-management": re.compile(
        r"records management|records retention|\bNARA\b|retention schedules?|"
        r"(?:records?|paper) disposition|disposition of (?:the )?(?:source )?(?:paper|records)|"
        r"permanent records|National Archives|digitiz\w+|electronic (?:records|file)|"
        r"(?:document|paper|high-volume) scanning|legal holds?",
        re.I,
    ),
    "help-desk": re.compile(
        r"help desk|service desk|tier 1|end-user (?:technology )?support|deskside|"
        r"incident and request|support intake|knowledge-centered",
        re.I,
    ),
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
        r"user research|human-centered|usability|web portal|digital services|"
        r"online (?:applications?|permit\w*|filing)|(?:public|applicant) (?:filing )?portal",
        re.I,
    ),
}


CROSS_CUTTING_DOMAINS = frozenset(
    {
        "cloud-migration",
        "data-analytics",
        "devsecops",
        "digital-services",
        "help-desk",
        "infrastructure-operations",
        "legacy-modernization",
    }
)
"""Domains that run through RFPs of every mission (cloud, DevSecOps, analytics,
modernization, digital delivery, hosting, and the help desk / tiered user support that comes
with operating any system): how the work is delivered or supported rather than what it is.
When an RFP also signals a mission domain (financial management, grants, claims, health IT,
logistics...), the cross-cutting ones weigh ``EmphasisWeights.cross_cutting`` of their score
(issue 18 defect 7: a proposal veteran matches the mission first)."""


@dataclass(frozen=True)
class EmphasisWeights:
    """How a domain's emphasis score is counted (seed: ambiguous scopes).

    score = ``title`` if the title names the domain, + ``per_scope_mention`` for each mention in
    the statement-of-work text (at most ``scope_mentions_cap``), + ``per_lead_mention`` more for
    each mention in the first scope subsections (at most ``lead_mentions_cap``; the work an RFP
    lists first is its mission), + ``per_evaluation_mention`` for each mention in the Section M
    text (at most ``evaluation_mentions_cap``); times ``cross_cutting`` for a
    ``CROSS_CUTTING_DOMAINS`` domain when a mission domain is signalled too. A domain is
    emphasised when its score is at least ``emphasis_share`` of the top score (at most
    ``max_emphasized`` domains); weights are score shares rounded to ``digits`` places.
    """

    title: float = 2.0
    per_scope_mention: float = 0.5
    scope_mentions_cap: int = 8
    per_lead_mention: float = 0.5
    lead_mentions_cap: int = 4
    lead_sections: int = 2
    per_evaluation_mention: float = 0.75
    evaluation_mentions_cap: int = 4
    cross_cutting: float = 0.5
    emphasis_share: float = 0.4
    max_emphasized: int = 3
    digits: int = 3


EMPHASIS_WEIGHTS = EmphasisWeights()


def domain_emphasis(
    title: str,
    scope_text: str,
    eval_text: str,
    weights: EmphasisWeights = EMPHASIS_WEIGHTS,
    lead_text: str = "",
) -> tuple[list[str], dict[str, float]]:
    """(emphasised domain tags, {domain tag: weight}) of an RFP.

    ``title`` is the RFP title, ``scope_text`` its statement-of-work text (headings and prose),
    ``eval_text`` its Section M prose, ``lead_text`` the first ``weights.lead_sections`` scope
    subsections (heading and prose; "" when the RFP has none). Weights are shares of the total
    score in [0, 1], largest first (ties by tag); ``([], {})`` when no domain is signalled.
    """
    scores: dict[str, float] = {}
    title_hits = {d for d, rx in DOMAIN_SIGNALS.items() if rx.search(title)}
    for domain, rx in DOMAIN_SIGNALS.items():
        score = weights.title * (domain in title_hits)
        score += min(len(rx.findall(scope_text)), weights.scope_mentions_cap) * (
            weights.per_scope_mention
        )
        score += min(len(rx.findall(lead_text)), weights.lead_mentions_cap) * (
            weights.per_lead_mention
        )
        score += min(len(rx.findall(eval_text)), weights.evaluation_mentions_cap) * (
            weights.per_evaluation_mention
        )
        if score > 0:
            scores[domain] = score
    if not scores:
        return [], {}
    if any(d not in CROSS_CUTTING_DOMAINS for d in scores):
        scores = {
            d: v * (weights.cross_cutting if d in CROSS_CUTTING_DOMAINS else 1.0)
            for d, v in scores.items()
        }
    top = max(scores.values())
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    emphasized = [d for d, v in ranked if v >= weights.emphasis_share * top][
        : weights.max_emphasized
    ]
    total = sum(scores.values())
    return emphasized, {d: round(v / total, weights.digits) for d, v in ranked}
