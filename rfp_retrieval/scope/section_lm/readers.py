"""Section L/M readers: number of references, recency window, prime-contractor rule, size
other than dollars, relevance criteria (customer types and industries: ``customers``).

Each ``read_*`` reads a list of ``DocumentSentence`` into a ``PastPerformanceRequirements``
(the first sentence that states the item wins, except sizes and relevance, which collect).
"""

from __future__ import annotations

import datetime as dt
import re

from rfp_retrieval.quantities.dates import find_dates, fiscal_year_start
from rfp_retrieval.quantities.numbers import COUNT, word_to_number
from rfp_retrieval.scope.section_lm.records import (
    PastPerformanceRequirements,
    Recency,
    SizeConstraint,
)
from rfp_retrieval.scope.section_lm.sentences import (
    PP_STRONG,
    STRONG_MODAL,
    DocumentSentence,
    stated,
)

_REFS_COUNT = re.compile(
    r"\b(?:submit|provide|include|identify|furnish|list|name|describe|present|cite|highlight)\s+"
    r"(?:a list of |a minimum of |"
    rf"at least |up to |no more than |not more than |a maximum of |a total of )?\b(?P<n>{COUNT})\s+"
    r"(?:[\w-]+\s+){0,4}?"
    r"(?:references|past performance|examples|projects|contracts|case studies|summaries|"
    r"questionnaires|clients|customers)"
    rf"|\b(?:references?|samples?|examples?)\s+(?:for|from|on)\s+(?:at least\s+|a minimum of\s+)?"
    rf"\b(?P<n5>{COUNT})\s+(?:[\w-]+\s+){{0,2}}?(?:contracts|"
    r"projects|efforts|engagements|clients|customers)\b"
    rf"|(?:a minimum of |at least |up to |no more than )?\b(?P<n2>{COUNT})\s+(?:[\w-]+\s+){{0,2}}?"
    r"references\b"
    # not "samples": "references to one or more source code samples" counts work samples, not
    # past-performance references
    rf"|\b(?P<n6>{COUNT})\s+or more\s+(?:[\w-]+\s+){{0,3}}?(?:references|examples|projects|"
    r"case studies)\b"
    rf"|(?:a minimum of|at least|up to|no more than|not more than|a maximum of)\s+\b(?P<n3>{COUNT})"
    r"\s+(?:past performance|case studies|examples of)"
    rf"|\b(?:on|in|from)\s+(?P<n4>{COUNT})\s+(?:similar |relevant |recent )?(?:projects|contracts|"
    r"efforts|engagements)\s+(?:of|with)\s+similar\b",
    re.I,
)


_REF_NOUN = (
    r"(?:past performance |client |customer |project |contract )?(?:references|examples|projects|"
    r"contracts|case studies|summaries|questionnaires|efforts|engagements)\b"
)
# "two (2) to three (3) references", "between two and four references", "at least 2 but no
# more than 3 projects", "a minimum of two and a maximum of five references"
_REFS_RANGE = re.compile(
    rf"(?:between\s+|from\s+|no fewer than\s+|not fewer than\s+|at least\s+|a minimum of\s+)?"
    rf"\b(?P<lo>{COUNT})\s*(?:-|\u2013|to|and|or|but)\s*(?:no more than\s+|not more than\s+|"
    rf"a maximum of\s+|up to\s+|at most\s+)?\b(?P<hi>{COUNT})\s+(?:[\w-]+\s+){{0,2}}?{_REF_NOUN}",
    re.I,
)
_AT_MOST = re.compile(
    r"\b(?:up to|no more than|not more than|a maximum of|at most|not to exceed)\s", re.I
)
"""A single count stated as a ceiling ("up to five (5) references"): the RFP accepts at most
that many (``references_max``)."""
_NOT_A_REFERENCE_COUNT = re.compile(
    r"\b(?:pages?|copies|days|years?|months?|hours?|minutes?|words?|characters?|points?|"
    r"percent|inches|MB|GB|volumes?)\b",
    re.I,
)


def read_references(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    """Set the number of references from the first sentence that states one.

    "submit three (3) past performance references"; "up to five (5) references" is five, and
    five at most (``references_max``, ``_AT_MOST``); a
    range ("two (2) to three (3) references", "at least 2 but no more than 3 projects") sets
    ``references_required`` to its lower end (what the RFP requires) and ``references_max`` to
    its upper end (what it accepts). A number followed by pages, copies, days or years within
    the phrase is not a count of references ("submit eight (8) pages per reference").
    """
    for s in sentences:
        m = _REFS_RANGE.search(s.text)
        if m and not _NOT_A_REFERENCE_COUNT.search(m.group(0)):
            lo, hi = word_to_number(m.group("lo")), word_to_number(m.group("hi"))
            if lo is not None and hi is not None and 1 <= lo < hi <= 20:
                req.references_required, req.references_max = int(lo), int(hi)
                req.references_stated = stated(s, m.group(0))
                return
        for m in _REFS_COUNT.finditer(s.text):
            if _NOT_A_REFERENCE_COUNT.search(m.group(0)):
                continue
            n = word_to_number(
                m.group("n")
                or m.group("n2")
                or m.group("n3")
                or m.group("n4")
                or m.group("n5")
                or m.group("n6")
            )
            if n is None or not 1 <= n <= 20 or n != int(n):
                continue
            req.references_required = int(n)
            if _AT_MOST.search(m.group(0)):
                req.references_max = int(n)
            req.references_stated = stated(s, m.group(0))
            return


_FY = re.compile(
    r"\b(?:since|on or after|in or after|from)\s+(?:the\s+)?(?:federal\s+)?(?:FY\s?|fiscal year\s+)"
    r"(?P<fy>\d{4}|\d{2})\b|"
    r"\b(?:FY\s?|fiscal year\s+)(?P<fy2>\d{4}|\d{2})\s+or\s+(?:later|after|more recent)\b",
    re.I,
)
# "since <date>", "on or after <date>", "at any point after <date>" (the day after)
_SINCE_DATE = re.compile(
    r"\b(?P<word>since|on or after|no earlier than|not earlier than|after|later than)\s+"
    r"(?P<rest>.{6,40})",
    re.I,
)
_WINDOW = re.compile(
    rf"(?P<verb>(?:performed|completed|delivered|active|ongoing|built|awarded|started|ended|"
    rf"closed|went live|contracted)\s+)?"
    rf"(?:(?:within|in|during|over|no more than|not more than|not be more than|less than|"
    rf"no longer than|no earlier than)\s+(?:the\s+)?(?:last|past|preceding|previous|prior|"
    rf"most recent)?|"
    # "references from the last 3 years", "covering the past five years": the counted-back word
    # is needed after these
    rf"(?:from|covering|spanning|dating from)\s+(?:the\s+)?(?:last|past|preceding|previous|"
    rf"prior|most recent)|"
    rf"(?:no|not|none) older than(?:\s+the)?)"
    rf"\s*(?P<n>{COUNT})\s*(?:\(\d+\)\s*)?(?:calendar\s+|fiscal\s+|full\s+)?"
    rf"(?P<unit>years?|months?)\b",
    re.I,
)
# "no more than 36 months before ..." is a window only when it counts back from a date
_BOUND_NEEDS_ANCHOR = re.compile(
    r"^(?:no more than|not more than|not be more than|less than|no longer than)", re.I
)
# ... or says the work's age ("not more than five years old")
_BACK_FROM = re.compile(r"^\s*(?:before|prior to|preceding|ago|of|from|old)\b", re.I)
_STARTED = re.compile(
    r"\b(?:started|begun|began|awarded|commenced|start date|contracted|signed|executed)\b", re.I
)
_DUE_ANCHOR = re.compile(
    r"\b(?:proposal|quotation|quote|response|offer)s?\s+(?:due|submission|closing)\s+date\b|"
    r"\bdue date\b|\bclosing date\b|\bdate (?:proposals|quotes|quotations) are due\b",
    re.I,
)


def _window(text: str) -> re.Match[str] | None:
    """The first recency window of ``text`` ("within the last five (5) years", "no more than
    thirty-six (36) months before the issue date")."""
    for m in _WINDOW.finditer(text):
        bound = re.sub(r"^\S+\s+", "", m.group(0)) if m.group("verb") else m.group(0)
        if _BOUND_NEEDS_ANCHOR.match(bound) and not _BACK_FROM.match(text[m.end() :]):
            continue  # "no more than 12 months long" is a duration, not a window
        return m
    return None


def _since(text: str) -> tuple[dt.date, str] | None:
    """The fixed date a window starts on, with its phrase: "since January 1, 2022",
    "on or after October 1, 2022", "at any point after June 30, 2024" (July 1, 2024)."""
    for sm in _SINCE_DATE.finditer(text):
        dates = find_dates(sm.group("rest"))
        if dates and dates[0][0] <= 2:
            date = dates[0][2]
            if sm.group("word").lower() in ("after", "later than"):
                date = date + dt.timedelta(days=1)
            phrase = sm.group(0)[: len(sm.group(0)) - len(sm.group("rest")) + dates[0][1]]
            return date, phrase
    return None


# A window stated as an exclusion, the other way round from "within the last five years":
# "Projects older than five years will not be considered", "Work completed more than three
# years before the proposal due date will not be considered", "References for projects
# completed before January 1, 2022 will not be accepted" (new-user trial: none was read)
_EXCLUSION = re.compile(
    r"\b(?:will|shall|may|must|can|are|is)\s+not\s+be\s+(?:considered|accepted|evaluated|"
    r"acceptable|counted|scored|eligible|allowed)\b|\bcannot be (?:considered|accepted|used)\b|"
    r"\b(?:are|is)\s+(?:not\s+(?:acceptable|eligible)|ineligible)\b",
    re.I,
)
_OLDER = re.compile(
    rf"\b(?:(?P<older>older|earlier) than|more than|over)\s+(?P<n>{COUNT})\s*(?:\(\d+\)\s*)?"
    rf"(?:calendar\s+|fiscal\s+|full\s+)?(?P<unit>years?|months?)"
    rf"(?P<back>\s+(?:old|ago|before|prior to|preceding|earlier than|from)\b)?",
    re.I,
)
_BEFORE_DATE = re.compile(r"\b(?:before|prior to|earlier than)\s+(?P<rest>.{6,40})", re.I)


def _excluded_window(text: str) -> tuple[int | None, dt.date | None, str] | None:
    """The recency window an exclusion sentence states (``_EXCLUSION``): (months, None,
    phrase) for an age ("older than five years", "more than three (3) years ago / before the
    due date"), (None, cut-off date, phrase) for a date ("completed before January 1, 2022":
    the work must end on or after it); None when the sentence excludes something else. An
    age needs "older/earlier than" or a counted-back word after its unit ("more than 5 years
    of experience" is no window)."""
    if not _EXCLUSION.search(text):
        return None
    for m in _OLDER.finditer(text):
        if not (m.group("older") or m.group("back")):
            continue
        n = word_to_number(m.group("n"))
        if n is None or n <= 0 or n > 240:
            continue
        months = int(round(n * 12)) if m.group("unit").lower().startswith("year") else int(n)
        return months, None, m.group(0)
    for m in _BEFORE_DATE.finditer(text):
        dates = find_dates(m.group("rest"))
        if dates and dates[0][0] <= 2:
            phrase = m.group(0)[: len(m.group(0)) - len(m.group("rest")) + dates[0][1]]
            return None, dates[0][2], phrase
    return None


def read_recency(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    """Set ``req.recency`` from the first sentence that states a window.

    Read in this order: a stated calendar date ("on or after October 1, 2022", "after June 30,
    2024" = July 1, 2024), a federal fiscal year ("since FY2021", "Fiscal Year 2023 or later" =
    the October 1 it starts), a window counted back ("within the last five (5) years", "no
    more than 36 months before the issue date"), first of all the same stated as an exclusion
    in past-performance text ("older than five years will not be considered", "completed
    before January 1, 2022 will not be accepted": ``_excluded_window``). A fixed date counts
    only in past-performance text (elsewhere it is a schedule date). The window applies to the
    start of work when the sentence says "awarded", "contracted" or "started" and not
    "performed", "completed" or "ongoing" (source: how Section L states recency; FAR
    15.305(a)(2)).
    """
    for s in sentences:
        text = s.text
        started = bool(_STARTED.search(text)) and not re.search(
            r"started earlier|ongoing|performed|completed|under ?way|in progress", text, re.I
        )
        applies = "started" if started else "ended"
        in_pp = s.pp or PP_STRONG.search(text)
        window = _excluded_window(text) if in_pp else None
        if window is not None:
            months, date, phrase = window
            due = months is not None and bool(_DUE_ANCHOR.search(text))
            req.recency = Recency(months, date, applies, due, stated(s, phrase))
            return
        since = _since(text) if in_pp else None
        if since is not None:
            req.recency = Recency(None, since[0], applies, False, stated(s, since[1]))
            return
        m = _FY.search(text)
        if m:
            fy = int(m.group("fy") or m.group("fy2"))
            fy = fy + 2000 if fy < 100 else fy
            date = fiscal_year_start(fy)
            req.recency = Recency(None, date, applies, False, stated(s, m.group(0)))
            return
        m = _window(text)
        if m:
            n = word_to_number(m.group("n"))
            if n is None or n <= 0 or n > 240:
                continue
            months = int(round(n * 12)) if m.group("unit").lower().startswith("year") else int(n)
            due = bool(_DUE_ANCHOR.search(text))
            req.recency = Recency(months, None, applies, due, stated(s, m.group(0)))
            return


# "At least one of the three examples must be an engagement in which the Offeror held the
# prime contract": a rule on the set of references, not on each one
_PRIME_IN_SET = re.compile(rf"\bat least (?:one|{COUNT}|\d+)\b(?:[^.;]{{0,120}}?)\bprime\b", re.I)


# "References for work performed as a subcontractor will not be considered": every reference
# must be prime work, said the other way round
_SUB_EXCLUDED = re.compile(
    r"\b(?:performed|served|work(?:ed)?|contracts?|efforts?|references?)\b[^.;]{0,40}?"
    r"\bas (?:a |an |the )?sub-?contractors?\b[^.;]{0,40}?\b(?:will|shall|may|must|are|is) not be "
    r"(?:considered|accepted|evaluated|acceptable|allowed|counted)|"
    r"\bsub-?contract(?:or)? (?:work|references|experience|efforts?) (?:will|shall|may|are|is) "
    r"not (?:be )?(?:considered|accepted|evaluated|acceptable|allowed|counted)|"
    # "Offerors shall not submit references for work performed as a subcontractor"
    r"\b(?:shall|must|should|may|will|do) not (?:submit|include|provide|propose|offer|use|cite)\b"
    r"[^.;]{0,60}?\bas (?:a |an |the )?sub-?contractors?\b",
    re.I,
)


def read_prime(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    """Set ``req.require_prime`` when every reference must be prime work, with a strong
    modal ("performed as prime", "the Offeror must have been the prime contractor"; "work
    performed as a subcontractor will not be considered"), or ``req.prime_in_set`` when the
    RFP asks for at least some of them as prime ("at least one of the three ... as prime": a
    rule on the set)."""
    for s in sentences:
        if req.prime_in_set is None and (s.pp or PP_STRONG.search(s.text)):
            found = _PRIME_IN_SET.search(s.text)
            if found and not re.search(r"\bor (?:as )?(?:an? )?sub", found.group(0), re.I):
                req.prime_in_set = stated(s, found.group(0))
                continue
        m = re.search(
            r"\b(?:performed|served|work(?:ed)?|contracts?) (?:[\w ]{0,30})?as (?:a |the )?"
            r"prime\b|\b(?:have been|be|was|were|is|are) (?:a |the )?prime(?: contractor)?\b",
            s.text,
            re.I,
        )
        excluded = _SUB_EXCLUDED.search(s.text)
        if excluded and (s.pp or PP_STRONG.search(s.text)):
            req.require_prime = stated(s, excluded.group(0))
            return
        if not m:
            continue
        if re.search(
            r"\bor (?:as )?(?:an? )?(?:major |significant |first-tier )?sub", s.text, re.I
        ):
            continue
        if STRONG_MODAL.search(s.text) or STRONG_MODAL.search(s.lead):
            req.require_prime = stated(s, m.group(0))
            return


_ONGOING_MIN = re.compile(
    r"\b(?:in progress|ongoing|on-going|current|active|not (?:yet )?(?:been )?complete[d]?)\b"
    rf"[^.;]{{0,80}}?\b(?:at least|a minimum of|minimum of|no less than|not less than)\s+"
    rf"(?P<n>{COUNT})\s*(?:\(\d+\)\s*)?(?:full\s+)?(?P<unit>years?|months?)\b"
    r"(?:\s+of)?[^.;]{0,30}?\b(?:performed|performance|completed|complete)\b",
    re.I,
)


def read_ongoing_minimum(
    sentences: list[DocumentSentence], req: PastPerformanceRequirements
) -> None:
    """Set ``req.ongoing_min_months`` when work still in progress counts only after a
    minimum performed duration ("Work still in progress counts if at least one year has been
    performed": 12). The first sentence stating it wins; completed work is not affected.

    Rule (proposal practice): an ongoing contract is past performance once enough of it has
    been performed to be assessed, so it must have started that long before the RFP's date.
    """
    for s in sentences:
        m = _ONGOING_MIN.search(s.text)
        if not m:
            continue
        n = word_to_number(m.group("n"))
        if not n:
            continue
        req.ongoing_min_months = int(n) * (12 if m.group("unit").lower().startswith("y") else 1)
        req.ongoing_min_stated = stated(s, m.group(0))
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
_DID_WORK = (
    r"(?:implemented|delivered|built|deployed|performed|provided|supported|developed|operated|"
    r"managed|modernized|migrated|designed|installed|configured)"
)
_RELEVANCE = re.compile(
    r"\brelevan(?:t|ce|cy)\b|\bsimilar (?:in|to the) (?:size|scope|complexity)|"
    r"\bsimilar size\b|\bsize, scope,? and complexity\b|\bscope and complexity\b|"
    # the work each reference must show, without the word "relevant": "clients for whom you
    # have implemented a customer service CRM", "projects in which the offeror deployed ...",
    # "references must demonstrate experience implementing ..."
    rf"\bfor whom (?:you|we|the (?:offeror|contractor|vendor|proposer|respondent)|your "
    rf"(?:firm|company|team))\s+(?:have |has |had )?{_DID_WORK}\b|"
    rf"\b(?:in|on|under) which (?:you|the (?:offeror|contractor|vendor|proposer|respondent))\s+"
    rf"(?:have |has |had )?{_DID_WORK}\b|"
    r"\b(?:references?|projects?|contracts?|examples?|engagements?)\s+(?:must|shall|should)\s+"
    r"(?:each\s+)?(?:demonstrate|involve|include|show|describe)\s+(?:experience\s+)?(?:in\s+|with\s+)?"
    r"(?:implementing|delivering|building|deploying|operating|modernizing|migrating|the "
    r"(?:implementation|delivery|deployment|operation))\b",
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


def read_sizes(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
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
                        stated=stated(s, m.group(0)),
                    )
                )


def read_relevance(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    """Sentences that say what makes a reference relevant (scope, size, complexity, domain),
    with or without the word: "similar in size and scope", "clients for whom you have
    implemented a customer service CRM", "projects in which the offeror deployed ..."."""
    seen: set[str] = set()
    for s in sentences:
        if not _RELEVANCE.search(s.text) or _NOT_RELEVANCE.search(s.text):
            continue
        if not _RELEVANCE.search(re.sub(r"\bnot relevant\b", "", s.text, flags=re.I)):
            continue  # "Not Relevant" as a rating only
        if s.text in seen:
            continue
        seen.add(s.text)
        req.relevance.append(stated(s, _RELEVANCE.search(s.text).group(0)))
