"""Section L/M past-performance requirements of an RFP, as structured data.

``find_pp_requirements(doc)`` reads, sentence by sentence, the past-performance instructions
(Section L), evaluation factors (Section M) and any "References / Experience / Qualifications"
section, and returns what a proposal manager would put on the past-performance checklist, each
item with the section and sentence that states it:

- number of references ("submit three (3) past performance references"),
- recency window ("within the last five (5) years", "within 36 months of the RFP release
  date", "since FY2021", "at any time since January 1, 2022"), and whether it counts back from
  the proposal due date,
- contract value ("$10-30M", "between $30 million and $75 million", "at least $15 million",
  "below $2 million will not be considered relevant", "approximately $25M"),
- size other than dollars: FTE counts ("between three (3) and five (5) Full Time Equivalent
  (FTE) staff"), users ("serving at least a million users", "a user population of at least
  2,000 State or county staff"), workforce ("a workforce of at least 50,000 employees"),
  period of performance ("two (2) months to twelve (12) months"),
- customer types ("federal civilian agencies", "Department of Defense or other federal
  agencies", "federal, state or local government", "state Medicaid agency") and industries,
- relevance criteria (the sentences that say what makes a reference relevant),
- whether references must be as prime contractor.

Only past-performance sentences are read for value and size, so program budgets, NAICS size
standards or system user counts in the background never become filters. Dates are not
computed here: ``scope.read_scope`` anchors the recency window on the issue date, the proposal
due date or ``as_of``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass, field

from rfp_retrieval.documents.records import RfpDocument, Section
from rfp_retrieval.documents.text import split_sentences, strip_inline_markdown
from rfp_retrieval.quantities.dates import find_dates
from rfp_retrieval.quantities.numbers import COUNT, word_to_number

APPROX_BAND = (0.5, 2.0)
"""``value_approx`` X becomes the band [0.5 X, 2 X] in ``value_min``/``value_max``: "comparable in
size (approximately $25M)" admits references from $12.5M to $50M. Proposal practice treats a
reference within a factor of two of the target as similar in size."""

FEDERAL_CIVILIAN = "federal-civilian"
FEDERAL_DEFENSE = "federal-defense"
GOVERNMENT_TYPES = [FEDERAL_CIVILIAN, FEDERAL_DEFENSE, "state", "local"]


@dataclass
class Statement:
    """Where a requirement is stated: the phrase, its sentence and its section.

    ``section`` is the section path joined with `` > `` (``"(front matter)"`` before the first
    section); ``section_key`` is the outline key or None.
    """

    text: str
    sentence: str
    section: str
    section_key: str | None


@dataclass
class Recency:
    """A recency window: ``months`` back from an anchor date, or a fixed ``since`` date.

    ``applies_to`` is ``"ended"`` (performance ongoing or ended after the date) or
    ``"started"`` (work started/awarded after it); ``due_date_anchor`` is True when the
    sentence counts back from the proposal due date rather than the issue date.
    """

    months: int | None
    since: dt.date | None
    applies_to: str
    due_date_anchor: bool
    stated: Statement


@dataclass
class ValueRange:
    """Contract value constraint in USD whole dollars (``approx``: "approximately $25M")."""

    min: int | None
    max: int | None
    approx: int | None
    basis: str  # "total" | "annual"
    stated: Statement


@dataclass
class SizeConstraint:
    """A non-dollar size constraint on a reference.

    ``measure`` is ``fte`` (full-time equivalent staff), ``users``, ``employees`` (a customer
    workforce) or ``months`` (period of performance); ``min``/``max`` are counts (None: open);
    ``preferred`` is True when the RFP states a preference ("are preferable", "greatest
    weight") rather than a rule.
    """

    measure: str
    min: float | None
    max: float | None
    preferred: bool
    stated: Statement


@dataclass
class CustomerConstraint:
    """Customer types (``library`` vocabulary, in the RFP's order; [] with ``any_customer``
    True for "any industry or sector") and industries a reference must come from."""

    types: list[str]
    industries: list[str]
    any_customer: bool
    stated: Statement


@dataclass
class PastPerformanceRequirements:
    """Everything Section L/M says about past-performance references (None / [] = not stated).

    ``no_value_constraint`` is True when the RFP says outright that no minimum value applies.
    """

    references_required: int | None = None
    references_stated: Statement | None = None
    recency: Recency | None = None
    value: ValueRange | None = None
    no_value_constraint: Statement | None = None
    sizes: list[SizeConstraint] = field(default_factory=list)
    customers: CustomerConstraint | None = None
    relevance: list[Statement] = field(default_factory=list)
    require_prime: Statement | None = None

    def to_dict(self) -> dict:
        """Plain JSON-ready dict (dates as ISO strings)."""
        data = asdict(self)
        if self.recency is not None and self.recency.since is not None:
            data["recency"]["since"] = self.recency.since.isoformat()
        return data


# --------------------------------------------------------------------------------------------
# sentences with their context

_PP_HEADING = re.compile(
    r"past performance|\breferences\b|\breference (?:form|list|check)|similar experience|"
    r"corporate experience|relevant "
    r"experience|prior experience|offeror experience|provider experience|minimum qualifications|"
    r"experience (?:and|&) (?:references|qualifications)|qualifications and references",
    re.I,
)
_REFERENCE = (
    r"\breferences\b|\beach reference\b|\breference (?:must|shall|should|will|may|is)\b|"
    r"\breferenced (?:contract|effort|project)"
)
_PP_SENTENCE = re.compile(
    rf"past performance|{_REFERENCE}|(?:similar|corporate|prior|past) experience|"
    r"\b(?:projects?|efforts?|contracts?|engagements?|examples?)\b[^.]{0,80}\b(?:performed|"
    r"completed|built|delivered|ongoing)\b|experience in the (?:last|past)|"
    r"\bexamples of (?:similar |relevant |recent )?(?:projects|contracts|efforts|work)\b|"
    r"similar (?:in )?size,? scope",
    re.I,
)
_WORK_NOUN = re.compile(
    r"\bexperience\b|\bengagements?\b|\bprojects?\b|\bcontracts?\b|\befforts?\b|"
    r"\bwork performed\b|\bservices (?:provided|delivered)\b",
    re.I,
)
_DONE_WINDOW = re.compile(
    r"\b(?:performed|completed|delivered|provided|built|developed|ongoing|active|experience)\b"
    r"[^.]{0,120}\b(?:within|in|during|over) (?:the )?(?:last|past|preceding|previous|prior)\b",
    re.I,
)
_PERSONNEL = re.compile(
    r"key personnel|\bresumes?\b|\b(?:project|product|program) manager\b|\b(?:technical|design|"
    r"team) lead\b|\barchitect\b|\bSMEs?\b|employed by|\bindividuals?\b|team members?|"
    r"\bcandidates?\b|proposed (?:staff|personnel)",
    re.I,
)
_STRONG_MODAL = re.compile(
    r"\b(?:must|shall|only|required|are to be|is limited to|limited to)\b|"
    r"^(?:Submit|Provide|Include|List|Identify|Describe)\b",
    re.I,
)
_PP_STRONG = re.compile(
    rf"past performance|{_REFERENCE}|(?:similar|corporate|prior|past|relevant) experience", re.I
)
_PREFERENCE = re.compile(r"\bprefer(?:ably|red|ence|s)?\b|\bdesir(?:ed|able)\b", re.I)
_NEGATIVE = re.compile(
    r"\bnot\b[^.]{0,40}\b(?:accepted|considered|eligible|acceptable|count)\b|\bexcluded\b", re.I
)


@dataclass
class DocumentSentence:
    """One sentence of an RFP with its section (``label``: the section path joined with
    `` > ``), whether it sits in a past-performance / references section (``pp``), and the
    list lead-in it completes (``"each reference shall:"``)."""

    text: str
    section: Section | None
    label: str
    pp: bool
    lead: str = ""


def _label(doc: RfpDocument, section: Section | None) -> str:
    if section is None:
        return "(front matter)"
    return " > ".join(doc.section_path(section.key))


def document_sentences(doc: RfpDocument) -> list[DocumentSentence]:
    """Every sentence of ``doc`` in order: front matter, then each section's prose and list
    items (tables and headings dropped)."""
    by_key = {s.key: s for s in doc.sections}
    out: list[DocumentSentence] = []

    def in_pp(section: Section) -> bool:
        node: Section | None = section
        while node is not None:
            if node.level > 0 and _PP_HEADING.search(f"{node.number or ''} {node.heading}"):
                return True
            node = by_key.get(node.parent) if node.parent else None
        return False

    first_line = doc.sections[0].line if doc.sections else len(doc.text.splitlines()) + 1
    front = "\n".join(doc.text.splitlines()[: first_line - 1])
    for block in _blocks(front):
        for s in split_sentences(block):
            out.append(DocumentSentence(s, None, "(front matter)", False))
    for section in doc.sections:
        pp = in_pp(section)
        label = _label(doc, section)
        lead = ""
        for block in _blocks(section.body):
            is_item = bool(re.match(r"^(?:[-*+•]|\d{1,2}[.)]|\(?[a-z]{1,3}[.)])\s", block))
            text = re.sub(r"^(?:[-*+•]|\d{1,2}[.)]|\(?[a-z]{1,3}[.)])\s+", "", block)
            for s in split_sentences(strip_inline_markdown(text)):
                out.append(DocumentSentence(s, section, label, pp, lead if is_item else ""))
            plain = strip_inline_markdown(text)
            if plain.endswith(":"):
                lead = plain
            elif not is_item:
                lead = ""
    return out


def _blocks(body: str) -> list[str]:
    """Paragraphs and list items of a body (table rows and headings dropped)."""
    blocks: list[str] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            blocks.append(" ".join(current))
            current.clear()

    for line in body.splitlines():
        s = line.strip()
        if not s:
            flush()
            continue
        if s.startswith(("|", "#")) or s.count("|") >= 2:
            flush()
            continue
        if re.match(r"^(?:[-*+•]|\d{1,2}[.)]|\(?[a-z]{1,3}[.)]|[A-Z][.)])\s", s):
            flush()
        current.append(s)
    flush()
    return blocks


# --------------------------------------------------------------------------------------------
# money (kept in one function so the library's money grammar can replace it)

_SCALE = {
    "k": 1_000,
    "thousand": 1_000,
    "m": 1_000_000,
    "mm": 1_000_000,
    "mil": 1_000_000,
    "million": 1_000_000,
    "b": 1_000_000_000,
    "bn": 1_000_000_000,
    "billion": 1_000_000_000,
}
_NUMBER_WORDS = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|"
    r"five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|a hundred|one hundred)"
)
_MONEY = re.compile(
    r"(?P<cur>\$|US\$|USD\s?)?\s*(?P<num>\d[\d,]*(?:\.\d+)?|" + _NUMBER_WORDS + r")"
    r"(?:\s*(?P<dash>[-\u2013\u2014]|to)\s*(?P<cur2>\$)?\s*(?P<num2>\d[\d,]*(?:\.\d+)?))?"
    r"\s*(?P<scale>thousand|million|billion|mil|MM|bn|[KMB])?\b(?:\s*(?P<dollars>dollars|USD))?",
    re.I,
)


@dataclass(frozen=True)
class _Money:
    start: int
    end: int
    value: int
    upper: int | None  # "$10-30M" shorthand: both ends in one mention


def money_mentions(text: str) -> list[_Money]:
    """Dollar amounts in ``text`` (USD whole dollars), including ``$10-30M`` shorthand ranges.

    An amount needs ``$``/``USD``/``dollars``, or a scale word after an English number
    ("thirty million"). Swap point for ``rfp_retrieval.library.money`` once it lands.
    """
    out: list[_Money] = []
    for m in _MONEY.finditer(text):
        cur = m.group("cur") or m.group("cur2")
        scale_text = (m.group("scale") or "").lower()
        if scale_text in ("k", "m", "b") and m.group("scale") not in ("K", "M", "B"):
            scale_text = ""  # lower-case single letters are not scales
        num = m.group("num")
        is_word = not num[0].isdigit()
        if not (cur or m.group("dollars") or (is_word and scale_text)):
            continue
        if scale_text and not (cur or m.group("dollars")) and not is_word:
            continue
        scale = _SCALE.get(scale_text, 1)
        first = _number(num)
        if first is None:
            continue
        upper = None
        if m.group("num2"):
            second = _number(m.group("num2"))
            if second is None:
                continue
            upper = int(round(second * scale))
        out.append(_Money(m.start(), m.end(), int(round(first * scale)), upper))
    return out


def _number(text: str) -> float | None:
    if text[0].isdigit():
        try:
            return float(text.replace(",", ""))
        except ValueError:
            return None
    return word_to_number(text)


_REFS_COUNT = re.compile(
    rf"(?:submit|provide|include|identify|furnish|list)\s+(?:a list of |a minimum of |at least |up "
    rf"to |no more than |not more than |a maximum of |a total of )?(?P<n>{COUNT})\s+"
    r"(?:[\w-]+\s+){0,4}?"
    r"(?:references|past performance|examples|projects|contracts|case studies|summaries|"
    r"questionnaires)"
    rf"|(?:a minimum of |at least |up to |no more than )?(?P<n2>{COUNT})\s+(?:[\w-]+\s+){{0,2}}?"
    r"references\b"
    rf"|(?:a minimum of|at least|up to|no more than|not more than|a maximum of)\s+(?P<n3>{COUNT})"
    r"\s+(?:past performance|case studies|examples of)"
    rf"|\b(?:on|in|from)\s+(?P<n4>{COUNT})\s+(?:similar |relevant |recent )?(?:projects|contracts|"
    r"efforts|engagements)\s+(?:of|with)\s+similar\b",
    re.I,
)


def _stated(s: DocumentSentence, phrase: str) -> Statement:
    return Statement(
        text=phrase.strip(),
        sentence=s.text,
        section=s.label,
        section_key=s.section.key if s.section is not None else None,
    )


def _read_references(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    for s in sentences:
        m = _REFS_COUNT.search(s.text)
        if not m:
            continue
        n = word_to_number(m.group("n") or m.group("n2") or m.group("n3") or m.group("n4"))
        if n is None or not 1 <= n <= 20:
            continue
        req.references_required = int(n)
        req.references_stated = _stated(s, m.group(0))
        return


_FY = re.compile(r"\bsince\s+(?:FY\s?|fiscal year\s+)(?P<fy>\d{4}|\d{2})\b", re.I)
_SINCE_DATE = re.compile(r"\b(?:since|on or after)\s+(?P<rest>.{6,40})", re.I)
_WINDOW = re.compile(
    rf"(?P<verb>(?:performed|completed|delivered|active|ongoing|built|awarded|started)\s+)?"
    rf"(?:within|in|during|over)\s+(?:the\s+)?(?:last|past|preceding|previous|prior|most recent)?"
    rf"\s*(?P<n>{COUNT})\s*(?:\(\d+\)\s*)?(?:calendar\s+|fiscal\s+)?(?P<unit>years?|months?)\b",
    re.I,
)
_STARTED = re.compile(r"\b(?:started|begun|began|awarded|commenced|start date)\b", re.I)
_DUE_ANCHOR = re.compile(
    r"\b(?:proposal|quotation|quote|response|offer)s?\s+(?:due|submission|closing)\s+date\b|"
    r"\bdue date\b|\bclosing date\b|\bdate (?:proposals|quotes|quotations) are due\b",
    re.I,
)


def _read_recency(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    for s in sentences:
        text = s.text
        started = bool(_STARTED.search(text)) and not re.search(
            r"started earlier|ongoing|performed|completed", text, re.I
        )
        applies = "started" if started else "ended"
        m = _FY.search(text)
        if m:
            fy = int(m.group("fy"))
            fy = fy + 2000 if fy < 100 else fy
            date = dt.date(fy - 1, 10, 1)  # a federal fiscal year starts October 1
            req.recency = Recency(None, date, applies, False, _stated(s, m.group(0)))
            return
        m = _WINDOW.search(text)
        if m:
            n = word_to_number(m.group("n"))
            if n is None or n <= 0 or n > 240:
                continue
            months = int(round(n * 12)) if m.group("unit").lower().startswith("year") else int(n)
            due = bool(_DUE_ANCHOR.search(text))
            req.recency = Recency(months, None, applies, due, _stated(s, m.group(0)))
            return
        if not (s.pp or _PP_STRONG.search(text)):
            continue  # a fixed start date outside past-performance text is a schedule date
        for sm in _SINCE_DATE.finditer(text):
            dates = find_dates(sm.group("rest"))
            if dates and dates[0][0] <= 2:
                date = dates[0][2]
                phrase = sm.group(0)[: len(sm.group(0)) - len(sm.group("rest")) + dates[0][1]]
                req.recency = Recency(None, date, applies, False, _stated(s, phrase))
                return


_VALUE_CONTEXT = re.compile(r"\bvalue|\bvalued|\bsize\b|\bdollar|\$|million|billion", re.I)
_NOT_VALUE = re.compile(
    r"size standard|\bbudget\b|\bpric(?:e|ed|ing)\b|\bfee\b|\bgrants?\b|\bappropriat", re.I
)
_NO_MINIMUM = re.compile(
    r"\bno (?:minimum|maximum) (?:dollar |contract )?(?:value|amount|size)\b", re.I
)


def _read_value(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    for s in sentences:
        text = s.text
        if not (s.pp or _PP_STRONG.search(text)):
            continue
        if not _VALUE_CONTEXT.search(text) or _NOT_VALUE.search(text):
            continue
        if _NO_MINIMUM.search(text) and not money_mentions(text):
            req.no_value_constraint = _stated(s, _NO_MINIMUM.search(text).group(0))
            return
        found = _value_from(text)
        if found is None:
            continue
        lo, hi, approx, phrase = found
        basis = (
            "annual"
            if re.search(r"\bannual(?:ly)?\b|per year|each year|a year", text, re.I)
            else "total"
        )
        req.value = ValueRange(lo, hi, approx, basis, _stated(s, phrase))
        return


def _value_from(text: str) -> tuple[int | None, int | None, int | None, str] | None:
    """(min, max, approx, phrase) stated in one sentence, or None when it states no value."""
    mentions = money_mentions(text)
    if not mentions:
        return None
    # placeholder text so the phrase patterns see "<0>", "<1>" instead of amounts
    parts: list[str] = []
    last = 0
    for i, mm in enumerate(mentions):
        parts.append(text[last : mm.start])
        parts.append(f" <{i}> ")
        last = mm.end
    parts.append(text[last:])
    shaped = re.sub(r"\s+", " ", "".join(parts))

    def amount(i: str) -> _Money:
        return mentions[int(i)]

    def phrase(*idx: str) -> str:
        ms = [amount(i) for i in idx]
        return text[min(m.start for m in ms) : max(m.end for m in ms)].strip()

    m = re.search(
        r"(?:at least|no less than|not less than|a minimum of|minimum of) <(\d)> (?:and|but) "
        r"(?:no more than|not more than|not to exceed|not exceeding|a maximum of|less than) <(\d)>",
        shaped,
        re.I,
    )
    if m:
        return amount(m.group(1)).value, amount(m.group(2)).value, None, phrase(*m.groups())
    m = re.search(
        r"between (?P<a>\$?\s?\d[\d,.]*|" + _NUMBER_WORDS + r") and <(?P<b>\d)>", shaped, re.I
    )
    if m:  # "between ten and thirty million dollars": the first end borrows the scale
        b = amount(m.group("b"))
        first = _number(m.group("a").replace("$", "").strip())
        if first is not None:
            scale = 1
            for s in (1_000_000_000, 1_000_000, 1_000):
                if b.value >= s and first < 1000:
                    scale = s
                    break
            return int(first * scale), b.value, None, m.group(0)
    m = re.search(r"(?:between )?<(\d)> ?(?:-|\u2013|\u2014|to|through|and) ?<(\d)>", shaped, re.I)
    if m:
        return amount(m.group(1)).value, amount(m.group(2)).value, None, phrase(*m.groups())
    for mm in mentions:
        if mm.upper is not None:
            return mm.value, mm.upper, None, text[mm.start : mm.end].strip()
    m = re.search(
        r"(?:below|less than|under|lower than) <(\d)>[^.]{0,60}?\b(?:not be considered|not "
        r"considered|considered not relevant|considered not|not relevant|not be accepted|"
        r"ineligible|not eligible)",
        shaped,
        re.I,
    )
    if m:
        return (
            amount(m.group(1)).value,
            None,
            None,
            m.group(0).replace(f" <{m.group(1)}> ", f" {phrase(m.group(1))} ").strip(),
        )
    m = re.search(
        r"(?:no more than|not more than|not to exceed|not exceeding|a maximum of|maximum of) "
        r"<(\d)>",
        shaped,
        re.I,
    )
    if m:
        return None, amount(m.group(1)).value, None, _restore(m.group(0), mentions, text)
    m = re.search(
        r"(?:at least|no less than|not less than|a minimum of|minimum of|greater than|more than|"
        r"exceeding|in excess of|over) <(\d)>|<(\d)> or (?:more|greater|above|higher)",
        shaped,
        re.I,
    )
    if m:
        i = m.group(1) or m.group(2)
        return amount(i).value, None, None, _restore(m.group(0), mentions, text)
    m = re.search(
        r"(?:up to|less than|below|under) <(\d)>",
        shaped,
        re.I,
    )
    if m:
        return None, amount(m.group(1)).value, None, _restore(m.group(0), mentions, text)
    m = re.search(
        r"(?:approximately|about|around|roughly|~|comparable|similar)[^<]{0,40}<(\d)>", shaped, re.I
    )
    if m:
        x = amount(m.group(1)).value
        lo, hi = int(x * APPROX_BAND[0]), int(x * APPROX_BAND[1])
        return lo, hi, x, _restore(m.group(0), mentions, text)
    return None


def _restore(shaped: str, mentions: list[_Money], text: str) -> str:
    return re.sub(
        r"\s?<(\d)>\s?",
        lambda m: (
            " "
            + text[mentions[int(m.group(1))].start : mentions[int(m.group(1))].end].strip()
            + " "
        ),
        shaped,
    ).strip()


_CUSTOMER_CUE = re.compile(
    r"\bagenc(?:y|ies)\b|\bcustomers?\b|\bclients?\b|\bgovernments?\b|\bcomponents?\b|"
    r"\bcommands?\b|\bsectors?\b|\bindustr(?:y|ies)\b|Department of Defense|\bDoD\b",
    re.I,
)
_ANY = re.compile(r"\bany (?:industry|sector|customer|client)\b", re.I)
# A customer word counts only where it names a kind of customer: in a list ("federal, state or
# local") or before a customer noun ("state Medicaid agency"), never "approved by the State".
_LISTED = (
    r"(?=\s*(?:,|/|\bor\b|\band\b)|\s+(?:government|agenc|level|customer|client|entit|organi[sz]"
)
_LISTED += r"|department|sector|compan|firm|enterprise|jurisdiction|Medicaid|health|human))"
_TYPE_WORDS = re.compile(
    r"(?P<civ>federal civilian|\bcivilian\b)|(?P<def>Department of Defense|\bDoD\b|"
    r"\bdefense\b|\bmilitary\b|combatant commands?|armed forces)|"
    rf"(?P<fed>\bfederal\b{_LISTED})|"
    rf"(?P<state>(?<!united )\bstates?\b{_LISTED}|\bstatewide\b)|"
    rf"(?P<local>\blocal\b{_LISTED}|\bcounty\b|\bcounties\b|\bmunicipal(?:ities|ity)?\b|"
    r"\bcity\b|\bcities\b)|"
    rf"(?P<commercial>\bcommercial\b{_LISTED}|\bprivate[- ]sector\b)|"
    r"(?P<intl>\binternational\b|\bforeign\b)|"
    r"(?P<gov>\bgovernments?\s+(?:agencies|customers|clients|entities|organi[sz]ations)\b|"
    r"\b(?:and/or|or|and)\s+government\b|\bgovernments\b|\bpublic[- ]sector\b)",
    re.I,
)
_INDUSTRIES = (
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
)


def _read_customers(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    for s in sentences:
        text = s.text
        if not (s.pp or _PP_STRONG.search(text)):
            continue
        modal = _STRONG_MODAL.search(text) or _STRONG_MODAL.search(s.lead)
        if not modal or not _CUSTOMER_CUE.search(text) or _NEGATIVE.search(text):
            continue
        if _PREFERENCE.search(text):
            continue  # "preferably with the Federal Government" ranks, it does not filter
        if _ANY.search(text):
            req.customers = CustomerConstraint([], [], True, _stated(s, _ANY.search(text).group(0)))
            return
        types: list[str] = []
        for m in _TYPE_WORDS.finditer(text):
            kind = m.lastgroup
            add = {
                "civ": [FEDERAL_CIVILIAN],
                "def": [FEDERAL_DEFENSE],
                "fed": [FEDERAL_CIVILIAN, FEDERAL_DEFENSE],
                "state": ["state"],
                "local": ["local"],
                "commercial": ["commercial"],
                "intl": ["international"],
                "gov": [],
            }[kind]
            if kind == "gov" and not any(
                g in ("fed", "civ", "def", "state", "local")
                for g in (x.lastgroup for x in _TYPE_WORDS.finditer(text))
            ):
                add = list(GOVERNMENT_TYPES)
            for t in add:
                if t not in types:
                    types.append(t)
        if not types:
            continue
        industries = [name for name, rx in _INDUSTRIES if rx.search(text)]
        req.customers = CustomerConstraint(types, industries, False, _stated(s, text))
        return


def _read_prime(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    for s in sentences:
        m = re.search(
            r"\b(?:performed|served|work(?:ed)?|contracts?) (?:[\w ]{0,30})?as (?:a |the )?"
            r"prime\b",
            s.text,
            re.I,
        )
        if not m:
            continue
        if re.search(
            r"\bor (?:as )?(?:an? )?(?:major |significant |first-tier )?sub", s.text, re.I
        ):
            continue
        if _STRONG_MODAL.search(s.text) or _STRONG_MODAL.search(s.lead):
            req.require_prime = _stated(s, m.group(0))
            return


# --------------------------------------------------------------------------------------------
# size other than dollars, relevance criteria

_QUANTITY = (
    r"(?:a|one|two|three|four|five|ten|\d+(?:\.\d+)?)\s+(?:million|thousand)|\d{1,3}(?:,\d{3})+|"
    rf"\d+(?:\.\d+)?|{COUNT}"
)
_SIZE_UNITS = {
    "fte": r"(?:full[- ]time[- ]equivalents?|full[- ]time equivalent \(FTE\)|FTEs?)"
    r"(?:\s*\(FTEs?\))?(?:\s+(?:staff|personnel|employees|positions|people))?",
    "users": r"(?:(?:concurrent|active|named|registered|end|unique monthly|monthly)\s+)?"
    r"(?:users|visitors)",
    "employees": r"(?:employees|staff|workers|personnel|caseworkers|workforce)",
    "months": r"months",
}
_BOUND = (
    r"(?P<lo_word>at least|a minimum of|minimum of|no (?:fewer|less) than|not (?:fewer|less) than|"
    r"more than|over|in excess of|greater than|up to|no more than|not more than|a maximum of|"
    r"approximately|about|around)"
)
_SIZE_PREFERENCE = re.compile(
    r"\bprefer(?:ably|red|able|ence|s)?\b|\bdesir(?:ed|able)\b|greatest weight|more weight|"
    r"more (?:relevant|favorabl[ey])|highest relevance",
    re.I,
)
_RELEVANCE = re.compile(
    r"\brelevan(?:t|ce|cy)\b|\bsimilar (?:in|to the) (?:size|scope|complexity)|"
    r"\bsimilar size\b|\bsize, scope,? and complexity\b|\bscope and complexity\b",
    re.I,
)
_NOT_RELEVANCE = re.compile(
    r"will be rated|rated (?:highly )?relevant, relevant|no relevant past performance|"
    r"without (?:recent and )?relevant past performance|neutral|unknown confidence|"
    r"recency, relevan(?:ce|cy),? and quality|quality and relevan|relevant to evaluating|"
    r"any relevant|other relevant|relevant (?:information|documents|government staff)",
    re.I,
)


def _quantity(text: str) -> float | None:
    text = text.strip().lower().replace(",", "")
    m = re.fullmatch(r"(a|one|two|three|four|five|ten|\d+(?:\.\d+)?)\s+(million|thousand)", text)
    if m:
        base = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10}.get(
            m.group(1)
        )
        value = float(base if base is not None else m.group(1))
        return value * (1_000_000 if m.group(2) == "million" else 1_000)
    return word_to_number(text)


def _size_pattern(measure: str, unit: str) -> re.Pattern[str]:
    bound2 = _BOUND.replace("lo_word", "lo_word2")
    lead = rf"|user population of\s+{bound2}\s+(?P<d>{_QUANTITY})" if measure == "users" else ""
    return re.compile(
        rf"(?:(?:between|approximately|about|around|from)\s+)?(?P<a>{_QUANTITY})\s*"
        rf"(?:\(\d+\)\s*)?(?:{unit}\s*)?(?:and|to|-|\u2013|through)\s+(?P<b>{_QUANTITY})\s*"
        rf"(?:\(\d+\)\s*)?{unit}\b"
        rf"|{_BOUND}\s+(?P<c>{_QUANTITY})\s*(?:\(\d+\)\s*)?(?:[\w-]+\s+){{0,3}}?{unit}\b" + lead,
        re.I,
    )


_SIZE_PATTERNS = {measure: _size_pattern(measure, unit) for measure, unit in _SIZE_UNITS.items()}
_UPPER_BOUNDS = ("up to", "no more than", "not more than", "a maximum of")
_ABOUT = ("approximately", "about", "around")


def _read_sizes(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    """FTE, user, workforce and period-of-performance bounds stated for references."""
    for s in sentences:
        text = re.sub(r"\s+", " ", s.text)
        taken: list[tuple[int, int]] = []  # one phrase gives one constraint ("user population
        # of at least 2,000 staff" is users, not also employees)
        for measure, pattern in _SIZE_PATTERNS.items():
            if measure == "months" and not re.search(r"periods? of performance", text, re.I):
                continue
            for m in pattern.finditer(text):
                lo = hi = None
                if m.group("a"):
                    lo, hi = _quantity(m.group("a")), _quantity(m.group("b"))
                else:
                    value = _quantity(m.group("c") or m.group("d"))
                    bound = (m.group("lo_word") or m.group("lo_word2") or "").lower()
                    if bound in _UPPER_BOUNDS:
                        hi = value
                    elif bound in _ABOUT:
                        lo = hi = value
                    else:
                        lo = value
                if lo is None and hi is None:
                    continue
                if any(m.start() < end and start < m.end() for start, end in taken):
                    continue
                taken.append((m.start(), m.end()))
                req.sizes.append(
                    SizeConstraint(
                        measure=measure,
                        min=lo,
                        max=hi,
                        preferred=bool(_SIZE_PREFERENCE.search(text)),
                        stated=_stated(s, m.group(0)),
                    )
                )


def _read_relevance(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    """Sentences that say what makes a reference relevant (scope, size, complexity, domain)."""
    seen: set[str] = set()
    for s in sentences:
        if not _RELEVANCE.search(s.text) or _NOT_RELEVANCE.search(s.text):
            continue
        if not _RELEVANCE.search(re.sub(r"\bnot relevant\b", "", s.text, flags=re.I)):
            continue  # "Not Relevant" as a rating only
        if s.text in seen:
            continue
        seen.add(s.text)
        req.relevance.append(_stated(s, _RELEVANCE.search(s.text).group(0)))


# --------------------------------------------------------------------------------------------
# the reader


def pp_sentences(sentences: list[DocumentSentence]) -> list[DocumentSentence]:
    """The past-performance sentences: in a PP / references section or naming references,
    past performance or similar experience, and not about key personnel."""
    return [
        s
        for s in sentences
        if (s.pp or _PP_SENTENCE.search(s.text)) and not _PERSONNEL.search(s.text)
    ]


def find_pp_requirements(
    doc: RfpDocument, sentences: list[DocumentSentence] | None = None
) -> PastPerformanceRequirements:
    """The past-performance requirements stated in ``doc`` (Section L/M and PP sections).

    ``sentences`` may pass ``document_sentences(doc)`` when the caller has it already. Returns
    a ``PastPerformanceRequirements`` whose unset fields mean "not stated"; every set field
    carries the ``Statement`` (phrase, sentence, section) it was read from. Never raises for
    an unusual document.
    """
    sentences = document_sentences(doc) if sentences is None else sentences
    pp = pp_sentences(sentences)
    # recency may also sit in an experience paragraph without "reference" in it:
    # past-performance sentences first; then experience/work sentences whose window follows a
    # completion verb ("engagements ... within the past five years"), never "within 24 months
    # after contract award"
    recency_sentences = pp + [
        s
        for s in sentences
        if s not in pp
        and _WORK_NOUN.search(s.text)
        and _DONE_WINDOW.search(s.text)
        and not _PERSONNEL.search(s.text)
    ]
    req = PastPerformanceRequirements()
    _read_references(pp, req)
    _read_recency(recency_sentences, req)
    _read_value(pp, req)
    _read_customers(pp, req)
    _read_prime(pp, req)
    size_sentences = pp + [
        s
        for s in sentences
        if s not in pp and re.search(r"similar size|similar experience|relevan", s.text, re.I)
    ]
    _read_sizes(size_sentences, req)
    _read_relevance([s for s in pp if s.pp or _PP_STRONG.search(s.text)], req)
    return req
