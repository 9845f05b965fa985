"""Proposal-domain thesaurus: groups of phrases that name the same concept in RFPs and in
answer libraries (seed 2, step 3: "migration" in the question, "cutover" in the corpus).

Each group lists interchangeable phrases, most common first. The groups are general proposal,
IT-services and security vocabulary, not phrasings of any one RFP: a writer adding a group
should be able to point to it in two unrelated solicitations. A named standard, framework or
product (Section 508, WCAG, SAML, FedRAMP, RMF, OpenAPI) is never a synonym: swapping one for
another changes what the question asks (issue 14). An acronym may sit in its own expansion's
group ("recovery time objective", "RTO"); ``test_no_group_pairs_two_named_standards``
keeps it so. Matching is on stemmed words
(``terms.stem_words``), so "migrate", "migrating" and "migration" all match "migration".

The same phrases are the "domain noun phrases" of the specificity check (``specificity``).
"""

from __future__ import annotations

from functools import lru_cache

from rfp_retrieval.rewrite.terms import stem_words

THESAURUS: tuple[tuple[str, ...], ...] = (
    # Data migration, conversion and validation
    ("data migration", "data conversion", "legacy data cutover", "data load"),
    ("migration", "conversion", "cutover", "legacy data load"),
    ("fallback plan", "rollback plan", "back-out procedure", "contingency plan"),
    ("fallback", "rollback", "back-out", "reversion"),
    ("trial migrations", "mock conversions", "dress rehearsals", "conversion cycles"),
    ("data validation", "data reconciliation", "record-count reconciliation", "data verification"),
    ("validated", "verified", "reconciled", "checked"),
    ("data cleansing", "data profiling", "data quality remediation", "source data cleanup"),
    ("archive", "read-only repository", "historical records store", "retention archive"),
    # Testing and quality
    ("quality assurance", "testing", "defect management", "quality control"),
    ("issues", "defects", "bugs", "problems"),
    ("defect tracking", "issue tracking", "defect triage", "defect resolution"),
    ("user acceptance testing", "UAT", "acceptance testing", "business validation testing"),
    ("performance testing", "load testing", "stress testing", "capacity testing"),
    ("regression testing", "automated tests", "test automation", "repeatable test suites"),
    ("independent verification and validation", "IV&V", "independent oversight", "IV&V vendor"),
    # Continuity
    (
        "disaster recovery",
        "continuity of operations",
        "business continuity",
        "contingency planning",
    ),
    ("recovery time objective", "RTO", "restore time target", "outage duration target"),
    ("recovery point objective", "RPO", "data loss tolerance", "backup currency"),
    ("backups", "backup copies", "snapshots", "replicas"),
    ("failover", "resilience", "redundancy", "multi-region recovery"),
    ("contingency plan test", "recovery exercise", "failover test", "tabletop exercise"),
    # Hosting and operations
    ("hosting environment", "cloud environment", "landing zone", "cloud infrastructure"),
    ("cloud service provider", "CSP", "cloud provider", "infrastructure provider"),
    ("authorization boundary", "system boundary", "accreditation boundary", "security boundary"),
    ("peak volumes", "peak demand", "surge load", "seasonal spikes"),
    ("scales", "autoscaling", "elastic capacity", "horizontal scaling"),
    ("availability", "uptime", "service availability", "reliability"),
    ("operations and maintenance", "O&M", "sustainment", "run services"),
    ("operating and maintaining", "operations and maintenance", "sustaining", "system upkeep"),
    ("maintenance windows", "patching", "scheduled maintenance", "updates"),
    ("support tiers", "tiered service desk", "Tier 1 Tier 2 Tier 3 support", "support levels"),
    ("hours of coverage", "support hours", "after-hours coverage", "24x7 support"),
    ("service desk", "help desk", "support center", "user support"),
    ("service levels", "SLA", "service level agreements", "response and resolution times"),
    ("hypercare", "warranty period", "post-go-live support", "stabilization"),
    # Security
    ("security incident", "breach", "security event", "cyber incident"),
    ("incident response", "incident handling", "incident management", "breach response"),
    ("notifying", "notification", "alerting", "reporting"),
    ("remediation", "patching", "vulnerability fixes", "mitigation"),
    ("vulnerability scanning", "vulnerability scans", "continuous scanning", "weakness detection"),
    ("penetration testing", "pen testing", "ethical hacking", "red team assessment"),
    ("independent assessment", "third-party audit", "attestation", "external assessment"),
    ("encryption at rest", "stored data encryption", "data at rest protection", "disk encryption"),
    (
        "encryption in transit",
        "network encryption",
        "data in motion protection",
        "transport encryption",
    ),
    ("encryption", "cryptography", "encrypted", "ciphers"),
    ("key management", "cryptographic keys", "KMS", "key rotation"),
    ("multi-factor authentication", "MFA", "two-factor authentication", "strong authentication"),
    ("authenticate", "sign in", "log in", "identity verification"),
    ("single sign-on", "SSO", "identity federation", "federated login"),
    ("access reviews", "access recertification", "entitlement reviews", "user access review"),
    ("privileged access", "administrative access", "PAM", "elevated permissions"),
    ("logging", "audit logs", "event logs", "log retention"),
    ("continuous monitoring", "security monitoring", "threat detection", "log monitoring"),
    ("malicious content", "malware", "viruses", "malicious files"),
    ("software bill of materials", "SBOM", "component inventory", "dependency list"),
    ("secure development", "secure coding", "code review", "static analysis"),
    ("network segmentation", "segmented networks", "boundary protection", "firewalls"),
    ("security program", "information security policy", "ISMS", "security governance"),
    ("security awareness training", "annual training", "phishing training", "privacy training"),
    ("physical security", "data center controls", "facility security", "environmental protection"),
    ("background checks", "background investigations", "personnel screening", "suitability"),
    ("clearances", "security clearances", "background investigations", "personnel security"),
    ("compliance", "regulatory compliance", "controls", "conformance"),
    ("authority to operate", "ATO", "authorization to operate", "security authorization"),
    ("personal data", "PII", "sensitive data", "personally identifiable information"),
    ("data residency", "data location", "data sovereignty", "where data is stored"),
    ("data retention", "records retention", "retention schedule", "disposal"),
    ("disposal", "destruction", "media sanitization", "secure deletion"),
    (
        "subprocessors",
        "third-party service providers",
        "subcontracted processors",
        "subservice organizations",
    ),
    ("conformance report", "VPAT", "accessibility conformance report", "ACR"),
    ("accessibility", "accessible design", "disability access", "assistive technology"),
    # Delivery, management and staffing
    ("pipeline", "CI/CD", "continuous integration and delivery", "build and deploy automation"),
    ("checks", "gates", "quality gates", "automated scans"),
    ("release", "deployment", "delivery", "go-live"),
    ("agile", "scrum", "iterative delivery", "sprints"),
    ("program management", "project management", "PMO", "governance"),
    ("governance", "steering committee", "oversight", "decision-making structure"),
    ("reporting", "status reports", "dashboards", "performance reports"),
    ("cost and schedule performance", "earned value", "EVM", "integrated master schedule"),
    ("risk management", "risk register", "RAID log", "risk mitigation"),
    ("risks", "threats", "challenges", "exposures"),
    ("subcontractors", "teaming partners", "subcontract management", "partners"),
    ("key personnel", "key staff", "key positions", "named personnel"),
    ("retain", "keep", "hold on to", "continuity of staff"),
    ("replace", "substitution", "backfill", "replacement"),
    ("staffing", "personnel", "labor categories", "team"),
    ("phase-in", "transition-in", "knowledge acquisition", "onboarding from the incumbent"),
    ("transition-out", "successor support", "closeout transition", "knowledge transfer"),
    ("incumbent contractor", "incumbent", "outgoing contractor", "current vendor"),
    ("organizational change management", "OCM", "change management", "adoption support"),
    ("training", "train-the-trainer", "learning", "user readiness"),
    ("adoption", "usage", "uptake", "user acceptance"),
    ("measure", "metrics", "indicators", "measurement"),
    ("stakeholder engagement", "outreach", "communications", "stakeholder involvement"),
    ("participation", "involvement", "engagement", "collaboration"),
    ("past performance", "prior contracts", "relevant experience", "references"),
    ("relevance", "similarity", "comparable scope", "applicability"),
    ("pricing model", "licensing", "subscription", "price structure"),
    ("assumptions", "pricing assumptions", "escalation", "conditions"),
    # Systems, data and integration
    ("interfaces", "integrations", "data exchanges", "system-to-system connections"),
    ("exchange data", "integrate", "interface", "data exchange"),
    ("API", "application programming interface", "web service", "REST endpoints"),
    ("API design", "API standards", "interface specifications", "interface documentation"),
    ("throttling", "rate limiting", "request quotas", "rate limits"),
    ("webhooks", "event notifications", "callbacks", "push notifications"),
    ("change notification", "versioning", "deprecation policy", "release notes"),
    ("analytics", "reporting", "business intelligence", "data warehouse"),
    ("self-service reporting", "dashboards", "ad hoc reporting", "self-service analytics"),
    ("modernization", "re-platforming", "legacy replacement", "transformation"),
    ("code base", "application portfolio", "source code", "legacy applications"),
    ("batch workload", "batch jobs", "nightly processing", "batch cycle"),
    ("re-platformed", "re-engineered", "migrated", "modernized"),
    ("modernization options", "rehost", "refactor", "re-architect"),
    ("work", "workload", "caseload", "tasks"),
    ("workload balancing", "task routing", "work distribution", "queue assignment"),
    ("client notices", "correspondence", "letters", "notifications"),
    ("case management", "caseworker tools", "case records", "eligibility case handling"),
    ("grants lifecycle", "financial assistance lifecycle", "grants management", "awards"),
    (
        "spending transparency",
        "federal spending reporting",
        "transparency reporting",
        "award data reporting",
    ),
    ("human-centered design", "user research", "usability testing", "UX"),
)
"""Concept groups: every phrase of a group may replace any other in a paraphrase."""

GENERIC_CONCEPTS: frozenset[str] = frozenset(
    {
        "work",
        "issues",
        "checks",
        "release",
        "retain",
        "replace",
        "participation",
        "relevance",
        "risks",
        "reporting",
        "measure",
        "training",
        "adoption",
        "validated",
        "staffing",
        "assumptions",
        "archive",
        "compliance",
        "scales",
        "availability",
        "notifying",
        "exchange data",
        "interfaces",
        "migration",
        "remediation",
        "fallback",
        "fallback plan",
        "pipeline",
        "backups",
        "disposal",
        "logging",
        "clearances",
        "governance",
        "subcontractors",
        "modernization",
        "encryption",
        "authenticate",
        "independent assessment",
    }
)
"""Groups (by first phrase) whose words are too general to make a question specific on their
own: "Describe your fallback plan" still needs its section to say fallback from what."""


@lru_cache(maxsize=1)
def stemmed_groups() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Each group's phrases as tuples of stemmed words (same order as ``THESAURUS``)."""
    return tuple(tuple(tuple(stem_words(p)) for p in group) for group in THESAURUS)


def find_concepts(text: str) -> list[tuple[int, int, int, int]]:
    """Thesaurus phrases found in ``text``, longest first, without overlaps.

    Returns ``(start_word, end_word, group_index, phrase_index)`` tuples over the word
    positions of ``terms.words(text)``, sorted by start position.
    """
    from rfp_retrieval.rewrite.terms import words

    surface = [w.lower() for w in words(text)]
    tokens = stem_words(" ".join(surface))
    taken = [False] * len(tokens)
    found: list[tuple[int, int, int, int]] = []
    # where each stemmed n-gram of the text starts (one pass per phrase length), so each
    # candidate phrase is looked up instead of compared at every position
    starts: dict[int, dict[tuple[str, ...], list[int]]] = {}
    for length in {c[0] for c in _candidates()}:
        at: dict[tuple[str, ...], list[int]] = {}
        for start in range(len(tokens) - length + 1):
            at.setdefault(tuple(tokens[start : start + length]), []).append(start)
        starts[length] = at
    for length, g, p, phrase in _candidates():
        for start in starts[length].get(phrase, ()):
            if length == 1 and not _same_word(surface[start], THESAURUS[g][p]):
                continue
            if any(taken[start : start + length]):
                continue
            for i in range(start, start + length):
                taken[i] = True
            found.append((start, start + length, g, p))
    return sorted(found)


@lru_cache(maxsize=1)
def _candidates() -> tuple[tuple[int, int, int, tuple[str, ...]], ...]:
    """Every stemmed phrase as ``(length, group, phrase index, stems)``, longest first, then
    a group's own first phrase before the same phrase listed in another group, then in
    thesaurus order: the order ``find_concepts`` claims words in."""
    candidates = [
        (len(phrase), g, p, phrase)
        for g, group in enumerate(stemmed_groups())
        for p, phrase in enumerate(group)
        if phrase
    ]
    # a phrase listed in two groups means the concept it names first ("reporting" is the
    # reporting group, not an option of analytics): a group's own first phrase wins
    candidates.sort(key=lambda c: (-c[0], c[2] != 0, c[1], c[2]))
    return tuple(candidates)


MAX_INFLECTION_CHARS = 4
"""A one-word phrase matches a word with the same stem only if their lengths differ by at most
this many characters: "migrate"/"migration" match, "access"/"accessibility" do not."""


def _same_word(word: str, phrase: str) -> bool:
    """Same stem (checked by the caller), close lengths, and a shared prefix of all but the
    last three letters of the shorter word: "migrate"/"migration" match, "government" /
    "governance" do not (one stem, two concepts)."""
    if abs(len(word) - len(phrase)) > MAX_INFLECTION_CHARS:
        return False
    shorter = min(len(word), len(phrase))
    prefix = 0
    for a, b in zip(word.lower(), phrase.lower(), strict=False):
        if a != b:
            break
        prefix += 1
    return prefix >= shorter - 3
