"""Read the ScopeQuery of an RFP: who issued it, the past-performance filters it states, and
the texts the facet ranking embeds (seed 1: ScopeQuery filters and ranking facets).

``read_scope`` works on an extracted ``RfpDocument``. The past-performance requirements come
from ``documents.section_lm.find_pp_requirements``, which reads, sentence by sentence, the
past-performance instructions (Section L), evaluation factors (Section M) and any
"References / Experience / Qualifications" section:

- number of references ("submit three (3) past performance references"),
- recency ("within the last five (5) years", "within 36 months of the RFP release date",
  "since FY2021", "at any time since January 1, 2022") -> ``ended_after``,
- contract value ("$10-30M", "between $30 million and $75 million", "at least $15 million",
  "below $2 million will not be considered relevant", "approximately $25M"),
- customer types ("federal civilian agencies", "Department of Defense or other federal
  agencies", "federal, state or local government", "state Medicaid agency") and industries,
- whether references must be as prime contractor.

Recency is counted back from the RFP's issue date, or from the proposal due date when the
sentence says so ("within three (3) years before the proposal due date"); with neither, from
``as_of``; the wall clock only when nothing else exists (the trace says which anchor was used).
Dollar figures that are not contract values (program budgets, "$9 billion in grants", prices,
NAICS size standards) are ignored because only past-performance sentences are read for value.
Every filter read is recorded in ``trace`` with the section and sentence that stated it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass, field

from dateutil.relativedelta import relativedelta

from rfp_retrieval.agencies import (
    issuer_type,
    non_federal_parent,
    non_federal_type,
    resolve_agency,
)
from rfp_retrieval.documents.front_matter import find_due_date, find_issuer_text
from rfp_retrieval.documents.records import RfpDocument, Section
from rfp_retrieval.documents.section_lm import (
    APPROX_BAND,
    FEDERAL_CIVILIAN,
    FEDERAL_DEFENSE,
    GOVERNMENT_TYPES,
    DocumentSentence,
    PastPerformanceRequirements,
    Statement,
    document_sentences,
    find_pp_requirements,
    money_mentions,
)
from rfp_retrieval.documents.summary import prose
from rfp_retrieval.documents.text import split_sentences, strip_inline_markdown

__all__ = [
    "APPROX_BAND",
    "FEDERAL_CIVILIAN",
    "FEDERAL_DEFENSE",
    "GOVERNMENT_TYPES",
    "ScopeReading",
    "money_mentions",
    "read_scope",
]

NARRATIVE_WORDS = 250
TECHNICAL_WORDS = 400
OUTCOME_WORDS = 150
"""Word caps of the ranking texts (the bundled embedding model reads about 256 tokens)."""


@dataclass
class ScopeReading:
    """The ScopeQuery read from one RFP (field names of ``pp_golden_dev/scopes_truth.jsonl``).

    Dates are ISO strings; ``value_min``/``value_max``/``value_approx`` are USD whole dollars;
    ``value_basis`` is ``"total"`` or ``"annual"`` (per-year value stated). ``recency_years`` is
    the window in years (``recency_months / 12``; an int when whole), None when the RFP states a
    fixed date instead ("since FY2021"). ``recency_anchor`` names the date the window counts back
    from: ``issue date``, ``proposal due date``, ``as_of`` or ``today``. ``customer_types_required``
    holds ``CUSTOMER_TYPES`` values in the order the RFP names them ([] = any).
    ``emphasized_domains`` uses the library's domain tags (``library.vocab.DOMAIN_TAGS``).
    ``trace`` holds one dict per filter read: ``{"filter", "section", "sentence", "reading"}``.
    ``size_constraints`` holds the non-dollar size bounds (FTE, users, employees, months) and
    ``relevance`` the relevance-criteria sentences, each with its section (from
    ``section_lm.find_pp_requirements``); they rank and explain, they do not filter.
    """

    issuer: str | None = None
    issuer_acronym: str | None = None
    parent_agency: str | None = None
    issuer_type: str | None = None
    rfp_date: str | None = None
    references_required: int | None = None
    recency_text: str | None = None
    recency_years: int | float | None = None
    recency_months: int | None = None
    recency_anchor: str | None = None
    ended_after: str | None = None
    started_after: str | None = None
    value_text: str | None = None
    value_min: int | None = None
    value_max: int | None = None
    value_approx: int | None = None
    value_basis: str | None = None
    customer_types_required: list[str] = field(default_factory=list)
    industries_required: list[str] = field(default_factory=list)
    emphasized_domains: list[str] = field(default_factory=list)
    domain_weights: dict[str, float] = field(default_factory=dict)
    require_prime: bool = False
    narrative_text: str = ""
    technical_text: str = ""
    outcome_text: str = ""
    trace: list[dict] = field(default_factory=list)
    size_constraints: list[dict] = field(default_factory=list)
    relevance: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        """Plain JSON-ready dict of every field."""
        return asdict(self)


# --------------------------------------------------------------------------------------------
# the reader


def read_scope(doc: RfpDocument, as_of: dt.date | None = None) -> ScopeReading:
    """The ScopeQuery filters, issuer and ranking texts of ``doc``.

    ``as_of`` is the date recency counts back from when the RFP states no issue date (the
    golden files' ``as_of``); the wall clock is used only when both are missing. Never raises
    for an unusual document: a filter the text does not state stays None / [] and the trace
    says so.
    """
    reading = ScopeReading()
    trace = reading.trace
    lines = doc.text.splitlines()
    sentences = document_sentences(doc)

    _read_issuer(doc, lines, reading)
    reading.rfp_date = doc.issue_date.isoformat() if doc.issue_date else None

    anchor_issue, anchor_name = _anchor(doc, as_of)
    due = find_due_date(lines)
    _apply_requirements(
        find_pp_requirements(doc, sentences), reading, anchor_issue, anchor_name, due
    )
    _ranking_texts(doc, sentences, reading)
    for name, value in (
        ("recency", reading.ended_after or reading.started_after),
        ("value", reading.value_min or reading.value_max),
        ("customer_types", reading.customer_types_required),
    ):
        if not value and not any(t["filter"] == name for t in trace):
            trace.append(
                {"filter": name, "section": None, "sentence": None, "reading": "not stated"}
            )
    return reading


def _apply_requirements(
    req: PastPerformanceRequirements,
    reading: ScopeReading,
    anchor: dt.date,
    anchor_name: str,
    due: dt.date | None,
) -> None:
    """Copy the Section L/M requirements into ``reading``, dating the recency window.

    A window counts back from the proposal due date when its sentence says so and the due date
    is stated, else from ``anchor`` (issue date, ``as_of`` or today).
    """
    if req.references_required is not None and req.references_stated is not None:
        reading.references_required = req.references_required
        _trace(reading, "references_required", req.references_stated, req.references_required)
    rec = req.recency
    if rec is not None:
        started = rec.applies_to == "started"
        key = "started_after" if started else "ended_after"
        if rec.months is not None:
            base, base_name = anchor, anchor_name
            if rec.due_date_anchor and due is not None:
                base, base_name = due, "proposal due date"
            date = base - relativedelta(months=rec.months)
            reading.recency_months = rec.months
            reading.recency_years = (
                rec.months // 12 if rec.months % 12 == 0 else round(rec.months / 12, 2)
            )
            reading.recency_anchor = base_name
            value: dict = {
                "months": rec.months,
                "anchor": base_name,
                "anchor_date": base.isoformat(),
                key: date.isoformat(),
            }
        else:
            date = rec.since  # type: ignore[assignment]
            reading.recency_anchor = "stated date"
            value = {key: date.isoformat()}
        reading.recency_text = rec.stated.text
        setattr(reading, key, date.isoformat())
        _trace(reading, "recency", rec.stated, value)
    if req.no_value_constraint is not None:
        _trace(reading, "value", req.no_value_constraint, "no value constraint")
    elif req.value is not None:
        v = req.value
        reading.value_text = v.stated.text
        reading.value_min, reading.value_max, reading.value_approx = v.min, v.max, v.approx
        reading.value_basis = v.basis
        _trace(
            reading,
            "value",
            v.stated,
            {"min": v.min, "max": v.max, "approx": v.approx, "basis": v.basis},
        )
    if req.customers is not None:
        c = req.customers
        if c.any_customer:
            _trace(reading, "customer_types", c.stated, "any")
        else:
            reading.customer_types_required = list(c.types)
            reading.industries_required = list(c.industries)
            _trace(
                reading,
                "customer_types",
                c.stated,
                {"types": list(c.types), "industries": list(c.industries)},
            )
    if req.require_prime is not None:
        reading.require_prime = True
        _trace(reading, "require_prime", req.require_prime, True)
    reading.size_constraints = [
        {
            "measure": s.measure,
            "min": s.min,
            "max": s.max,
            "preferred": s.preferred,
            "text": s.stated.text,
            "section": s.stated.section,
        }
        for s in req.sizes
    ]
    reading.relevance = [{"sentence": r.sentence, "section": r.section} for r in req.relevance]


def _anchor(doc: RfpDocument, as_of: dt.date | None) -> tuple[dt.date, str]:
    if doc.issue_date is not None:
        return doc.issue_date, "issue date"
    if as_of is not None:
        return as_of, "as_of"
    return dt.date.today(), "today"


def _read_issuer(doc: RfpDocument, lines: list[str], reading: ScopeReading) -> None:
    text = find_issuer_text(lines)
    source = "issuer label"
    if not text:
        text, source = _issuer_from_front(doc, lines)
    if not text:
        reading.trace.append(
            {"filter": "issuer", "section": None, "sentence": None, "reading": "not stated"}
        )
        return
    agency = resolve_agency(text)
    reading.issuer_type = issuer_type(text)
    front = " ".join([doc.title, *lines[:30]])
    context_type = non_federal_type(front) if agency is None else None
    if agency is None and non_federal_type(text) is None and context_type is not None:
        # "ISSUED BY: Department of Health and Social Services" under "State of Alaska RFP"
        reading.issuer_type = context_type
        if context_type in ("state", "local") and non_federal_parent(front):
            text = f"{non_federal_parent(front)}, {text}"
    if agency is not None:
        dept = (
            resolve_agency(None, agency.department) if agency.department != agency.acronym else None
        )
        names = [dept.name] if dept is not None and dept.acronym != agency.acronym else []
        if agency.parent and agency.parent != agency.department:
            parent = resolve_agency(None, agency.parent)
            if parent is not None:
                names = [parent.name]
        names.append(agency.name)
        reading.issuer = ", ".join(names)
        reading.issuer_acronym = agency.acronym
        reading.parent_agency = agency.parent or agency.acronym
    else:
        parts = [re.sub(r"\s*\([^)]*\)", "", p).strip() for p in re.split(r",\s+", text)]
        parts = [p for p in parts if p]
        keep = [p for p in parts[:2] if not re.match(r"^(?:on behalf|Office of the Chief)", p)]
        reading.issuer = ", ".join(keep) if keep else text
        acronyms = re.findall(r"\(([A-Z][A-Za-z]{1,9})\)", text)
        reading.issuer_acronym = acronyms[-1] if acronyms else None
        reading.parent_agency = non_federal_parent(text)
    reading.trace.append(
        {"filter": "issuer", "section": source, "sentence": text, "reading": reading.issuer_type}
    )


_ORG_NAME = re.compile(
    r"(?:[A-Z][a-z]+ ){1,4}(?:University|County)\b|\b(?:State|City|Commonwealth) of "
    r"[A-Z][a-z]+(?: [A-Z][a-z]+)?|\b(?:STATE|COMMONWEALTH) OF [A-Z]+(?: [A-Z]+)?\b"
)


def _issuer_from_front(doc: RfpDocument, lines: list[str]) -> tuple[str | None, str]:
    """The organisation named on the cover page when no issuer label is present.

    The first short, name-like line (Title Case, no verbs) that resolves to a federal agency or
    reads as a state / local / commercial organisation; else the first "X University",
    "X County", "State of X" in the first 40 lines.
    """
    for line in lines[:40]:
        text = strip_inline_markdown(re.sub(r"^\s*#+\s*", "", line)).strip(" |")
        if not text or len(text) > 100 or not text[0].isalpha() or not text[0].isupper():
            continue
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’\-]*", text) if len(w) >= 4]
        if words and sum(w[0].isupper() for w in words) / len(words) < 0.6:
            continue
        if resolve_agency(text) is not None or non_federal_type(text) is not None:
            return text, "cover page"
    for line in lines[:40]:
        m = _ORG_NAME.search(strip_inline_markdown(line))
        if m:
            return m.group(0).strip(), "cover page"
    return None, ""


def _trace(reading: ScopeReading, name: str, s: Statement, value: object) -> None:
    reading.trace.append(
        {"filter": name, "section": s.section, "sentence": s.sentence, "reading": value}
    )


# --------------------------------------------------------------------------------------------
# ranking texts and emphasis

_BACKGROUND = re.compile(
    r"\b(background|purpose|overview|introduction|summary|description|current (?:environment|"
    r"system)|problem|mission|vision)\b",
    re.I,
)
_SCOPE = re.compile(
    r"\b(scope|statement of (?:work|objectives|need)|\bSOW\b|\bPWS\b|\bSOO\b|performance work "
    r"statement|requirements?|task areas?|technical areas?|objectives|tasks?|description of work|"
    r"specifications?)\b",
    re.I,
)
_NOT_SCOPE = re.compile(
    r"\b(?:past performance|instructions|evaluation|proposals?|submissions?|administration|"
    r"invoic\w*|clauses|key personnel|pricing|price|schedule of events|format(?:ting)?)\b",
    re.I,
)
_EVALUATION = re.compile(r"\bevaluation|basis (?:of|for) award|section m\b|relevan|scoring", re.I)
_OUTCOME = re.compile(
    r"\d+(?:\.\d+)?\s*(?:percent|%)|\bfrom\b[^.]{0,40}\bto\b[^.]{0,20}\d|\breduc|\bincreas|"
    r"\bimprov|\btargets?\b|\bgoals?\b|\boutcomes?\b|\bwithin \w+ (?:hours|days|weeks|minutes)|"
    r"\bunder (?:\w+ )?(?:hours|minutes|seconds|days)",
    re.I,
)

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


# A section whose path (below the document title) names one of these says how to bid or
# administer the contract, not what the work is (Section L/M, pricing, references, ...).
_NOT_WORK = re.compile(
    r"\b(?:past performance|section [lm]|instructions (?:to|for) (?:offerors|proposers|bidders|"
    r"vendors|respondents)|proposal (?:submission|preparation|format|instructions|evaluation|"
    r"requirements|content|organization)|submission (?:requirements|instructions)|"
    r"evaluation (?:criteria|factors?|process|of proposals|methodology|and award)|"
    r"basis (?:of|for) award|award (?:criteria|process)|(?:cost|price|pricing) (?:proposal|"
    r"volume|schedule|sheet|instructions|submission|form)|contract type|period of performance|"
    r"points? of contact|references|(?:offeror|corporate|company|vendor|contractor|bidder|"
    r"proposer|minimum) (?:experience|qualifications)|contract administration|invoicing "
    r"instructions|terms and conditions|insurance(?: requirements)?|compensation and payment|"
    r"payment terms|key personnel|schedule of events|(?:technical|cost|price|management|"
    r"business) volume|volume (?:[ivx]+|\d+)\b|scoring|(?:technical |proposal )?response "
    r"(?:requirements|format|instructions))\b",
    re.I,
)
# A heading that is only one of these words is administration too ("Pricing", "Evaluation");
# inside a longer heading the word can name work ("Claims Pricing", "Program Evaluation",
# "Database Administration", "Invoice Processing").
_ADMIN_HEADING = re.compile(
    r"^(?:evaluation|pricing|price|cost|proposals?|submissions?|format|administration|"
    r"qualifications|instructions|invoicing|award|general|definitions|glossary|"
    r"attachments|exhibits|appendix(?: [a-z\d]+)?)$",
    re.I,
)
# Sentences that tell the offeror how to respond rather than describe the work ("The Vendor
# shall migrate ..." describes the work and stays).
_INSTRUCTION = re.compile(
    r"\b(?:offeror|proposer|bidder|respondent|vendor)s?(?:'s|’s)?\b[^.]{0,80}?\b(?:proposals?|"
    r"respond|responses?|submit(?:tal|ted)?|describe|explain|attachment|volume|page limit)\b|"
    r"\bresponse items?\b|\b(?:in|with) (?:its|their|your|the) (?:proposal|response)\b|"
    r"\bevaluated (?:under|in accordance)\b|\bconfirm compliance\b",
    re.I,
)
# Context sections (read into the narrative text, not units of the work), unless the section
# itself is the scope ("1. Introduction > 1.2 Scope of Work").
_CONTEXT = re.compile(
    r"\b(?:background|purpose|overview|introduction|current (?:environment|system)|history)\b",
    re.I,
)
MIN_UNIT_CHARS = 150
"""Shortest scope unit embedded on its own; shorter sections join their parent's unit."""


def _plain_heading(text: str) -> str:
    """A heading (``Section.heading``: no number) without markup or edge punctuation,
    case-folded."""
    return strip_inline_markdown(text or "").strip(" .:-–—*#").casefold()


def _table_rows(body: str) -> str:
    """The data rows of the Markdown tables in ``body`` as sentences ("a; b; c."): a
    statement of work is sometimes a task table. Header rows (followed by a ``---`` rule)
    and rule rows are skipped."""
    lines = [line.strip() for line in body.splitlines()]
    rows = []
    for i, line in enumerate(lines):
        if not line.startswith("|") or re.fullmatch(r"[|:\-\s]+", line):
            continue
        if i + 1 < len(lines) and re.fullmatch(r"\|?[\s:]*-{3,}[|:\-\s]*", lines[i + 1]):
            continue  # a header row
        cells = [strip_inline_markdown(c).strip() for c in line.strip("|").split("|")]
        cells = [c for c in cells if c]
        if cells:
            rows.append("; ".join(cells).rstrip(".") + ".")
    return " ".join(rows)


def work_prose(body: str) -> str:
    """``prose(body)`` plus its table rows (``_table_rows``), without the sentences that
    instruct the offeror ("Offerors shall respond to every numbered response item…", "… in
    its proposal"): they describe the bid, not the work, and would make every RFP look alike
    to the embedding. "The Vendor shall migrate …" describes the work and stays."""
    text = " ".join(t for t in (prose(body), _table_rows(body)) if t)
    return " ".join(s for s in split_sentences(text) if not _INSTRUCTION.search(s))


def scope_units(doc: RfpDocument, min_chars: int = MIN_UNIT_CHARS) -> list[tuple[str, str]]:
    """The statement of work as outline units: ``[(heading, text), ...]`` in document order.

    A unit is a titled section of the work (not background, Section L/M, pricing, references
    or other administration; judged on its path below the document title, whole words) with
    its own prose and, merged in, every numbered paragraph and every child section too short
    to stand alone (under ``min_chars`` characters). Text is ``"<heading>. <prose>"`` with
    the offeror instructions removed (``work_prose``); a numbered paragraph is not prefixed
    with its heading, which is only its first sentence. The front matter before the first
    heading is used only when the document has no other unit. Returns [] for a document with
    no prose under its headings.
    """
    by_key = {s.key: s for s in doc.sections}
    children: dict[str | None, list[Section]] = {}
    for section in doc.sections:
        parent = section.parent if section.parent in by_key else None
        children.setdefault(parent, []).append(section)

    title = _plain_heading(doc.title)

    def below_title(section: Section) -> list[str]:
        """Headings from below the document title down to ``section``."""
        labels = []
        node: Section | None = section
        while node is not None and node.level > 0 and _plain_heading(node.heading) != title:
            labels.append(_plain_heading(node.heading))
            node = by_key.get(node.parent) if node.parent else None
        return list(reversed(labels))

    def administrative(section: Section) -> bool:
        path = below_title(section)
        if not path:
            return False
        if _NOT_WORK.search(" > ".join(path)) or any(_ADMIN_HEADING.match(h) for h in path):
            return True
        context = any(_CONTEXT.search(h) for h in path)
        return context and not _SCOPE.search(path[-1])

    units: list[tuple[int, str, str]] = []
    front: list[tuple[int, str, str]] = []

    def visit(section: Section) -> str:
        """Adds the units under ``section``; returns its text when too short to stand alone."""
        if section.level > 0 and administrative(section):
            for child in children.get(section.key, []):
                visit(child)  # a scope section can sit under "Introduction"
            return ""
        parts = [work_prose(section.body or "")]
        parts += [visit(child) for child in children.get(section.key, [])]
        text = " ".join(p for p in parts if p)
        if section.kind == "paragraph":
            return text
        if not text:
            return ""
        text = f"{section.heading}. {text}"
        if section.level == 0:
            if len(text) >= min_chars:
                front.append((section.line, section.heading, text))
            return ""
        if len(text) >= min_chars:
            units.append((section.line, section.heading, text))
            return ""
        return text

    for root in children.get(None, []):
        visit(root)
    picked = sorted(units) or front
    if not doc.sections:  # no outline at all: the whole text is the one unit
        text = work_prose(doc.text)
        picked = [(0, doc.title, text)] if len(text) >= min_chars else []
    return [(heading, text) for _, heading, text in picked]


def _cap_words(text: str, n: int) -> str:
    words = text.split()
    return " ".join(words[:n])


def _ranking_texts(
    doc: RfpDocument, sentences: list[DocumentSentence], reading: ScopeReading
) -> None:
    by_key = {s.key: s for s in doc.sections}

    def path_text(section: Section) -> str:
        labels = []
        node: Section | None = section
        while node is not None and node.level > 0:  # the document title is not a section name
            labels.append(node.heading)
            node = by_key.get(node.parent) if node.parent else None
        return " / ".join(labels)

    def is_scope(section: Section) -> bool:
        path = path_text(section)
        return bool(_SCOPE.search(path)) and not _NOT_SCOPE.search(path) and section.level > 0

    background = [s for s in doc.sections if s.level > 0 and _BACKGROUND.search(s.heading)]
    scope = [s for s in doc.sections if is_scope(s)]
    evaluation = [s for s in doc.sections if s.level > 0 and _EVALUATION.search(path_text(s))]

    units = [text for _, text in scope_units(doc)]
    narrative = [doc.title] + [work_prose(s.body) for s in background[:2]] + units
    reading.narrative_text = _cap_words(" ".join(p for p in narrative if p), NARRATIVE_WORDS)
    reading.technical_text = _cap_words(" ".join(units), TECHNICAL_WORDS)

    outcome_sentences: list[str] = []
    for s in sentences:
        if s.section is None or (s.section not in scope and s.section not in evaluation):
            continue
        if _OUTCOME.search(s.text) and s.text not in outcome_sentences:
            outcome_sentences.append(s.text)
    reading.outcome_text = _cap_words(" ".join(outcome_sentences), OUTCOME_WORDS)

    # emphasis: the title counts most, then scope sections by length, then Section M
    scores: dict[str, float] = {}
    title_hits = {d for d, rx in DOMAIN_SIGNALS.items() if rx.search(doc.title)}
    scope_text = " ".join(prose(s.body) + " " + s.heading for s in scope) or reading.narrative_text
    eval_text = " ".join(prose(s.body) for s in evaluation)
    for domain, rx in DOMAIN_SIGNALS.items():
        score = 2.0 * (domain in title_hits)
        score += min(len(rx.findall(scope_text)), 8) * 0.5
        score += min(len(rx.findall(eval_text)), 4) * 0.75
        if score > 0:
            scores[domain] = score
    if scores:
        top = max(scores.values())
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        reading.emphasized_domains = [d for d, v in ranked if v >= 0.4 * top][:3]
        total = sum(scores.values())
        reading.domain_weights = {d: round(v / total, 3) for d, v in ranked}
