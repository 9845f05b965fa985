"""Contract value constraints of Section L/M ("$10-30M", "between $30 million and $75 million",
"at least $15 million", "approximately $25M"), read on the past-performance sentences with the
RFP-sentence money dialect of ``rfp_retrieval.quantities.money`` (``money_mentions``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from rfp_retrieval.quantities.money import SentenceAmount, money_mentions, sentence_number
from rfp_retrieval.quantities.numbers import MONEY_NUMBER_WORD
from rfp_retrieval.scope.section_lm.records import (
    APPROX_BAND,
    PastPerformanceRequirements,
    ValueRange,
)
from rfp_retrieval.scope.section_lm.sentences import PP_STRONG, DocumentSentence, stated

_VALUE_CONTEXT = re.compile(r"\bvalue|\bvalued|\bsize\b|\bdollar|\$|million|billion", re.I)
_NOT_VALUE = re.compile(
    r"size standard|\bbudget\b|\bpric(?:e|ed|ing)\b|\bfee\b|\bgrants?\b|\bappropriat", re.I
)
_NO_MINIMUM = re.compile(
    r"\bno (?:minimum|maximum) (?:dollar |contract )?(?:value|amount|size)\b", re.I
)


# the stated amount is a value per year ("an annual value of $1 million or more", "$2 million
# per year"), not a total; "completed within a year" says nothing of the value
_ANNUAL = re.compile(
    r"\bannual(?:ized)? (?:contract |dollar )?(?:value|amount|spend)s?\b|"
    r"\b(?:value|amount|worth)s? (?:per|a|each) year\b|"
    r"\$\s?[\d.,]+(?:\s*(?:million|billion|thousand|mm|[MKB])\b)?\s*(?:per year|a year|each year|"
    r"annually|per annum|/\s?(?:yr|year))\b|\bper annum\b",
    re.I,
)


# an amount in another currency than the dollar ("EUR 5 million", "€5M", "£2.5 million",
# "5 million euros"): the library states USD, and no exchange rate is looked up at run time
_FOREIGN_AMOUNT = re.compile(
    r"(?:\b(?:EUR|GBP|CAD|AUD|CHF|JPY|NZD|SEK|NOK|DKK)\s?|[€£¥])\s?\d[\d.,]*"
    r"(?:\s*(?:million|billion|thousand|mn|bn|[MKB])\b)?|"
    r"\b\d[\d.,]*(?:\s*(?:million|billion|thousand))?\s*(?:euros?|pounds sterling|"
    r"(?:Canadian|Australian) dollars|(?:EUR|GBP|CAD|AUD|CHF)\b)",
    re.I,
)
FOREIGN_NOT_COMPARED = (
    "value stated in a currency other than USD: not compared with the library's USD values "
    "(no exchange rates at run time); check the reference's value by hand"
)
"""The trace's reading of a value bound in a foreign currency (``value_foreign``)."""


RATING_SCALE = re.compile(
    r"(?:^|[;.]\s*)(?:very|highly|somewhat|marginally|moderately|partially|limited|minimally)?"
    r"\s*relevan(?:t|ce)\s*(?:[:–—]|-\s|\(|$)",
    re.I,
)
"""A relevancy rating label ("Very Relevant:", "Somewhat relevant –", a rating-table row's
label): the dollar band it defines grades a reference's relevance (Section M's rating
scale), it is no value a reference must meet. "Not relevant" is not a rating here: a band
rated not relevant is excluded ("below $1M will be considered Not Relevant" is a floor)."""


def _rating_band(s: DocumentSentence) -> bool:
    """True when ``s`` defines a relevancy rating (its text or its table-row label starts
    with a rating label other than "not relevant")."""
    return any(RATING_SCALE.search(t) for t in (s.text, s.lead) if t)


def read_value(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    """Set ``req.value`` from the past-performance sentences stating a USD value bound (or
    ``no_value_constraint``). A bound stated only in another currency sets ``value_foreign``
    (the first such sentence; ``FOREIGN_NOT_COMPARED``) and the search goes on for a USD one.

    Rule for several value sentences (``VALUE_CONFLICT_RULE``): the first sentence's bound is
    applied; a later sentence stating only the other side ("at least $5M" ... "contracts above
    $100M will not be considered") completes it when the two agree; a later bound the first
    band cannot meet ("at least $10M" ... "not more than $5M") is not applied and
    ``ValueRange.conflict`` names both for the writer, as does a band stated with its ends
    reversed ("between $10M and $1M", read as $1M to $10M). A sentence defining a relevancy
    rating (``RATING_SCALE``: "Very relevant: over $20M ... Somewhat relevant: under $5M")
    grades references and is no value bound.
    """
    found: list[tuple[DocumentSentence, _Bounds]] = []
    for s in sentences:
        text = s.text
        if not (s.pp or PP_STRONG.search(text)) or _rating_band(s):
            continue
        if not _VALUE_CONTEXT.search(text) or _NOT_VALUE.search(text):
            continue
        if _NO_MINIMUM.search(text) and not money_mentions(text):
            if not found:
                req.no_value_constraint = stated(s, _NO_MINIMUM.search(text).group(0))
                return
            continue
        foreign = _FOREIGN_AMOUNT.search(text)
        if foreign is not None and not money_mentions(text):
            if req.value_foreign is None:
                req.value_foreign = stated(s, foreign.group(0))
            continue
        bounds = _value_from(text)
        if bounds is not None:
            found.append((s, bounds))
    if not found:
        return
    s, first = found[0]
    basis = "annual" if _ANNUAL.search(s.text) else "total"
    value = ValueRange(
        first.lo,
        first.hi,
        first.approx,
        basis,
        stated(s, first.phrase),
        first.lo_inclusive,
        first.hi_inclusive,
        first.conflict,
    )
    for later_s, later in found[1:]:
        later_basis = "annual" if _ANNUAL.search(later_s.text) else "total"
        if later_basis != basis:
            continue
        low = value.min if value.min is not None else 0
        if (later.lo is not None and value.max is not None and later.lo > value.max) or (
            later.hi is not None and later.hi < low
        ):
            note = (
                f"the RFP's value statements contradict each other: '{value.stated.text}' "
                f"({value.stated.section}) and '{later.phrase}' ({later_s.label}); the first "
                "is applied, the other is not; ask the contracting officer which one counts"
            )
            value.conflict = note if value.conflict is None else f"{value.conflict}; {note}"
            continue
        if value.approx is not None or later.approx is not None:
            continue
        only_floor = later.lo is not None and later.hi is None
        only_ceiling = later.hi is not None and later.lo is None
        if value.min is None and value.max is not None and only_floor:
            value.min, value.min_inclusive = later.lo, later.lo_inclusive
        elif value.max is None and value.min is not None and only_ceiling:
            value.max, value.max_inclusive = later.hi, later.hi_inclusive
        else:
            continue
        # the band is stated by both sentences: the trace quotes both
        value.stated = replace(
            value.stated,
            text=f"{value.stated.text}; {later.phrase}",
            sentence=f"{value.stated.sentence} {later_s.text}",
        )
    req.value = value


VALUE_CONFLICT_RULE = (
    "the first value statement of the past-performance text is applied; a later one stating "
    "the other side completes it; a later one it contradicts is not applied and is shown to "
    "the writer"
)
"""The rule ``read_value`` applies when an RFP states more than one value bound."""


@dataclass
class _Bounds:
    """A value bound read from one sentence (USD); ``*_inclusive`` as in ``ValueRange``."""

    lo: int | None
    hi: int | None
    approx: int | None
    phrase: str
    lo_inclusive: bool = True
    hi_inclusive: bool = True
    conflict: str | None = None


# Bound words before an amount ("a minimum value of $6 million", "should not exceed $5
# million"); the filler between the bound word and the amount is short ("of", "a total of").
_FILLER = r"(?:\s+(?:of|a|an|the|total|contract|dollar|value|values|amount|size|in|each))*"
_LOWER_INCLUSIVE = (
    r"at least|no less than|not less than|no smaller than|not smaller than|no lower than|"
    r"not lower than|not under|not below|no fewer than|a minimum|minimum|a floor of|starting at"
)
_LOWER_STRICT = r"greater than|more than|exceeding|in excess of|over|upwards of|above"
_UPPER_INCLUSIVE = (
    r"no more than|not more than|no greater than|not greater than|no larger than|"
    r"not larger than|not over|not above|not to exceed|not exceeding|(?:should|must|shall|may|"
    r"will|can|does|do|cannot) not exceed|cannot exceed|a maximum|maximum|a ceiling of|at most|"
    r"up to"
)
_UPPER_STRICT = r"less than|below|under"
LOWER_WORDS = f"{_LOWER_INCLUSIVE}|{_LOWER_STRICT}"
UPPER_WORDS = f"{_UPPER_INCLUSIVE}|{_UPPER_STRICT}"
_LOWER_BEFORE = re.compile(rf"\b(?:{LOWER_WORDS}){_FILLER}\s*$", re.I)
_UPPER_BEFORE = re.compile(rf"\b(?:{UPPER_WORDS}){_FILLER}\s*$", re.I)
_STRICT_START = re.compile(rf"(?:{_LOWER_STRICT}|{_UPPER_STRICT})\b", re.I)
_LOWER_AFTER = re.compile(
    r"^\s*(?:or (?:more|greater|above|higher|larger)|and (?:above|up)|"
    r"minimum\b)",
    re.I,
)
_UPPER_AFTER = re.compile(
    r"^\s*(?:or (?:less|lower|below|smaller)|and (?:below|under)|"
    r"maximum\b)",
    re.I,
)
_APPROX_BEFORE = re.compile(
    r"(?:approximately|approx\.?|about|around|roughly|circa|~|on the order of|comparable|"
    r"similar|in the neighborhood of)[^<]{0,40}$",
    re.I,
)
# The amount is what the RFP turns away ("References valued under $1M will not be evaluated",
# "Contracts of $500K or less will not be considered", "below $500,000 are not acceptable"):
# the bound read on it is flipped, a ceiling of what is excluded being a floor of what counts.
_EXCLUDED = re.compile(
    r"^[^.;<]{0,80}?\b(?:(?:will|shall|would|may|can) not be (?:considered|evaluated|accepted|"
    r"counted|scored|reviewed|rated|credited|deemed relevant)|(?:is|are) not (?:considered|"
    r"acceptable|accepted|eligible|relevant|evaluated|counted)|not (?:be )?considered|"
    r"(?:considered|deemed|rated) (?:as )?(?:not relevant|irrelevant|non-?relevant)|"
    r"ineligible|not eligible|(?:do|does|will) not (?:qualify|count)|(?:will be|are|is) "
    r"(?:excluded|rejected|disqualified)|(?:will )?receive no (?:credit|consideration))"
    r"(?: relevant)?",
    re.I,
)
# "References that do not meet a minimum of $1M will not be considered": a negated subject
# states the accepted bound itself (no flip)
_NEGATED_SUBJECT = re.compile(r"\b(?:not|fail(?:s|ing)? to|without|lacking)\b[^.;<]*$", re.I)


def _bound_before(before: str) -> tuple[str, bool, int] | None:
    """("lo" | "hi", inclusive, start) for the bound words that end ``before``; the longer
    phrase wins, so "no less than" is a floor although "less than" is a ceiling, and "not
    exceeding" a ceiling although "exceeding" is a floor. "more than" / "less than" (and
    "over", "above", "under", "below") are strict: the bound amount itself does not meet it."""
    lo, hi = _LOWER_BEFORE.search(before), _UPPER_BEFORE.search(before)
    if lo and hi:
        m, side = (lo, "lo") if lo.start() < hi.start() else (hi, "hi")
    elif lo or hi:
        m, side = (lo, "lo") if lo else (hi, "hi")
    else:
        return None
    strict = bool(_STRICT_START.match(m.group(0)))
    return side, not strict, m.start()


def _distinct(text: str, mentions: list[SentenceAmount]) -> list[SentenceAmount]:
    """Drop an amount restated in figures right after its words ("two million dollars
    ($2,000,000)")."""
    out: list[SentenceAmount] = []
    for mm in mentions:
        if out:
            prev = out[-1]
            between = text[prev.end : mm.start]
            if (
                mm.value == prev.value
                and mm.upper == prev.upper
                and re.fullmatch(r"\s*\(\s*", between)
            ):
                continue
        out.append(mm)
    return out


def _reversed(lo: int, hi: int, phrase: str) -> _Bounds:
    """A band stated with its ends in reverse order, read from the lower to the higher."""
    return _Bounds(
        hi,
        lo,
        None,
        phrase,
        conflict=(
            f"the RFP states the value band '{phrase}' with its ends in reverse order; it is "
            f"read as {_usd(hi)} to {_usd(lo)}; ask the contracting officer to confirm"
        ),
    )


def _usd(value: int) -> str:
    return f"${value / 1_000_000:,.1f}M" if value >= 1_000_000 else f"${value:,}"


def _value_from(text: str) -> _Bounds | None:
    """The value bound stated in one sentence, or None when it states no value.

    Read in this order: "between ten and thirty million dollars"; a range ("$3 million to $10
    million", "from $3 million up to $10 million", "$10-30M"; ends in reverse order are swapped
    with a ``conflict`` note); bound words before or after each amount (``LOWER_WORDS`` /
    ``UPPER_WORDS``, "$5 million or more"), flipped when the sentence turns the amount away
    ("under $1M will not be evaluated" is an inclusive floor, "$500K or less will not be
    considered" a strict one: ``_EXCLUDED``); an approximate size ("approximately $25M", the
    band ``APPROX_BAND``). A floor and a ceiling in one sentence make one range; a floor above
    the ceiling keeps the first stated and notes the ``conflict``.
    """
    mentions = _distinct(text, money_mentions(text))
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
    shaped = re.sub(r"\( ?(<\d+>) ?\)", r"\1", shaped)

    def amount(i: str | int) -> SentenceAmount:
        return mentions[int(i)]

    def phrase(*idx: str | int) -> str:
        ms = [amount(i) for i in idx]
        return text[min(m.start for m in ms) : max(m.end for m in ms)].strip()

    m = re.search(
        r"between (?P<a>\$?\s?\d[\d,.]*|" + MONEY_NUMBER_WORD + r") and <(?P<b>\d+)>", shaped, re.I
    )
    if m:  # "between ten and thirty million dollars": the first end borrows the scale
        b = amount(m.group("b"))
        first = sentence_number(m.group("a").replace("$", "").strip())
        if first is not None:
            scale = 1
            for s in (1_000_000_000, 1_000_000, 1_000):
                if b.value >= s and first < 1000:
                    scale = s
                    break
            lo, hi = int(first * scale), b.value
            said = _restore(m.group(0), mentions, text)
            return _reversed(lo, hi, said) if lo > hi else _Bounds(lo, hi, None, said)
    m = re.search(
        r"<(\d+)> ?(?:-|\u2013|\u2014|to|through|thru|up to|and up to|and) ?<(\d+)>", shaped, re.I
    )
    if m:
        lo, hi = amount(m.group(1)).value, amount(m.group(2)).value
        said = phrase(*m.groups())
        return _reversed(lo, hi, said) if lo > hi else _Bounds(lo, hi, None, said)
    for mm in mentions:
        if mm.upper is not None:
            return _Bounds(mm.value, mm.upper, None, text[mm.start : mm.end].strip())
    found: dict[str, tuple[int, bool, int]] = {}  # side -> (amount index, inclusive, order)
    excluded_end: int | None = None
    flipped: set[str] = set()
    conflict: str | None = None
    for i in range(len(mentions)):
        token = f"<{i}>"
        at = shaped.index(token)
        before, after = shaped[:at], shaped[at + len(token) :]
        read = _bound_before(before)
        start = read[2] if read else at
        if read is None:
            if _UPPER_AFTER.search(after):
                read = ("hi", True, at)
            elif _LOWER_AFTER.search(after):
                read = ("lo", True, at)
        if read is None:
            continue
        side, inclusive = read[0], read[1]
        ex = _EXCLUDED.search(after)
        clause = re.split(r"[.;]", before[:start])[-1]
        turned_away = ex is not None and not _NEGATED_SUBJECT.search(clause)
        if turned_away:
            side, inclusive = ("lo" if side == "hi" else "hi"), not inclusive
        if side in found:
            if not turned_away or side in flipped:
                continue
            # "at least $15 million; efforts below $15 million will be considered Not
            # Relevant": the exclusion is the rule the evaluators apply, it is the one read
            del found[side]
        if turned_away:
            flipped.add(side)
            excluded_end = max(excluded_end or 0, at + len(token) + ex.end())
        other = found.get("hi" if side == "lo" else "lo")
        if other is not None:
            lo_i, hi_i = (i, other[0]) if side == "lo" else (other[0], i)
            if amount(lo_i).value > amount(hi_i).value:
                first_i = other[0]
                conflict = (
                    f"the RFP states a value floor above its ceiling in one sentence "
                    f"('{text.strip()[:200]}'); the first bound stated "
                    f"({text[amount(first_i).start : amount(first_i).end].strip()}) is applied; "
                    "ask the contracting officer which one counts"
                )
                continue
        found[side] = (i, inclusive, len(found))
    if found:
        lo_r, hi_r = found.get("lo"), found.get("hi")
        used = [r[0] for r in found.values()]
        said = _bound_phrase(text, mentions, used, shaped, excluded_end)
        return _Bounds(
            amount(lo_r[0]).value if lo_r else None,
            amount(hi_r[0]).value if hi_r else None,
            None,
            said,
            lo_r[1] if lo_r else True,
            hi_r[1] if hi_r else True,
            conflict,
        )
    for i in range(len(mentions)):
        at = shaped.index(f"<{i}>")
        if _APPROX_BEFORE.search(shaped[:at]):
            x = amount(i).value
            lo, hi = int(x * APPROX_BAND[0]), int(x * APPROX_BAND[1])
            m = _APPROX_BEFORE.search(shaped[:at])
            return _Bounds(
                lo, hi, x, _restore(shaped[m.start() : at + len(f"<{i}>")], mentions, text)
            )
    return None


def _bound_phrase(
    text: str,
    mentions: list[SentenceAmount],
    used: list[int],
    shaped: str,
    end_at: int | None = None,
) -> str:
    """The words of the sentence from the first bound word to the last amount used (or to
    ``end_at`` in ``shaped``, the end of the words turning the amount away)."""
    first, last = min(used), max(used)
    start_tok, end_tok = shaped.index(f"<{first}>"), shaped.index(f"<{last}>") + len(f"<{last}>")
    before = shaped[:start_tok]
    m = _LOWER_BEFORE.search(before) or _UPPER_BEFORE.search(before)
    start = m.start() if m else start_tok
    after = shaped[end_tok:]
    m2 = _LOWER_AFTER.search(after) or _UPPER_AFTER.search(after)
    end = end_tok + (m2.end() if m2 else 0)
    if end_at is not None:
        end = max(end, end_at)
    return _restore(shaped[start:end], mentions, text)


def _restore(shaped: str, mentions: list[SentenceAmount], text: str) -> str:
    return re.sub(
        r"\s?<(\d+)>\s?",
        lambda m: (
            " "
            + text[mentions[int(m.group(1))].start : mentions[int(m.group(1))].end].strip()
            + " "
        ),
        shaped,
    ).strip()
