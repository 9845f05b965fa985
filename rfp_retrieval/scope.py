"""Read the ScopeQuery of an RFP: who issued it, the past-performance filters it states, and
the texts the facet ranking embeds (seed 1: ScopeQuery filters and ranking facets).

``read_scope`` works on an extracted ``RfpDocument`` and reads, sentence by sentence, the
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
from rfp_retrieval.documents.front_matter import find_dates, find_due_date, find_issuer_text
from rfp_retrieval.documents.records import RfpDocument, Section
from rfp_retrieval.documents.summary import prose
from rfp_retrieval.documents.text import (
    COUNT,
    split_sentences,
    strip_inline_markdown,
    word_to_number,
)

APPROX_BAND = (0.5, 2.0)
"""``value_approx`` X becomes the band [0.5 X, 2 X] in ``value_min``/``value_max``: "comparable in
size (approximately $25M)" admits references from $12.5M to $50M. Proposal practice treats a
reference within a factor of two of the target as similar in size."""

NARRATIVE_WORDS = 250
TECHNICAL_WORDS = 400
OUTCOME_WORDS = 150
"""Word caps of the ranking texts (the bundled embedding model reads about 256 tokens)."""

FEDERAL_CIVILIAN = "federal-civilian"
FEDERAL_DEFENSE = "federal-defense"
GOVERNMENT_TYPES = [FEDERAL_CIVILIAN, FEDERAL_DEFENSE, "state", "local"]


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
    require_prime: bool = False
    narrative_text: str = ""
    technical_text: str = ""
    outcome_text: str = ""
    trace: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        """Plain JSON-ready dict of every field."""
        return asdict(self)


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
    r"completed|built|delivered|ongoing)\b|experience in the (?:last|past)",
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
class _Sentence:
    text: str
    section: Section | None
    label: str
    pp: bool  # inside a past-performance / references section
    lead: str = ""  # the list lead-in ("each reference shall:") this sentence completes


def _label(doc: RfpDocument, section: Section | None) -> str:
    if section is None:
        return "(front matter)"
    return " > ".join(doc.section_path(section.key))


def _sentences(doc: RfpDocument) -> list[_Sentence]:
    by_key = {s.key: s for s in doc.sections}
    out: list[_Sentence] = []

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
            out.append(_Sentence(s, None, "(front matter)", False))
    for section in doc.sections:
        pp = in_pp(section)
        label = _label(doc, section)
        lead = ""
        for block in _blocks(section.body):
            is_item = bool(re.match(r"^(?:[-*+•]|\d{1,2}[.)]|\(?[a-z]{1,3}[.)])\s", block))
            text = re.sub(r"^(?:[-*+•]|\d{1,2}[.)]|\(?[a-z]{1,3}[.)])\s+", "", block)
            for s in split_sentences(strip_inline_markdown(text)):
                out.append(_Sentence(s, section, label, pp, lead if is_item else ""))
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
    sentences = _sentences(doc)

    _read_issuer(doc, lines, reading)
    reading.rfp_date = doc.issue_date.isoformat() if doc.issue_date else None

    anchor_issue, anchor_name = _anchor(doc, as_of)
    due = find_due_date(lines)

    pp_sentences = [
        s
        for s in sentences
        if (s.pp or _PP_SENTENCE.search(s.text)) and not _PERSONNEL.search(s.text)
    ]
    # recency may also sit in an experience paragraph without "reference" in it
    # past-performance sentences first; then experience/work sentences whose window follows a
    # completion verb ("engagements ... within the past five years"), never "within 24 months
    # after contract award"
    recency_sentences = pp_sentences + [
        s
        for s in sentences
        if s not in pp_sentences
        and _WORK_NOUN.search(s.text)
        and _DONE_WINDOW.search(s.text)
        and not _PERSONNEL.search(s.text)
    ]

    _read_references(pp_sentences, reading)
    _read_recency(recency_sentences, reading, anchor_issue, anchor_name, due)
    _read_value(pp_sentences, reading)
    _read_customers(pp_sentences, reading)
    _read_prime(pp_sentences, reading)
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


def _trace(reading: ScopeReading, name: str, s: _Sentence, value: object) -> None:
    reading.trace.append({"filter": name, "section": s.label, "sentence": s.text, "reading": value})


_REFS_COUNT = re.compile(
    rf"(?:submit|provide|include|identify|furnish|list)\s+(?:a list of |a minimum of |at least |up "
    rf"to |no more than |not more than |a maximum of |a total of )?(?P<n>{COUNT})\s+"
    r"(?:[\w-]+\s+){0,4}?"
    r"(?:references|past performance|examples|projects|contracts|case studies|summaries|"
    r"questionnaires)"
    rf"|(?:a minimum of |at least |up to |no more than )?(?P<n2>{COUNT})\s+(?:[\w-]+\s+){{0,2}}?"
    r"references\b"
    rf"|(?:a minimum of|at least|up to|no more than|not more than|a maximum of)\s+(?P<n3>{COUNT})"
    r"\s+(?:past performance|case studies|examples of)",
    re.I,
)


def _read_references(sentences: list[_Sentence], reading: ScopeReading) -> None:
    for s in sentences:
        m = _REFS_COUNT.search(s.text)
        if not m:
            continue
        n = word_to_number(m.group("n") or m.group("n2") or m.group("n3"))
        if n is None or not 1 <= n <= 20:
            continue
        reading.references_required = int(n)
        _trace(reading, "references_required", s, int(n))
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


def _read_recency(
    sentences: list[_Sentence],
    reading: ScopeReading,
    anchor: dt.date,
    anchor_name: str,
    due: dt.date | None,
) -> None:
    for s in sentences:
        text = s.text
        started = bool(_STARTED.search(text)) and not re.search(
            r"started earlier|ongoing|performed|completed", text, re.I
        )
        m = _FY.search(text)
        if m:
            fy = int(m.group("fy"))
            fy = fy + 2000 if fy < 100 else fy
            date = dt.date(fy - 1, 10, 1)  # a federal fiscal year starts October 1
            _set_fixed(reading, s, m.group(0), date, started)
            return
        m = _WINDOW.search(text)
        if m:
            n = word_to_number(m.group("n"))
            if n is None or n <= 0 or n > 240:
                continue
            months = int(round(n * 12)) if m.group("unit").lower().startswith("year") else int(n)
            base, base_name = anchor, anchor_name
            if _DUE_ANCHOR.search(text) and due is not None:
                base, base_name = due, "proposal due date"
            date = base - relativedelta(months=months)
            reading.recency_text = m.group(0).strip()
            reading.recency_months = months
            reading.recency_years = months // 12 if months % 12 == 0 else round(months / 12, 2)
            reading.recency_anchor = base_name
            if started:
                reading.started_after = date.isoformat()
            else:
                reading.ended_after = date.isoformat()
            _trace(
                reading,
                "recency",
                s,
                {
                    "months": months,
                    "anchor": base_name,
                    "anchor_date": base.isoformat(),
                    "started_after" if started else "ended_after": date.isoformat(),
                },
            )
            return
        if not (s.pp or _PP_STRONG.search(text)):
            continue  # a fixed start date outside past-performance text is a schedule date
        for sm in _SINCE_DATE.finditer(text):
            dates = find_dates(sm.group("rest"))
            if dates and dates[0][0] <= 2:
                date = dates[0][2]
                phrase = sm.group(0)[: len(sm.group(0)) - len(sm.group("rest")) + dates[0][1]]
                _set_fixed(reading, s, phrase, date, started)
                return


def _set_fixed(
    reading: ScopeReading, s: _Sentence, phrase: str, date: dt.date, started: bool
) -> None:
    reading.recency_text = phrase.strip()
    reading.recency_anchor = "stated date"
    if started:
        reading.started_after = date.isoformat()
    else:
        reading.ended_after = date.isoformat()
    _trace(reading, "recency", s, {"started_after" if started else "ended_after": date.isoformat()})


_VALUE_CONTEXT = re.compile(r"\bvalue|\bvalued|\bsize\b|\bdollar|\$|million|billion", re.I)
_NOT_VALUE = re.compile(
    r"size standard|\bbudget\b|\bpric(?:e|ed|ing)\b|\bfee\b|\bgrants?\b|\bappropriat", re.I
)
_NO_MINIMUM = re.compile(
    r"\bno (?:minimum|maximum) (?:dollar |contract )?(?:value|amount|size)\b", re.I
)


def _read_value(sentences: list[_Sentence], reading: ScopeReading) -> None:
    for s in sentences:
        text = s.text
        if not (s.pp or _PP_STRONG.search(text)):
            continue
        if not _VALUE_CONTEXT.search(text) or _NOT_VALUE.search(text):
            continue
        if _NO_MINIMUM.search(text) and not money_mentions(text):
            _trace(reading, "value", s, "no value constraint")
            return
        found = _value_from(text)
        if found is None:
            continue
        lo, hi, approx, phrase = found
        reading.value_text = phrase
        reading.value_min, reading.value_max, reading.value_approx = lo, hi, approx
        reading.value_basis = (
            "annual"
            if re.search(r"\bannual(?:ly)?\b|per year|each year|a year", text, re.I)
            else "total"
        )
        _trace(
            reading,
            "value",
            s,
            {"min": lo, "max": hi, "approx": approx, "basis": reading.value_basis},
        )
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
        r"considered|considered not|not relevant|not be accepted|ineligible|not eligible)",
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


def _read_customers(sentences: list[_Sentence], reading: ScopeReading) -> None:
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
            _trace(reading, "customer_types", s, "any")
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
        reading.customer_types_required = types
        reading.industries_required = industries
        _trace(reading, "customer_types", s, {"types": types, "industries": industries})
        return


def _read_prime(sentences: list[_Sentence], reading: ScopeReading) -> None:
    for s in sentences:
        if not re.search(
            r"\b(?:performed|served|work(?:ed)?|contracts?) (?:[\w ]{0,30})?as (?:a |the )?"
            r"prime\b",
            s.text,
            re.I,
        ):
            continue
        if re.search(
            r"\bor (?:as )?(?:an? )?(?:major |significant |first-tier )?sub", s.text, re.I
        ):
            continue
        if _STRONG_MODAL.search(s.text) or _STRONG_MODAL.search(s.lead):
            reading.require_prime = True
            _trace(reading, "require_prime", s, True)
            return


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
    r"past performance|instructions|evaluation|proposal|submission|administration|invoic|"
    r"clauses|personnel|pricing|price|schedule of events|format",
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


def _cap_words(text: str, n: int) -> str:
    words = text.split()
    return " ".join(words[:n])


def _ranking_texts(doc: RfpDocument, sentences: list[_Sentence], reading: ScopeReading) -> None:
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

    narrative = [doc.title] + [prose(s.body) for s in background[:2]]
    narrative += [f"{s.heading}. {prose(s.body)}" for s in scope]
    reading.narrative_text = _cap_words(" ".join(p for p in narrative if p), NARRATIVE_WORDS)
    technical = [f"{s.heading}. {prose(s.body)}" for s in scope]
    reading.technical_text = _cap_words(" ".join(technical), TECHNICAL_WORDS)

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
