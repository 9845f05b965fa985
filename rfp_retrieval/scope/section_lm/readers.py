"""Section L/M readers: number of references, recency window, prime-contractor rule, size
other than dollars, relevance criteria (customer types and industries: ``customers``).

Each ``read_*`` reads a list of ``DocumentSentence`` into a ``PastPerformanceRequirements``
(the first sentence that states the item wins, except sizes and relevance, which collect).
"""

from __future__ import annotations

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


def read_references(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    for s in sentences:
        m = _REFS_COUNT.search(s.text)
        if not m:
            continue
        n = word_to_number(m.group("n") or m.group("n2") or m.group("n3") or m.group("n4"))
        if n is None or not 1 <= n <= 20:
            continue
        req.references_required = int(n)
        req.references_stated = stated(s, m.group(0))
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


def read_recency(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
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
            date = fiscal_year_start(fy)
            req.recency = Recency(None, date, applies, False, stated(s, m.group(0)))
            return
        m = _WINDOW.search(text)
        if m:
            n = word_to_number(m.group("n"))
            if n is None or n <= 0 or n > 240:
                continue
            months = int(round(n * 12)) if m.group("unit").lower().startswith("year") else int(n)
            due = bool(_DUE_ANCHOR.search(text))
            req.recency = Recency(months, None, applies, due, stated(s, m.group(0)))
            return
        if not (s.pp or PP_STRONG.search(text)):
            continue  # a fixed start date outside past-performance text is a schedule date
        for sm in _SINCE_DATE.finditer(text):
            dates = find_dates(sm.group("rest"))
            if dates and dates[0][0] <= 2:
                date = dates[0][2]
                phrase = sm.group(0)[: len(sm.group(0)) - len(sm.group("rest")) + dates[0][1]]
                req.recency = Recency(None, date, applies, False, stated(s, phrase))
                return


def read_prime(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
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
        if STRONG_MODAL.search(s.text) or STRONG_MODAL.search(s.lead):
            req.require_prime = stated(s, m.group(0))
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
        req.relevance.append(stated(s, _RELEVANCE.search(s.text).group(0)))
