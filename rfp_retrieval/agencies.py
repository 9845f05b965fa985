"""US federal departments and their major components, and how to read an issuer's name.

A small hand-written table (``FEDERAL_AGENCIES``): each row is one organisation with its
acronym, its immediate parent and its customer type (``federal-civilian`` or
``federal-defense``; everything under the Department of Defense is defense). It serves two
needs of past-performance retrieval (seed 1): the customer-type filter (an RFP issued by FNS is
federal-civilian) and the same-agency bump (a reference for VHA counts as the same department
as an RFP from VBA: both roll up to VA).

Names are matched before acronyms: ``FSA`` is both USDA's Farm Service Agency and Education's
Federal Student Aid, ``DHS`` is also Georgia's Department of Human Services, ``VA`` is also
Virginia. An acronym is used only when the name does not settle the question, and an ambiguous
acronym is resolved by the department the name mentions (or not at all).

``issuer_type`` reads non-federal issuers from their wording: county / city / municipal ->
``local``; ``State of``, a state's name before an agency word, or a university -> ``state``;
``Inc.``, ``LLC``, ``Corp.`` -> ``commercial``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FEDERAL_CIVILIAN = "federal-civilian"
FEDERAL_DEFENSE = "federal-defense"


@dataclass(frozen=True)
class Agency:
    """One federal organisation.

    ``parent`` is the acronym of the organisation it sits in (None for a department or an
    independent agency); ``department`` is the acronym of the top of its tree (itself for a
    department); ``type`` is ``federal-civilian`` or ``federal-defense``.
    """

    name: str
    acronym: str
    parent: str | None
    department: str
    type: str
    aliases: tuple[str, ...] = ()


# (acronym, canonical name, parent acronym, aliases). Type is defense for the DoD tree.
_ROWS: tuple[tuple[str, str, str | None, tuple[str, ...]], ...] = (
    # Agriculture
    ("USDA", "Department of Agriculture", None, ("Agriculture Department",)),
    ("FNS", "Food and Nutrition Service", "USDA", ()),
    ("FSA", "Farm Service Agency", "USDA", ()),
    ("RD", "Rural Development", "USDA", ()),
    ("NIFA", "National Institute of Food and Agriculture", "USDA", ()),
    ("APHIS", "Animal and Plant Health Inspection Service", "USDA", ()),
    ("FS", "Forest Service", "USDA", ("USFS",)),
    ("NFC", "National Finance Center", "USDA", ()),
    ("NRCS", "Natural Resources Conservation Service", "USDA", ()),
    ("FSIS", "Food Safety and Inspection Service", "USDA", ()),
    ("RMA", "Risk Management Agency", "USDA", ()),
    ("AMS", "Agricultural Marketing Service", "USDA", ()),
    ("ARS", "Agricultural Research Service", "USDA", ()),
    # Veterans Affairs
    ("VA", "Department of Veterans Affairs", None, ("Veterans Affairs",)),
    ("VHA", "Veterans Health Administration", "VA", ()),
    ("VBA", "Veterans Benefits Administration", "VA", ()),
    ("NCA", "National Cemetery Administration", "VA", ()),
    # Homeland Security
    ("DHS", "Department of Homeland Security", None, ("Homeland Security",)),
    ("CISA", "Cybersecurity and Infrastructure Security Agency", "DHS", ()),
    ("FEMA", "Federal Emergency Management Agency", "DHS", ()),
    (
        "USCIS",
        "U.S. Citizenship and Immigration Services",
        "DHS",
        ("Citizenship and Immigration Services",),
    ),
    ("CBP", "U.S. Customs and Border Protection", "DHS", ("Customs and Border Protection",)),
    (
        "ICE",
        "U.S. Immigration and Customs Enforcement",
        "DHS",
        ("Immigration and Customs Enforcement",),
    ),
    ("TSA", "Transportation Security Administration", "DHS", ()),
    ("USCG", "U.S. Coast Guard", "DHS", ("Coast Guard",)),
    ("USSS", "U.S. Secret Service", "DHS", ("Secret Service",)),
    # Defense
    ("DoD", "Department of Defense", None, ("Defense Department", "DOD")),
    ("Army", "Department of the Army", "DoD", ("U.S. Army", "United States Army", "Army")),
    ("PEO EIS", "Program Executive Office Enterprise Information Systems", "Army", ()),
    ("ACC", "Army Contracting Command", "Army", ()),
    ("USACE", "U.S. Army Corps of Engineers", "Army", ("Army Corps of Engineers",)),
    ("Navy", "Department of the Navy", "DoD", ("U.S. Navy", "United States Navy", "Navy", "DON")),
    ("NAVSUP", "Naval Supply Systems Command", "Navy", ()),
    ("NAVSEA", "Naval Sea Systems Command", "Navy", ()),
    ("NAVAIR", "Naval Air Systems Command", "Navy", ()),
    ("NAVWAR", "Naval Information Warfare Systems Command", "Navy", ("SPAWAR",)),
    ("NIWC", "Naval Information Warfare Center", "Navy", ()),
    ("USMC", "U.S. Marine Corps", "Navy", ("Marine Corps",)),
    ("USAF", "Department of the Air Force", "DoD", ("U.S. Air Force", "Air Force", "DAF")),
    ("USSF", "U.S. Space Force", "USAF", ("Space Force",)),
    ("DISA", "Defense Information Systems Agency", "DoD", ()),
    ("DITCO", "Defense Information Technology Contracting Organization", "DISA", ()),
    ("DLA", "Defense Logistics Agency", "DoD", ()),
    ("DHA", "Defense Health Agency", "DoD", ()),
    ("MDA", "Missile Defense Agency", "DoD", ()),
    ("NGA", "National Geospatial-Intelligence Agency", "DoD", ()),
    ("DFAS", "Defense Finance and Accounting Service", "DoD", ()),
    ("DCMA", "Defense Contract Management Agency", "DoD", ()),
    ("DCSA", "Defense Counterintelligence and Security Agency", "DoD", ()),
    ("DTRA", "Defense Threat Reduction Agency", "DoD", ()),
    ("DARPA", "Defense Advanced Research Projects Agency", "DoD", ()),
    ("DIA", "Defense Intelligence Agency", "DoD", ()),
    ("NSA", "National Security Agency", "DoD", ()),
    ("WHS", "Washington Headquarters Services", "DoD", ()),
    ("OSD", "Office of the Secretary of Defense", "DoD", ()),
    ("USTRANSCOM", "U.S. Transportation Command", "DoD", ("Transportation Command", "TRANSCOM")),
    ("USSOCOM", "U.S. Special Operations Command", "DoD", ("Special Operations Command", "SOCOM")),
    ("CYBERCOM", "U.S. Cyber Command", "DoD", ("Cyber Command", "USCYBERCOM")),
    # Health and Human Services
    ("HHS", "Department of Health and Human Services", None, ("DHHS",)),
    ("CMS", "Centers for Medicare & Medicaid Services", "HHS", ()),
    ("CDC", "Centers for Disease Control and Prevention", "HHS", ()),
    ("NIH", "National Institutes of Health", "HHS", ()),
    ("ACF", "Administration for Children and Families", "HHS", ()),
    ("OFA", "Office of Family Assistance", "ACF", ()),
    ("FDA", "Food and Drug Administration", "HHS", ()),
    ("HRSA", "Health Resources and Services Administration", "HHS", ()),
    ("IHS", "Indian Health Service", "HHS", ()),
    ("SAMHSA", "Substance Abuse and Mental Health Services Administration", "HHS", ()),
    # Transportation
    ("DOT", "Department of Transportation", None, ("Transportation Department", "USDOT")),
    ("FMCSA", "Federal Motor Carrier Safety Administration", "DOT", ()),
    ("FAA", "Federal Aviation Administration", "DOT", ()),
    ("FHWA", "Federal Highway Administration", "DOT", ()),
    ("FTA", "Federal Transit Administration", "DOT", ()),
    ("NHTSA", "National Highway Traffic Safety Administration", "DOT", ()),
    ("FRA", "Federal Railroad Administration", "DOT", ()),
    # Commerce
    ("DOC", "Department of Commerce", None, ("Commerce Department",)),
    ("NOAA", "National Oceanic and Atmospheric Administration", "DOC", ()),
    ("Census", "U.S. Census Bureau", "DOC", ("Census Bureau", "Bureau of the Census")),
    ("USPTO", "U.S. Patent and Trademark Office", "DOC", ("Patent and Trademark Office",)),
    ("NIST", "National Institute of Standards and Technology", "DOC", ()),
    ("ITA", "International Trade Administration", "DOC", ()),
    # Education
    ("ED", "Department of Education", None, ("Education Department",)),
    ("FSA", "Federal Student Aid", "ED", ()),
    ("IES", "Institute of Education Sciences", "ED", ()),
    # Treasury
    ("Treasury", "Department of the Treasury", None, ("Treasury Department", "U.S. Treasury")),
    ("IRS", "Internal Revenue Service", "Treasury", ()),
    ("BFS", "Bureau of the Fiscal Service", "Treasury", ("Fiscal Service",)),
    ("Mint", "U.S. Mint", "Treasury", ("United States Mint",)),
    ("BEP", "Bureau of Engraving and Printing", "Treasury", ()),
    ("FinCEN", "Financial Crimes Enforcement Network", "Treasury", ()),
    # Labor
    ("DOL", "Department of Labor", None, ("Labor Department",)),
    ("ETA", "Employment and Training Administration", "DOL", ()),
    ("WHD", "Wage and Hour Division", "DOL", ()),
    ("OSHA", "Occupational Safety and Health Administration", "DOL", ()),
    ("BLS", "Bureau of Labor Statistics", "DOL", ()),
    # Justice
    ("DOJ", "Department of Justice", None, ("Justice Department",)),
    ("OJP", "Office of Justice Programs", "DOJ", ()),
    ("FBI", "Federal Bureau of Investigation", "DOJ", ()),
    ("BOP", "Federal Bureau of Prisons", "DOJ", ("Bureau of Prisons",)),
    ("DEA", "Drug Enforcement Administration", "DOJ", ()),
    ("USMS", "U.S. Marshals Service", "DOJ", ("Marshals Service",)),
    # Interior
    ("DOI", "Department of the Interior", None, ("Interior Department",)),
    ("NPS", "National Park Service", "DOI", ()),
    ("BLM", "Bureau of Land Management", "DOI", ()),
    ("USGS", "U.S. Geological Survey", "DOI", ("Geological Survey",)),
    ("BIA", "Bureau of Indian Affairs", "DOI", ()),
    ("FWS", "U.S. Fish and Wildlife Service", "DOI", ("Fish and Wildlife Service",)),
    # Other departments
    ("HUD", "Department of Housing and Urban Development", None, ()),
    ("DOE", "Department of Energy", None, ("Energy Department",)),
    ("DOS", "Department of State", None, ("State Department",)),
    # Independent agencies
    ("GSA", "General Services Administration", None, ()),
    ("FAS", "Federal Acquisition Service", "GSA", ()),
    ("TTS", "Technology Transformation Services", "GSA", ("18F",)),
    ("OPM", "Office of Personnel Management", None, ()),
    ("SSA", "Social Security Administration", None, ()),
    ("NARA", "National Archives and Records Administration", None, ("National Archives",)),
    ("NSF", "National Science Foundation", None, ()),
    ("MSPB", "Merit Systems Protection Board", None, ()),
    ("NLRB", "National Labor Relations Board", None, ()),
    ("EPA", "Environmental Protection Agency", None, ()),
    ("NASA", "National Aeronautics and Space Administration", None, ()),
    ("SBA", "Small Business Administration", None, ()),
    (
        "USAID",
        "U.S. Agency for International Development",
        None,
        ("Agency for International Development",),
    ),
    ("NRC", "Nuclear Regulatory Commission", None, ()),
    ("SEC", "Securities and Exchange Commission", None, ()),
    ("FCC", "Federal Communications Commission", None, ()),
    ("FTC", "Federal Trade Commission", None, ()),
    ("FDIC", "Federal Deposit Insurance Corporation", None, ()),
    ("CFPB", "Consumer Financial Protection Bureau", None, ()),
    ("EEOC", "Equal Employment Opportunity Commission", None, ()),
    ("FRTIB", "Federal Retirement Thrift Investment Board", None, ()),
    ("PBGC", "Pension Benefit Guaranty Corporation", None, ()),
    ("USPS", "U.S. Postal Service", None, ("Postal Service",)),
    ("USTC", "United States Tax Court", None, ("U.S. Tax Court", "Tax Court")),
    ("GAO", "Government Accountability Office", None, ()),
)


def _build() -> tuple[Agency, ...]:
    parents = {}
    for acronym, name, parent, _ in _ROWS:
        parents[(acronym, name)] = parent
    by_acronym_first: dict[str, str | None] = {}
    for acronym, _, parent, _ in _ROWS:
        by_acronym_first.setdefault(acronym, parent)
    out: list[Agency] = []
    for acronym, name, parent, aliases in _ROWS:
        top = parent
        chain_parent = parent
        department = acronym
        while chain_parent is not None:
            department = chain_parent
            chain_parent = by_acronym_first.get(chain_parent)
        top = department
        kind = FEDERAL_DEFENSE if top == "DoD" else FEDERAL_CIVILIAN
        out.append(Agency(name, acronym, parent, top, kind, aliases))
    return tuple(out)


FEDERAL_AGENCIES: tuple[Agency, ...] = _build()
"""Every organisation in the table, departments first within each tree."""

_STATES = (
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|"
    "Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|"
    "Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|"
    "New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|"
    "Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|"
    "West Virginia|Wisconsin|Wyoming|District of Columbia|Puerto Rico|Guam"
)
_AGENCY_WORD = (
    r"(?:Department|Dept\.?|Division|Office|Agency|Bureau|Board|Commission|Authority|"
    r"Administration|Health Care Authority|Technology Development)"
)
_STATE_MARK = re.compile(
    r"\b(?:State|STATE|Commonwealth|COMMONWEALTH) (?:of|OF)\b(?! the art)|"
    rf"\b(?:{_STATES})\s+(?:State\s+)?{_AGENCY_WORD}\b|"
    rf"^(?:The\s+)?(?:{_STATES.replace('Washington|', '')}|Washington State)\s+[A-Z]|"
    r"\bUniversity\b|\bCollege\b|\bState Agency\b",
)
_INTERNATIONAL_MARK = re.compile(
    r"\bGovernment of (?!the United States)|\bMinistry\b|\bNATO\b|\bUnited Nations\b|"
    r"\bEuropean (?:Union|Commission)\b|\bHer Majesty|\bHis Majesty"
)
_LOCAL_MARK = re.compile(
    r"\bCounty\b|\bCity of\b|\bCity and County\b|\bTown of\b|\bVillage of\b|\bBorough\b|"
    r"\bParish\b|\bTownship\b|\bMunicipal|\bPublic Schools\b|\bSchool District\b|"
    r"\bMetropolitan\b|\bTransit Authority\b|\bCity\s+Government\b|\b[A-Z][a-z]+ City\b"
)
_COMMERCIAL_MARK = re.compile(
    r",?\s\b(?:Inc|LLC|L\.L\.C|Corp|Corporation|Ltd|Co|Company|PLC|LLP|LP)\b\.?|"
    r"\bFoundation\b|\bFund\b|\bLabs\b"
)
_FEDERAL_MARK = re.compile(r"\bU\.?\s?S\.?\b|\bUnited States\b|\bFederal\b|\bNational\b")
_DEFENSE_MARK = re.compile(
    r"\b(?:Defense|Army|Navy|Naval|Air Force|Marine Corps|Military|Combatant Command)\b"
)


def _normalise(text: str) -> str:
    text = text.replace("&", " and ")
    text = re.sub(r"\bU\.\s?S\.|\bUnited States\b|\bUS\b", " ", text)
    text = re.sub(r"[^A-Za-z0-9]+", " ", text).lower()
    text = re.sub(r"\bthe\b", " ", text)
    return f" {' '.join(text.split())} "


def _forms(agency: Agency) -> list[str]:
    return [_normalise(form) for form in (agency.name, *agency.aliases) if not form.isupper()]


_NAME_INDEX: list[tuple[str, Agency]] = sorted(
    ((form, a) for a in FEDERAL_AGENCIES for form in _forms(a)),
    key=lambda pair: -len(pair[0]),
)


def _depth(agency: Agency) -> int:
    depth = 0
    parent = agency.parent
    while parent is not None:
        depth += 1
        parent = next((a.parent for a in FEDERAL_AGENCIES if a.acronym == parent), None)
    return depth


def _by_acronym(token: str) -> list[Agency]:
    token = token.strip().upper()
    return [
        a
        for a in FEDERAL_AGENCIES
        if a.acronym.upper() == token
        or any(al.upper() == token and al.isupper() for al in a.aliases)
    ]


def is_non_federal(text: str) -> bool:
    """True when ``text`` names a state, local or foreign government (see module docstring)."""
    return bool(
        _STATE_MARK.search(text) or _LOCAL_MARK.search(text) or _INTERNATIONAL_MARK.search(text)
    )


def resolve_agency(name: str | None, acronym: str | None = None) -> Agency | None:
    """The most specific federal organisation named by ``name`` and/or ``acronym``.

    ``name`` is free text such as "U.S. Department of Agriculture (USDA), Food and Nutrition
    Service (FNS), Office of Information Technology" or "Department of the Army PEO EIS";
    ``acronym`` is an optional separate acronym field ("ED OCIO", "PEO EIS", "OPM"). Full names
    win over acronyms; an acronym shared by two organisations (FSA) is resolved by the
    department the text names, else ignored. Returns None for state, local and commercial
    issuers and for names not in ``FEDERAL_AGENCIES``.
    """
    text = name or ""
    if text and is_non_federal(text):
        return None
    found: dict[int, Agency] = {}
    norm = _normalise(text) if text else " "
    consumed = norm
    for form, agency in _NAME_INDEX:
        if form in consumed:
            found[id(agency)] = agency
            consumed = consumed.replace(form, " | ")
    tokens: list[str] = []
    if acronym:
        tokens += [acronym.strip()] + re.split(r"[\s,/;]+", acronym.strip())
    if text:
        tokens += re.findall(r"\(([A-Za-z][A-Za-z0-9 &\-]{1,14})\)", text)
        tokens += [t for t in re.findall(r"\b[A-Z][A-Za-z]*[A-Z]{2,}\b", text) if len(t) >= 3]
        tokens += re.findall(r"\bPEO [A-Z]{2,5}\b", text)
    departments = {a.department for a in found.values()}
    for token in tokens:
        matches = _by_acronym(token)
        if len(matches) > 1:
            matches = [m for m in matches if m.department in departments]
        if len(matches) == 1:
            found.setdefault(id(matches[0]), matches[0])
    if not found:
        return None
    agencies = list(found.values())
    # the deepest organisation wins; between equals, one inside another's tree wins
    agencies.sort(key=lambda a: (-_depth(a), a.name))
    best = agencies[0]
    deepest = [a for a in agencies if _depth(a) == _depth(best)]
    if len(deepest) > 1:
        for a in deepest:
            if a.parent and any(b.acronym == a.parent for b in agencies):
                return a
    return best


def _as_agency(value: Agency | str | None) -> Agency | None:
    if value is None or isinstance(value, Agency):
        return value
    return resolve_agency(value, value if value.replace(" ", "").isalnum() else None)


def same_department(a: Agency | str | None, b: Agency | str | None) -> bool:
    """True when ``a`` and ``b`` roll up to the same department (FNS and USDA; VHA and VBA).

    Strings are resolved with ``resolve_agency`` (as a name, and as an acronym when they look
    like one). False when either side does not resolve to a federal organisation.
    """
    x, y = _as_agency(a), _as_agency(b)
    return x is not None and y is not None and x.department == y.department


def agency_by_acronym(acronym: str, department: str | None = None) -> Agency | None:
    """The organisation with ``acronym`` (within ``department`` when the acronym is shared)."""
    matches = _by_acronym(acronym)
    if department:
        matches = [m for m in matches if m.department == department]
    return matches[0] if len(matches) == 1 else None


def issuer_type(text: str | None) -> str | None:
    """Customer type of an issuing organisation: one of ``CUSTOMER_TYPES`` or None.

    Federal organisations come from the table (``federal-civilian`` / ``federal-defense``);
    otherwise county/city/municipal wording -> ``local``, ``State of`` / a state's agency /
    a university -> ``state``, ``Inc.``/``LLC``/``Corp.``/foundation -> ``commercial``, and any
    other "U.S."/"Federal"/"National" name -> ``federal-civilian`` (``federal-defense`` when it
    names a military organisation); "Government of Canada", "Ministry of", NATO ->
    ``international``. None when nothing in the text decides it.
    """
    if not text:
        return None
    agency = resolve_agency(text)
    if agency is not None:
        return agency.type
    kind = non_federal_type(text)
    if kind is not None:
        return kind
    if _DEFENSE_MARK.search(text):
        return FEDERAL_DEFENSE
    if _FEDERAL_MARK.search(text) or re.search(r"\bDepartment of\b", text):
        return FEDERAL_CIVILIAN
    return None


def non_federal_type(text: str | None) -> str | None:
    """``international``, ``local``, ``state`` or ``commercial`` from the wording alone, else None.

    The mark that comes first wins: the issuer is named before its address, so "State of
    Franklin, Department of Health …, Harbor City, FR" is state while "Fairfax County,
    Virginia" is local; "State of Hawaii, Hawaii Technology Development Corp." is state,
    "Cascade Freight Logistics, Inc." commercial. Marks over the same words rank international,
    local, state, commercial ("New York City Human Resources Administration" is local).
    """
    if not text:
        return None
    found = []
    for rank, (kind, mark) in enumerate(
        (
            ("international", _INTERNATIONAL_MARK),
            ("local", _LOCAL_MARK),
            ("state", _STATE_MARK),
            ("commercial", _COMMERCIAL_MARK),
        )
    ):
        m = mark.search(text)
        if m:
            found.append((m.start(), rank, kind, m.end()))
    if not found:
        return None
    first = min(found)
    # a mark overlapping the first one names the same words: "New York City" is local
    overlapping = [f for f in found if f[0] < first[3]]
    return min(overlapping, key=lambda f: f[1])[2]


def non_federal_parent(text: str | None) -> str | None:
    """The government a state or local issuer belongs to: "State of Ohio", "Miami-Dade County".

    Reads ``State of X`` / ``Commonwealth of X``, ``<Name> County`` / ``City of X``, or a state's
    name before an agency word ("Georgia Department of Human Services" -> "State of Georgia").
    None when the text names no state or local government.
    """
    if not text:
        return None
    m = re.search(
        r"\b(State|Commonwealth) of ([A-Z][a-z]+(?: [A-Z][a-z]+)?)|\b(STATE|COMMONWEALTH) OF "
        r"([A-Z]+(?: [A-Z]+)?)\b",
        text,
    )
    if m:
        kind = (m.group(1) or m.group(3)).title()
        place = (m.group(2) or m.group(4)).title()
        if place.split()[-1] in ("Request", "Rfp", "Department", "Division"):
            place = place.split()[0]
        return f"{kind} of {place}"
    m = re.search(r"\b((?:[A-Z][\w.'\-]*\s){1,3}County)\b", text)
    if m:
        return m.group(1).strip()
    m = re.search(r"\bCity of [A-Z][a-z]+(?: [A-Z][a-z]+)?", text)
    if m:
        return m.group(0)
    m = re.search(rf"\b({_STATES})\s+(?:State\s+)?{_AGENCY_WORD}", text)
    if m:
        return f"State of {m.group(1)}"
    return None
