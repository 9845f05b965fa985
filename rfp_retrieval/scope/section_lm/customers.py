"""Customer types and industries a past-performance reference must come from.

A proposal manager reads the customer rule from what the RFP allows and what it excludes:

- allowed lists: "References must be for federal civilian agencies", "may be from state or
  local government, federal agencies, or private-sector organizations", "Projects for
  government organizations at any level (municipal, county, state or federal) are acceptable";
- exclusions: "Work for federal civilian agencies, state or local governments ... or commercial
  firms will not be considered" leaves the types not named (here federal defense); "must not be
  federal", "excluding", "except", "do not meet this requirement";
- both: "Public sector references only; commercial references will not be considered." (the
  sentence is read clause by clause at ";", so the "only" half is not lost);
- "other than X" inverts ("customers other than federal agencies will not be considered" allows
  federal agencies only);
- "not required" states no rule ("Public-sector experience is not required.");
- a rule that allows every kind (all four government types and commercial, or "any industry or
  sector") is no filter (``any_customer``).

Preferences ("preferably", "more relevant", "rated higher") rank, they do not filter: an
industry a preference clause names ("insurance or financial services preferred", "experience
with utilities is desirable") is kept as preferred (``industries_preferred``). The
allowed and excluded kinds are collected over the sentences of the section that first states
the rule (an exclusion often follows the allowed list in the next sentence). An industry is
required only where an allowed clause names it as the kind of customer: not as an example
("such as insurers, banks or retailers") and not beside a wider class ("utilities or other
commercial enterprises", "municipal utilities, public utility districts or other local
government clients"). An industry beside a wider class is an example of the customer type the
RFP insists on: it ranks as preferred (``industries_preferred``), and the customer type filters.
An industry named as one alternative beside another customer kind ("municipal utilities or
county governments") is not required either: any of the kinds qualifies (``_an_alternative``).
An industry with no customer kind of its own named as the alternative to a customer kind
("state agencies or electric utilities": an electric utility may be commercial, municipal or a
cooperative) is one alternative of the customer rule: an entry of that customer type OR that
industry qualifies (``_alternative_to_a_kind``, ``CustomerConstraint.alternatives``).
"""

from __future__ import annotations

import re

from rfp_retrieval.scope.section_lm.records import (
    FEDERAL_CIVILIAN,
    FEDERAL_DEFENSE,
    GOVERNMENT_TYPES,
    CustomerConstraint,
    PastPerformanceRequirements,
)
from rfp_retrieval.scope.section_lm.sentences import PP_STRONG, DocumentSentence, stated

COMMERCIAL = "commercial"
INTERNATIONAL = "international"
EVERY_KIND = [*GOVERNMENT_TYPES, COMMERCIAL]
"""The customer kinds a rule that allows all of them leaves unfiltered (international work is
allowed only where the RFP names it)."""

_CUSTOMER_CUE = re.compile(
    r"\bagenc(?:y|ies)\b|\bcustomers?\b|\bclients?\b|\bgovernments?\b|\bcomponents?\b|"
    r"\bcommands?\b|\bsectors?\b|\bindustr(?:y|ies)\b|Department of Defense|\bDoD\b|"
    r"\bcompan(?:y|ies)\b|\bfirms?\b|\benterprises?\b|\borgani[sz]ations?\b|\bdepartments?\b|"
    r"\bmilitary\b|\bretailers?\b|\bjurisdictions?\b",
    re.I,
)
_ANY = re.compile(
    r"\bany (?:industry|sector|customer|client|type of (?:customer|client))\b|"
    # a list closed by an unqualified "or other organizations" admits every kind ("health
    # systems, government agencies (federal, state or local) or other organizations running
    # large contact centers"); "other federal agencies" stays qualified
    r"\bor (?:any )?other (?:organi[sz]ations|entities|clients|customers)\b",
    re.I,
)
# a leading reason is not the rule ("Because federal personnel rules differ from municipal
# civil service, references for federal agencies will not be considered")
_REASON = re.compile(r"^\s*(?:Because|Since|Given that)\b[^,]*,\s*", re.I)
# the clause states a rule on who the customer may be
_RULE = re.compile(
    r"\b(?:must|shall|should|only|required|are to be|is limited to|limited to|restricted to)\b|"
    r"\bmay (?:be|come)\b|\b(?:are|is) (?:an? )?(?:acceptable|eligible)\b|\bqualif(?:y|ies)\b|"
    r"\bwill be (?:considered|accepted)\b|\bcounts?\b|\bnot\b|\bexclud|\bexcept\b|"
    r"^(?:Submit|Provide|Include|List|Identify|Describe)\b",
    re.I,
)
_NOT_A_RULE = re.compile(
    r"\bnot (?:required|necessary|needed|mandatory)\b|\bneed not\b|\bdoes not need\b", re.I
)
_QUOTA = re.compile(
    r"\b(?:at least|a minimum of|no fewer than|not less than)\s+(?:one|two|1|2)\b(?:\s*\(\d\))?"
    r"(?!\s*(?:year|month|day|million|thousand|billion|percent|%))|"
    r"\b(?:one|two|1|2)\s+or\s+more\s+of\b",
    re.I,
)
"""A quota over the references ("at least one must be a utility", "one or more of the
references should be for a state agency"): what it names is wanted in some references, not a
rule for every one, so it ranks (a preference) and never filters (trial: "at least one must be
a utility" filtered all three references to utilities)."""
_PREFERENCE = re.compile(
    r"\bprefer(?:ably|red|ence|s)?\b|\bdesir(?:ed|able)\b|\bmore (?:relevant|favorabl[ey]|"
    r"weight|highly)\b|\bmost (?:relevant|heavily)\b|\brated? (?:higher|above)\b|"
    r"\bgreater (?:weight|relevance)\b|\bwill count for more\b|\bstrengths?\b|"
    r"\b(?:highest|high|most|greater) relevance\b|"
    r"\b(?:will|shall|may|are|is)(?: also)?(?: be)? (?:considered|deemed|rated) "
    r"(?:\w+ )?relevant\b",
    re.I,
)
# the clause excludes what it names
_EXCLUDES = re.compile(
    r"\b(?:will|shall|must|may|do|does|are|is|would|can)\s+not\b|\bcannot\b|\bnot be\b|"
    r"\bnot (?:accepted|considered|eligible|acceptable|count|qualify|allowed|permitted)\b|"
    r"\bno other\b|\bineligible\b|\bexclud(?:ed|es|ing)\b|\bdisqualif",
    re.I,
)
# inside a clause, what follows these words is the opposite of the clause's polarity
_PIVOT = re.compile(r"\bother than\b|\bexcept(?: for)?\b|\bexcluding\b|\bbut not\b", re.I)
_POSITIVE_BEFORE_NEGATION = re.compile(
    r"\b(?:must|shall) (?:be|come) (?:for|from|with|performed for)\b|\bonly\b|\blimited to\b",
    re.I,
)
# A customer word counts only where it names a kind of customer: in a list ("federal, state or
# local") or before a customer noun ("state Medicaid agency"), never "approved by the State".
_LISTED = (
    r"(?=\s*(?:,|/|\)|\bor\b|\band\b)|\s+(?:[\w-]+\s+){0,2}?(?:government|agenc|level|customer|"
    r"client|entit|organi[sz]|department|sector|compan|firm|enterprise|jurisdiction|Medicaid|"
    r"health|human|program|work\b|contracts?\b|references?\b|projects?\b|engagements?\b|"
    r"experience\b))"
)
# A bare "firms", "companies", "businesses" names a commercial customer ("references from
# government agencies or companies"), not the offerors the sentence addresses ("Firms shall
# address their past performance", "interested companies should submit"): the word is not a
# customer kind after an offeror's adjective or before the verb it acts with.
_NOT_OFFEROR = (
    r"(?<!interested )(?<!responding )(?<!offering )(?<!responsive )(?<!prospective )"
    r"(?<!participating )(?<!qualified )(?<!your )(?<!the )(?<!all )(?<!these )(?<!such )"
)
_NOT_ACTING = (
    r"(?!\s+(?:shall|must|should|will|may|can|are|is|that|who|which|submitting|responding|"
    r"proposing|providing|interested|wishing|intending)\b)"
)
_TYPE_WORDS = re.compile(
    r"(?P<civ>federal civilian|\bcivilian\b|non-?defense)|(?P<def>Department of Defense|\bDoD\b|"
    r"\bdefense\b|\bmilitary\b|combatant commands?|armed forces)|"
    rf"(?P<fed>\bfederal\b{_LISTED}|\bfederal government\b|\bU\.\s?S\.\s?Government\b|"
    r"\bUnited States Government\b|\bexecutive (?:branch )?(?:departments|agencies)\b)|"
    rf"(?P<state>(?<!united )(?<!the )\bstates?\b{_LISTED}|\bstatewide\b)|"
    rf"(?P<local>\blocal\b{_LISTED}|\bcounty\b|\bcounties\b|\bmunicipal(?:ities|ity)?\b|"
    r"\bcity\b|\bcities\b|\bschool districts?\b|\bspecial districts?\b|\btownships?\b|"
    r"\bboroughs?\b|\b(?:transit|port|housing|airport|water) authorit(?:y|ies)\b)|"
    rf"(?P<commercial>\bcommercial\b{_LISTED}|\bprivate[- ]sector\b|\bprivate (?:companies|"
    r"firms|clients|customers|industry|enterprises|organi[sz]ations)\b|"
    rf"{_NOT_OFFEROR}(?:\bcompan(?:y|ies)|\bcorporations?|\bbusinesses|"
    rf"\b(?<!federal )(?<!government )firms)\b{_NOT_ACTING})|"
    r"(?P<intl>\binternational\b|\bforeign\b)|"
    r"(?P<gov>\bpublic[- ]sector\b|\b(?:and/or|or|and)\s+government\b(?!\s+of\b)|"
    r"\bgovernment(?:al)? (?:organi[sz]ations|entities|agencies|"
    r"customers|clients) at any level\b|\bany level of government\b|\bgovernment(?:s|al)? at "
    r"(?:any|all) levels?\b|(?<!tribal )(?<!foreign )(?<!local )(?<!state )(?<!federal )"
    r"(?<!municipal )(?<!county )(?<!territorial )\bgovernment (?:agencies|customers|clients|"
    r"entities|organi[sz]ations)\b)",
    re.I,
)
_KIND = {
    "civ": [FEDERAL_CIVILIAN],
    "def": [FEDERAL_DEFENSE],
    "fed": [FEDERAL_CIVILIAN, FEDERAL_DEFENSE],
    "state": ["state"],
    "local": ["local"],
    "commercial": [COMMERCIAL],
    "intl": [INTERNATIONAL],
    "gov": list(GOVERNMENT_TYPES),
}
INDUSTRY_PATTERNS = (
    (
        "health and human services",
        re.compile(
            r"\bMedicaid\b|human services|social services|child welfare|\bSNAP\b|\bTANF\b", re.I
        ),
    ),
    (
        "healthcare",
        re.compile(r"\bhealth ?care\b|\bhospitals?\b|health systems?|health plans?", re.I),
    ),
    ("utilities", re.compile(r"\butilit(?:y|ies)\b", re.I)),
    ("courts and justice", re.compile(r"\bcourts?\b|\bjudicia", re.I)),
    ("logistics and transportation", re.compile(r"\blogistics\b|\btransportation\b", re.I)),
    (
        "retail",
        re.compile(r"\bretail(?:ers?)?\b|\bgrocers?\b|\bgrocery\b|\bconsumer[- ]goods\b", re.I),
    ),
    (
        "labor and workforce",
        re.compile(
            r"\bworkforce (?:agenc|development|board)|\bunemployment insurance\b|"
            r"\b(?:department|ministry) of labor\b|\blabor (?:department|agenc)",
            re.I,
        ),
    ),
    (
        "insurance",
        re.compile(
            r"\binsurers?\b|\binsurance (?:compan|carrier|provider|industry|sector|services)|"
            # "insurance or financial services": the list's head noun names both
            r"\binsurance(?=\s*(?:,|/|\bor\b|\band\b)\s*(?:[\w-]+\s+){0,2}?"
            r"(?:services|industr|sectors?|compan|carriers|providers)\b)",
            re.I,
        ),
    ),
    (
        "finance",
        re.compile(
            r"\bbanks?\b|\bbanking\b|\bfinancial (?:institutions?|services)\b|"
            r"\bcredit unions?\b",
            re.I,
        ),
    ),
)
"""Industries (the library's ``industry`` vocabulary) and the words that name them as a kind of
customer."""
_EXAMPLES = re.compile(r"\b(?:such as|for example|e\.g\.|including|like)\b.*$", re.I)
EXAMPLES_RULE = (
    "Industries a customer clause names after 'such as', 'for example', 'e.g.', "
    "'including' or 'like' are examples of the kind of customer it allows, never a "
    "requirement. When the clause allows one kind ('commercial firms, such as banks or "
    "insurers'), they rank as preferred industries (industries_preferred): an entry in "
    "another stated industry pays the industry penalty. When it allows several kinds "
    "('state or local government, federal agencies, or private firms, such as banks'), "
    "they illustrate one of them and rank nothing (a penalty would charge the other kinds). "
    "Nothing is filtered on them."
)
"""The one rule for industries named as examples (issue 18, structural defect 3: they ranked
nowhere)."""
_WIDER_CLASS = re.compile(
    r"\bother (?:(?:commercial|private|public|government|federal|state|local|municipal|county|"
    r"city)\s+)?(?:government(?:al)?\s+|public\s+|sector\s+)?(?:companies|enterprises|firms|"
    r"businesses|organi[sz]ations|customers|clients|entities|agencies|governments|"
    r"jurisdictions)\b",
    re.I,
)
"""A list closed by a wider class ("municipal utilities, public utility districts or other
local government clients", "utilities or other commercial enterprises"): the RFP insists on
the class (its customer type); an industry named before it is an example of that class, not a
required industry, and ranks as preferred (``_industries``; new-user trial H1: "municipal
utilities ... or other local government clients" filtered to utilities, one entry passed)."""


def _kinds(text: str, allowed: bool = False) -> list[str]:
    """Customer kinds named in ``text``, in order. "civilian" without a defense word narrows a
    plain "federal" in the same text to federal civilian ("civilian agencies of the federal
    government").

    ``allowed``: the text allows what it names. A permission reads narrowly and an exclusion
    broadly: an allowed plain "federal agencies" ("References must be for state or federal
    government agencies") is federal civilian, since an RFP that accepts defense work names it
    (``_FEDERAL_AGENCIES``); "any federal agency", every level of government named ("federal,
    state or local") or an excluded "federal agencies" is civilian and defense."""
    matches = list(_TYPE_WORDS.finditer(text))
    groups = {m.lastgroup for m in matches}
    every_level = {"state", "local"} <= groups or "gov" in groups
    out: list[str] = []
    for m in matches:
        kind = m.lastgroup or ""
        add = _KIND[kind]
        if kind == "fed" and "civ" in groups and "def" not in groups:
            add = [FEDERAL_CIVILIAN]
        elif (
            kind == "fed"
            and allowed
            and "def" not in groups
            and not every_level
            and _FEDERAL_AGENCIES.match(text, m.start())
            and not _ANY_FEDERAL.search(text[: m.end()])
        ):
            add = [FEDERAL_CIVILIAN]
        for t in add:
            if t not in out:
                out.append(t)
    return out


_FEDERAL_AGENCIES = re.compile(r"federal (?:government )?(?:agenc(?:y|ies)|departments?)\b", re.I)
_ANY_FEDERAL = re.compile(r"\b(?:any|all|every)\s+(?:U\.\s?S\.\s+)?federal\b", re.I)


# A customer kind written as the adjective of the reference itself names a customer with no
# customer noun ("Commercial references will not be accepted", "federal contracts only")
_KIND_OF_REFERENCE = re.compile(
    r"\b(?:federal|state|local|municipal|county|commercial|private[- ]sector|public[- ]sector|"
    r"defense|military|civilian|non-?profit|not-for-profit)\s+(?:government\s+)?"
    r"(?:references?|contracts?|projects?|engagements?|experience|work)\b",
    re.I,
)


def _names_customers(text: str) -> bool:
    return bool(_CUSTOMER_CUE.search(text) or _KIND_OF_REFERENCE.search(text)) or any(
        rx.search(text) for _, rx in INDUSTRY_PATTERNS
    )


def _is_negative(clause: str) -> bool:
    """True when the clause excludes what it names ("... will not be considered"), unless an
    allowed list comes before the negation ("must be for X and ...")."""
    neg = _EXCLUDES.search(clause)
    return bool(neg) and not _POSITIVE_BEFORE_NEGATION.search(clause[: neg.start()])


def _clause_kinds(clause: str) -> tuple[list[str], list[str]]:
    """(allowed, excluded) customer kinds of one clause."""
    negative = _is_negative(clause)
    pivot = _PIVOT.search(clause)
    head, tail = (clause[: pivot.start()], clause[pivot.end() :]) if pivot else (clause, "")
    head_kinds, tail_kinds = _kinds(head, not negative), _kinds(tail, negative)
    if negative:
        return tail_kinds, head_kinds
    return head_kinds, tail_kinds


def _industries(clause: str) -> tuple[list[str], list[str], list[str]]:
    """(required, examples, alternatives): the industries ``clause`` names as the kind of
    customer, those it names only as examples of a wider class closing the list
    (``_WIDER_CLASS``: "municipal utilities or other local government clients" -> ([],
    ["utilities"], [])), and those it names as the alternative to a customer kind ("state
    agencies or electric utilities" -> ([], [], ["utilities"]), ``_alternative_to_a_kind``).
    A wider class in mid-list ("utilities, other commercial enterprises, or state and local
    government agencies") leaves the other kinds on an equal footing: no industry is
    required and none is an example the RFP ranks first. Industries after "such as",
    "including", "e.g." are examples (``EXAMPLES_RULE``); in parentheses they are neither;
    after "other than", "except" (``_PIVOT``) they are left out, not required (new-user trial:
    "agencies other than the Department of Transportation" required transportation work)."""
    bare = re.sub(r"\([^)]*\)", "", clause)
    core = _EXAMPLES.sub("", bare)
    pivot = _PIVOT.search(core)
    if pivot is not None:  # "agencies other than the Department of Transportation": what
        core = core[: pivot.start()]  # follows is left out, never the industry required
    named = [name for name, rx in INDUSTRY_PATTERNS if rx.search(core)]
    listed = _EXAMPLES.search(bare)
    cited = []  # EXAMPLES_RULE: examples of the one kind the clause allows rank, never filter
    if listed and len(_kinds(bare[: listed.start()])) <= 1:
        cited = [n for n, rx in INDUSTRY_PATTERNS if rx.search(listed.group(0))]
        cited = [n for n in cited if n not in named]
    wider = _WIDER_CLASS.search(clause)
    if wider is None:
        named = [n for n in named if not _an_alternative(n, core)]
        alternatives = [n for n in named if _alternative_to_a_kind(n, core)]
        return [n for n in named if n not in alternatives], cited, alternatives
    examples = [] if _TYPE_WORDS.search(clause, wider.end()) else named
    return [], [*examples, *cited], []


# a customer kind with its own noun ("county governments", "state agencies") as a list item
_KIND_NOUN = r"(?:[\w-]+\s+){0,2}?(?:governments?|agenc(?:y|ies)|departments?|jurisdictions?)\b"
_JOIN = r"(?:\s*,\s*(?:or\s+|and/or\s+)?|\s+(?:or|and/or)\s+|\s*/\s*)"
_KIND_AFTER = re.compile(_JOIN + "(?P<kind>" + _KIND_NOUN + ")", re.I)
_OWN_KIND = re.compile(r"(?:\b(?!(?:or|and|for|from|by|of|with)\b)[\w-]+\s+){1,2}$", re.I)
_HEAD_NOUN = re.compile(r"\s+(?:governments?|agenc(?:y|ies)|departments?)\b", re.I)
_KIND_BEFORE = re.compile(r"(?P<kind>\b" + _KIND_NOUN + ")" + _JOIN + r"(?:[\w-]+\s+){0,2}$", re.I)


def _an_alternative(industry: str, core: str) -> bool:
    """Whether ``industry`` is named only as one alternative beside another customer kind of
    the same allowed list ("municipal utilities or county governments", "county governments
    or municipal utilities"): any of the kinds is acceptable, so the industry is not required
    of every reference. An industry that qualifies the kind ("state Medicaid agencies",
    "Medicaid or human services agencies") is still required, and so is one whose own
    customer kind is not stated ("state agencies or electric utilities": an electric utility
    may be commercial or municipal; it is an alternative of the rule instead,
    ``_alternative_to_a_kind``)."""
    for m in dict(INDUSTRY_PATTERNS)[industry].finditer(core):
        own = _OWN_KIND.search(core[: m.start()])
        if not (own and _TYPE_WORDS.search(own.group(0) + m.group(0))):
            continue  # "electric utilities": its customer kind is not stated, so not known
        head = _HEAD_NOUN.match(core, m.end())  # "state human services agencies or ..."
        end = head.end() if head else m.end()
        found = [_KIND_AFTER.match(core, end), _KIND_BEFORE.search(core[: own.start()])]
        for item in found:
            kind = item.group("kind") if item else ""
            if kind and _TYPE_WORDS.search(kind) and not _is_industry(kind):
                return True
    return False


def _alternative_to_a_kind(industry: str, core: str) -> bool:
    """Whether ``industry`` is named with no customer kind of its own as the alternative to
    a customer kind of the same list ("state agencies or electric utilities", "utilities or
    state agencies"): either qualifies a reference, so the rule is customer type OR industry.
    An industry that qualifies a kind ("state Medicaid agencies") or that has its own kind
    ("municipal utilities or county governments", ``_an_alternative``) is not one."""
    for m in dict(INDUSTRY_PATTERNS)[industry].finditer(core):
        own = _OWN_KIND.search(core[: m.start()])
        if own and _TYPE_WORDS.search(own.group(0) + m.group(0)):
            continue  # "municipal utilities": a kind of its own
        head = _HEAD_NOUN.match(core, m.end())
        if head:
            continue  # "Medicaid agencies": the industry qualifies a customer noun
        before = core[: own.start() if own else m.start()]
        found = [_KIND_AFTER.match(core, m.end()), _KIND_BEFORE.search(before)]
        for item in found:
            kind = item.group("kind") if item else ""
            if kind and _TYPE_WORDS.search(kind) and not _is_industry(kind):
                return True
    return False


def _is_industry(text: str) -> bool:
    return any(rx.search(text) for _, rx in INDUSTRY_PATTERNS)


def _read_preference(s: DocumentSentence, clause: str, req: PastPerformanceRequirements) -> None:
    """Add the industries a preference clause names to ``req.industries_preferred`` (ranking
    only; a negated clause names none)."""
    if _is_negative(clause):
        return
    required, examples, alternatives = _industries(clause)
    _prefer(s, clause, [*required, *examples, *alternatives], req)


_REFERENCE_QUOTA = re.compile(
    r"\b(?:at least|a minimum of|no fewer than|not less than)\s+(?:one|two|1|2)\b(?:\s*\(\d\))?"
    r"\s+(?:of\s+(?:the|these|your|those)\s+)?(?:\w+\s+){0,2}?(?:references?|projects?|"
    r"contracts?|examples?|engagements?|efforts?|task orders?)\b|"
    r"\b(?:one|two|1|2)\s+or\s+more\s+of\s+(?:the|these|your)\s+(?:references|projects|"
    r"contracts|examples)\b",
    re.I,
)
"""A quota over the references themselves ("at least one reference", "at least one of the
three projects", "one or more of the references"), not a count of something else."""


def _read_quota(s: DocumentSentence, clause: str, req: PastPerformanceRequirements) -> None:
    """Set ``req.customers_in_set`` from a quota clause naming customer kinds ("at least one
    reference must be for a county government": ["local"]): a rule on the set of picks the
    writer checks, never a filter (``_QUOTA``). The first such clause wins; a negated one
    names none."""
    if req.customers_in_set_stated is not None or _is_negative(clause):
        return
    if not _REFERENCE_QUOTA.search(clause):
        return  # "implemented at least two (2) systems for a city or county": a qualification
    kinds = _kinds(clause, allowed=True)
    if kinds:
        req.customers_in_set = kinds
        req.customers_in_set_stated = stated(s, clause.strip())


def _prefer(
    s: DocumentSentence, clause: str, industries: list[str], req: PastPerformanceRequirements
) -> None:
    """Add ``industries`` to ``req.industries_preferred`` (ranking only), stating the first."""
    named = [i for i in industries if i not in req.industries_preferred]
    if not named:
        return
    req.industries_preferred += named
    if req.industries_preferred_stated is None:
        req.industries_preferred_stated = stated(s, clause.strip())


def read_customers(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    """Set ``req.customers`` from the customer rule of the past-performance sentences.

    The first sentence that states a rule fixes the section; allowed and excluded kinds are
    collected over that section's sentences. Allowed kinds minus excluded ones are required;
    with exclusions only, every kind not excluded (``EVERY_KIND`` order). Leaves
    ``req.customers`` None when no rule is stated. Industries a preference clause names go to
    ``req.industries_preferred`` (they rank, never filter).
    """
    allowed: list[str] = []
    excluded: list[str] = []
    industries: list[str] = []
    alternatives: list[str] = []
    first: DocumentSentence | None = None
    for s in sentences:
        if first is not None and s.label != first.label:
            continue
        text = s.text
        if not (s.pp or PP_STRONG.search(text)) or not _names_customers(text):
            continue
        lead_rule = bool(_RULE.search(s.lead)) if s.lead else False
        read_any = False
        for clause in re.split(r";|:\s|\s[\u2013\u2014]\s|\s--\s", text):
            clause = _REASON.sub("", clause)
            if not _names_customers(clause):
                continue
            if _PREFERENCE.search(clause) or _QUOTA.search(clause):
                _read_preference(s, clause, req)
                if _QUOTA.search(clause) and not _PREFERENCE.search(clause):
                    _read_quota(s, clause, req)
                continue
            if _NOT_A_RULE.search(clause):
                continue
            if not (_RULE.search(clause) or lead_rule):
                continue
            if _ANY.search(clause) and not _EXCLUDES.search(clause):
                req.customers = CustomerConstraint(
                    [], [], True, stated(s, _ANY.search(clause).group(0))
                )
                return
            plus, minus = _clause_kinds(clause)
            negative = _is_negative(clause)
            named, examples, either = _industries(clause) if not negative else ([], [], [])
            if not (plus or minus or named or either):
                continue
            # an industry named as an example of the customer type ranks, never filters
            _prefer(s, clause, examples, req)
            read_any = True
            allowed += [t for t in plus if t not in allowed]
            excluded += [t for t in minus if t not in excluded]
            industries += [i for i in named if i not in industries]
            alternatives += [i for i in either if i not in alternatives]
        if read_any and first is None:
            first = s
    if first is None:
        return
    if allowed:
        types = [t for t in allowed if t not in excluded]
    else:
        types = [t for t in EVERY_KIND if t not in excluded]
    if not types:
        return
    if all(t in types for t in EVERY_KIND):
        req.customers = CustomerConstraint([], [], True, stated(first, first.text))
        return
    alternatives = [i for i in alternatives if i not in industries]
    req.customers = CustomerConstraint(
        types, industries, False, stated(first, first.text), alternatives
    )
