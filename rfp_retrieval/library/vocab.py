"""Controlled vocabularies of the library: customer types, vehicle types, roles and tag slugs.

Each table here is the one place its rule lives. The tag tables were derived from
``canonical_dev.jsonl`` (the expected canonical records) against the spreadsheet's display
names; anything not in a table falls back to ``tag_slug``'s default rule.
"""

from __future__ import annotations

import re

from rfp_retrieval.agencies import non_federal_type
from rfp_retrieval.library.records import CUSTOMER_TYPES

NONSTANDARD_CUSTOMER_TYPE = "nonstandard-customer-type"
UNKNOWN_CUSTOMER_TYPE = "unknown-customer-type"
TWO_CUSTOMER_TYPES = "two-customer-types"
UNKNOWN_VEHICLE_TYPE = "unknown-vehicle-type"
UNKNOWN_ROLE = "unknown-role"


def _key(text: str) -> str:
    """Lookup key: lower case, single spaces, spaces around ``/`` and ``-`` removed."""
    key = " ".join(text.lower().split())
    return re.sub(r"\s*([/-])\s*", r"\1", key)


# ---------------------------------------------------------------------------- customer type
# The spellings the spreadsheet template offers (and the slugs themselves): no defect.
STANDARD_CUSTOMER_TYPES: dict[str, str] = {
    "federal - civilian": "federal-civilian",
    "federal - defense": "federal-defense",
    "state": "state",
    "local": "local",
    "commercial": "commercial",
    "international": "international",
}
# Other spellings people type: normalized, and flagged ``nonstandard-customer-type`` so the
# spreadsheet owner can fix the cell (canonical PP-025 "federal civilian agency", PP-060 "Fed Civ").
CUSTOMER_TYPE_ALIASES: dict[str, str] = {
    "federal civilian": "federal-civilian",
    "federal civilian agency": "federal-civilian",
    "federal (civilian)": "federal-civilian",
    "fed civ": "federal-civilian",
    "fed civilian": "federal-civilian",
    "civilian": "federal-civilian",
    "civilian agency": "federal-civilian",
    "federal defense": "federal-defense",
    "federal (defense)": "federal-defense",
    "federal dod": "federal-defense",
    "federal - dod": "federal-defense",
    "fed def": "federal-defense",
    "fed defense": "federal-defense",
    "defense": "federal-defense",
    "dod": "federal-defense",
    "military": "federal-defense",
    "state government": "state",
    "state agency": "state",
    "state & local - state": "state",
    "local government": "local",
    "municipal": "local",
    "municipality": "local",
    "county": "local",
    "city": "local",
    "private sector": "commercial",
    "private": "commercial",
    "commercial/private": "commercial",
    "foreign government": "international",
    "non-us government": "international",
    "intl": "international",
}
# Cells that name two types at once ("State / Local", SLED: state, local and education). One
# entry is work for one customer, so the customer's name decides (a county or city is local, a
# state's agency or university is state); when it does not, the type is unknown, never both.
STATE_OR_LOCAL_WORDINGS = (
    "state/local",
    "state & local",
    "state and local",
    "state/local government",
    "state and local government",
    "state & local government",
    "sled",
    "slg",
)
_STATE_OR_LOCAL_KEYS = frozenset(_key(k) for k in STATE_OR_LOCAL_WORDINGS)
_STANDARD_CUSTOMER_KEYS = {_key(k): v for k, v in STANDARD_CUSTOMER_TYPES.items()} | {
    _key(slug): slug for slug in CUSTOMER_TYPES
}
_CUSTOMER_ALIAS_KEYS = {_key(k): v for k, v in CUSTOMER_TYPE_ALIASES.items()}


def normalize_customer_type(
    text: str | None, customer_name: str | None = None
) -> tuple[str | None, list[str]]:
    """Customer type slug (one of ``records.CUSTOMER_TYPES``) and its defect codes.

    ``Federal - Civilian`` / ``federal-civilian`` give no defect; other known spellings
    (``Fed Civ``, ``federal civilian agency``) give ``nonstandard-customer-type``; a cell naming
    two types (``State / Local``, ``SLED``: ``STATE_OR_LOCAL_WORDINGS``) takes the type the
    ``customer_name`` says (``Travis County`` -> local, ``State of Ohio ...`` -> state) with
    ``nonstandard-customer-type``, else ``(None, ["two-customer-types"])``; unknown text gives
    ``(None, ["unknown-customer-type"])`` and empty gives ``(None, [])``. Never raises.
    """
    if text is None or not text.strip():
        return None, []
    key = _key(text)
    if key in _STATE_OR_LOCAL_KEYS:
        named = non_federal_type(customer_name)
        if named in ("state", "local"):
            return named, [NONSTANDARD_CUSTOMER_TYPE]
        return None, [TWO_CUSTOMER_TYPES]
    if key in _STANDARD_CUSTOMER_KEYS:
        return _STANDARD_CUSTOMER_KEYS[key], []
    if key in _CUSTOMER_ALIAS_KEYS:
        return _CUSTOMER_ALIAS_KEYS[key], [NONSTANDARD_CUSTOMER_TYPE]
    return None, [UNKNOWN_CUSTOMER_TYPE]


# ----------------------------------------------------------------------------- vehicle type
# Ordered rules, first match wins (GWAC before task order, BPA before schedule: a "GSA
# Schedule BPA Call" is a BPA call). Patterns match the lower-cased Contract Type cell.
VEHICLE_TYPE_RULES: tuple[tuple[str, str], ...] = (
    (r"^other\b", "other"),
    (r"\bgwac\b", "gwac-task-order"),
    (r"\bbpa\b|blanket purchase", "bpa-call"),
    (r"\bgsa\b|\bfss\b|\bschedule\b|\bmas\b", "gsa-schedule"),
    (r"\bidiq\b|\btask order\b|^to\b|\bdelivery order\b|\bido\b", "idiq-task-order"),
    (
        r"stand-?\s?alone|\bdirect\b|\bdefinitive\b|\bpurchase order\b|^contract$",
        "standalone",
    ),
)


def normalize_vehicle_type(text: str | None) -> tuple[str | None, list[str]]:
    """Vehicle type slug (one of ``records.VEHICLE_TYPES``) and its defect codes.

    ``Task Order``/``TO (IDIQ)``/``IDIQ Task Order`` -> idiq-task-order; ``GWAC TO`` ->
    gwac-task-order; ``GSA Schedule Order``/``FSS Order`` -> gsa-schedule; ``BPA Call`` ->
    bpa-call; ``Standalone``/``Stand-alone Contract``/``Direct Contract`` -> standalone;
    ``Other…`` -> other (``VEHICLE_TYPE_RULES``). Unknown text gives
    ``(None, ["unknown-vehicle-type"])``; empty gives ``(None, [])``. Never raises.
    """
    if text is None or not text.strip():
        return None, []
    lowered = " ".join(text.lower().split())
    for pattern, slug in VEHICLE_TYPE_RULES:
        if re.search(pattern, lowered):
            return slug, []
    return None, [UNKNOWN_VEHICLE_TYPE]


NO_VEHICLE_NAMES = frozenset({"", "n/a", "na", "none", "-", "—", "not applicable", "tbd"})


def normalize_vehicle_name(text: str | None) -> str | None:
    """Contract vehicle name as written, or None for ``N/A``, ``n/a``, ``none`` or empty."""
    if text is None:
        return None
    cleaned = " ".join(str(text).split())
    return None if cleaned.lower() in NO_VEHICLE_NAMES else cleaned


# ------------------------------------------------------------------------------------- role
ROLES: dict[str, str] = {
    "prime": "prime",
    "prime contractor": "prime",
    "prime contract": "prime",
    "sub": "sub",
    "subcontractor": "sub",
    "sub-contractor": "sub",
    "subcontract": "sub",
    "sub contractor": "sub",
}


def normalize_role(text: str | None) -> tuple[str | None, list[str]]:
    """``prime`` or ``sub`` and defect codes; unknown text gives ``(None, ["unknown-role"])``."""
    if text is None or not text.strip():
        return None, []
    role = ROLES.get(" ".join(text.lower().split()))
    return (role, []) if role else (None, [UNKNOWN_ROLE])


# ------------------------------------------------------------------------------------- tags
# Display name -> stable stack tag, where the default slug rule would not give the tag used in
# the canonical records (product families, vendor renames, spelling variants).
TECHNOLOGY_TAGS: dict[str, str] = {
    "ArcGIS": "esri-arcgis",
    "Esri ArcGIS": "esri-arcgis",
    "Elasticsearch": "elastic",
    "Elastic": "elastic",
    "Elastic Stack": "elastic",
    "ELK": "elastic",
    "z/OS COBOL": "mainframe-cobol",
    "COBOL (mainframe)": "mainframe-cobol",
    "Mainframe COBOL": "mainframe-cobol",
    "BMC Remedy": "remedy",
    "Remedy": "remedy",
    "WebSphere": "ibm-websphere",
    "IBM WebSphere": "ibm-websphere",
    "Postgres": "postgresql",
    "PostgreSQL": "postgresql",
    "Oracle": "oracle-db",
    "Oracle DB": "oracle-db",
    "Oracle Database": "oracle-db",
    "Genesys Cloud": "genesys",
    "Genesys": "genesys",
    "AWS GovCloud (US)": "aws-govcloud",
    "AWS GovCloud": "aws-govcloud",
    "M/MUMPS": "mumps",
    "MUMPS": "mumps",
    "Microsoft Azure": "azure",
    "Azure": "azure",
    "Amazon Web Services": "aws",
    "AWS": "aws",
    "Salesforce Gov Cloud": "salesforce",
    "Salesforce Government Cloud": "salesforce",
    "MS SQL Server": "sql-server",
    "Microsoft SQL Server": "sql-server",
    "SAP IS-U": "sap-isu",
    "SAP S/4HANA": "sap-s4hana",
    "Apache Kafka": "kafka",
    ".NET Core": ".net",
    "Oracle Health (Cerner)": "oracle-health",
    "Cerner": "oracle-health",
    "Google Cloud": "gcp",
    "Google Cloud Platform": "gcp",
    "HL7 FHIR": "hl7-fhir",
    "FHIR": "hl7-fhir",
    "Twistlock/Prisma Cloud": "twistlock",
}

# Known domain tags with their display names: retrieval matches RFP-emphasized domains
# against these slugs.
DOMAIN_TAGS: dict[str, str] = {
    "benefits-eligibility": "Benefits Eligibility",
    "case-management": "Case Management",
    "cloud-migration": "Cloud Migration",
    "contact-center": "Contact Center",
    "cybersecurity": "Cybersecurity",
    "data-analytics": "Data Analytics",
    "devsecops": "DevSecOps",
    "digital-services": "Digital Services",
    "disaster-recovery": "Disaster Recovery / COOP",
    "financial-management": "Financial Management",
    "geospatial": "Geospatial / GIS",
    "grants-management": "Grants Management",
    "health-it": "Health IT",
    "help-desk": "Help Desk",
    "hr-systems": "HR Systems",
    "identity-access": "Identity & Access Management",
    "infrastructure-operations": "Infrastructure & Operations",
    "legacy-modernization": "Legacy Modernization",
    "logistics": "Logistics / Supply Chain",
    "payroll": "Payroll",
    "records-management": "Records Management",
}

# Display name -> domain tag, beyond the display names of DOMAIN_TAGS themselves.
DOMAIN_ALIASES: dict[str, str] = {
    "App Modernization": "legacy-modernization",
    "Application Modernization": "legacy-modernization",
    "Cyber": "cybersecurity",
    "Cyber Security": "cybersecurity",
    "Geospatial/GIS": "geospatial",
    "Geospatial": "geospatial",
    "GIS": "geospatial",
    "Disaster Recovery / COOP": "disaster-recovery",
    "Disaster Recovery": "disaster-recovery",
    "COOP": "disaster-recovery",
    "Eligibility & Enrollment": "benefits-eligibility",
    "Eligibility and Enrollment": "benefits-eligibility",
    "Human Capital / HR": "hr-systems",
    "Human Capital": "hr-systems",
    "HR": "hr-systems",
    "Web/Digital": "digital-services",
    "Identity & Access Management": "identity-access",
    "Identity and Access Management": "identity-access",
    "ICAM": "identity-access",
    "IAM": "identity-access",
    "Data & Analytics": "data-analytics",
    "Analytics": "data-analytics",
    "Call Center": "contact-center",
    "IT Ops": "infrastructure-operations",
    "IT Operations": "infrastructure-operations",
    "Infrastructure & Operations": "infrastructure-operations",
    "Supply Chain": "logistics",
    "Service Desk": "help-desk",
}


def tag_slug(name: str) -> str:
    """Default slug rule: lower case, ``&``/``+`` words dropped, runs of other punctuation and
    spaces become one hyphen, dots kept (``.NET`` -> ``.net``, ``Node.js`` -> ``node.js``,
    ``Login.gov`` -> ``login.gov``); parentheses keep their content. Empty in, empty out."""
    slug = name.strip().lower().replace("&", " ")
    slug = re.sub(r"[^a-z0-9.#+]+", "-", slug)
    return slug.strip("-").rstrip(".")


_TECH_KEYS = {_key(k): v for k, v in TECHNOLOGY_TAGS.items()}
_DOMAIN_KEYS = {_key(display): slug for slug, display in DOMAIN_TAGS.items()} | {
    _key(k): v for k, v in DOMAIN_ALIASES.items()
}

_LIST_SEPARATORS = re.compile(r"[;,\n]")
_SLASH_SEPARATOR = re.compile(r"\s+/\s+")


def _tags(value: str | list | tuple | None, table: dict[str, str]) -> list[str]:
    if value is None:
        return []
    items = list(value) if isinstance(value, list | tuple) else _LIST_SEPARATORS.split(str(value))
    tags: list[str] = []
    for item in items:
        if item is None:
            continue
        item = str(item).strip().lstrip("•-* ").strip()
        if not item:
            continue
        # "Human Capital / HR" is one known name; "AWS GovCloud / Python / React" is a list.
        parts = [item] if _key(item) in table else _SLASH_SEPARATOR.split(item)
        for part in parts:
            tag = table.get(_key(part)) or tag_slug(part)
            if tag and tag not in tags:
                tags.append(tag)
    return tags


def stack_tags(value: str | list | tuple | None) -> list[str]:
    """Stack tags from a Technologies cell or a YAML list, in written order, without repeats.

    Items are separated by ``;``, ``,``, new lines or a spaced `` / `` (PP-045); each maps
    through ``TECHNOLOGY_TAGS`` or else ``tag_slug`` (tags already slugs map to themselves).
    """
    return _tags(value, _TECH_KEYS)


def domain_tags(value: str | list | tuple | None) -> list[str]:
    """Domain tags from a Domains cell or a YAML list (separators as ``stack_tags``).

    Names map through ``DOMAIN_TAGS``' display names and ``DOMAIN_ALIASES``, else ``tag_slug``
    (a tag outside ``DOMAIN_TAGS`` is kept; ``is_known_domain`` tells them apart).
    """
    return _tags(value, _DOMAIN_KEYS)


def is_known_domain(tag: str) -> bool:
    """True when ``tag`` is one of ``DOMAIN_TAGS``."""
    return tag in DOMAIN_TAGS
